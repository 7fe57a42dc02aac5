//! Agents choose actions: the random agent, the scripted bots a mod ships, and the built-in
//! search bot ([`crate::search`]) that plays any mod.
//!
//! Each agent has its own generator, seeded from the game seed and its seat, so a seeded
//! simulation is repeatable without agents drawing from the game's own random numbers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::content::GameDef;
use crate::figures::{Trace, Tracker};
use crate::game::{Game, GameError, Setup};
use crate::rng::Rng;
use crate::script::Host;
use crate::search::Search;
use crate::state::GameResult;

#[derive(Debug, Clone)]
pub enum Agent {
    /// Picks uniformly among the legal actions.
    Random(Rng),
    /// A bot script of the mod, by id.
    Bot { id: String, rng: Rng },
    /// The built-in search bot (`search`, `search:N`, `search:N:POLICY`).
    Search(Search),
}

impl Agent {
    /// `spec` is `random`, the id of one of the mod's bots, or the search bot: `search`
    /// ([`crate::search::DEFAULT_PLAYOUTS`] playouts a decision), `search:N` (N playouts) or
    /// `search:N:POLICY` (playouts by `random` or the bot POLICY instead of the mod's first
    /// bot). A bot of the mod called `search` is taken before the built-in one.
    pub fn from_spec(spec: &str, def: &GameDef, seed: u64, seat: u8) -> Result<Agent, String> {
        let rng = Rng::new(seed, 1000 + seat as u64);
        if spec == "random" {
            return Ok(Agent::Random(rng));
        }
        if def.bot(spec).is_some() {
            return Ok(Agent::Bot {
                id: spec.to_string(),
                rng,
            });
        }
        if spec == "search" || spec.starts_with("search:") {
            return Search::from_spec(spec, def, seed, seat).map(Agent::Search);
        }
        let mut names: Vec<&str> = vec!["random", "search"];
        names.extend(def.bots.iter().map(|b| b.id.as_str()));
        Err(format!(
            "no agent `{spec}` for {}: use {}{}",
            def.name,
            names.join(", "),
            crate::diag::suggestion(spec, names.iter().copied())
        ))
    }

    pub fn choose(&mut self, game: &mut Game, actions: &[String]) -> Result<usize, GameError> {
        match self {
            Agent::Random(rng) => Ok(rng.below(actions.len() as u32) as usize),
            Agent::Bot { id, rng } => Ok(game.bot_choose(id, actions, rng)?),
            Agent::Search(s) => s.choose(game, actions),
        }
    }
}

/// At which decisions of a simulated game the labels of every action offered are made (both
/// of them: the acting seat's and the public one), so a `describe` hook that fails for some
/// action is found before a person meets it. Labels only read, so the game is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    /// None (simulations that only want outcomes).
    Never,
    /// At every decision.
    Always,
    /// At about one decision in n, picked from the seed and the decision's number: the same
    /// decisions of the same game whatever else is played, on any number of threads.
    OneIn(u32),
}

impl Labels {
    fn at(self, seed: u64, decision: u32) -> bool {
        match self {
            Labels::Never => false,
            Labels::Always => true,
            Labels::OneIn(n) => {
                // splitmix64 of the seed and the decision.
                let mut z = seed ^ u64::from(decision).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                z.is_multiple_of(u64::from(n.max(1)))
            }
        }
    }
}

/// What a simulated game does besides playing: make labels ([`Labels`]), keep a profile of
/// its hook and bot calls (`farebox sim --profile`) and follow what it shows about the
/// content ([`crate::figures`]). None of them changes the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    pub labels: Labels,
    pub profile: bool,
    /// Keep a [`Trace`] of the game in its outcome.
    pub figures: bool,
}

impl Checks {
    /// Only play.
    pub const NONE: Checks = Checks {
        labels: Labels::Never,
        profile: false,
        figures: false,
    };
}

impl From<Labels> for Checks {
    fn from(labels: Labels) -> Checks {
        Checks {
            labels,
            ..Checks::NONE
        }
    }
}

/// Restricted play: the ids whose actions the agents may not choose (an action names an id
/// by [`crate::action::names`]), for every seat or for one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forbid {
    pub ids: Vec<String>,
    /// The only seat (0-based) the ids are forbidden to; None: every seat.
    pub seat: Option<u8>,
}

impl Forbid {
    /// Nothing forbidden.
    pub const NONE: Forbid = Forbid {
        ids: Vec::new(),
        seat: None,
    };

    /// Whether `seat` may not choose `action`.
    pub fn forbids(&self, seat: usize, action: &str) -> bool {
        self.seat.is_none_or(|s| usize::from(s) == seat)
            && self
                .ids
                .iter()
                .any(|id| crate::action::names_id(action, id))
    }
}

/// How one simulated game went.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub seed: u64,
    pub result: Option<GameResult>,
    pub actions: u32,
    pub turns: u32,
    /// The game passed the safety cap on actions and was stopped.
    pub capped: bool,
    pub error: Option<String>,
    /// For a game that failed or was capped: the number of the action it stopped at (the
    /// action that failed, counted from 1; 0 for its setup; the cap for a capped game), so
    /// the game can be replayed to that point from its seed.
    pub stopped_at: Option<u32>,
    /// Decisions at which every action offered was forbidden (`farebox sim --forbid`), so
    /// the bot chose among all of them.
    pub forced: u32,
    /// What failed in the search bots' playouts (every seat's together; see
    /// [`crate::search::Failures`]): the game played on, each failed playout judged from
    /// where it got to. Failed calls, playouts run and the first failure in full.
    pub playout_errors: u64,
    pub playouts: u64,
    pub playout_error: Option<String>,
    /// Calls, steps and time per hook and bot, when the run keeps a profile (see
    /// [`Checks`]); empty otherwise.
    #[serde(skip)]
    pub profile: crate::script::Profile,
    /// What the game showed about its content, when the run follows it (see [`Checks`]).
    #[serde(skip)]
    pub trace: Option<Box<Trace>>,
}

impl Outcome {
    /// A game of this seed not played yet.
    fn of(seed: u64) -> Outcome {
        Outcome {
            seed,
            result: None,
            actions: 0,
            turns: 0,
            capped: false,
            error: None,
            stopped_at: None,
            forced: 0,
            playout_errors: 0,
            playouts: 0,
            playout_error: None,
            profile: Default::default(),
            trace: None,
        }
    }
}

/// Plays one game to its end (or to `cap` actions) with one agent per seat.
pub fn play(def: &Arc<GameDef>, setup: Setup, agents: &[String], cap: u32) -> Outcome {
    play_reusing(def, setup, agents, cap, &mut None)
}

/// [`play`], running the game on the VM in `vm` when there is one (left there by an earlier
/// game of the same mod) and leaving its VM there after. A reset VM plays the same game as a
/// new one; only the start is cheaper. Simulations keep one VM per thread this way.
pub fn play_reusing(
    def: &Arc<GameDef>,
    setup: Setup,
    agents: &[String],
    cap: u32,
    vm: &mut Option<Host>,
) -> Outcome {
    play_game(
        def,
        setup,
        agents,
        cap,
        vm,
        Checks::NONE,
        &Forbid::NONE,
        None,
    )
}

/// [`play_reusing`] that also makes both labels of every action offered (the acting seat's
/// and the public one, see [`Game::describe_path`] and [`Game::describe_public`]) at every
/// decision ([`Labels::Always`]): a label that fails ends the game with an error that says
/// which action, offered to whom, at which point of the game.
pub fn play_labelled(
    def: &Arc<GameDef>,
    setup: Setup,
    agents: &[String],
    cap: u32,
    vm: &mut Option<Host>,
) -> Outcome {
    play_game(
        def,
        setup,
        agents,
        cap,
        vm,
        Labels::Always.into(),
        &Forbid::NONE,
        None,
    )
}

/// Plays one game as a run of `farebox sim` or an outcome run does (the same agents, cap and
/// restricted play, so the same game), and gives back the actions taken too: up to the one
/// that failed, or to the cap. The Studio shows a run's failed game this way.
pub fn play_keeping_actions(
    def: &Arc<GameDef>,
    setup: Setup,
    agents: &[String],
    cap: u32,
    checks: Checks,
    forbid: &Forbid,
) -> (Outcome, Vec<String>) {
    let mut actions = Vec::new();
    let out = play_game(
        def,
        setup,
        agents,
        cap,
        &mut None,
        checks,
        forbid,
        Some(&mut actions),
    );
    (out, actions)
}

/// One game with `agents`, on the VM in `vm` when it fits (left there after); `keep`, when
/// given, gets the actions taken.
#[allow(clippy::too_many_arguments)]
fn play_game(
    def: &Arc<GameDef>,
    setup: Setup,
    agents: &[String],
    cap: u32,
    vm: &mut Option<Host>,
    checks: Checks,
    forbid: &Forbid,
    keep: Option<&mut Vec<String>>,
) -> Outcome {
    let seed = setup.seed;
    let mut out = Outcome::of(seed);
    let mut ags = Vec::new();
    for seat in 0..setup.seats {
        let spec = agents
            .get(seat as usize)
            .or(agents.last())
            .map_or("random", |s| s.as_str());
        match Agent::from_spec(spec, def, seed, seat) {
            Ok(a) => ags.push(a),
            Err(e) => {
                out.error = Some(e);
                return out;
            }
        }
    }
    let started = match vm.take() {
        Some(host) if Arc::ptr_eq(host.def(), def) => {
            host.set_profiling(checks.profile);
            Game::with_host(setup, host)
        }
        _ if checks.profile => Game::with_profile(def.clone(), setup),
        _ => Game::new(def.clone(), setup),
    };
    let mut game = match started {
        Ok(g) => g,
        Err(e) => {
            out.error = Some(e.to_string());
            out.stopped_at = Some(0);
            return out;
        }
    };
    let mut tracker = checks.figures.then(|| Tracker::new(def, game.state()));
    let r = run(
        &mut game,
        &mut ags,
        cap,
        &mut out,
        checks.labels,
        forbid,
        tracker.as_mut(),
    );
    if let Err(e) = r {
        out.error = Some(e.to_string());
        out.stopped_at = Some(out.actions + 1);
    } else if out.capped {
        out.stopped_at = Some(out.actions);
    }
    let failures = playout_failures(&ags);
    out.playout_errors = failures.errors;
    out.playouts = failures.playouts;
    out.playout_error = failures.first.map(|e| e.to_string());
    out.turns = game.state().turn;
    out.result = game.result().cloned();
    out.trace = tracker.map(|t| Box::new(t.finish(game.state())));
    out.profile = game.host().take_profile();
    if let Some(k) = keep {
        *k = game.history().to_vec();
    }
    *vm = Some(game.into_host());
    out
}

/// What failed in the playouts of the search bots among `agents`, all seats together (the
/// first failure is the lowest seat's).
pub fn playout_failures(agents: &[Agent]) -> crate::search::Failures {
    let mut all = crate::search::Failures::default();
    for a in agents {
        if let Agent::Search(s) = a {
            all.add(&s.failures());
        }
    }
    all
}

/// One game to simulate: its setup and the agent of each seat (the last repeats).
#[derive(Debug, Clone)]
pub struct Match {
    pub setup: Setup,
    pub agents: Vec<String>,
}

/// Plays many games on `threads` worker threads; outcomes come back in the order of `games`.
/// `done` is called once after each game (for progress bars). A game is deterministic on its
/// own, so the thread count never changes an outcome.
pub fn play_many(
    def: &Arc<GameDef>,
    games: &[Match],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Outcome> {
    play_many_until(def, games, cap, threads, done, &AtomicBool::new(false))
}

/// [`play_many`] that starts no more games once `stop` is set (each thread looks before each
/// game): the games left out are missing from the outcomes, which stay in the order of
/// `games`. Lets a long run be cancelled.
pub fn play_many_until(
    def: &Arc<GameDef>,
    games: &[Match],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
) -> Vec<Outcome> {
    play_many_checking(def, games, cap, threads, done, stop, Checks::NONE)
}

/// [`play_many_until`], with the labels of the actions offered made at the decisions
/// `checks.labels` picks, and each game's profile kept when `checks.profile` is set.
pub fn play_many_checking(
    def: &Arc<GameDef>,
    games: &[Match],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    checks: Checks,
) -> Vec<Outcome> {
    play_many_forbidding(def, games, cap, threads, done, stop, checks, &Forbid::NONE)
}

/// [`play_many_checking`] with every action `forbid` forbids taken out of what the agents
/// may choose. At a decision
/// where that leaves nothing, the agent chooses among all the actions offered (the rules
/// must go on) and the outcome counts it ([`Outcome::forced`]).
#[allow(clippy::too_many_arguments)]
pub fn play_many_forbidding(
    def: &Arc<GameDef>,
    games: &[Match],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    checks: Checks,
    forbid: &Forbid,
) -> Vec<Outcome> {
    let threads = threads.clamp(1, games.len().max(1));
    let mut out: Vec<(usize, Outcome)> = Vec::with_capacity(games.len());
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut mine = Vec::new();
                    let mut vm = None;
                    for (i, m) in games.iter().enumerate().skip(t).step_by(threads) {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let o = play_game(
                            def,
                            m.setup.clone(),
                            &m.agents,
                            cap,
                            &mut vm,
                            checks,
                            forbid,
                            None,
                        );
                        mine.push((i, o));
                        done();
                    }
                    mine
                })
            })
            .collect();
        for (t, w) in workers.into_iter().enumerate() {
            match w.join() {
                Ok(v) => out.extend(v),
                Err(_) => {
                    for (i, m) in games.iter().enumerate().skip(t).step_by(threads) {
                        out.push((
                            i,
                            Outcome {
                                error: Some("a simulation thread panicked".into()),
                                ..Outcome::of(m.setup.seed)
                            },
                        ));
                    }
                }
            }
        }
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, o)| o).collect()
}

fn run(
    game: &mut Game,
    agents: &mut [Agent],
    cap: u32,
    out: &mut Outcome,
    labels: Labels,
    forbid: &Forbid,
    mut tracker: Option<&mut Tracker>,
) -> Result<(), GameError> {
    let mut allowed = Vec::new();
    while !game.is_over() {
        if out.actions >= cap {
            out.capped = true;
            return Ok(());
        }
        let actions = game.legal_actions()?;
        if actions.is_empty() {
            return Err(GameError::Setup(format!(
                "seat {} has no legal action, and the game is not over",
                game.active() + 1
            )));
        }
        if labels.at(out.seed, out.actions) {
            check_labels(game, &actions, out.actions)?;
        }
        let seat = game.active() as usize;
        let offered = if forbid.ids.is_empty() {
            &actions
        } else {
            allowed.clear();
            allowed.extend(actions.iter().filter(|a| !forbid.forbids(seat, a)).cloned());
            if allowed.is_empty() {
                out.forced += 1;
                &actions
            } else {
                &allowed
            }
        };
        let i = match agents.get_mut(seat) {
            Some(a) => a.choose(game, offered)?,
            None => 0,
        };
        let action = offered.get(i).cloned().unwrap_or_default();
        game.apply_legal(&action)?;
        out.actions += 1;
        if let Some(t) = tracker.as_deref_mut() {
            t.after(seat as u8, &action, out.actions, game.state());
        }
    }
    Ok(())
}

/// Makes both labels of every action in `actions` (offered at the game's action `taken` + 1),
/// or says which one failed and where.
fn check_labels(game: &mut Game, actions: &[String], taken: u32) -> Result<(), GameError> {
    let seat = game.def().seat_name(game.active() as usize);
    for a in actions {
        let (whose, r) = match game.try_describe_path(a) {
            Ok(_) => (
                "everyone else is shown (describe read as a spectator)",
                game.try_describe_public(a).map(|_| ()),
            ),
            Err(e) => (
                "the acting seat is shown (describe read as that seat)",
                Err(e),
            ),
        };
        if let Err(e) = r {
            // A script error already says where in the game it happened.
            let when = match e.context.action {
                Some(_) => String::new(),
                None => format!(" at action {} of the game", taken + 1),
            };
            return Err(GameError::Setup(format!(
                "the label {whose} for `{}`, offered to {seat}{when}: {e}",
                crate::content::load::cut(a, 100),
            )));
        }
    }
    Ok(())
}
