//! The game worker: a thread that owns the game being played (or replayed) and answers the
//! app's requests with snapshots.
//!
//! A game's Luau VM cannot leave the thread that made it, and a bot's move, a rebuild for
//! undo or a replay of the whole history on reloaded rules can take longer than a frame, so
//! the game lives here and the UI thread only ever holds [`Snapshot`]s: what one seat may see,
//! the actions it may take, and the board to draw.
//!
//! Undo rebuilds the game from its setup and the kept history, which replays exactly: every
//! random number comes from the seeded generator. How far back a person may go is decided as
//! each action is applied (see [`Barrier`]).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::board::Board;
use farebox::game::{Chronicle, Game, Own, SeatStatus, Setup, Sitter, TableView, Told};
use farebox::replay::Recorder;
use farebox::state::GameResult;

mod rebase;
pub use rebase::Rebased;

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatKind {
    Person,
    /// `random` or one of the mod's bots, by id.
    Bot(String),
}

impl SeatKind {
    pub fn is_person(&self) -> bool {
        matches!(self, SeatKind::Person)
    }

    /// Who plays each of `seats` (an open seat and a person's are a person's).
    pub fn of(seats: &[SeatStatus]) -> Vec<SeatKind> {
        seats
            .iter()
            .map(|s| match (&s.kind, &s.bot) {
                (Sitter::Bot, Some(b)) => SeatKind::Bot(b.clone()),
                _ => SeatKind::Person,
            })
            .collect()
    }
}

/// An action the seat to act may take, as that seat reads it: the engine's offer, which the
/// online server sends as it is.
pub use farebox::game::Offer as Offered;

/// What the UI draws: one seat's view of a table at one moment, the engine's [`TableView`]
/// (read through it: `snap.view`, `snap.offered`), as the worker builds it for a local game
/// or the server sent it for an online one, with what drawing it needs besides.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub def: Arc<GameDef>,
    pub table: TableView,
    /// The board to draw: the game's own locally, the one the server sent made again online
    /// (the mod's own until it comes).
    pub board: Board,
    /// Each offered action's spots on the table (the spaces and visible cards it names),
    /// worked out once per snapshot rather than every frame.
    pub spots: Vec<Vec<crate::studio::board_view::Spot>>,
    /// Every action told so far, as the viewer may read it (see [`Move`]), from the table's
    /// log.
    pub moves: Vec<Move>,
    /// The log as the Play tab shows it (see [`LogLine`]), from the table's log.
    pub log: Vec<LogLine>,
    /// What only a game played here has (None online).
    pub local: Option<Local>,
}

/// What the Studio knows of a game it plays itself, beyond what a seat sees.
#[derive(Debug, Clone)]
pub struct Local {
    pub setup: Setup,
    /// Actions taken so far (the console rebuilds the game from them).
    pub history: Vec<String>,
    /// For each seat: the step its undo would go back to, if it may undo now.
    pub undo_to: Vec<Option<usize>>,
    /// For each seat: the move its undo would take back, as "Seat: label".
    pub undo_what: Vec<Option<String>>,
    /// Something in the game is hidden from a spectator now (cards, secrets).
    pub secret: bool,
}

impl std::ops::Deref for Snapshot {
    type Target = TableView;
    fn deref(&self) -> &TableView {
        &self.table
    }
}

/// An action taken, as the viewer may read it: its own label for the viewer's own moves,
/// the public label for everyone else's, and the board spaces where the move changed what
/// everyone sees (pieces that left or arrived, tiles laid). Never the action's own string,
/// which may name what the viewer may not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub seat: u8,
    pub label: String,
    pub spaces: Vec<u32>,
}

/// A line of the log: an action's own line (`seat` is who took it), or a line the rules
/// wrote (`seat` is None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub seat: Option<u8>,
    pub text: String,
}

impl Snapshot {
    /// The snapshot of `table`, drawn on `board`: its moves, log lines and offers' spots
    /// worked out once here.
    pub fn new(
        def: Arc<GameDef>,
        table: TableView,
        board: Board,
        local: Option<Local>,
    ) -> Snapshot {
        let moves = table
            .moves()
            .map(|(seat, label, spaces)| Move {
                seat,
                label: label.to_string(),
                spaces: spaces.to_vec(),
            })
            .collect();
        let log = table
            .told
            .iter()
            .map(|t| match t {
                Told::Action {
                    seat,
                    label,
                    by_bot,
                    ..
                } => {
                    // A bot's seat is a bot's: only a stand-in for a person is named.
                    let standin = *by_bot
                        && table
                            .seats
                            .get(*seat as usize)
                            .is_some_and(|s| s.kind == Sitter::Person);
                    let by = if standin { " (a bot)" } else { "" };
                    LogLine {
                        seat: Some(*seat),
                        text: format!("{}{by}: {label}", def.seat_name(*seat as usize)),
                    }
                }
                Told::Line(text) => LogLine {
                    seat: None,
                    text: text.clone(),
                },
            })
            .collect();
        let spots = table
            .offered
            .iter()
            .map(|o| offer_spots(o, &board, &table.view, table.viewer))
            .collect();
        Snapshot {
            def,
            table,
            board,
            spots,
            moves,
            log,
            local,
        }
    }

    /// Actions taken so far.
    pub fn step(&self) -> usize {
        self.table.number as usize
    }

    /// How the game ended, once it has.
    pub fn result(&self) -> Option<&GameResult> {
        self.table.view.result.as_ref()
    }

    /// The seat to act.
    pub fn active(&self) -> u8 {
        self.table.view.active
    }

    /// Each seat's last turn, if it took one: its actions in a row up to its last one, as
    /// one move (their labels joined, every space any of them changed).
    pub fn last_moves(&self) -> Vec<Option<Move>> {
        (0..self.seats.len())
            .map(|s| {
                let last = self.moves.iter().rposition(|m| m.seat as usize == s)?;
                let first = self.moves[..=last]
                    .iter()
                    .rposition(|m| m.seat as usize != s)
                    .map_or(0, |i| i + 1);
                let turn = &self.moves[first..=last];
                let mut spaces: Vec<u32> = turn.iter().flat_map(|m| m.spaces.clone()).collect();
                spaces.sort_unstable();
                spaces.dedup();
                Some(Move {
                    seat: s as u8,
                    label: turn
                        .iter()
                        .map(|m| m.label.as_str())
                        .collect::<Vec<_>>()
                        .join("; "),
                    spaces,
                })
            })
            .collect()
    }
}

pub enum Request {
    /// A new game: the setup, who plays each seat, and actions to replay first (a fork).
    Start {
        def: Arc<GameDef>,
        setup: Setup,
        seats: Vec<SeatKind>,
        history: Vec<String>,
    },
    /// The seat to act (a person) takes an action.
    Act(String),
    /// The seat to act (a bot) moves.
    BotMove,
    /// Back to `step` actions (an undo).
    Undo(usize),
    /// Whose view the snapshots show.
    Viewer(Option<u8>),
    /// Replays the history on a reloaded definition; `adopt` keeps the new game if it
    /// follows up to the first difference, else the old one stays.
    Rebase { def: Arc<GameDef> },
    /// Switches to the rebased game (after `Rebase` reported), or keeps the old one.
    Adopt(bool),
    /// Writes the game as a replay file.
    Save(PathBuf),
}

pub enum Reply {
    Snapshot(Box<Snapshot>),
    /// Something asked could not be done; the game is as it was.
    Failed(String),
    Rebased(Rebased),
    Saved(PathBuf),
}

/// Whether an action may be undone past: one that drew a random number, or showed a person
/// something (a card) they had not seen, may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Barrier {
    Free,
    Fixed,
}

/// The handle the app keeps: requests go in, replies come out; the thread ends when the
/// handle is dropped.
pub struct Worker {
    tx: Sender<Request>,
    rx: Receiver<Reply>,
    /// Requests sent and not yet worked through (the thread counts them down).
    pending: Arc<AtomicUsize>,
    /// The thread ended without being asked to (it could not start, or it failed).
    gone: bool,
}

impl Worker {
    /// Starts the thread; `wake` is called after each request is worked through (the app asks
    /// for a repaint).
    pub fn spawn(wake: impl Fn() + Send + 'static) -> Worker {
        let (tx, req_rx) = channel::<Request>();
        let (reply_tx, rx) = channel::<Reply>();
        let pending = Arc::new(AtomicUsize::new(0));
        let left = pending.clone();
        // Without a thread the requests go unanswered and the app shows "starting".
        let _ = std::thread::Builder::new()
            .name("farebox-game".into())
            .spawn(move || {
                let mut w = Work::default();
                while let Ok(req) = req_rx.recv() {
                    // A failure inside the engine ends this thread, but says why first; the
                    // app sees the thread gone and goes back to where a game is chosen.
                    let replies =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w.handle(req)));
                    let failed = replies.is_err();
                    let replies = replies.unwrap_or_else(|e| {
                        let why = e
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| e.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "an internal error".into());
                        vec![Reply::Failed(format!(
                            "the game's thread failed: {}",
                            crate::common::shown(&why, 300)
                        ))]
                    });
                    for reply in replies {
                        if reply_tx.send(reply).is_err() {
                            return;
                        }
                    }
                    left.fetch_sub(1, Ordering::Release);
                    wake();
                    if failed {
                        return;
                    }
                }
            });
        Worker {
            tx,
            rx,
            pending,
            gone: false,
        }
    }

    pub fn send(&mut self, req: Request) {
        self.pending.fetch_add(1, Ordering::Acquire);
        if self.tx.send(req).is_err() {
            self.pending.fetch_sub(1, Ordering::Release);
        }
    }

    /// Whether a request is still being worked on.
    pub fn busy(&self) -> bool {
        !self.gone && self.pending.load(Ordering::Acquire) > 0
    }

    /// Whether the thread has ended: nothing sent to it will be answered.
    pub fn gone(&self) -> bool {
        self.gone
    }

    /// The replies that have arrived.
    pub fn poll(&mut self) -> Vec<Reply> {
        let mut out = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(r) => out.push(r),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.gone = true;
                    break;
                }
            }
        }
        out
    }
}

/// One game on the worker thread.
struct Playing {
    game: Game,
    seats: Vec<SeatKind>,
    agents: BTreeMap<u8, Agent>,
    /// Per action taken: the seat that took it, and whether it may be undone past.
    taken: Vec<(u8, Barrier)>,
    /// State hashes after each action (to tell whether a rebased game follows).
    hashes: Vec<String>,
    /// Every action with its labels (the public one, and a person's own as it was offered),
    /// the spaces it changed and the log lines it wrote: the record the online server keeps
    /// too.
    told: Chronicle,
    /// The offers of this state to the seat to act (a person), once asked for: its legal
    /// actions with their labels, listed and described once per state.
    offers: Option<Vec<Offered>>,
}

#[derive(Default)]
struct Work {
    playing: Option<Playing>,
    /// A game rebuilt on reloaded rules, waiting for the person to adopt it.
    rebased: Option<Playing>,
    viewer: Option<u8>,
}

impl Work {
    fn handle(&mut self, req: Request) -> Vec<Reply> {
        match req {
            Request::Start {
                def,
                setup,
                seats,
                history,
            } => match start(def, setup, seats, &history) {
                Ok(p) => {
                    self.playing = Some(p);
                    self.rebased = None;
                    vec![self.snapshot()]
                }
                Err(e) => vec![Reply::Failed(e)],
            },
            Request::Act(action) => {
                let Some(p) = &mut self.playing else {
                    return vec![Reply::Failed("no game is being played".into())];
                };
                match p.act(&action) {
                    Ok(()) => {
                        // A rebuilt game waiting for a choice no longer matches this one.
                        self.rebased = None;
                        vec![self.snapshot()]
                    }
                    Err(e) => vec![Reply::Failed(e), self.snapshot()],
                }
            }
            Request::BotMove => {
                let Some(p) = &mut self.playing else {
                    return vec![Reply::Failed("no game is being played".into())];
                };
                match p.bot_move() {
                    Ok(()) => {
                        self.rebased = None;
                        vec![self.snapshot()]
                    }
                    Err(e) => vec![Reply::Failed(e), self.snapshot()],
                }
            }
            Request::Undo(to) => {
                let Some(p) = &self.playing else {
                    return vec![Reply::Failed("no game is being played".into())];
                };
                let history: Vec<String> =
                    p.game.history()[..to.min(p.game.history().len())].to_vec();
                let (def, setup, seats) = (
                    p.game.def().clone(),
                    p.game.setup().clone(),
                    p.seats.clone(),
                );
                match start(def, setup, seats, &history) {
                    Ok(p) => {
                        self.playing = Some(p);
                        self.rebased = None;
                        vec![self.snapshot()]
                    }
                    Err(e) => vec![Reply::Failed(e), self.snapshot()],
                }
            }
            Request::Viewer(v) => {
                self.viewer = v;
                match self.playing {
                    Some(_) => vec![self.snapshot()],
                    // Set before the first game starts: nothing to show yet.
                    None => vec![],
                }
            }
            Request::Rebase { def } => {
                let Some(p) = &self.playing else {
                    return vec![];
                };
                let (report, rebuilt) = rebase::rebase(p, def);
                // A game that follows, and shows everyone what it showed, goes on under the
                // new version here and now (no later request can slip between); any other
                // waits for the person's choice, the old game unchanged meanwhile.
                if matches!(report, Rebased::Follows { .. }) && rebuilt.is_some() {
                    self.playing = rebuilt;
                    self.rebased = None;
                    return vec![Reply::Rebased(report), self.snapshot()];
                }
                self.rebased = rebuilt;
                vec![Reply::Rebased(report)]
            }
            Request::Adopt(take) => {
                let mut out = Vec::new();
                match self.rebased.take() {
                    Some(r) if take => self.playing = Some(r),
                    None if take => out.push(Reply::Failed(
                        "The game moved on before the choice was made; it goes on as it was."
                            .into(),
                    )),
                    _ => {}
                }
                out.push(self.snapshot());
                out
            }
            Request::Save(path) => {
                let Some(p) = &self.playing else {
                    return vec![Reply::Failed("no game to save".into())];
                };
                match save(p, &path) {
                    Ok(()) => vec![Reply::Saved(path)],
                    Err(e) => vec![Reply::Failed(e)],
                }
            }
        }
    }

    fn snapshot(&mut self) -> Reply {
        let viewer = self.viewer;
        match &mut self.playing {
            Some(p) => Reply::Snapshot(Box::new(p.snapshot(viewer))),
            None => Reply::Failed("no game is being played".into()),
        }
    }
}

fn start(
    def: Arc<GameDef>,
    setup: Setup,
    seats: Vec<SeatKind>,
    history: &[String],
) -> Result<Playing, String> {
    let mut agents = BTreeMap::new();
    for (i, s) in seats.iter().enumerate() {
        if let SeatKind::Bot(spec) = s {
            agents.insert(i as u8, Agent::from_spec(spec, &def, setup.seed, i as u8)?);
        }
    }
    let game = Game::new(def, setup).map_err(|e| e.to_string())?;
    let mut p = Playing::new(game, seats, agents);
    for (i, a) in history.iter().enumerate() {
        p.step(a)
            .map_err(|e| format!("action {} (`{a}`) of the history: {e}", i + 1))?;
    }
    Ok(p)
}

impl Playing {
    fn new(game: Game, seats: Vec<SeatKind>, agents: BTreeMap<u8, Agent>) -> Playing {
        Playing {
            told: Chronicle::new(&game, usize::MAX),
            game,
            seats,
            agents,
            taken: Vec::new(),
            hashes: Vec::new(),
            offers: None,
        }
    }

    /// A person's action: one offered in this state is applied as it is, with the label it
    /// was offered under (the rules are not asked for the actions or the label again); any
    /// other is checked against the legal actions first.
    fn act(&mut self, action: &str) -> Result<(), String> {
        let offered = self
            .offers
            .as_ref()
            .and_then(|o| o.iter().find(|o| o.action == action))
            .map(|o| o.label.clone());
        match offered {
            Some(label) => self.step_legal(action, Some(label)),
            None => self.step(action),
        }
    }

    /// Applies the active seat's action, noting whether it can be undone past.
    fn step(&mut self, action: &str) -> Result<(), String> {
        if self.game.is_over() {
            return Err(farebox::game::GameError::Over.to_string());
        }
        let legal = self.game.legal_actions().map_err(|e| e.to_string())?;
        if !legal.iter().any(|a| a == action) {
            return Err(farebox::game::GameError::Illegal(action.to_string()).to_string());
        }
        self.step_legal(action, None)
    }

    /// Applies an action taken from the legal actions of this very state (`own`: the label it
    /// was offered to a person under, if it was), noting whether it can be undone past.
    fn step_legal(&mut self, action: &str, own: Option<String>) -> Result<(), String> {
        let seat = self.game.active();
        // Only people learn things an undo would let them take back.
        let people: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| self.seats[s as usize].is_person())
            .collect();
        let seen_before: Vec<(u8, BTreeMap<String, usize>)> =
            people.iter().map(|&s| (s, self.seen(s))).collect();
        // A person's move is named as it was offered, for "Undo move: ..." later.
        let person = people.contains(&seat);
        let own = match own {
            Some(own) if person => Own::Given(own),
            _ if person => Own::Ask,
            _ => Own::Nobody,
        };
        let rng_before = self.game.state().rng.clone();
        self.told
            .take(&mut self.game, action, own, !person)
            .map_err(|e| e.to_string())?;
        self.offers = None;
        let mut barrier = if self.game.state().rng != rng_before {
            Barrier::Fixed
        } else {
            Barrier::Free
        };
        for (s, before) in &seen_before {
            let after = self.seen(*s);
            if after
                .iter()
                .any(|(card, n)| before.get(card).copied().unwrap_or(0) < *n)
            {
                barrier = Barrier::Fixed;
            }
        }
        self.taken.push((seat, barrier));
        self.hashes.push(self.game.state().hash());
        Ok(())
    }

    /// The cards a seat can see, counted by id: a count that grows is something it learnt.
    fn seen(&self, seat: u8) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for z in self.game.view(Some(seat)).zones {
            for c in z.cards {
                *out.entry(c).or_insert(0) += 1;
            }
        }
        out
    }

    fn bot_move(&mut self) -> Result<(), String> {
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let seat = self.game.active();
        let Some(agent) = self.agents.get_mut(&seat) else {
            return Err(format!(
                "{} is not a bot",
                self.game.def().seat_name(seat as usize)
            ));
        };
        let actions = self.game.legal_actions().map_err(|e| e.to_string())?;
        if actions.is_empty() {
            return Err("the bot has no legal action".into());
        }
        let i = agent
            .choose(&mut self.game, &actions)
            .map_err(|e| e.to_string())?;
        let Some(action) = actions.get(i).cloned() else {
            return Err(format!("the bot chose action {i} of {}", actions.len()));
        };
        self.step_legal(&action, None)
    }

    /// Where `seat`'s undo would go: its own last decision, if nothing since (that decision
    /// included) drew a random number or showed a person a card.
    fn undo_to(&self, seat: u8) -> Option<usize> {
        for i in (0..self.taken.len()).rev() {
            let (by, barrier) = self.taken[i];
            if barrier == Barrier::Fixed {
                return None;
            }
            if by == seat {
                return Some(i);
            }
        }
        None
    }

    fn snapshot(&mut self, viewer: Option<u8>) -> Snapshot {
        let active = self.game.active();
        let over = self.game.is_over();
        let mut offered = Vec::new();
        let persons_turn = self
            .seats
            .get(active as usize)
            .is_some_and(SeatKind::is_person);
        if !over && viewer == Some(active) && persons_turn {
            if self.offers.is_none()
                && let Ok(actions) = self.game.legal_actions()
            {
                self.offers = Some(self.game.offers(actions));
            }
            offered = self.offers.clone().unwrap_or_default();
        }
        let undo_to = (0..self.seats.len())
            .map(|s| {
                if self.seats[s].is_person() {
                    self.undo_to(s as u8)
                } else {
                    None
                }
            })
            .collect::<Vec<Option<usize>>>();
        let def = self.game.def().clone();
        let undo_what = undo_to
            .iter()
            .map(|to| {
                let i = (*to)?;
                let own = self.told.own_label(i)?;
                let seat = self.taken.get(i)?.0;
                Some(format!("{}: {own}", def.seat_name(seat as usize)))
            })
            .collect();
        let state = self.game.state();
        let secret = state.vars.values().any(|v| !v.seen.by(None))
            || state
                .zones
                .iter()
                .any(|z| farebox::game::visible_cards(&def, z, None) < z.cards.len());
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, k)| SeatStatus {
                seat: i as u8,
                name: def.seat_name(i),
                kind: if k.is_person() {
                    Sitter::Person
                } else {
                    Sitter::Bot
                },
                player: None,
                connected: true,
                bot: match k {
                    SeatKind::Bot(b) => Some(b.clone()),
                    SeatKind::Person => None,
                },
                to_act: !over && i == active as usize,
                clock_ms: None,
            })
            .collect();
        let mut table = TableView {
            number: self.game.history().len() as u64,
            viewer,
            view: self.game.view(viewer),
            seats,
            offered,
            told: self.told.told(&self.game, viewer, usize::MAX),
            board: None,
        };
        table.lines_from_told();
        let local = Local {
            setup: self.game.setup().clone(),
            history: self.game.history().to_vec(),
            undo_to,
            undo_what,
            secret,
        };
        let board = self.game.state().board.clone();
        Snapshot::new(def, table, board, Some(local))
    }
}

/// Writes the game as a replay (the same format `farebox record` writes), atomically.
fn save(p: &Playing, path: &std::path::Path) -> Result<(), String> {
    let def = p.game.def().clone();
    let mut g = Game::new(def, p.game.setup().clone()).map_err(|e| e.to_string())?;
    let mut rec = Recorder::new(&g);
    for (a, (seat, _)) in p.game.history().iter().zip(&p.taken) {
        g.apply(a).map_err(|e| e.to_string())?;
        rec.step(*seat, a, &g);
    }
    let replay = rec.finish(&g);
    farebox::source::write_atomic(path, &replay.to_json())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The spots of an offer: each of its names in order, the board space it is (one this board
/// has) or every copy of a card by that id in a zone the viewer can see.
pub(crate) fn offer_spots(
    offer: &Offered,
    board: &farebox::board::Board,
    view: &farebox::game::View,
    viewer: Option<u8>,
) -> Vec<crate::studio::board_view::Spot> {
    let mut out = Vec::new();
    for name in &offer.names {
        // A space the server named on a board this client has not been sent yet is no spot.
        if let Some(s) = name.space
            && (board.xy(s).is_some() || (s as usize) < board.graph.spaces.len())
        {
            out.push(crate::studio::board_view::Spot::Space(s));
            continue;
        }
        for (zi, z) in view.zones.iter().enumerate() {
            if z.owner.is_some() && z.owner != viewer {
                continue;
            }
            // Every copy: in a hand of identical cards, any of them plays the action.
            for (ci, _) in z.cards.iter().enumerate().filter(|(_, c)| **c == name.id) {
                out.push(crate::studio::board_view::Spot::Card {
                    zone: zi,
                    index: ci,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn curbside() -> Arc<GameDef> {
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        Arc::new(
            farebox::content::load_mod(
                &farebox::source::FsSource::new(mods.join("curbside")),
                &resolver,
            )
            .unwrap(),
        )
    }

    /// A person's click: the rules list the actions once (for the next state's offers, not
    /// again to check the one taken) and describe each new offer once, plus the public label
    /// of the action taken (the acting seat's own label is the one it was offered under).
    #[test]
    fn a_click_lists_the_actions_once_and_describes_each_offer_once() {
        let game = Game::with_profile(curbside(), Setup::new(2, 1)).unwrap();
        let seats = vec![SeatKind::Person, SeatKind::Person];
        let mut p = Playing::new(game, seats, BTreeMap::new());
        let first = p.snapshot(Some(0));
        assert!(!first.offered.is_empty());
        assert_eq!(first.spots.len(), first.offered.len());
        for click in 0..4 {
            let viewer = p.game.active();
            let shown = p.snapshot(Some(viewer));
            let chosen = shown.offered[click % shown.offered.len()].clone();
            p.game.host().take_profile();
            p.act(&chosen.action).unwrap();
            let next = p.game.active();
            let snap = p.snapshot(Some(next));
            let profile = p.game.host().take_profile();
            let calls = |hook: &str| profile.get(hook).map_or(0, |s| s.calls);
            assert_eq!(calls("actions"), 1, "click {click}: {profile:?}");
            assert_eq!(
                calls("describe"),
                snap.offered.len() as u64 + 1,
                "click {click}: {profile:?}"
            );
            // The move is told by the label it was offered under.
            let own = p.told.own_label(p.game.history().len() - 1);
            assert_eq!(own, Some(chosen.label.as_str()));
        }
        // An action not offered in this state is still checked, and refused.
        assert!(p.act("no such action").is_err());
    }
}
