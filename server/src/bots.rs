//! The bot threads: where every bot move of every table is worked out, off the game threads
//! that answer people.
//!
//! A game thread never runs a bot. When a bot is to act at one of its tables (a bot's seat,
//! or a person's played by a stand-in), it sends a [`Think`] to the bot thread of that table
//! (a hash of the code, so a table's bots always think on the same thread) with the actions
//! taken since its last request, and goes on answering people. The bot thread keeps a replica
//! of each table's game (made on that thread from the same mod, setup and actions: the engine
//! is deterministic, so the replica is the same game), brings it up to date, lets the seat's
//! bot choose, and sends the move back to the table's game thread as the hub's `Cmd::BotMove`, which
//! takes it only if the table is still where the bot saw it (same action number, a bot still
//! to act). So a search bot that thinks for a second delays no person at any table, its own
//! included: a person's action, a join or a look is answered while it thinks.
//!
//! The threads are in two lanes: the search bot's, whose decisions take up to seconds, and
//! the quick one of every other bot (random, a mod's bot script), so a search thinking at one
//! table never keeps a person at another waiting for their quick opponent. A table has a
//! replica in each lane its bots use.
//!
//! Each seat's agent lives in the replica and is made once from its spec with the table's bot
//! seed, as it was on the game thread: a table's bots choose what they chose before.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::{Game, Setup};

use crate::route::thread_of;

/// Which bot threads a bot thinks on: the search bot's lane or the quick lane.
pub fn lane(spec: &str) -> usize {
    usize::from(spec == "search" || spec.starts_with("search:"))
}

/// A request for a bot's move at a table.
pub struct Think {
    pub code: String,
    pub def: Arc<GameDef>,
    pub setup: Setup,
    /// The table's actions from `from` on (all of them when the replica is new).
    pub from: usize,
    pub actions: Vec<String>,
    /// For a replica made afresh (`from` 0): the indexes of the actions bots' seats took,
    /// which each such bot (of this lane) chooses again as the replica is brought up to date,
    /// so its generator is where it was (after a server restart, say); and each seat's bot
    /// spec (None: a person's seat).
    pub catch_up: Vec<u32>,
    pub bots: Vec<Option<String>>,
    /// The seat to act and the bot that plays it now.
    pub seat: u8,
    pub spec: String,
    pub bot_seed: u64,
}

/// A bot's move (or why it has none) for the table `code` at action `number`: what the bot
/// threads hand back to whoever started them ([`BotPool::start`]; the hub sends it to the
/// table's game thread).
pub struct Moved {
    pub code: String,
    pub number: u64,
    pub result: Result<String, String>,
}

/// Where the bot threads hand each [`Moved`].
pub type Reply = Arc<dyn Fn(Moved) + Send + Sync>;

pub enum BotCmd {
    Think(Box<Think>),
    /// The table is gone: drop its replica.
    Forget(String),
    Stop,
}

/// The handle the game threads hold.
pub struct BotPool {
    /// The senders of each lane's threads ([`lane`]).
    lanes: [Vec<Sender<BotCmd>>; 2],
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BotPool {
    /// `n` search bot threads and one quick bot thread, that hand each move to `reply`.
    pub fn start(n: usize, reply: Reply) -> BotPool {
        let mut lanes: [Vec<Sender<BotCmd>>; 2] = [vec![], vec![]];
        let mut threads = vec![];
        for (lane, count, name) in [(0, 1, "quick"), (1, n.max(1), "search")] {
            for i in 0..count {
                let (tx, rx) = channel();
                lanes[lane].push(tx);
                let reply = reply.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("farebox-bots-{name}-{i}"))
                    .spawn(move || run(rx, &reply));
                if let Ok(h) = spawned {
                    threads.push(h);
                }
            }
        }
        BotPool { lanes, threads }
    }

    /// Sends a request to the thread of `code` in `lane`.
    pub fn send(&self, lane: usize, code: &str, cmd: BotCmd) {
        let senders = &self.lanes[lane.min(1)];
        if let Some(s) = senders.get(thread_of(code, senders.len())) {
            let _ = s.send(cmd);
        }
    }

    /// Tells every lane that the table `code` is gone.
    pub fn forget(&self, code: &str) {
        for lane in 0..2 {
            self.send(lane, code, BotCmd::Forget(code.to_string()));
        }
    }

    pub fn stop(&mut self) {
        for s in self.lanes.iter().flatten() {
            let _ = s.send(BotCmd::Stop);
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for BotPool {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A table's game as the bot thread keeps it, and the agents of its seats by spec.
struct Replica {
    game: Game,
    agents: HashMap<(u8, String), Agent>,
}

fn run(rx: Receiver<BotCmd>, reply: &Reply) {
    let mut replicas: HashMap<String, Replica> = HashMap::new();
    while let Ok(cmd) = rx.recv() {
        match cmd {
            BotCmd::Stop => return,
            BotCmd::Forget(code) => {
                replicas.remove(&code);
            }
            BotCmd::Think(t) => {
                let number = (t.from + t.actions.len()) as u64;
                let result = think(&mut replicas, &t);
                if result.is_err() {
                    // A replica that went wrong is made afresh next time.
                    replicas.remove(&t.code);
                }
                reply(Moved {
                    code: t.code.clone(),
                    number,
                    result,
                });
            }
        }
    }
}

/// Brings the replica up to date and lets the seat's bot choose: the action, or why not.
fn think(replicas: &mut HashMap<String, Replica>, t: &Think) -> Result<String, String> {
    let stale = replicas
        .get(&t.code)
        .is_none_or(|r| r.game.history().len() != t.from);
    if stale {
        if t.from != 0 {
            return Err("the bot's copy of the game is out of step".into());
        }
        let game = Game::new(t.def.clone(), t.setup.clone()).map_err(|e| e.to_string())?;
        replicas.insert(
            t.code.clone(),
            Replica {
                game,
                agents: HashMap::new(),
            },
        );
    }
    let r = replicas
        .get_mut(&t.code)
        .ok_or_else(|| "no replica".to_string())?;
    let lane_of = lane(&t.spec);
    let mut again = t.catch_up.iter().peekable();
    for (i, a) in t.actions.iter().enumerate() {
        let index = (t.from + i) as u32;
        while again.next_if(|&&k| k < index).is_some() {}
        if again.next_if(|&&k| k == index).is_some() {
            let seat = r.game.active();
            // (A random player chooses on the game thread, never here.)
            if let Some(Some(spec)) = t.bots.get(seat as usize)
                && spec != "random"
                && lane(spec) == lane_of
            {
                let legal = r.game.legal_actions().map_err(|e| e.to_string())?;
                let agent = agent_for(&mut r.agents, t, seat, spec)?;
                agent
                    .choose(&mut r.game, &legal)
                    .map_err(|e| e.to_string())?;
            }
        }
        r.game.apply(a).map_err(|e| e.to_string())?;
    }
    if r.game.active() != t.seat {
        return Err("the bot's copy of the game has another seat to act".into());
    }
    let legal = r.game.legal_actions().map_err(|e| e.to_string())?;
    if legal.is_empty() {
        return Err("the seat to act has no legal action".into());
    }
    let agent = agent_for(&mut r.agents, t, t.seat, &t.spec)?;
    let i = agent
        .choose(&mut r.game, &legal)
        .map_err(|e| e.to_string())?;
    legal
        .get(i)
        .cloned()
        .ok_or_else(|| format!("a bot chose action {i} of {}", legal.len()))
}

/// The agent of `seat` playing as `spec` in a replica, made on first use from the table's bot
/// seed (never the game's).
fn agent_for<'a>(
    agents: &'a mut HashMap<(u8, String), Agent>,
    t: &Think,
    seat: u8,
    spec: &str,
) -> Result<&'a mut Agent, String> {
    let key = (seat, spec.to_string());
    if !agents.contains_key(&key) {
        let agent = Agent::from_spec(spec, &t.def, t.bot_seed, seat)
            .or_else(|_| Agent::from_spec("random", &t.def, t.bot_seed, seat))?;
        agents.insert(key.clone(), agent);
    }
    agents.get_mut(&key).ok_or_else(|| "no agent".to_string())
}
