//! Rules whose results depend on how often, or in what order, their hooks are called.
//!
//! A script cannot set globals, but a `local` at the top of a file is shared by every call of
//! every hook, so a rule can still remember something between calls: a count of its own
//! calls, the last action it was asked to describe. The engine calls hooks more often than
//! the game's actions: people's screens ask for every action's label, bots try actions and
//! take them back, the Studio and the terminal ask for scores. A rule that remembers then
//! plays a different game when it is watched than when it is replayed, and its recordings
//! fail to verify.
//!
//! [`check`] plays seeded games with the random agent, then replays each several times, each
//! time with extra calls of one kind before every action (the `actions` hook again; `describe`
//! of every action offered, last first, as the acting seat and as a spectator; `score` of
//! every seat; a try of several actions, taken back). A replay that leads elsewhere (other
//! actions offered, another state or log after an action, an action refused) names the kind
//! of call that changed the game, the hook and the scripts that give it, the seed and the
//! action. It also replays each game on a new VM in another thread, where the scripts' tables
//! and functions sit at other memory addresses ([`Extra::Moved`]): a game that parts there
//! iterates over keys whose order follows addresses, and would play differently in another
//! process. `farebox validate` and `farebox test` run it.
//!
//! What holds (and the authoring guide says): a `local` at the top of a script may hold
//! constants, lookups built from `data`, and caches whose content depends only on the game's
//! content and on arguments (handles of zones and spaces are fixed for a game, and a VM is
//! reset between games); anything that depends on the game so far belongs in the game's
//! variables (`game.set`).

use std::sync::Arc;

use crate::content::GameDef;
use crate::game::{Game, Setup};
use crate::rng::Rng;
use crate::script::Host;

/// A kind of extra call the check makes before every action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// The `actions` hook, twice more.
    Actions,
    /// `describe` of every action offered, last first, as the acting seat and as a spectator.
    Describe,
    /// `score` of every seat.
    Score,
    /// Up to four of the actions offered tried and taken back (`apply`, `on_turn_start`).
    Try,
    /// No extra calls: the game replayed on a new VM in another thread, after some memory was
    /// taken, so the scripts' tables and functions sit at other addresses, as they do in
    /// another process or on another machine.
    Moved,
}

impl Extra {
    /// Every kind, [`Extra::Moved`] first: a game that follows addresses also parts when a
    /// hook is called again (its new tables sit elsewhere), and the reason to give then is
    /// the addresses.
    pub const ALL: [Extra; 5] = [
        Extra::Moved,
        Extra::Actions,
        Extra::Describe,
        Extra::Score,
        Extra::Try,
    ];

    /// The hooks these calls run.
    pub fn hooks(self) -> &'static [&'static str] {
        match self {
            Extra::Actions => &["actions"],
            Extra::Describe => &["describe"],
            Extra::Score => &["score", "evaluate"],
            Extra::Try => &["apply", "on_turn_start"],
            Extra::Moved => &["setup", "actions", "apply", "on_turn_start"],
        }
    }

    fn said(self) -> &'static str {
        match self {
            Extra::Actions => "the actions hook called again (as a screen redraws)",
            Extra::Describe => {
                "describe called for every action offered (as a screen labels them), in another order"
            }
            Extra::Score => {
                "score and evaluate called for every seat (as a screen shows the scores, or a search bot weighs a position)"
            }
            Extra::Try => "actions tried and taken back (as a bot looks ahead)",
            Extra::Moved => "the game replayed where its tables sit at other memory addresses",
        }
    }
}

/// A game that went elsewhere when hooks were called more often.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub extra: Extra,
    /// The scripts that give the hooks of `extra` ("mod/rules/x.luau"), in call order.
    pub scripts: Vec<String>,
    pub seed: u64,
    pub seats: u8,
    /// The 1-based number of the action at which the games parted.
    pub action: usize,
    /// What differed.
    pub what: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hooks = self.extra.hooks().join("/");
        let scripts = if self.scripts.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.scripts.join(", "))
        };
        if self.extra == Extra::Moved {
            return write!(
                f,
                "the game depends on where its tables sit in memory, so the same seed plays differently in another process or on another machine: replayed at other addresses, {} at action {} of the game with seed {} and {} seats{scripts}. The usual cause is a loop with pairs or next (or `for k, v in t`) over a table whose keys are tables or functions: that order follows memory addresses. Keep such things in a list, or key them by ids (strings or numbers), whose order does not change",
                self.what, self.action, self.seed, self.seats
            );
        }
        write!(
            f,
            "the rules remember something between hook calls: with {}, the {hooks} hook{}{scripts} changed the game: {} at action {} of the game with seed {} and {} seats. Keep what the game must remember with game.set, not in a `local` outside the hooks",
            self.extra.said(),
            if self.extra.hooks().len() > 1 {
                "s"
            } else {
                ""
            },
            self.what,
            self.action,
            self.seed,
            self.seats
        )
    }
}

/// What the reference game looked like at each action.
struct Step {
    offered: Vec<String>,
    action: String,
    hash: String,
    /// The log lines the action added.
    lines: Vec<String>,
}

/// Plays `seeds` games of `seats` seats with the random agent (at most `cap` actions each) and
/// replays each with every kind of [`Extra`] calls; the first game that went elsewhere. A game
/// that cannot be played at all (a script error) is not this check's business: it ends there,
/// and the other checks report it.
pub fn check(def: &Arc<GameDef>, seats: u8, seeds: &[u64], cap: usize) -> Option<Finding> {
    check_reusing(def, seats, seeds, cap, &mut None)
}

/// [`check`], playing every game on the VM in `vm` when there is one (left by an earlier game
/// of the same mod) and leaving a VM there after. Each game starts on a reset VM, which plays
/// as a new one does, so only starting is cheaper: a new VM for each of the five games a seed
/// plays was about half of a small mod's check.
pub fn check_reusing(
    def: &Arc<GameDef>,
    seats: u8,
    seeds: &[u64],
    cap: usize,
    vm: &mut Option<Host>,
) -> Option<Finding> {
    if !def.playable() {
        return None;
    }
    for &seed in seeds {
        let Some(reference) = reference(def, seats, seed, cap, vm) else {
            continue;
        };
        for extra in Extra::ALL {
            if let Some((action, what)) = replay_with(def, seats, seed, &reference, extra, vm) {
                let mut scripts = vec![];
                if let Ok(game) = Game::new(def.clone(), Setup::new(seats, seed)) {
                    for hook in extra.hooks() {
                        for step in game.host().hook_chain(hook) {
                            let s = format!("{}/{}", step.mod_id, step.script);
                            if !scripts.contains(&s) {
                                scripts.push(s);
                            }
                        }
                    }
                }
                return Some(Finding {
                    extra,
                    scripts,
                    seed,
                    seats,
                    action,
                    what,
                });
            }
        }
    }
    None
}

/// A game of `seats` and `seed` on the VM in `vm` (reset), or on a new one when there is none
/// (a game that failed to start took its VM with it).
fn start(def: &Arc<GameDef>, seats: u8, seed: u64, vm: &mut Option<Host>) -> Option<Game> {
    let setup = Setup::new(seats, seed);
    match vm.take() {
        Some(host) if Arc::ptr_eq(host.def(), def) => Game::with_host(setup, host).ok(),
        _ => Game::new(def.clone(), setup).ok(),
    }
}

fn reference(
    def: &Arc<GameDef>,
    seats: u8,
    seed: u64,
    cap: usize,
    vm: &mut Option<Host>,
) -> Option<Vec<Step>> {
    let mut game = start(def, seats, seed, vm)?;
    let steps = play_reference(&mut game, seed, cap);
    *vm = Some(game.into_host());
    steps
}

fn play_reference(game: &mut Game, seed: u64, cap: usize) -> Option<Vec<Step>> {
    let mut rng = Rng::new(seed, 4242);
    let mut steps = vec![];
    while !game.is_over() && steps.len() < cap {
        let offered = game.legal_actions().ok()?;
        if offered.is_empty() {
            break;
        }
        let action = offered[rng.below(offered.len() as u32) as usize].clone();
        let before = game.log().len();
        if game.apply_legal(&action).is_err() {
            break;
        }
        steps.push(Step {
            offered,
            action,
            hash: game.state().hash(),
            lines: new_lines(game, before),
        });
    }
    Some(steps)
}

/// Replays `reference` making `extra` calls before every action; where it parted, if it did.
fn replay_with(
    def: &Arc<GameDef>,
    seats: u8,
    seed: u64,
    reference: &[Step],
    extra: Extra,
    vm: &mut Option<Host>,
) -> Option<(usize, String)> {
    if extra == Extra::Moved {
        return replay_moved(def, seats, seed, reference);
    }
    let mut game = start(def, seats, seed, vm)?;
    let parted = replay(&mut game, reference, extra);
    *vm = Some(game.into_host());
    parted
}

/// Replays `reference` on a new VM in a thread of its own (whose allocations come from
/// another part of memory), after taking some memory first, so that every table and function
/// the scripts make sits at another address than in the reference game. Only the order of
/// keys that are tables, functions or other objects follows addresses (strings and numbers
/// hash by value), so a game that parts here iterates over such keys.
fn replay_moved(
    def: &Arc<GameDef>,
    seats: u8,
    seed: u64,
    reference: &[Step],
) -> Option<(usize, String)> {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                // Blocks of several sizes, held for the replay: later allocations land
                // elsewhere than in a thread that took none.
                let taken: Vec<Vec<u8>> = (1..=97usize).map(|k| vec![0u8; k * 40 + 8]).collect();
                let mut game = Game::new(def.clone(), Setup::new(seats, seed)).ok()?;
                let parted = replay(&mut game, reference, Extra::Moved);
                drop(taken);
                parted
            })
            .join()
            .ok()
            .flatten()
    })
}

fn replay(game: &mut Game, reference: &[Step], extra: Extra) -> Option<(usize, String)> {
    for (i, step) in reference.iter().enumerate() {
        let n = i + 1;
        let offered = match game.legal_actions() {
            Ok(a) => a,
            Err(e) => return Some((n, format!("the actions hook failed: {e}"))),
        };
        extra_calls(game, &offered, extra);
        let offered = match game.legal_actions() {
            Ok(a) => a,
            Err(e) => return Some((n, format!("the actions hook failed: {e}"))),
        };
        if offered != step.offered {
            return Some((n, "other actions were offered".into()));
        }
        let before = game.log().len();
        if let Err(e) = game.apply_legal(&step.action) {
            return Some((n, format!("`{}` failed: {e}", cut(&step.action))));
        }
        if game.state().hash() != step.hash {
            return Some((n, format!("`{}` led to another state", cut(&step.action))));
        }
        if new_lines(game, before) != step.lines {
            return Some((n, format!("`{}` logged something else", cut(&step.action))));
        }
    }
    None
}

fn new_lines(game: &Game, from: usize) -> Vec<String> {
    game.log()
        .get(from..)
        .unwrap_or_default()
        .iter()
        .map(|l| l.text.to_string())
        .collect()
}

fn extra_calls(game: &mut Game, offered: &[String], extra: Extra) {
    match extra {
        Extra::Actions => {
            let _ = game.legal_actions();
            let _ = game.legal_actions();
        }
        Extra::Describe => {
            for a in offered.iter().rev() {
                let _ = game.try_describe_path(a);
                let _ = game.try_describe_public(a);
            }
        }
        Extra::Score => {
            for seat in (0..game.state().seats).rev() {
                let _ = game.score(seat);
                let _ = game.evaluate(seat);
            }
        }
        Extra::Try => {
            for a in offered.iter().rev().take(4) {
                let _ = game.trial(a, |g| {
                    let _ = g.legal_actions();
                });
            }
        }
        Extra::Moved => {}
    }
}

/// An action as a message shows it: one line, at most 80 characters.
fn cut(s: &str) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(80)
        .collect();
    if one.len() < s.len() {
        format!("{one}...")
    } else {
        one
    }
}
