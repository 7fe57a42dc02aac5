//! Hidden information that a mod's own words give away.
//!
//! The engine never puts a hidden card into a seat's view: a zone shows a seat only the cards
//! its visibility allows. What the engine cannot hide is what the rules write themselves: an
//! action's label (`describe`), a log line, a variable or a piece's property made public. A
//! `describe` that names the card a rival will draw next, for everyone, is a leak no view
//! filter can catch.
//!
//! [`first_leak`] plays seeded games with random players and, after every action and for
//! every seat and a spectator, searches what that viewer is shown (its label for the action,
//! the log lines the action wrote that it may read, and its view: variables, properties,
//! zones) for the ids, names and texts of the cards hidden from it and the values of the
//! variables hidden from it ([`secrets_for`]): in the label and the log lines, what was hidden
//! both before the action and after it (the action may name a card it plays from a hand, or
//! one everyone saw go under a stack); in the view, what is hidden after it. A word counts only while nothing the viewer may
//! see carries it too (a card's name is no secret while another copy lies face up), and only
//! as a whole word: `Bend` is not found in `Bends`. `farebox validate` and `farebox test` run
//! it, as the project's own leak tests do with the bundled games' secrets named by meaning.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::agent::Agent;
use crate::content::GameDef;
use crate::game::{Game, Setup};
use crate::script::Host;
use crate::state::visible_cards;
use crate::value::Value;

/// The ids, names and texts of the cards `viewer` may not see (None: a spectator, who sees
/// only what is public), less any that a card it may see, a tile on the board, a seat, a
/// tile or a piece of the content also carries, and the texts of variables hidden from it
/// (with the same exception). Words shorter than three letters are left out.
pub fn secrets_for(g: &Game, viewer: Option<u8>) -> BTreeSet<String> {
    let def = g.def();
    let s = g.state();
    let (mut hidden, mut open) = (BTreeSet::new(), BTreeSet::new());
    let words = |card: &crate::content::def::CardDef, into: &mut BTreeSet<String>| {
        for w in [&card.id, &card.name, &card.text] {
            if w.chars().count() >= 3 {
                into.insert(w.clone());
            }
        }
    };
    for z in &s.zones {
        let shown = visible_cards(def, z, viewer);
        let cut = z.cards.len().saturating_sub(shown);
        for (i, c) in z.cards.iter().enumerate() {
            let Some(card) = def
                .decks
                .get(c.deck as usize)
                .and_then(|d| d.cards.get(c.card as usize))
            else {
                continue;
            };
            if i < cut {
                words(card, &mut hidden);
            } else {
                words(card, &mut open);
            }
        }
    }
    // What lies on the board is seen by everyone: tile ids and names; and the names of seats,
    // tiles and pieces are the game's public words.
    if let Some(grid) = &s.board.grid {
        for p in grid.tiles.iter().chain(&grid.blockers).flatten() {
            if let Some(t) = def.tiles.get(p.tile as usize) {
                open.insert(t.id.clone());
                open.insert(t.name.clone());
            }
        }
    }
    open.extend(def.seat_names.iter().cloned());
    open.extend(def.tiles.iter().map(|t| t.name.clone()));
    open.extend(def.pieces.iter().map(|p| p.name.clone()));
    let mut out: BTreeSet<String> = hidden.difference(&open).cloned().collect();
    for v in s.vars.values() {
        if !v.seen.by(viewer)
            && let Value::Str(text) = &v.value
            && text.chars().count() >= 3
            && !open.contains(text)
        {
            out.insert(text.clone());
        }
    }
    out
}

/// Where in `text` the word `word` stands alone (no letter or digit touching it), if it does.
pub fn find_word(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let alnum = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let edge_in = word.chars().next().is_some_and(char::is_alphanumeric);
    let edge_out = word.chars().next_back().is_some_and(char::is_alphanumeric);
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let touched = (edge_in && alnum(before)) || (edge_out && alnum(after));
        !touched
    })
}

/// A secret a viewer was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    pub seed: u64,
    pub seats: u8,
    /// The 1-based number of the action after which it was shown.
    pub action: usize,
    /// The action as everyone else is told it.
    pub label: String,
    /// The seat that was shown it (None: a spectator).
    pub viewer: Option<u8>,
    /// "its label for the action", "a log line", "its view".
    pub place: &'static str,
    pub secret: String,
    /// The words round it.
    pub around: String,
    /// The scripts whose words these are ("mod/rules/x.luau"): those giving `describe` for a
    /// label, `apply` and `on_turn_start` for a log line or the view.
    pub scripts: Vec<String>,
}

impl std::fmt::Display for Leak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = match self.viewer {
            Some(s) => format!("seat {}", s + 1),
            None => "a spectator".to_string(),
        };
        write!(
            f,
            "hidden information is shown: {who} may not see `{}`, but {} names it after action {} ({}) of the game with seed {} and {} seats: \"{}\". Name a hidden card only in the label and log lines of the seats that may see it (describe gets the viewer from game.viewer(); game.log takes who may read a line)",
            self.secret, self.place, self.action, self.label, self.seed, self.seats, self.around
        )
    }
}

/// Plays a game of `seats` seats for each of `seeds` with random players (at most `cap`
/// actions each) on the VM in `vm` (left there after), and returns the first secret a viewer
/// was shown. A game that cannot be played (a script error) ends its search: other checks
/// report errors.
pub fn first_leak(
    def: &Arc<GameDef>,
    seats: u8,
    seeds: &[u64],
    cap: usize,
    vm: &mut Option<Host>,
) -> Option<Leak> {
    if !def.playable() {
        return None;
    }
    for &seed in seeds {
        let setup = Setup::new(seats, seed);
        let game = match vm.take() {
            Some(host) if Arc::ptr_eq(host.def(), def) => Game::with_host(setup, host),
            _ => Game::new(def.clone(), setup),
        };
        let Ok(mut game) = game else { continue };
        let found = search_game(&mut game, seed, cap);
        *vm = Some(game.into_host());
        if found.is_some() {
            return found;
        }
    }
    None
}

fn search_game(g: &mut Game, seed: u64, cap: usize) -> Option<Leak> {
    let seats = g.state().seats;
    let def = g.def().clone();
    let mut agents: Vec<Agent> = (0..seats)
        .filter_map(|s| Agent::from_spec("random", &def, seed, s).ok())
        .collect();
    if agents.len() != seats as usize {
        return None;
    }
    let viewers: Vec<Option<u8>> = (0..seats).map(Some).chain([None]).collect();
    let mut step = 0;
    while !g.is_over() && step < cap {
        let actions = g.legal_actions().ok()?;
        if actions.is_empty() {
            return None;
        }
        let active = g.active() as usize;
        let i = agents.get_mut(active)?.choose(g, &actions).ok()?;
        let action = actions.get(i)?.clone();
        let labels: Vec<String> = viewers
            .iter()
            .map(|&v| g.describe_for(&action, v))
            .collect();
        let public = g.describe_public(&action);
        // The label of the action taken and the lines it logs may name what was in sight
        // before it or after it: a card it plays from a hand (revealed), a card everyone saw
        // go under a stack. The view is after.
        let before: Vec<BTreeSet<String>> = viewers.iter().map(|&v| secrets_for(g, v)).collect();
        let told = g.log().len();
        g.apply_legal(&action).ok()?;
        step += 1;
        for (k, &viewer) in viewers.iter().enumerate() {
            let after = secrets_for(g, viewer);
            let before = before.get(k).cloned().unwrap_or_default();
            if after.is_empty() && before.is_empty() {
                continue;
            }
            let both: BTreeSet<String> = before.intersection(&after).cloned().collect();
            let lines: Vec<&str> = g
                .log()
                .get(told..)
                .unwrap_or_default()
                .iter()
                .filter(|e| e.seen.by(viewer))
                .map(|e| &*e.text)
                .collect();
            let mut view = g.view(viewer);
            view.log.clear();
            let view = serde_json::to_string(&view).unwrap_or_default();
            let places: [(&'static str, String, &BTreeSet<String>); 3] = [
                (
                    "its label for the action",
                    labels.get(k).cloned().unwrap_or_default(),
                    &both,
                ),
                ("a log line", lines.join("\n"), &both),
                ("its view", view, &after),
            ];
            for (place, text, secrets) in places {
                for secret in secrets {
                    if let Some(at) = find_word(&text, secret) {
                        return Some(Leak {
                            seed,
                            seats,
                            action: step,
                            label: public.clone(),
                            viewer,
                            place,
                            secret: secret.clone(),
                            around: around(&text, at, secret),
                            scripts: scripts_of(g, place),
                        });
                    }
                }
            }
        }
    }
    None
}

/// The scripts that give the hooks that wrote what was shown in `place`.
fn scripts_of(g: &Game, place: &str) -> Vec<String> {
    let hooks: &[&str] = if place.contains("label") {
        &["describe"]
    } else {
        &["apply", "on_turn_start"]
    };
    let mut out: Vec<String> = Vec::new();
    for hook in hooks {
        for step in g.host().hook_chain(hook) {
            let s = format!("{}/{}", step.mod_id, step.script);
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

/// Up to 60 characters either side of `secret` at byte `at` of `text`, on one line.
fn around(text: &str, at: usize, secret: &str) -> String {
    let before: String = {
        let mut v: Vec<char> = text[..at].chars().rev().take(60).collect();
        v.reverse();
        v.into_iter().collect()
    };
    let after: String = text[at + secret.len()..].chars().take(60).collect();
    format!("{before}{secret}{after}")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
