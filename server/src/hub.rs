//! The game threads: a small fixed pool, each owning the tables whose code it was made for.
//! A table's code says which thread holds it (a hash of the code), so a message for a table
//! goes straight to its thread with no shared map of tables; the same rule would let a
//! stateless front send a code to the right server (see ARCHITECTURE.md).
//!
//! Each thread loops: it takes every request waiting, puts stand-in bots on seats whose grace
//! period or turn clock is over, asks the bot threads ([`crate::bots`]) for the move of each
//! table whose bot is to act (a game thread never runs a bot, so no bot delays a person), takes
//! the bots' moves as they come back, and drops tables nobody needs any more.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use farebox::GameDef;

use crate::bots::{BotCmd, BotPool};
use crate::conn::Conn;
use crate::guard::Guard;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::route::thread_of;
use crate::store::Store;
use crate::table::{Resumed, Table, TableConfig, TableSpec, cut, os_random, resume_tables};

/// Letters of table codes (no 0/O, 1/I/L: codes are read aloud and typed).
const CODE_LETTERS: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 6;

/// How long a finished table nobody watches is kept (for downloads), and an unfinished one
/// nobody is connected to.
const KEEP_FINISHED: Duration = Duration::from_secs(120);
const KEEP_IDLE: Duration = Duration::from_secs(30 * 60);
/// The most tables one server holds.
pub const MAX_TABLES: usize = 10_000;

pub enum Cmd {
    Create {
        spec: TableSpec,
        /// Told the code (a connection that asked).
        conn: Option<Conn>,
        /// Told the code or why not (the server's own callers).
        reply: Option<Sender<Result<String, String>>>,
    },
    /// A message about the table `code` from a connection.
    Msg {
        code: String,
        conn: Conn,
        msg: ClientMsg,
    },
    /// A connection closed; it was at table `code`.
    Gone {
        code: String,
        conn: u64,
    },
    /// A bot's move at table `code`, worked out on a bot thread at action `number` (or why
    /// the bot could not choose).
    BotMove {
        code: String,
        number: u64,
        result: Result<String, String>,
    },
    Stop,
}

pub struct HubConfig {
    pub mods: BTreeMap<String, Arc<GameDef>>,
    pub threads: usize,
    /// Bot threads ([`crate::bots`]).
    pub bot_threads: usize,
    /// What each address may hold ([`crate::guard`]).
    pub guard: Arc<Guard>,
    pub table: TableConfig,
    /// Seeds tables from this (table k gets seed + k) instead of the operating system: tests.
    pub seed: Option<u64>,
    /// The table store: one connection per game thread, or none (tables in memory only).
    pub stores: Vec<Store>,
}

/// The handle the network side holds.
pub struct Hub {
    senders: Vec<Sender<Cmd>>,
    next: AtomicUsize,
    threads: Vec<std::thread::JoinHandle<()>>,
    tables: Arc<AtomicUsize>,
    bots: Option<Arc<BotPool>>,
    /// The stored tables each thread took up at start (or left).
    resumed: Vec<Resumed>,
}

impl Hub {
    pub fn start(cfg: HubConfig) -> Hub {
        let n = cfg.threads.max(1);
        let mods = Arc::new(cfg.mods);
        let seeds = Arc::new(AtomicUsize::new(0));
        let tables = Arc::new(AtomicUsize::new(0));
        let (senders, receivers): (Vec<Sender<Cmd>>, Vec<Receiver<Cmd>>) =
            (0..n).map(|_| channel()).unzip();
        let games = senders.clone();
        let reply: crate::bots::Reply = Arc::new(move |m: crate::bots::Moved| {
            if let Some(g) = games.get(thread_of(&m.code, games.len())) {
                let _ = g.send(Cmd::BotMove {
                    code: m.code,
                    number: m.number,
                    result: m.result,
                });
            }
        });
        let bots = Arc::new(BotPool::start(cfg.bot_threads, reply));
        let mut threads = vec![];
        let mut stores = cfg.stores.into_iter();
        let (loaded_tx, loaded) = channel();
        for (i, rx) in receivers.into_iter().enumerate() {
            let (store, loaded_tx) = (stores.next(), loaded_tx.clone());
            let guard = cfg.guard.clone();
            let (mods, table_cfg, seed, seeds, count, pool) = (
                mods.clone(),
                cfg.table.clone(),
                cfg.seed,
                seeds.clone(),
                tables.clone(),
                bots.clone(),
            );
            // The tables (and their Luau VMs) are made on the thread and never leave it.
            let spawned = std::thread::Builder::new()
                .name(format!("farebox-tables-{i}"))
                .spawn(move || {
                    let mut w = Worker {
                        index: i,
                        threads: n,
                        mods,
                        table_cfg,
                        seed,
                        seeds,
                        count,
                        pool,
                        guard,
                        tables: HashMap::new(),
                        store: store.map(std::rc::Rc::new),
                        held: HashMap::new(),
                    };
                    let _ = loaded_tx.send(w.resume());
                    drop(loaded_tx);
                    w.run(rx)
                });
            if let Ok(h) = spawned {
                threads.push(h);
            }
        }
        drop(loaded_tx);
        // Every thread has taken up its stored tables before the server answers anyone.
        let resumed = loaded.iter().flatten().collect();
        Hub {
            senders,
            next: AtomicUsize::new(0),
            threads,
            tables,
            bots: Some(bots),
            resumed,
        }
    }

    /// Sends a command to the thread of `code`.
    pub fn to_table(&self, code: &str, cmd: Cmd) {
        let i = thread_of(code, self.senders.len());
        if let Some(s) = self.senders.get(i) {
            let _ = s.send(cmd);
        }
    }

    /// Opens a table on the next thread in turn.
    pub fn create(&self, cmd: Cmd) {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.senders.len().max(1);
        if let Some(s) = self.senders.get(i) {
            let _ = s.send(cmd);
        }
    }

    pub fn tables(&self) -> usize {
        self.tables.load(Ordering::Relaxed)
    }

    /// What became of the stored tables at start.
    pub fn resumed(&self) -> &[Resumed] {
        &self.resumed
    }

    pub fn stop(&mut self) {
        for s in &self.senders {
            let _ = s.send(Cmd::Stop);
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        // The game threads held the other handles: this stops the bot threads.
        self.bots.take();
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        self.stop();
    }
}

struct Worker {
    index: usize,
    threads: usize,
    mods: Arc<BTreeMap<String, Arc<GameDef>>>,
    table_cfg: TableConfig,
    seed: Option<u64>,
    seeds: Arc<AtomicUsize>,
    count: Arc<AtomicUsize>,
    pool: Arc<BotPool>,
    guard: Arc<Guard>,
    /// The tables, each with the address that made it (None: the server's own caller).
    tables: HashMap<String, Table>,
    store: Option<std::rc::Rc<Store>>,
    /// Stored tables not resumed, and why (told to whoever asks for them).
    held: HashMap<String, String>,
}

impl Worker {
    /// Takes up this thread's stored tables.
    fn resume(&mut self) -> Vec<Resumed> {
        let Some(store) = &self.store else {
            return vec![];
        };
        let (tables, said) =
            resume_tables(store, self.index, self.threads, &self.mods, &self.table_cfg);
        for t in tables {
            self.tables.insert(t.code.clone(), t);
            self.count.fetch_add(1, Ordering::Relaxed);
        }
        for r in &said {
            if let Resumed::Held { code, reason } = r {
                self.held.insert(code.clone(), reason.clone());
            }
        }
        said
    }

    fn run(mut self, rx: Receiver<Cmd>) {
        loop {
            let now = Instant::now();
            // A random player to move: no waiting (its move is made below, one a table).
            let wait = if self.tables.values().any(Table::random_to_act) {
                Duration::ZERO
            } else {
                self.tables
                    .values()
                    .filter_map(Table::next_deadline)
                    .min()
                    .map_or(Duration::from_secs(1), |d| {
                        d.saturating_duration_since(now).min(Duration::from_secs(1))
                    })
            };
            match rx.recv_timeout(wait) {
                Ok(Cmd::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Ok(cmd) => {
                    if !self.handle(cmd) {
                        return;
                    }
                    // Everything else waiting, before the bots are asked.
                    while let Ok(cmd) = rx.try_recv() {
                        if !self.handle(cmd) {
                            return;
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            for t in self.tables.values_mut() {
                t.tick(now);
                // One random move a table per round of the loop, so a long game of random
                // players does not hold up the other tables' requests.
                if t.step_random() {
                    continue;
                }
                if let Some(think) = t.bot_request() {
                    let lane = crate::bots::lane(&think.spec);
                    self.pool
                        .send(lane, &t.code, BotCmd::Think(Box::new(think)));
                }
            }
            let (pool, guard, store) = (&self.pool, &self.guard, &self.store);
            self.tables.retain(|code, t| {
                let quiet = now.duration_since(t.last_activity);
                let keep = t.has_conns()
                    || (t.is_over() && quiet < KEEP_FINISHED)
                    || (!t.is_over() && quiet < KEEP_IDLE);
                if !keep {
                    self.count.fetch_sub(1, Ordering::Relaxed);
                    pool.forget(code);
                    guard.table_closed(t.creator);
                    if let Some(s) = store {
                        let _ = s.drop_table(&t.code);
                    }
                }
                keep
            });
        }
    }

    /// False to stop.
    fn handle(&mut self, cmd: Cmd) -> bool {
        match cmd {
            Cmd::Stop => return false,
            Cmd::Create { spec, conn, reply } => {
                let creator = conn.as_ref().and_then(|c| c.addr);
                let r = self.create(&spec, creator);
                if let Some(c) = &conn {
                    match &r {
                        Ok(code) => c.send(&ServerMsg::Created {
                            code: code.clone(),
                            mod_id: spec.mod_id.clone(),
                            seats: spec.seats.len() as u8,
                        }),
                        Err(e) => c.send(&ServerMsg::Error { reason: e.clone() }),
                    };
                }
                if let Some(tx) = reply {
                    let _ = tx.send(r);
                }
            }
            Cmd::Gone { code, conn } => {
                if let Some(t) = self.tables.get_mut(&code) {
                    t.gone(conn);
                }
            }
            Cmd::BotMove {
                code,
                number,
                result,
            } => {
                if let Some(t) = self.tables.get_mut(&code) {
                    t.bot_move(number, result);
                    if t.is_over() {
                        self.pool.forget(&code);
                    }
                }
            }
            Cmd::Msg { code, conn, msg } => {
                let Some(t) = self.tables.get_mut(&code) else {
                    let reason = self.held.get(&code).cloned().unwrap_or_else(|| {
                        format!("there is no table `{}` on this server", cut(&code))
                    });
                    conn.send(&ServerMsg::Error { reason });
                    // Codes are not to be guessed: each unknown one is a strike on the address.
                    if let Some(ip) = conn.addr
                        && !self.held.contains_key(&code)
                        && self.guard.unknown_code(ip)
                    {
                        conn.end(&format!(
                            "this address asked for more than {} tables that do not exist: it is shut out for {} minutes",
                            self.guard.limits().unknown_codes,
                            self.guard.limits().shut_out.as_secs() / 60
                        ));
                    }
                    return true;
                };
                match msg {
                    ClientMsg::Look { .. } => t.look(&conn),
                    ClientMsg::Join {
                        seat,
                        name,
                        content_hash,
                        ..
                    } => t.join(&conn, seat, &name, &content_hash),
                    ClientMsg::Rejoin {
                        token,
                        content_hash,
                        ..
                    } => {
                        t.rejoin(&conn, &token, &content_hash);
                    }
                    ClientMsg::Act { number, action } => t.act(&conn, number, &action),
                    ClientMsg::Resync => {
                        if t.is_at(&conn) {
                            t.resync(&conn);
                        } else {
                            t.refuse_request(&conn, "you are not at this table".into());
                        }
                    }
                    ClientMsg::Download { what } => {
                        if t.is_at(&conn) {
                            t.download(&conn, what);
                        } else {
                            t.refuse_request(&conn, "you are not at this table".into());
                        }
                    }
                    ClientMsg::Leave => t.gone(conn.id),
                    ClientMsg::Create { .. } => {}
                }
            }
        }
        true
    }

    fn create(
        &mut self,
        spec: &TableSpec,
        creator: Option<std::net::IpAddr>,
    ) -> Result<String, String> {
        if self.count.load(Ordering::Relaxed) >= MAX_TABLES {
            return Err(format!(
                "the server holds {MAX_TABLES} tables, its most; try again later"
            ));
        }
        let Some(def) = self.mods.get(&spec.mod_id) else {
            let names: Vec<&str> = self.mods.keys().map(String::as_str).collect();
            return Err(format!(
                "this server does not serve `{}`; it serves {}",
                cut(&spec.mod_id),
                names.join(", ")
            ));
        };
        let (lo, hi) = def.players;
        let n = spec.seats.len() as u32;
        if n < lo || n > hi {
            return Err(format!("{} is for {lo} to {hi} players, not {n}", def.name));
        }
        let (seed, bot_seed) = match self.seed {
            Some(s) => {
                let k = self.seeds.fetch_add(1, Ordering::Relaxed) as u64;
                (
                    s.wrapping_add(k),
                    s.wrapping_add(k).rotate_left(17) ^ 0x5bd1_e995,
                )
            }
            None => (os_random(), os_random()),
        };
        self.guard.open_table(creator)?;
        let code = self.new_code();
        let mut t = match Table::new(
            code.clone(),
            def.clone(),
            spec,
            seed,
            bot_seed,
            self.table_cfg.clone(),
        ) {
            Ok(t) => t,
            Err(e) => {
                self.guard.table_closed(creator);
                return Err(e);
            }
        };
        t.creator = creator;
        if let Some(s) = &self.store
            && let Err(e) = s.create(
                &code,
                &def.id,
                &def.content_hash,
                &spec.options,
                seed,
                bot_seed,
                &spec.seats,
            )
        {
            self.guard.table_closed(creator);
            return Err(format!("the server could not keep a new table: {e}"));
        }
        if let Some(s) = &self.store {
            t.set_store(s.clone());
        }
        self.tables.insert(code.clone(), t);
        self.count.fetch_add(1, Ordering::Relaxed);
        Ok(code)
    }

    /// A new code that routes to this thread.
    fn new_code(&self) -> String {
        loop {
            let mut r = os_random();
            let code: String = (0..CODE_LEN)
                .map(|_| {
                    let c = CODE_LETTERS[(r % CODE_LETTERS.len() as u64) as usize];
                    r /= CODE_LETTERS.len() as u64;
                    c as char
                })
                .collect();
            if thread_of(&code, self.threads) == self.index
                && !self.tables.contains_key(&code)
                && !self.held.contains_key(&code)
                && !self.store.as_ref().is_some_and(|s| s.has(&code))
            {
                return code;
            }
        }
    }
}
