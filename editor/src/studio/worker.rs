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
use farebox::game::{Game, Setup, View};
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
}

/// An action the seat to act may take, as that seat reads it: the engine's offer, which the
/// online server sends as it is.
pub use farebox::game::Offer as Offered;

/// What the UI draws: one seat's view of the game at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub def: Arc<GameDef>,
    pub setup: Setup,
    pub seats: Vec<SeatKind>,
    pub viewer: Option<u8>,
    pub view: View,
    pub board: Board,
    pub active: u8,
    pub result: Option<GameResult>,
    /// The actions of the seat to act, when that seat is the viewer (empty otherwise).
    pub offered: Vec<Offered>,
    /// Each offered action's spots on the table (the spaces and visible cards it names),
    /// worked out once per snapshot rather than every frame.
    pub spots: Vec<Vec<crate::studio::board_view::Spot>>,
    /// Actions taken so far, and what they were (the console rebuilds the game from them).
    pub step: usize,
    pub history: Vec<String>,
    /// For each seat: the step its undo would go back to, if it may undo now.
    pub undo_to: Vec<Option<usize>>,
    /// For each seat: the move its undo would take back, as "Seat: label".
    pub undo_what: Vec<Option<String>>,
    /// Every action taken so far, as the viewer may read it (see [`Move`]).
    pub moves: Vec<Move>,
    /// The log as the viewer may read it: each action's line ("Red: Place a tile at 3,4"),
    /// then the lines the rules wrote as it was applied.
    pub log: Vec<LogLine>,
    /// Something in the game is hidden from a spectator now (cards, secrets).
    pub secret: bool,
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
    /// Works out [`Snapshot::spots`] for the offered actions.
    pub fn place_offers(&mut self) {
        self.spots = self
            .offered
            .iter()
            .map(|o| offer_spots(o, &self.board, &self.view, self.viewer))
            .collect();
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
    /// Per action taken by a person: how it read when it was offered ("Seat: label").
    labels: Vec<Option<String>>,
    /// State hashes after each action (to tell whether a rebased game follows).
    hashes: Vec<String>,
    /// Per action: its public label, its own label (for a person's seat), the spaces where
    /// it changed what everyone sees, and how long the game's log was after it.
    public: Vec<String>,
    own: Vec<Option<String>>,
    touched: Vec<Vec<u32>>,
    log_at: Vec<usize>,
    /// How long the log was after setup.
    log_start: usize,
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

/// Where the pieces stand and which tiles lie on the grid: what a move changes that
/// everyone sees.
struct Places {
    pieces: Vec<Option<u32>>,
    tiles: Vec<(
        Option<farebox::board::Placed>,
        Option<farebox::board::Placed>,
    )>,
}

impl Places {
    fn of(g: &Game) -> Places {
        let s = g.state();
        Places {
            pieces: s.pieces.iter().map(|p| p.at).collect(),
            tiles: s.board.grid.as_ref().map_or_else(Vec::new, |g| {
                g.tiles
                    .iter()
                    .copied()
                    .zip(g.blockers.iter().copied())
                    .collect()
            }),
        }
    }

    /// The spaces where `after` differs from `self`: a piece's old and new space, a cell
    /// whose tiles changed.
    fn changed(&self, after: &Places) -> Vec<u32> {
        let mut out = Vec::new();
        let n = self.pieces.len().max(after.pieces.len());
        for k in 0..n {
            let (a, b) = (
                self.pieces.get(k).copied().flatten(),
                after.pieces.get(k).copied().flatten(),
            );
            if a != b {
                out.extend(a);
                out.extend(b);
            }
        }
        for (i, (a, b)) in self.tiles.iter().zip(&after.tiles).enumerate() {
            if a != b {
                out.push(i as u32);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl Playing {
    fn new(game: Game, seats: Vec<SeatKind>, agents: BTreeMap<u8, Agent>) -> Playing {
        let log_start = game.log().len();
        Playing {
            game,
            seats,
            agents,
            taken: Vec::new(),
            labels: Vec::new(),
            hashes: Vec::new(),
            public: Vec::new(),
            own: Vec::new(),
            touched: Vec::new(),
            log_at: Vec::new(),
            log_start,
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
        let own = match own {
            Some(own) => people.contains(&seat).then_some(own),
            None => people
                .contains(&seat)
                .then(|| self.game.describe_path(action).join(" ")),
        };
        let label = own
            .as_ref()
            .map(|l| format!("{}: {l}", self.game.def().seat_name(seat as usize)));
        // What everyone else is told, for the log and the move marks.
        let public = self.game.describe_public(action);
        let before = Places::of(&self.game);
        let rng_before = self.game.state().rng.clone();
        self.game.apply_legal(action).map_err(|e| e.to_string())?;
        self.offers = None;
        self.touched.push(before.changed(&Places::of(&self.game)));
        self.public.push(public);
        self.own.push(own);
        self.log_at.push(self.game.log().len());
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
        self.labels.push(label);
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
        let undo_what = undo_to
            .iter()
            .map(|to| to.and_then(|i| self.labels.get(i).cloned().flatten()))
            .collect();
        let (moves, log) = self.moves_and_log(viewer);
        let state = self.game.state();
        let def = self.game.def();
        let secret = state.vars.values().any(|v| !v.seen.by(None))
            || state
                .zones
                .iter()
                .any(|z| farebox::game::visible_cards(def, z, None) < z.cards.len());
        let mut snap = Snapshot {
            moves,
            log,
            secret,
            def: self.game.def().clone(),
            setup: self.game.setup().clone(),
            seats: self.seats.clone(),
            viewer,
            view: self.game.view(viewer),
            board: self.game.state().board.clone(),
            active,
            result: self.game.result().cloned(),
            offered,
            step: self.game.history().len(),
            history: self.game.history().to_vec(),
            undo_to,
            undo_what,
            spots: Vec::new(),
        };
        snap.place_offers();
        snap
    }
}

impl Playing {
    /// Every action taken as `viewer` may read it, and the log with each action's line
    /// before the lines the rules wrote while applying it.
    fn moves_and_log(&self, viewer: Option<u8>) -> (Vec<Move>, Vec<LogLine>) {
        let def = self.game.def();
        let entries = self.game.log();
        let lines = |from: usize, to: usize, out: &mut Vec<LogLine>| {
            for e in entries.get(from..to.min(entries.len())).unwrap_or_default() {
                if e.seen.by(viewer) {
                    out.push(LogLine {
                        seat: None,
                        text: e.text.clone(),
                    });
                }
            }
        };
        let mut moves = Vec::with_capacity(self.taken.len());
        let mut log = Vec::new();
        lines(0, self.log_start, &mut log);
        let mut from = self.log_start;
        for (i, &(seat, _)) in self.taken.iter().enumerate() {
            let label = match self.own.get(i) {
                Some(Some(own)) if viewer == Some(seat) => own.clone(),
                _ => self.public.get(i).cloned().unwrap_or_default(),
            };
            log.push(LogLine {
                seat: Some(seat),
                text: format!("{}: {label}", def.seat_name(seat as usize)),
            });
            let to = self.log_at.get(i).copied().unwrap_or(from);
            lines(from, to, &mut log);
            from = to;
            moves.push(Move {
                seat,
                label,
                spaces: self.touched.get(i).cloned().unwrap_or_default(),
            });
        }
        (moves, log)
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
            let own = p.own.last().cloned().flatten();
            assert_eq!(own.as_deref(), Some(chosen.label.as_str()));
        }
        // An action not offered in this state is still checked, and refused.
        assert!(p.act("no such action").is_err());
    }
}
