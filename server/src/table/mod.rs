//! A table: one game, its seats (people, bots, open seats), its watchers and its recording.
//! A table lives on one game thread (a `Game` holds a Luau VM, which must stay on its thread)
//! and is driven by that thread's loop ([`crate::hub`]).
//!
//! Every message a connection gets is built here for that connection's seat alone: the
//! seat's view, the labels the rules give that seat, and the actions offered only to the
//! seat to act and only on the connection of the person playing it. People coming and going
//! are in `seats.rs`, the records of a game in `records.rs`.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::{Chronicle, Game, Own, Setup, TableView};
use farebox::replay::{Recorder, Replay, seat_transcript};
use farebox::value::Value;

mod records;
mod seats;
mod stored;
pub use stored::{Resumed, resume_tables};

pub use records::save_replay;

use crate::conn::Conn;
use crate::protocol::{
    DownloadKind, LOG_KEPT, MAX_SEARCH_PLAYOUTS, Offer, PERSON, SeatStatus, ServerMsg, Sitter,
    TableBoard, Update,
};
use crate::store::Store;

/// Refused actions (other than stale ones) and bad requests a connection may make before it
/// is cut off.
pub const MAX_STRIKES: u32 = 8;

/// The random player's spec.
const RANDOM: &str = "random";

/// The shortest and longest turn clock a table may set, in seconds a decision.
pub const MIN_CLOCK_SECS: u32 = 5;
pub const MAX_CLOCK_SECS: u32 = 24 * 60 * 60;

/// What a table is made from.
#[derive(Debug, Clone)]
pub struct TableSpec {
    pub mod_id: String,
    /// [`PERSON`] or a bot spec, per seat.
    pub seats: Vec<String>,
    pub options: BTreeMap<String, String>,
    /// Seconds a person has for each decision (None: the server's clock).
    pub clock: Option<u32>,
}

/// The table's settings from the server.
#[derive(Debug, Clone)]
pub struct TableConfig {
    /// The time a person has for each decision before the stand-in bot takes it for them
    /// (None: no clock). A table's own clock ([`TableSpec::clock`]) is used when it has one.
    pub clock: Option<Duration>,
    /// How long a person may be gone before a bot plays their seat.
    pub grace: Duration,
    /// Send every connection the whole game (tests of the leak test only).
    pub leak_for_tests: bool,
    /// Where finished games' replays are saved ([`save_replay`]), if anywhere.
    pub replays: Option<PathBuf>,
}

enum Holder {
    Open,
    /// A bot's seat: its spec (its agent thinks on a bot thread, [`crate::bots`]).
    Bot {
        spec: String,
    },
    Person {
        name: String,
        /// The BLAKE3 hash of the seat's token: the token itself is kept by its person only.
        token_hash: [u8; 32],
        conn: Option<Conn>,
        /// When they dropped out (None while connected).
        left: Option<Instant>,
        /// Whether the stand-in bot plays for them (the grace period is over), until they
        /// come back.
        standin: bool,
    },
}

pub struct Table {
    pub code: String,
    /// The address whose connection made the table (None: the server's own caller).
    pub creator: Option<std::net::IpAddr>,
    /// Whether a person ever took a seat or watched: only such a game's replay is saved on
    /// disk (a table of bots nobody came to would fill the disk for nobody).
    people_played: bool,
    def: Arc<GameDef>,
    game: Game,
    recorder: Option<Recorder>,
    replay: Option<Replay>,
    /// The replay is in the replays folder already.
    replay_saved: bool,
    holders: Vec<Holder>,
    watchers: Vec<Conn>,
    /// The bot that stands in for a person gone longer than the grace period.
    standin: String,
    bot_seed: u64,
    cfg: TableConfig,
    /// The legal actions now (the seat to act's).
    legal: Vec<String>,
    /// Their offers to the seat to act (labels and the board spaces they name), made once per
    /// state and only when a person plays.
    offers: Option<Vec<Offer>>,
    /// A rule script failed: the table stops, with this reason.
    failed: Option<String>,
    strikes: HashMap<u64, u32>,
    pub last_activity: Instant,
    /// The time each person has for a decision, when the current decision began, and whether
    /// it ran out (then the stand-in bot takes this one decision).
    clock: Option<Duration>,
    decision_since: Instant,
    timed_out: bool,
    /// The action number a bot was asked to think at (its move is awaited), how many of the
    /// game's actions the replica in each bot lane has been sent ([`crate::bots::lane`]), and
    /// whether a failed bot request was already tried again from the start.
    thinking: Option<u64>,
    bot_sent: [usize; 2],
    /// The indexes (in the game's history) of the actions taken by bots' seats: a bot
    /// thread's replica made afresh (after a restart) lets each such bot choose them again, so
    /// its generator is where it was and it goes on choosing as it would have.
    bot_actions: Vec<u32>,
    /// The random players of its seats: a random choice costs next to nothing, so it is made
    /// here on the game thread rather than on a bot thread with a replica of the game.
    randoms: HashMap<u8, Agent>,
    bot_retried: bool,
    /// The board as it lies on the table now (graph, sections and track boards), and whether
    /// the last action changed it (then every update after it carries it).
    board: Option<TableBoard>,
    board_changed: bool,
    /// The last [`LOG_KEPT`] actions with their labels, for each seat's log.
    told: Chronicle,
    /// Where the table is kept as it is played (`stored.rs`), if anywhere.
    store: Option<std::rc::Rc<Store>>,
}

fn bot_ok(spec: &str, def: &GameDef) -> Result<(), String> {
    if let Some(n) = spec.strip_prefix("search:") {
        let playouts: u32 = n
            .split(':')
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("`{}` is not a search bot (search:N)", cut(spec)))?;
        if playouts > MAX_SEARCH_PLAYOUTS {
            return Err(format!(
                "a search bot on a server may use at most {MAX_SEARCH_PLAYOUTS} playouts, not {playouts}"
            ));
        }
    } else if spec == "search" {
        return Err(format!(
            "name the search bot's playouts (search:N, N at most {MAX_SEARCH_PLAYOUTS})"
        ));
    }
    Agent::from_spec(spec, def, 0, 0).map(|_| ())
}

/// A short piece of a client's text, for messages.
pub fn cut(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        s.chars().take(60).collect::<String>() + "…"
    }
}

/// A token nobody can guess: 128 bits from the operating system, in hex.
pub fn token() -> String {
    format!("{:016x}{:016x}", os_random(), os_random())
}

/// 64 bits from the operating system's generator (never from a game's seed). Without one,
/// std's hasher keys, which std also takes from the operating system.
pub fn os_random() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0);
        h.finish()
    })
}

impl Table {
    pub fn new(
        code: String,
        def: Arc<GameDef>,
        spec: &TableSpec,
        seed: u64,
        bot_seed: u64,
        cfg: TableConfig,
    ) -> Result<Table, String> {
        let n = spec.seats.len();
        let seats = u8::try_from(n).map_err(|_| "too many seats".to_string())?;
        let mut setup = Setup::new(seats, seed);
        if spec.options.len() > 64 {
            return Err("at most 64 options".into());
        }
        for (k, v) in &spec.options {
            setup = setup.option(k, Value::Str(v.clone()));
        }
        let mut holders = Vec::with_capacity(n);
        for (i, s) in spec.seats.iter().enumerate() {
            if s == PERSON {
                holders.push(Holder::Open);
            } else {
                bot_ok(s, &def)?;
                Agent::from_spec(s, &def, bot_seed, i as u8)?;
                holders.push(Holder::Bot { spec: s.clone() });
            }
        }
        let clock = match spec.clock {
            Some(secs) if !(MIN_CLOCK_SECS..=MAX_CLOCK_SECS).contains(&secs) => {
                return Err(format!(
                    "a turn clock is {MIN_CLOCK_SECS} to {MAX_CLOCK_SECS} seconds a decision, not {secs}"
                ));
            }
            Some(secs) => Some(Duration::from_secs(u64::from(secs))),
            None => cfg.clock,
        };
        let game = Game::new(def.clone(), setup).map_err(|e| e.to_string())?;
        let recorder = Some(Recorder::new(&game));
        let told = Chronicle::new(&game, LOG_KEPT);
        let board = TableBoard::of(&def, &game.state().board);
        let standin = def
            .standin_bot()
            .map_or_else(|| "random".to_string(), |b| b.id.clone());
        let mut t = Table {
            code,
            creator: None,
            people_played: false,
            def,
            game,
            recorder,
            replay: None,
            replay_saved: false,
            holders,
            watchers: vec![],
            standin,
            bot_seed,
            cfg,
            legal: vec![],
            offers: None,
            failed: None,
            strikes: HashMap::new(),
            last_activity: Instant::now(),
            clock,
            decision_since: Instant::now(),
            timed_out: false,
            thinking: None,
            bot_sent: [0; 2],
            bot_actions: vec![],
            randoms: HashMap::new(),
            bot_retried: false,
            board,
            board_changed: false,
            told,
            store: None,
        };
        t.refresh();
        Ok(t)
    }

    pub fn number(&self) -> u64 {
        self.game.history().len() as u64
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over() || self.failed.is_some()
    }

    pub fn def(&self) -> &Arc<GameDef> {
        &self.def
    }

    /// Every connection at the table.
    pub fn conns(&self) -> impl Iterator<Item = &Conn> {
        self.holders
            .iter()
            .filter_map(|h| match h {
                Holder::Person { conn: Some(c), .. } => Some(c),
                _ => None,
            })
            .chain(&self.watchers)
    }

    pub fn has_conns(&self) -> bool {
        self.conns().next().is_some()
    }

    /// Saves the finished game's replay in the replays folder, once, when a person sat or
    /// watched: at the end of the game, or when the first one comes to a table whose game is
    /// already over (bots can finish before a watcher's join arrives).
    pub(crate) fn keep_replay(&mut self) {
        if self.replay_saved || !self.people_played {
            return;
        }
        let (Some(dir), Some(replay)) = (self.cfg.replays.as_ref(), self.replay.as_ref()) else {
            return;
        };
        self.replay_saved = true;
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let name = format!("{}-{}-{secs}", self.def.id, self.code);
        if let Err(e) = save_replay(dir, &name, &replay.to_json()) {
            let reason = format!(
                "the server could not save this game's replay in {}: {e}",
                dir.display()
            );
            for c in self.conns() {
                c.send(&ServerMsg::Error {
                    reason: reason.clone(),
                });
            }
        }
    }

    /// Reads the legal actions of the state now; a failing rule stops the table.
    fn refresh(&mut self) {
        self.offers = None;
        if self.game.is_over() {
            self.legal.clear();
            if let Some(r) = self.recorder.take() {
                self.replay = Some(r.finish(&self.game));
                self.keep_replay();
            }
            return;
        }
        match self.game.legal_actions() {
            Ok(a) if a.is_empty() => {
                self.fail("the seat to act has no legal action, and the game is not over".into())
            }
            Ok(a) => self.legal = a,
            Err(e) => self.fail(e.to_string()),
        }
    }

    fn fail(&mut self, why: String) {
        self.stop(format!("the table stopped: a rule failed: {why}"));
    }

    /// Stops the table for good, telling everyone why.
    fn stop(&mut self, reason: String) {
        self.legal.clear();
        for c in self.conns() {
            c.send(&ServerMsg::Error {
                reason: reason.clone(),
            });
        }
        self.failed = Some(reason);
    }

    /// The bot to act now, if one is: a bot's seat's, or the stand-in's on a person's seat
    /// whose person is gone past the grace period or whose clock ran out.
    pub fn bot_to_act(&self) -> Option<&str> {
        if self.is_over() || self.legal.is_empty() {
            return None;
        }
        match self.holders.get(self.game.active() as usize) {
            Some(Holder::Bot { spec }) => Some(spec),
            Some(Holder::Person { standin, .. }) if *standin || self.timed_out => {
                Some(&self.standin)
            }
            _ => None,
        }
    }

    /// The random player's choice among the legal actions of `seat` now (its generator made
    /// on first use from the table's bot seed): the action's index.
    pub(super) fn random_choice(&mut self, seat: u8) -> Result<usize, String> {
        if !self.randoms.contains_key(&seat) {
            let a = Agent::from_spec(RANDOM, &self.def, self.bot_seed, seat)?;
            self.randoms.insert(seat, a);
        }
        let agent = self
            .randoms
            .get_mut(&seat)
            .ok_or_else(|| "no random player".to_string())?;
        agent
            .choose(&mut self.game, &self.legal)
            .map_err(|e| e.to_string())
    }

    /// Whether the random player is to act (its move is made on the game thread).
    pub fn random_to_act(&self) -> bool {
        self.bot_to_act() == Some(RANDOM)
    }

    /// When the bot to act is the random player: takes its action here and now. True when
    /// it acted.
    pub fn step_random(&mut self) -> bool {
        if self.bot_to_act() != Some(RANDOM) {
            return false;
        }
        let seat = self.game.active();
        match self.random_choice(seat) {
            Ok(i) => match self.legal.get(i).cloned() {
                Some(a) => self.take(seat, &a, true),
                None => self.fail(format!("a bot chose action {i} of {}", self.legal.len())),
            },
            Err(e) => self.fail(e),
        }
        true
    }

    /// A request for the bot to act, when one is to act and none has been asked yet at this
    /// action: it carries the actions the bot thread's replica has not seen.
    pub fn bot_request(&mut self) -> Option<crate::bots::Think> {
        let spec = self.bot_to_act()?.to_string();
        if spec == RANDOM {
            return None;
        }
        let number = self.number();
        if self.thinking == Some(number) {
            return None;
        }
        self.thinking = Some(number);
        let history = self.game.history();
        let lane = crate::bots::lane(&spec);
        let from = self.bot_sent[lane].min(history.len());
        let actions = history[from..].to_vec();
        self.bot_sent[lane] = history.len();
        let catch_up = if from == 0 {
            self.bot_actions.clone()
        } else {
            vec![]
        };
        let bots = self
            .holders
            .iter()
            .map(|h| match h {
                Holder::Bot { spec } => Some(spec.clone()),
                _ => None,
            })
            .collect();
        Some(crate::bots::Think {
            catch_up,
            bots,
            code: self.code.clone(),
            def: self.def.clone(),
            setup: self.game.setup().clone(),
            from,
            actions,
            seat: self.game.active(),
            spec,
            bot_seed: self.bot_seed,
        })
    }

    /// The milliseconds left on the clock of `h`'s decision (a person's seat at a table with a
    /// clock; none while a bot plays it).
    fn clock_left(&self, h: &Holder) -> Option<u64> {
        let clock = self.clock?;
        match h {
            Holder::Person { standin: false, .. } if !self.timed_out => {
                let left = clock.saturating_sub(self.decision_since.elapsed());
                Some(left.as_millis() as u64)
            }
            _ => None,
        }
    }

    /// A bot's move, worked out on a bot thread at action `number`: taken if the table is
    /// still there and a bot still to act (a person who came back in the meantime keeps the
    /// decision).
    pub fn bot_move(&mut self, number: u64, result: Result<String, String>) {
        if self.thinking == Some(number) {
            self.thinking = None;
        }
        if number != self.number() || self.bot_to_act().is_none() {
            return;
        }
        match result {
            Ok(action) if self.legal.contains(&action) => {
                self.bot_retried = false;
                let seat = self.game.active();
                self.take(seat, &action, true);
            }
            Ok(action) => self.fail(format!(
                "a bot chose `{}`, which is not a legal action",
                cut(&action)
            )),
            // Once, the bot thread's copy of the game is made again from the start.
            Err(_) if !self.bot_retried => {
                self.bot_retried = true;
                self.bot_sent = [0; 2];
            }
            Err(e) => self.fail(e),
        }
    }

    /// Applies an action of the seat to act (legal: from `self.legal`), records it in the
    /// store, and only then tells everyone.
    fn take(&mut self, seat: u8, action: &str, by_bot: bool) {
        if self.advance(seat, action, by_bot).is_none() {
            return;
        }
        if !self.store_action(seat, action, by_bot) {
            return;
        }
        self.broadcast();
    }

    /// Applies an action of the seat to act (legal: from `self.legal`) to the game, its
    /// recording and its log; None when a rule failed.
    fn advance(&mut self, seat: u8, action: &str, by_bot: bool) -> Option<()> {
        // Labels are made before the action: the public one, and the seat's own when a
        // person sits there or may yet (it is shown to them live, or when they (re)join).
        let own = if matches!(
            self.holders.get(seat as usize),
            Some(Holder::Open | Holder::Person { .. })
        ) {
            Own::Ask
        } else {
            Own::Nobody
        };
        let index = self.game.history().len() as u32;
        if let Err(e) = self.told.take(&mut self.game, action, own, by_bot) {
            self.fail(e.to_string());
            return None;
        }
        if matches!(self.holders.get(seat as usize), Some(Holder::Bot { .. })) {
            self.bot_actions.push(index);
        }
        if let Some(r) = &mut self.recorder {
            r.step(seat, action, &self.game);
        }
        self.last_activity = Instant::now();
        self.decision_since = self.last_activity;
        self.timed_out = false;
        self.refresh();
        let board = TableBoard::of(&self.def, &self.game.state().board);
        self.board_changed = board != self.board;
        self.board = board;
        Some(())
    }

    /// Sends everyone at the table the game after an action (each connection only the log
    /// entries it adds that the connection may read).
    fn broadcast(&mut self) {
        let mut sends: Vec<(Conn, Arc<str>)> = vec![];
        let mut watcher_text: Option<Arc<str>> = None;
        for i in 0..self.holders.len() {
            if let Holder::Person { conn: Some(c), .. } = &self.holders[i] {
                let c = c.clone();
                let u = self.update_for(Some(i as u8), false);
                sends.push((c, ServerMsg::Update(Box::new(u)).to_text().into()));
            }
        }
        for w in self.watchers.clone() {
            let text = match &watcher_text {
                Some(t) => t.clone(),
                None => {
                    let u = self.update_for(None, false);
                    let t: Arc<str> = ServerMsg::Update(Box::new(u)).to_text().into();
                    watcher_text = Some(t.clone());
                    t
                }
            };
            sends.push((w, text));
        }
        for (c, t) in sends {
            c.send_text(t);
        }
    }

    /// The status of every seat, as everyone may see it.
    pub fn seats(&self) -> Vec<SeatStatus> {
        let active = (!self.is_over()).then(|| self.game.active());
        self.holders
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let (kind, player, connected, bot) = match h {
                    Holder::Open => (Sitter::Open, None, false, None),
                    Holder::Bot { spec } => (Sitter::Bot, None, false, Some(spec.clone())),
                    Holder::Person {
                        name,
                        conn,
                        standin,
                        ..
                    } => (
                        Sitter::Person,
                        Some(name.clone()),
                        conn.is_some(),
                        standin.then(|| self.standin.clone()),
                    ),
                };
                SeatStatus {
                    seat: i as u8,
                    name: self.def.seat_name(i),
                    kind,
                    player,
                    connected,
                    bot,
                    to_act: active == Some(i as u8),
                    clock_ms: (active == Some(i as u8))
                        .then(|| self.clock_left(h))
                        .flatten(),
                }
            })
            .collect()
    }

    /// The game as `viewer` may see it; the actions offered when it is that seat's person's
    /// turn. A whole view (`resync`) carries the seat's log as a client at the table since the
    /// start holds it; else the entries the last action added.
    fn update_for(&mut self, viewer: Option<u8>, resync: bool) -> Update {
        let mut view = self.game.view(viewer);
        view.log.clear();
        let (told, log_from) = if resync {
            (self.told.told(&self.game, viewer, LOG_KEPT), 0)
        } else {
            self.told.told_last(&self.game, viewer)
        };
        let mut offered = vec![];
        if let Some(s) = viewer
            && s == self.game.active()
            && !self.is_over()
            && matches!(
                self.holders.get(s as usize),
                Some(Holder::Person {
                    conn: Some(_),
                    standin: false,
                    ..
                })
            )
        {
            if self.offers.is_none() {
                let legal = self.legal.clone();
                self.offers = Some(self.game.offers(legal));
            }
            offered = self.offers.clone().unwrap_or_default();
        }
        let debug = self.cfg.leak_for_tests.then(|| {
            let views: Vec<_> = (0..self.game.setup().seats)
                .map(|s| self.game.view(Some(s)))
                .collect();
            serde_json::json!({
                "seed": self.game.setup().seed,
                "actions": self.game.history(),
                "views": views,
            })
        });
        Update {
            code: self.code.clone(),
            table: TableView {
                number: self.number(),
                viewer,
                view,
                seats: self.seats(),
                offered,
                told,
                board: (resync || self.board_changed)
                    .then(|| self.board.clone())
                    .flatten(),
            },
            resync,
            log_from,
            debug,
        }
    }

    /// Sends a connection its whole view.
    fn send_update(&mut self, conn: &Conn, viewer: Option<u8>) {
        let u = self.update_for(viewer, true);
        conn.send(&ServerMsg::Update(Box::new(u)));
    }

    fn send_seats(&self) {
        let msg = ServerMsg::Seats {
            code: self.code.clone(),
            number: self.number(),
            seats: self.seats(),
        };
        let text: Arc<str> = msg.to_text().into();
        for c in self.conns() {
            c.send_text(text.clone());
        }
    }

    /// A strike against a connection; too many end it.
    fn strike(&mut self, conn: &Conn) {
        let n = self.strikes.entry(conn.id).or_default();
        *n += 1;
        if *n >= MAX_STRIKES {
            conn.end(&format!(
                "{MAX_STRIKES} refused actions or requests: the server ends the connection"
            ));
        }
    }

    /// The seat a connection holds, if any.
    fn seat_of(&self, conn: &Conn) -> Option<u8> {
        self.holders
            .iter()
            .position(|h| matches!(h, Holder::Person { conn: Some(c), .. } if c.id == conn.id))
            .map(|i| i as u8)
    }

    pub fn is_at(&self, conn: &Conn) -> bool {
        self.seat_of(conn).is_some() || self.watchers.iter().any(|w| w.id == conn.id)
    }

    /// A person's action.
    pub fn act(&mut self, conn: &Conn, number: u64, action: &str) {
        let seat = self.seat_of(conn);
        let refuse = |t: &mut Table, reason: String, strike: bool| {
            conn.send(&ServerMsg::Refused {
                code: t.code.clone(),
                number: t.number(),
                reason,
            });
            t.send_update(conn, seat);
            if strike {
                t.strike(conn);
            }
        };
        let Some(seat) = seat else {
            return refuse(self, "you have no seat at this table".into(), true);
        };
        if number != self.number() {
            return refuse(
                self,
                format!(
                    "your action was sent at action {number}, and the table is at action {}: here is the game as it is now",
                    self.number()
                ),
                false,
            );
        }
        if self.is_over() {
            return refuse(self, "the game is over".into(), true);
        }
        if self.game.active() != seat {
            return refuse(
                self,
                format!(
                    "it is not your turn: {} is to act",
                    self.def.seat_name(self.game.active() as usize)
                ),
                true,
            );
        }
        if !self.legal.iter().any(|a| a == action) {
            return refuse(
                self,
                format!("`{}` is not among the actions offered to you", cut(action)),
                true,
            );
        }
        self.take(seat, action, false);
    }

    pub fn resync(&mut self, conn: &Conn) {
        let seat = self.seat_of(conn);
        self.send_update(conn, seat);
    }

    /// A bad request of a connection at this table.
    pub fn refuse_request(&mut self, conn: &Conn, reason: String) {
        conn.send(&ServerMsg::Error { reason });
        self.strike(conn);
    }
}
