//! The Play tab: a new-game dialog, then the game itself: the board and zones as the viewing
//! seat may see them, the legal actions (on the board where they belong, and grouped in a
//! list), bots at an adjustable pace with pause and step, a hand-off screen between people
//! at one screen in a game with hidden information, undo, the log, and the end.
//!
//! The dialog also hosts the game online (a server in this process, [`online`]) or joins a
//! table at an address with its code; the online screens are [`online_view`]'s.
//!
//! A mod without rules yet ("content only") shows its board, pieces and decks as a game
//! would start, so authors can look at them.

mod actions;
mod dialog;
mod game;
pub mod online;
mod online_view;
mod screen;
mod side;

use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::GameDef;
use farebox::game::{Setup, Sitter, View};
use farebox::value::Value;

use super::board_view::{Scene, Spot};
use super::worker::{Offered, Rebased, Reply, Request, SeatKind, Snapshot, Worker};
use super::{Command, Project};
use dialog::{hides_anything, new_game};
use game::table_ui;
use online::Online;
use online_view::OnlineOut;
use screen::Screen;
use side::undo_of;

pub(crate) use actions::move_marks;
pub use actions::spots_of;
pub use side::score_unit;

/// The side panel's width until a person drags it.
const SIDE_W: f32 = 330.0;

/// The choices of the new-game dialog.
#[derive(Clone)]
struct NewGame {
    seats: Vec<SeatKind>,
    options: Vec<(String, String)>,
    seed: String,
    /// A game forked from a replay: its setup and the actions played so far are fixed; only
    /// who plays each seat is chosen.
    fork: Option<(Setup, Vec<String>)>,
}

/// A content-only mod as its game would start.
struct ContentView {
    def: Arc<GameDef>,
    state: farebox::state::State,
    view: View,
}

pub struct PlayPanel {
    ctx: egui::Context,
    worker: Option<Worker>,
    snap: Option<Snapshot>,
    dialog: Option<NewGame>,
    content: Option<ContentView>,
    /// What the game's screen drew last frame, and its camera, keys and pointer.
    screen: Screen,
    /// Bots wait this long between moves.
    pub pace: Duration,
    pub paused: bool,
    /// One bot move asked for while paused.
    step_once: bool,
    last_move: Instant,
    /// The person the screen is shown to (None: a spectator, when only bots play).
    viewer: Option<u8>,
    /// Set while the screen is hidden, waiting for this seat's person to take it.
    handoff: Option<u8>,
    error: Option<String>,
    rebased: Option<Rebased>,
    /// A new version was sent to the worker and its answer has not come: bots wait, so no
    /// move slips between the replay and the choice.
    rebasing: bool,
    /// An action chosen while a new version's replay was out, and the step it was chosen at:
    /// taken once the replay is back, if the game on screen is still at that step and still
    /// offers it (a click is never lost to a reload, nor taken in another position).
    held_act: Option<(String, usize)>,
    /// A command a panel of the game asked for (leaving it), for the app to carry out (and
    /// ask about) after the frame.
    wants: Option<Command>,
    /// A passing message: the game followed a reload. It holds while the game stands at the
    /// step it was said at (the snapshot's step), and goes with the next move or version.
    notice: Option<(String, usize)>,
    save_path: String,
    saved: Option<String>,
    /// The definition the new-game dialog was last drawn for (what Start plays).
    dialog_def: Option<Arc<GameDef>>,
    /// The dialog's choices of the game being started, until its first snapshot comes: a
    /// game that cannot start goes back to them, with the reason.
    starting: Option<NewGame>,
    /// A game online (hosted here or joined), shown instead of the local one while it lasts.
    online: Option<Online>,
    online_ui: Screen,
    /// The dialog's online fields: where to host, and the name to play under.
    pub host_addr: String,
    pub player_name: String,
}

/// Keeps a click meant for the last list of actions from landing on the next one. After the
/// offered actions change (an action was taken, a bot moved), a click counts only once the
/// pointer has moved since the change, or after [`Guard::SETTLE`] with the pointer still:
/// a second click of an impatient double click on a button whose list just changed under
/// the pointer is dropped instead of taking whatever action now sits there.
#[derive(Default)]
struct Guard {
    /// What the actions were last frame (a hash of the step and the action strings).
    key: u64,
    /// When they changed; None once the pointer has moved since.
    since: Option<Instant>,
}

impl Guard {
    const SETTLE: Duration = Duration::from_millis(900);

    /// Notes this frame's actions and pointer; whether a click now is meant for them.
    fn update(&mut self, ctx: &egui::Context, snap: &Snapshot) -> bool {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        snap.step().hash(&mut h);
        for o in &snap.offered {
            o.action.hash(&mut h);
        }
        let key = h.finish();
        if key != self.key {
            self.key = key;
            self.since = Some(Instant::now());
            return false;
        }
        let moved = ctx.input(|i| {
            i.pointer.delta() != egui::Vec2::ZERO
                || i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::PointerMoved(_)))
        });
        if moved || self.since.is_some_and(|t| t.elapsed() >= Self::SETTLE) {
            self.since = None;
        }
        self.since.is_none()
    }
}

impl PlayPanel {
    pub fn new(ctx: &egui::Context) -> PlayPanel {
        PlayPanel {
            ctx: ctx.clone(),
            worker: None,
            snap: None,
            dialog: None,
            content: None,
            screen: Screen::default(),
            pace: Duration::from_millis(400),
            paused: false,
            step_once: false,
            last_move: Instant::now(),
            viewer: None,
            handoff: None,
            error: None,
            rebased: None,
            rebasing: false,
            held_act: None,
            wants: None,
            notice: None,
            save_path: String::new(),
            saved: None,
            dialog_def: None,
            starting: None,
            online: None,
            online_ui: Screen::default(),
            host_addr: "127.0.0.1:0".into(),
            player_name: String::new(),
        }
    }

    /// The game online, while there is one (hosted here or joined).
    pub fn online(&self) -> Option<&Online> {
        self.online.as_ref()
    }

    pub fn online_mut(&mut self) -> Option<&mut Online> {
        self.online.as_mut()
    }

    /// Leaves the game online: the connection closes and a server hosted here stops (on a
    /// thread of its own, so the screen never waits for it).
    /// How many other people sit at a table hosted here (see [`Online::hosted_for`]).
    pub fn hosted_for(&self) -> usize {
        self.online.as_ref().map_or(0, Online::hosted_for)
    }

    /// Leaves the game shown (local or online) for the new-game dialog, its choices kept.
    pub fn leave_game(&mut self) {
        let kept = self
            .snap
            .as_ref()
            .map(|s| (s.def.clone(), SeatKind::of(&s.seats)));
        self.end_game();
        if let Some((def, seats)) = kept {
            self.dialog = Some(NewGame {
                seats,
                ..new_game(&def)
            });
        }
    }

    /// Whether a game (local or online) is on screen, started or over: Play offers to leave it.
    pub fn has_game(&self) -> bool {
        self.online.is_some() || self.worker.is_some() || self.snap.is_some()
    }

    pub fn leave_online(&mut self) {
        if let Some(mut o) = self.online.take() {
            o.stop();
        }
        self.online_ui = Screen::default();
    }

    /// The game as last drawn.
    pub fn snapshot(&self) -> Option<&Snapshot> {
        self.snap.as_ref()
    }

    /// Whether the new-game dialog shows.
    pub fn in_dialog(&self) -> bool {
        self.dialog.is_some()
    }

    /// Whether a content-only mod's table shows.
    pub fn content_only(&self) -> bool {
        self.content.is_some()
    }

    /// The seat the hidden screen waits for, during a hand-off.
    pub fn handing_off(&self) -> Option<u8> {
        self.handoff
    }

    /// Sets the dialog's seed (as typing it would).
    pub fn set_seed(&mut self, seed: u64) {
        if let Some(d) = &mut self.dialog {
            d.seed = seed.to_string();
        }
    }

    /// Makes the dialog's first `n` seats people (as choosing them would).
    pub fn set_people(&mut self, n: usize) {
        if let Some(d) = &mut self.dialog {
            for (i, s) in d.seats.iter_mut().enumerate() {
                if i < n {
                    *s = SeatKind::Person;
                }
            }
        }
    }

    /// Sets the dialog's number of players (as its slider would), bots in the new seats.
    pub fn set_players(&mut self, n: usize) {
        if let Some(d) = &mut self.dialog {
            d.seats.resize(n, SeatKind::Bot("random".into()));
        }
    }

    /// The spaces whose names the board wrote last frame, with the name written (of the
    /// game online while there is one).
    pub fn named_on_board(&self) -> &[(u32, String)] {
        if self.online.is_some() {
            return &self.online_ui.named;
        }
        &self.screen.named
    }

    /// Where the board of the local game wrote names beside spaces (and a track's card
    /// plates) last frame, where its legend was drawn over it, and where the pieces' tokens
    /// were.
    pub fn written_on_board(&self) -> (&[egui::Rect], Option<egui::Rect>, &[egui::Rect]) {
        (
            &self.screen.written.0,
            self.screen.written.1,
            &self.screen.written.2,
        )
    }

    /// The rings the board of the local game drew round round spaces to mark last moves, last
    /// frame: the space, the ring's centre and how far out it reaches.
    pub fn move_rings_on_board(&self) -> &[(u32, egui::Pos2, f32)] {
        &self.screen.rings
    }

    /// The local game's board last frame: its view on screen, the board's extent in it (as
    /// fitted, panned or zoomed), and a track's gates (bars and badges).
    pub fn frame_on_board(&self) -> (egui::Rect, egui::Rect, &[egui::Rect]) {
        (
            self.screen.frame.0,
            self.screen.frame.1,
            &self.screen.frame.2,
        )
    }

    /// The spots lit on the board last frame: those of the action under the pointer in the
    /// list, or chosen with the keys (of the game online while there is one).
    pub fn lit(&self) -> &[Spot] {
        match &self.online {
            Some(_) => &self.online_ui.lit,
            None => &self.screen.lit,
        }
    }

    /// The action chosen with the arrow keys, if any (of the game online while there is one).
    pub fn keyed_action(&self) -> Option<&Offered> {
        let (screen, snap) = match &self.online {
            Some(o) => (&self.online_ui, o.snapshot()?),
            None => (&self.screen, self.snap.as_ref()?),
        };
        let i = screen.keyed_index(snap)?;
        snap.offered.get(i)
    }

    /// The message shown above the game or the dialog (why a game could not start, what
    /// failed), if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Who plays each seat in the new-game dialog, while it is open.
    pub fn dialog_seats(&self) -> Option<Vec<SeatKind>> {
        self.dialog.as_ref().map(|d| d.seats.clone())
    }

    /// Sets who plays a seat in the dialog (as choosing it would).
    pub fn set_seat(&mut self, seat: usize, kind: SeatKind) {
        if let Some(s) = self.dialog.as_mut().and_then(|d| d.seats.get_mut(seat)) {
            *s = kind;
        }
    }

    /// Sets an option's value in the dialog (as choosing it would), by the option's id.
    pub fn set_option(&mut self, id: &str, value: &str) {
        if let Some(d) = &mut self.dialog
            && let Some((_, v)) = d.options.iter_mut().find(|(o, _)| o == id)
        {
            *v = value.to_string();
        }
    }

    /// The step of a game in progress: started, not over, with at least one action taken;
    /// or the action number of a game online this Studio sits at (leaving it hands a person's
    /// seat to a bot, and stops the table for everyone when it is hosted here).
    pub fn in_progress(&self) -> Option<usize> {
        if let Some(o) = &self.online {
            return o.in_progress();
        }
        let snap = self.snap.as_ref()?;
        (self.worker.is_some() && snap.result().is_none() && snap.step() > 0).then_some(snap.step())
    }

    /// Gives up the game in progress (the person agreed to leave it); the dialog stays.
    pub fn end_game(&mut self) {
        self.leave_online();
        self.worker = None;
        self.snap = None;
        self.handoff = None;
        self.rebased = None;
        self.notice = None;
        self.rebasing = false;
        self.screen.picked = None;
    }

    /// What the viewing person's undo would take back ("Yellow: Place a tile at 2,1"), or
    /// why there is nothing to undo.
    pub fn undo_label(&self) -> Result<String, String> {
        match &self.snap {
            Some(snap) => undo_of(snap).map(|(_, what)| what),
            None => Err("No game in progress".into()),
        }
    }

    /// Undoes the viewing person's last move, where the game allows it.
    pub fn undo_move(&mut self) {
        if let Some(Ok((to, _))) = self.snap.as_ref().map(undo_of)
            && let Some(w) = &mut self.worker
        {
            w.send(Request::Undo(to));
        }
    }

    /// Starts the game chosen in the new-game dialog.
    pub fn start_chosen(&mut self) {
        let Some(d) = &mut self.dialog else { return };
        let Ok(seed) = d.seed.trim().parse::<u64>() else {
            return;
        };
        let Some(def) = self.dialog_def.clone() else {
            return;
        };
        let chosen = d.clone();
        let seats = d.seats.clone();
        let (setup, history) = match d.fork.take() {
            Some(f) => f,
            None => {
                let mut setup = Setup::new(d.seats.len() as u8, seed);
                for (id, v) in &d.options {
                    setup = setup.option(id, Value::Str(v.clone()));
                }
                (setup, vec![])
            }
        };
        self.start(def, setup, seats, history);
        self.starting = Some(chosen);
    }

    /// Forgets the game (another mod opens, or the start screen shows).
    pub fn close(&mut self) {
        *self = PlayPanel::new(&self.ctx);
    }

    pub fn set_error(&mut self, m: &str) {
        self.error = Some(m.to_string());
    }

    /// A mod loaded for the first time: the dialog for a playable one, the starting table
    /// for a content-only one.
    pub fn opened(&mut self, p: &Project) {
        let Some(def) = &p.def else { return };
        self.error = None;
        if def.playable() {
            self.dialog = Some(new_game(def));
            self.content = None;
        } else {
            self.content = content_view(def);
        }
    }

    /// The mod was reloaded: a game in progress is replayed on the new rules.
    pub fn rebase(&mut self, def: Arc<GameDef>) {
        // A game still starting (its first snapshot not back yet) is a game in progress too:
        // the worker takes the rebase after the start.
        let starting = self.snap.is_none() && self.worker.is_some();
        if let Some(w) = &mut self.worker
            && (self.snap.is_some() || starting)
        {
            w.send(Request::Rebase { def: def.clone() });
            // What was said of an older version no longer holds: the answer for this one
            // replaces it.
            self.rebased = None;
            self.notice = None;
            self.rebasing = true;
        }
        if let Some(d) = &mut self.dialog {
            // Seats and options chosen so far stay when they still fit.
            if d.seats.len() < def.players.0 as usize || d.seats.len() > def.players.1 as usize {
                *d = new_game(&def);
            }
        }
        if !def.playable() {
            self.content = content_view(&def);
        } else if self.snap.is_none() && self.dialog.is_none() && !starting {
            self.dialog = Some(new_game(&def));
            self.content = None;
        }
    }

    /// Starts a game from a replay's first actions.
    /// Opens the new-game dialog on a replay's first actions: the seats are chosen there,
    /// the setup and the actions so far are the replay's.
    pub fn fork(&mut self, p: &Project, setup: Setup, history: Vec<String>) {
        let Some(def) = &p.def else { return };
        let mut d = new_game(def);
        d.seats
            .resize(setup.seats as usize, SeatKind::Bot("random".into()));
        d.seed = setup.seed.to_string();
        for (id, v) in &mut d.options {
            if let Some(given) = setup.options.get(id) {
                *v = given.to_string();
            }
        }
        d.fork = Some((setup, history));
        self.dialog = Some(d);
        self.content = None;
        self.rebased = None;
    }

    fn start(
        &mut self,
        def: Arc<GameDef>,
        setup: Setup,
        seats: Vec<SeatKind>,
        history: Vec<String>,
    ) {
        let mut w = Worker::spawn(super::waker(&self.ctx));
        let people: Vec<u8> = (0..seats.len() as u8)
            .filter(|&s| seats[s as usize].is_person())
            .collect();
        self.viewer = people.first().copied();
        w.send(Request::Viewer(self.viewer));
        w.send(Request::Start {
            def,
            setup,
            seats,
            history,
        });
        self.worker = Some(w);
        self.snap = None;
        self.dialog = None;
        self.handoff = None;
        self.error = None;
        self.rebased = None;
        self.notice = None;
        self.rebasing = false;
        self.saved = None;
        self.last_move = Instant::now();
    }

    fn poll(&mut self) {
        let Some(w) = &mut self.worker else { return };
        let replies = w.poll();
        let gone = w.gone();
        for r in replies {
            match r {
                Reply::Snapshot(s) => {
                    if self.notice.as_ref().is_some_and(|(_, at)| *at != s.step()) {
                        self.notice = None;
                    }
                    self.snap = Some(*s);
                    self.starting = None;
                }
                // A game that cannot start says why and goes back to the dialog, its
                // choices kept, instead of waiting for a game that will never come.
                Reply::Failed(e) if self.snap.is_none() && self.starting.is_some() => {
                    self.error = Some(format!("The game could not start: {e}"));
                    self.dialog = self.starting.take();
                    self.worker = None;
                    return;
                }
                Reply::Failed(e) => self.error = Some(e),
                // A game that follows the new rules simply goes on under them; only a game
                // that no longer fits asks what to do.
                // (the worker has already gone on with it).
                Reply::Rebased(r @ Rebased::Follows { steps }) => {
                    self.rebasing = false;
                    self.notice =
                        Some((format!("The rules were reloaded. {}", r.describe()), steps));
                }
                Reply::Rebased(r) => {
                    self.rebasing = false;
                    self.rebased = Some(r);
                }
                Reply::Saved(p) => self.saved = Some(format!("Saved to {}", p.display())),
            }
        }
        if gone {
            // The thread ended: without a game it never started; with one, it stopped.
            if self.error.is_none() {
                self.error = Some("The game's thread stopped without saying why.".into());
            }
            self.worker = None;
            if self.snap.is_none() {
                if let Some(e) = &mut self.error
                    && !e.starts_with("The game could not start")
                {
                    *e = format!("The game could not start: {e}");
                }
                self.dialog = self.starting.take().or_else(|| self.dialog.take());
            }
        }
    }

    /// Runs the bots and the hand-off, once per frame.
    fn drive(&mut self) {
        let Some(snap) = &self.snap else { return };
        let Some(w) = &mut self.worker else { return };
        if snap.result().is_some() || w.busy() || self.rebased.is_some() || self.rebasing {
            return;
        }
        let active = snap.active();
        match snap.seats.get(active as usize).map(|s| s.kind) {
            Some(Sitter::Bot) => {
                let due = self.last_move.elapsed() >= self.pace;
                if (!self.paused && due) || self.step_once {
                    self.step_once = false;
                    self.last_move = Instant::now();
                    w.send(Request::BotMove);
                } else if !self.paused {
                    self.ctx
                        .request_repaint_after(self.pace.saturating_sub(self.last_move.elapsed()));
                }
            }
            Some(Sitter::Person) if self.viewer != Some(active) => {
                let people = snap.seats.iter().filter(|s| s.is_person()).count();
                if people > 1 && hides_anything(&snap.def) {
                    // The board stays hidden until the next person takes the screen.
                    self.handoff = Some(active);
                } else {
                    self.viewer = Some(active);
                    w.send(Request::Viewer(self.viewer));
                }
            }
            _ => {}
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
        self.poll();
        self.drive();
        out.extend(self.wants.take());
        if let Some(e) = &self.error {
            let mut close = false;
            ui.horizontal(|ui| {
                ui.colored_label(ui.visuals().error_fg_color, e);
                close = ui.small_button("Dismiss").clicked();
            });
            if close {
                self.error = None;
            }
        }
        if let Some((n, _)) = &self.notice {
            let mut close = false;
            ui.horizontal(|ui| {
                ui.label(n);
                close = ui.small_button("Dismiss").clicked();
            });
            if close {
                self.notice = None;
            }
        }
        broken_files_ui(ui, p, out);
        let Some(def) = p.def.clone() else {
            if p.diagnostics.is_empty() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Loading…");
                });
            } else {
                ui.label("This mod does not load; the Diagnostics tab lists what is wrong.");
                if ui.button("Show the diagnostics").clicked() {
                    out.push(Command::Show(super::Tab::Diagnostics));
                }
            }
            return;
        };
        if let Some(c) = &self.content {
            let banner = "Content only: this game's rules are not written yet";
            let scene = Scene::plain(&c.def, &c.state.board, &c.view, Some(banner));
            table_ui(ui, &mut self.screen.camera, &scene);
            return;
        }
        if let Some(o) = &mut self.online {
            // Leaving asks first when a game is in progress (and names the people a
            // server hosted here would stop for).
            if let OnlineOut::Leave = o.ui(ui, &mut self.online_ui) {
                out.push(Command::LeaveGame);
            }
            return;
        }
        if self.dialog.is_some() {
            self.dialog_ui(ui, &def, out);
            return;
        }
        if let Some(r) = self.rebased.clone() {
            self.rebased_ui(ui, &r);
        }
        if let Some(seat) = self.handoff {
            self.handoff_ui(ui, seat);
            return;
        }
        if self.snap.is_none() && self.worker.is_none() {
            // No game and nothing starting one: choose a game.
            self.dialog = Some(new_game(&def));
            return;
        }
        let Some(snap) = self.snap.take() else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Starting the game…");
            });
            return;
        };
        self.game_ui(ui, &snap);
        self.snap = Some(snap);
    }
}

/// While the files on disk have problems and the last good version runs, Play says so (from
/// the same diagnostics the Diagnostics tab and the top bar show), with the first problem.
fn broken_files_ui(ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
    let Some(first) = p.diagnostics.first() else {
        return;
    };
    if p.def.is_none() {
        return;
    }
    let n = p.diagnostics.len();
    // The file as the mod names it, not the folder it was opened from.
    let folder = format!("{}/", p.place.folder.display());
    let file = first.path.strip_prefix(&folder).unwrap_or(&first.path);
    let place = if first.line > 0 {
        format!("{file}:{}", first.line)
    } else {
        file.to_string()
    };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "The mod's files have {n} {} ({place}: {}); this game runs on the last version \
                 that loaded.",
                crate::common::plural(n, "problem"),
                crate::common::shown(&first.message, 200),
            ),
        );
        if ui.small_button("Show the diagnostics").clicked() {
            out.push(Command::Show(super::Tab::Diagnostics));
        }
    });
}

fn content_view(def: &Arc<GameDef>) -> Option<ContentView> {
    let seats = def.players.0.max(2).min(def.players.1) as u8;
    let state = farebox::game::initial_state(def, &Setup::new(seats, 1)).ok()?;
    let view = farebox::game::view_of(def, &state, &[], None);
    Some(ContentView {
        def: def.clone(),
        state,
        view,
    })
}
