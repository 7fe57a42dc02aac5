//! What a new version of the mod does to the game in progress.
//!
//! The rule (ARCHITECTURE.md, "Reload of a game in progress"): the game's history is replayed
//! on the new version beside the old one, step by step. A game goes on under the new version
//! by itself only when nothing anyone was shown would read differently: every action is
//! still legal, every state is the same, and at every step every seat's cards (in words, as
//! the Studio shows them), the log lines it could read and the labels of the actions read as
//! they did. Anything else pauses the game and asks, naming the first change in words; the
//! old game is kept exactly as it was (its own version of the mod) until the person chooses.
//! Actions are named by their public labels, never by their action strings.

use std::collections::BTreeMap;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::Game;

use super::{Playing, SeatKind};

/// How a game in progress fared when its history was replayed on reloaded rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebased {
    /// Every action was legal again, led to the same states, and nothing any seat was shown
    /// reads differently: the game went on under the new version.
    Follows { steps: usize },
    /// Action `step` (1-based) is no longer legal, or the game ended before it.
    Illegal {
        step: usize,
        label: String,
        why: String,
    },
    /// Every action was legal, but from `step` (0: the setup; else after that action) the
    /// game went elsewhere (`elsewhere`: its state differs) or showed a seat something else
    /// (`changes`, in words).
    Differs {
        step: usize,
        label: String,
        elsewhere: bool,
        changes: Vec<String>,
    },
    /// The game could not even start on the new rules.
    NoStart { why: String },
}

/// At most this many changes are named; the rest are counted.
const CHANGES_NAMED: usize = 3;

impl Rebased {
    pub fn describe(&self) -> String {
        match self {
            Rebased::Follows { steps } => format!(
                "The game in progress still follows the new rules ({steps} {} replayed; \
                 nothing any seat was shown reads differently).",
                crate::common::plural(*steps, "action")
            ),
            Rebased::Illegal { step, label, why } => {
                format!("Action {step} ({label}) is no longer legal under the new rules: {why}.")
            }
            Rebased::Differs {
                step,
                label,
                elsewhere,
                changes,
            } => {
                let place = if *step == 0 {
                    "the setup".to_string()
                } else {
                    format!("action {step} ({label})")
                };
                let mut named: Vec<String> = changes.iter().take(CHANGES_NAMED).cloned().collect();
                if changes.len() > CHANGES_NAMED {
                    let more = changes.len() - CHANGES_NAMED;
                    named.push(format!(
                        "{more} more {}",
                        crate::common::plural(more, "change")
                    ));
                }
                let what = named.join("; ");
                match (elsewhere, changes.is_empty()) {
                    (true, true) => format!(
                        "Under the new rules the game goes elsewhere from {place}, in what no \
                         seat has been shown yet."
                    ),
                    (true, false) => {
                        format!("Under the new rules the game goes elsewhere from {place}: {what}.")
                    }
                    (false, _) => format!(
                        "Every action is still legal and leads to the same state, but from \
                         {place} the game shows something else: {what}."
                    ),
                }
            }
            Rebased::NoStart { why } => format!("The game cannot start under the new rules: {why}"),
        }
    }
}

/// Replays a game's history on a new definition beside the old one, action by action (see
/// the module's opening). The rebuilt game, when it got past its setup.
pub(super) fn rebase(p: &Playing, def: Arc<GameDef>) -> (Rebased, Option<Playing>) {
    let setup = p.game.setup().clone();
    let mut agents = BTreeMap::new();
    for (i, s) in p.seats.iter().enumerate() {
        if let SeatKind::Bot(spec) = s {
            match Agent::from_spec(spec, &def, setup.seed, i as u8) {
                Ok(a) => {
                    agents.insert(i as u8, a);
                }
                Err(why) => return (Rebased::NoStart { why }, None),
            }
        }
    }
    let game = match Game::new(def, setup.clone()) {
        Ok(g) => g,
        Err(e) => return (Rebased::NoStart { why: e.to_string() }, None),
    };
    // The old game again from its setup, to read what each seat was shown at each step.
    let Ok(mut old) = Game::new(p.game.def().clone(), setup) else {
        return (
            Rebased::NoStart {
                why: "the game in progress could not be rebuilt to compare with".into(),
            },
            None,
        );
    };
    let mut q = Playing::new(game, p.seats.clone(), agents);
    let seats = Screen::of(&p.seats);
    let mut first: Option<Rebased> = None;
    let changes = compare(
        &old,
        &q.game,
        &seats,
        old.log().len(),
        q.game.log().len(),
        None,
    );
    if !changes.is_empty() {
        first = Some(Rebased::Differs {
            step: 0,
            label: String::new(),
            elsewhere: false,
            changes,
        });
    }
    for (i, a) in p.game.history().iter().enumerate() {
        let label = step_label(p, i);
        let (old_log, new_log) = (old.log().len(), q.game.log().len());
        if let Err(why) = q.step(a) {
            let why = if q.game.is_over() {
                "the game is already over by then".to_string()
            } else if q
                .game
                .legal_actions()
                .is_ok_and(|l| !l.iter().any(|x| x == a))
            {
                "the new rules do not offer it there".to_string()
            } else {
                why
            };
            let report = match first {
                // An earlier change is named first; the game the person may go on with
                // stops before this action, which is said too.
                Some(Rebased::Differs {
                    step,
                    label: first_label,
                    elsewhere,
                    mut changes,
                }) => {
                    changes.push(format!(
                        "action {} ({label}) is then no longer legal ({why}), so the new game \
                         stops before it",
                        i + 1
                    ));
                    Rebased::Differs {
                        step,
                        label: first_label,
                        elsewhere,
                        changes,
                    }
                }
                _ => Rebased::Illegal {
                    step: i + 1,
                    label,
                    why,
                },
            };
            return (report, Some(q));
        }
        let replayed = old.apply(a).is_ok();
        if first.is_some() {
            continue;
        }
        if !replayed {
            // The old game does not replay on its own version: nothing to compare with.
            first = Some(Rebased::Differs {
                step: i + 1,
                label,
                elsewhere: true,
                changes: Vec::new(),
            });
            continue;
        }
        let elsewhere = p.hashes.get(i) != q.hashes.last();
        let own = (
            p.told.own_label(i).map(str::to_string),
            q.told.own_label(i).map(str::to_string),
        );
        let public = (
            p.told.public_label(i).map(str::to_string),
            q.told.public_label(i).map(str::to_string),
        );
        let said = Said {
            seat: p.taken.get(i).map_or(0, |t| t.0),
            own,
            public,
        };
        let changes = compare(&old, &q.game, &seats, old_log, new_log, Some(&said));
        if elsewhere || !changes.is_empty() {
            first = Some(Rebased::Differs {
                step: i + 1,
                label,
                elsewhere,
                changes,
            });
        }
    }
    let report = first.unwrap_or(Rebased::Follows {
        steps: q.taken.len(),
    });
    (report, Some(q))
}

/// Action `i` (0-based) of the old game as everyone was told it: "Red: Takes the fare".
fn step_label(p: &Playing, i: usize) -> String {
    let seat = p.taken.get(i).map_or(0, |t| t.0);
    let label = p.told.public_label(i).unwrap_or("");
    format!("{}: {label}", p.game.def().seat_name(seat as usize))
}

/// Whose eyes the question is written for. The Studio's screen shows one person's view (or
/// everyone's, when only bots play), so only that is described in words: the cards of a bot,
/// or of another person sharing the screen, are never named. With several people, what only
/// one of them was shown counts as a change without being described.
struct Screen {
    /// The view described in words: the one person's seat, else the spectator's.
    told: Option<u8>,
    /// People's seats whose own view is compared but not described.
    unnamed: Vec<u8>,
}

impl Screen {
    fn of(seats: &[SeatKind]) -> Screen {
        let people: Vec<u8> = (0..seats.len() as u8)
            .filter(|&s| seats[s as usize].is_person())
            .collect();
        match people.as_slice() {
            [one] => Screen {
                told: Some(*one),
                unnamed: Vec::new(),
            },
            _ => Screen {
                told: None,
                unnamed: people,
            },
        }
    }
}

/// How one action read, in the old game and the new: to the seat that took it (a person's
/// own words) and to everyone else.
struct Said {
    seat: u8,
    own: (Option<String>, Option<String>),
    public: (Option<String>, Option<String>),
}

/// What reads differently, in words, between the old game and the new one at the same step:
/// each seat's zones (its cards as the Studio names them), the log lines the step added that
/// the seat may read (from `old_log` and `new_log` on), and how the action was told.
fn compare(
    old: &Game,
    new: &Game,
    screen: &Screen,
    old_log: usize,
    new_log: usize,
    said: Option<&Said>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |line: String| {
        if !out.contains(&line) {
            out.push(line);
        }
    };
    if let Some(s) = said
        && screen.told != Some(s.seat)
        && s.public.0 != s.public.1
    {
        push(format!(
            "the action now reads “{}” where it read “{}”",
            s.public.1.as_deref().unwrap_or(""),
            s.public.0.as_deref().unwrap_or("")
        ));
    }
    if let Some(s) = said
        && screen.told == Some(s.seat)
        && s.own.0 != s.own.1
    {
        push(format!(
            "{} was offered it as “{}”, now “{}”",
            old.def().seat_name(s.seat as usize),
            s.own.0.as_deref().unwrap_or(""),
            s.own.1.as_deref().unwrap_or("")
        ));
    }
    for &seat in &screen.unnamed {
        let lines = |g: &Game, from: usize| -> Vec<String> {
            let log = g.log().get(from..).unwrap_or_default();
            log.iter()
                .filter(|l| l.seen.by(Some(seat)))
                .map(|l| l.text.to_string())
                .collect()
        };
        let own = |g: &Game, from: usize| (shown(g, Some(seat)), lines(g, from));
        if own(old, old_log) != own(new, new_log) {
            push(format!(
                "something only {} was shown reads differently",
                old.def().seat_name(seat as usize)
            ));
        }
    }
    {
        let seat = screen.told;
        let (a, b) = (shown(old, seat), shown(new, seat));
        for (topic, was) in &a {
            let now = b.get(topic).cloned().unwrap_or_default();
            if &now != was {
                push(cards_changed(topic, was, &now));
            }
        }
        for (topic, now) in &b {
            if !a.contains_key(topic) {
                push(cards_changed(topic, &[], now));
            }
        }
        let lines = |g: &Game, from: usize| -> Vec<String> {
            g.log()
                .get(from..)
                .unwrap_or_default()
                .iter()
                .filter(|l| l.seen.by(seat))
                .map(|l| l.text.to_string())
                .collect()
        };
        let (was, now) = (lines(old, old_log), lines(new, new_log));
        if was != now {
            let gone: Vec<&String> = was.iter().filter(|l| !now.contains(l)).collect();
            let came: Vec<&String> = now.iter().filter(|l| !was.contains(l)).collect();
            push(match (gone.first(), came.first()) {
                (Some(g), Some(c)) => format!("the log reads “{c}” where it read “{g}”"),
                (Some(g), None) => format!("the log no longer reads “{g}”"),
                (None, Some(c)) => format!("the log now also reads “{c}”"),
                (None, None) => "the log's lines come in another order".to_string(),
            });
        }
    }
    out
}

/// The cards a seat sees (None: what everyone sees), by zone ("Red's Hand"), each card in
/// words.
fn shown(g: &Game, seat: Option<u8>) -> BTreeMap<String, Vec<String>> {
    let def = g.def();
    let mut out = BTreeMap::new();
    for z in g.view(seat).zones {
        let Some(d) = def.zones.iter().find(|d| d.id == z.id) else {
            continue;
        };
        if !d.shown || z.cards.is_empty() {
            continue;
        }
        let topic = match z.owner {
            Some(o) => format!("{}'s {}", def.seat_name(o as usize), d.name),
            None => d.name.clone(),
        };
        let cards = z
            .cards
            .iter()
            .map(|c| crate::card_brief::card_in(def, d.deck, c).text())
            .collect();
        out.insert(topic, cards);
    }
    out
}

/// "Red's Hand: One-way crossing in place of One-way street".
fn cards_changed(topic: &str, was: &[String], now: &[String]) -> String {
    let mut gone: Vec<&String> = Vec::new();
    let mut left: Vec<&String> = now.iter().collect();
    for c in was {
        match left.iter().position(|x| *x == c) {
            Some(k) => {
                left.remove(k);
            }
            None => gone.push(c),
        }
    }
    // Alike cards counted: "Pothole ×2".
    let list = |v: &[&String]| {
        let mut counted: Vec<(&String, usize)> = Vec::new();
        for c in v {
            match counted.iter_mut().find(|(x, _)| x == c) {
                Some((_, n)) => *n += 1,
                None => counted.push((c, 1)),
            }
        }
        let mut s: Vec<String> = counted
            .iter()
            .take(4)
            .map(|(c, n)| {
                if *n > 1 {
                    format!("{c} ×{n}")
                } else {
                    (*c).clone()
                }
            })
            .collect();
        if counted.len() > 4 {
            s.push(format!("{} more", counted.len() - 4));
        }
        s.join(", ")
    };
    match (gone.is_empty(), left.is_empty()) {
        (false, false) => format!("{topic}: {} in place of {}", list(&left), list(&gone)),
        (false, true) => format!("{topic} no longer holds {}", list(&gone)),
        (true, false) => format!("{topic} now also holds {}", list(&left)),
        (true, true) => format!("{topic} holds its cards in another order"),
    }
}
