//! Agents choose actions: the random agent, and the scripted bots a mod ships.
//!
//! Each agent has its own generator, seeded from the game seed and its seat, so a seeded
//! simulation is repeatable without agents drawing from the game's own random numbers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::content::GameDef;
use crate::game::{Game, GameError, Setup};
use crate::rng::Rng;
use crate::script::Host;
use crate::state::GameResult;

#[derive(Debug, Clone)]
pub enum Agent {
    /// Picks uniformly among the legal actions.
    Random(Rng),
    /// A bot script of the mod, by id.
    Bot { id: String, rng: Rng },
}

impl Agent {
    /// `spec` is `random` or the id of one of the mod's bots.
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
        let mut names: Vec<&str> = vec!["random"];
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
        }
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
    /// Calls, steps and time per hook and bot, when the run keeps a profile (see
    /// [`play_many_profiled`]); empty otherwise.
    #[serde(skip)]
    pub profile: crate::script::Profile,
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
    play_reusing_profiled(def, setup, agents, cap, vm, false)
}

/// [`play_reusing`], keeping a profile of the game's hook and bot calls in the outcome when
/// `profile` is set.
pub fn play_reusing_profiled(
    def: &Arc<GameDef>,
    setup: Setup,
    agents: &[String],
    cap: u32,
    vm: &mut Option<Host>,
    profile: bool,
) -> Outcome {
    let seed = setup.seed;
    let mut out = Outcome {
        seed,
        result: None,
        actions: 0,
        turns: 0,
        capped: false,
        error: None,
        profile: Default::default(),
    };
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
            host.set_profiling(profile);
            Game::with_host(setup, host)
        }
        _ if profile => Game::with_profile(def.clone(), setup),
        _ => Game::new(def.clone(), setup),
    };
    let mut game = match started {
        Ok(g) => g,
        Err(e) => {
            out.error = Some(e.to_string());
            return out;
        }
    };
    let r = run(&mut game, &mut ags, cap, &mut out);
    if let Err(e) = r {
        out.error = Some(e.to_string());
    }
    out.turns = game.state().turn;
    out.result = game.result().cloned();
    out.profile = game.host().take_profile();
    *vm = Some(game.into_host());
    out
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
    play_many_profiled(def, games, cap, threads, done, stop, false)
}

/// [`play_many_until`], keeping a profile of each game's hook and bot calls in its outcome
/// when `profile` is set (`farebox sim --profile`).
pub fn play_many_profiled(
    def: &Arc<GameDef>,
    games: &[Match],
    cap: u32,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    profile: bool,
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
                        let o = play_reusing_profiled(
                            def,
                            m.setup.clone(),
                            &m.agents,
                            cap,
                            &mut vm,
                            profile,
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
                                seed: m.setup.seed,
                                result: None,
                                actions: 0,
                                turns: 0,
                                capped: false,
                                error: Some("a simulation thread panicked".into()),
                                profile: Default::default(),
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
) -> Result<(), GameError> {
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
        let seat = game.active() as usize;
        let i = match agents.get_mut(seat) {
            Some(a) => a.choose(game, &actions)?,
            None => 0,
        };
        let action = actions.get(i).cloned().unwrap_or_default();
        game.apply_legal(&action)?;
        out.actions += 1;
    }
    Ok(())
}
