//! A batch of seeded games, the one way games are played many at a time (`farebox sim`,
//! `test`, `rank`, `--vs`, `bench`, `validate`, the Studio's Outcomes tab and the tests) or
//! one at a time as such a run plays them (the Studio's "replay the failed game").
//!
//! A [`Batch`] holds the content, the base setup (seats, options and the first seed), how many
//! games, the agent of each seat parsed once ([`AgentSpec`]), the action cap, what each game
//! checks besides playing ([`Checks`]), restricted play ([`Forbid`]) and the threads. Game `i`
//! is the base setup with seed `first + i`. [`Batch::play`] plays them a batch at a time on
//! the threads, each thread reusing one VM, and hands each outcome over in seed order; a game
//! depends only on its seed and the batch, so the thread count never changes an outcome.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::agent::{AgentSpec, Checks, Forbid, Labels, Outcome, playout_failures};
use crate::content::GameDef;
use crate::figures::Tracker;
use crate::game::{Game, GameError, Setup};
use crate::script::Host;

/// How many games are played between two hand-overs of outcomes: only this many outcomes are
/// held at a time, however many games the batch has.
pub const CHUNK: u64 = 4_096;

/// How game `i` of a batch differs from the base, for runs whose games are not all alike (the
/// seat a bot sits in, or the number of seats, changing from game to game): it is given the
/// game's number, its setup (seed already `first + i`) and the seats' agents to change.
pub type Vary = Arc<dyn Fn(u64, &mut Setup, &mut Vec<AgentSpec>) + Send + Sync>;

/// Seeded games to play alike; see the module's documentation.
#[derive(Clone)]
pub struct Batch {
    pub def: Arc<GameDef>,
    /// The setup of the first game; game `i` has seed `setup.seed + i`.
    pub setup: Setup,
    pub games: u64,
    /// The agent of each seat; the last plays the seats past the list (none: random).
    pub seats: Vec<AgentSpec>,
    /// The most actions a game may take before it is stopped ([`Outcome::capped`]).
    pub cap: u32,
    pub checks: Checks,
    pub forbid: Forbid,
    /// Worker threads (at least one, at most one a game).
    pub threads: usize,
    pub vary: Option<Vary>,
}

impl Batch {
    /// One game of `setup` with `agents` (checked against `def` here, once), at most `cap`
    /// actions, only played, on one thread; the rest is set with the builder methods.
    pub fn new(
        def: &Arc<GameDef>,
        setup: Setup,
        agents: &[String],
        cap: u32,
    ) -> Result<Batch, String> {
        let seats = AgentSpec::parse_all(agents, def)?;
        Ok(Batch::of_specs(def, setup, seats, cap))
    }

    /// [`Batch::new`] with the agents already parsed.
    pub fn of_specs(def: &Arc<GameDef>, setup: Setup, seats: Vec<AgentSpec>, cap: u32) -> Batch {
        Batch {
            def: def.clone(),
            setup,
            games: 1,
            seats,
            cap,
            checks: Checks::NONE,
            forbid: Forbid::NONE,
            threads: 1,
            vary: None,
        }
    }

    pub fn games(mut self, games: u64) -> Batch {
        self.games = games;
        self
    }

    pub fn checks(mut self, checks: Checks) -> Batch {
        self.checks = checks;
        self
    }

    /// Labels made at the decisions `labels` picks, nothing else checked.
    pub fn labels(self, labels: Labels) -> Batch {
        self.checks(labels.into())
    }

    pub fn forbid(mut self, forbid: Forbid) -> Batch {
        self.forbid = forbid;
        self
    }

    pub fn threads(mut self, threads: usize) -> Batch {
        self.threads = threads;
        self
    }

    /// Game `i` changed by `vary` (see [`Vary`]).
    pub fn vary(
        mut self,
        vary: impl Fn(u64, &mut Setup, &mut Vec<AgentSpec>) + Send + Sync + 'static,
    ) -> Batch {
        self.vary = Some(Arc::new(vary));
        self
    }

    /// Plays every game, `CHUNK` at a time on the threads, handing each outcome to `each` in
    /// seed order as its chunk ends. `done` is called once after each game (for progress
    /// bars). Once `stop` is set no more games start (each thread looks before each game):
    /// the outcomes handed over are then those of the games played before it was.
    pub fn play(&self, stop: &AtomicBool, done: &(dyn Fn() + Sync), each: &mut dyn FnMut(Outcome)) {
        let mut first = 0u64;
        while first < self.games && !stop.load(Ordering::Relaxed) {
            let n = (self.games - first).min(CHUNK);
            for o in self.play_chunk(first, n, stop, done) {
                each(o);
            }
            first += n;
        }
    }

    /// Every game's outcome, in seed order ([`Batch::play`], never stopped).
    pub fn outcomes(&self) -> Vec<Outcome> {
        let mut out = Vec::new();
        self.play(&AtomicBool::new(false), &|| {}, &mut |o| out.push(o));
        out
    }

    /// Game `i` alone, exactly as [`Batch::play`] plays it, on the VM in `vm` when there is one
    /// of the same content (left there by an earlier game; a reset VM plays the same game as a
    /// new one) and leaving its VM there after. `keep`, when given, gets the actions taken: up
    /// to the one that failed, or to the cap.
    pub fn play_one(
        &self,
        i: u64,
        vm: &mut Option<Host>,
        keep: Option<&mut Vec<String>>,
    ) -> Outcome {
        let (setup, seats) = self.game(i);
        play_game(self, setup, &seats, vm, keep)
    }

    /// The setup and seats of game `i`.
    fn game(&self, i: u64) -> (Setup, Cow<'_, [AgentSpec]>) {
        let mut setup = self.setup.clone();
        setup.seed = self.setup.seed.wrapping_add(i);
        match &self.vary {
            None => (setup, Cow::Borrowed(&self.seats)),
            Some(vary) => {
                let mut seats = self.seats.clone();
                vary(i, &mut setup, &mut seats);
                (setup, Cow::Owned(seats))
            }
        }
    }

    /// Games `first..first + n` on the threads, in order; those `stop` left out are missing.
    fn play_chunk(
        &self,
        first: u64,
        n: u64,
        stop: &AtomicBool,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Outcome> {
        let threads = self.threads.clamp(1, n.max(1) as usize);
        let mine = |t: usize| (first + t as u64..first + n).step_by(threads);
        let work = |t: usize| {
            let mut played = Vec::new();
            let mut vm = None;
            for i in mine(t) {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                played.push((i, self.play_one(i, &mut vm, None)));
                done();
            }
            played
        };
        // The games of a thread that panicked, each with that error.
        let lost = |t: usize| {
            mine(t).map(|i| {
                let seed = self.game(i).0.seed;
                let error = Some("a simulation thread panicked".into());
                let o = Outcome {
                    error,
                    ..Outcome::of(seed)
                };
                (i, o)
            })
        };
        let mut out: Vec<(u64, Outcome)> = Vec::with_capacity(n as usize);
        if threads == 1 {
            // On the calling thread (`bench`, a Studio replay): no thread to start.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(0))) {
                Ok(v) => out.extend(v),
                Err(_) => out.extend(lost(0)),
            }
        } else {
            let work = &work;
            std::thread::scope(|s| {
                let workers: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t))).collect();
                for (t, w) in workers.into_iter().enumerate() {
                    match w.join() {
                        Ok(v) => out.extend(v),
                        Err(_) => out.extend(lost(t)),
                    }
                }
            });
        }
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, o)| o).collect()
    }
}

/// One game of `batch` with `setup` and `seats`, on the VM in `vm` when it fits (left there
/// after); `keep`, when given, gets the actions taken.
fn play_game(
    batch: &Batch,
    setup: Setup,
    seats: &[AgentSpec],
    vm: &mut Option<Host>,
    keep: Option<&mut Vec<String>>,
) -> Outcome {
    let (def, checks) = (&batch.def, batch.checks);
    let seed = setup.seed;
    let mut out = Outcome::of(seed);
    let mut agents: Vec<_> = (0..setup.seats)
        .map(|seat| {
            seats
                .get(usize::from(seat))
                .or(seats.last())
                .unwrap_or(&AgentSpec::Random)
                .agent(seed, seat)
        })
        .collect();
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
    let r = run(&mut game, &mut agents, batch, &mut out, tracker.as_mut());
    if let Err(e) = r {
        out.error = Some(e.to_string());
        out.stopped_at = Some(out.actions + 1);
    } else if out.capped {
        out.stopped_at = Some(out.actions);
    }
    let failures = playout_failures(&agents);
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

/// Plays `game` to its end or to the batch's cap, filling in `out` as it goes.
fn run(
    game: &mut Game,
    agents: &mut [crate::agent::Agent],
    batch: &Batch,
    out: &mut Outcome,
    mut tracker: Option<&mut Tracker>,
) -> Result<(), GameError> {
    let (cap, labels, forbid) = (batch.cap, batch.checks.labels, &batch.forbid);
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
