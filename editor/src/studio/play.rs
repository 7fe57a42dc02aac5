//! The Play tab: a new-game dialog, then the game itself: the board and zones as the viewing
//! seat may see them, the legal actions (on the board where they belong, and grouped in a
//! list), bots at an adjustable pace with pause and step, a hand-off screen between people
//! at one screen in a game with hidden information, undo, the log, and the end.
//!
//! A mod without rules yet ("content only") shows its board, pieces and decks as a game
//! would start, so authors can look at them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::GameDef;
use farebox::content::def::{OptionType, Visibility};
use farebox::game::{Setup, View};
use farebox::value::Value;

use super::board_view::{self, Camera, Scene, Spot};
use super::worker::{Offered, Rebased, Reply, Request, SeatKind, Snapshot, Worker};
use super::{Command, Project};
use crate::play_menu::{Entry, Menu, Target};

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
    camera: Camera,
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
    /// A passing message: the game followed a reload.
    notice: Option<String>,
    save_path: String,
    saved: Option<String>,
    /// A place on the board with several actions, whose menu is open.
    picked: Option<Spot>,
    /// Clicks on actions wait for the pointer to move after the actions change (see
    /// [`Guard`]).
    guard: Guard,
    /// The definition the new-game dialog was last drawn for (what Start plays).
    dialog_def: Option<Arc<GameDef>>,
    /// The dialog's choices of the game being started, until its first snapshot comes: a
    /// game that cannot start goes back to them, with the reason.
    starting: Option<NewGame>,
    /// The actions under the pointer in the list this frame (one, or a group's): their
    /// spots are lit on the board.
    pointed: Vec<usize>,
    /// The action chosen with the arrow keys (an index into the offered actions), and the
    /// step it was chosen at (a new step forgets it).
    keyed: Option<(usize, usize)>,
    /// The spaces the board wrote names for, last frame.
    named: Vec<(u32, String)>,
    /// The spots lit last frame (of the action under the pointer or chosen with the keys).
    lit: Vec<Spot>,
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
        snap.step.hash(&mut h);
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
            camera: Camera::default(),
            pace: Duration::from_millis(400),
            paused: false,
            step_once: false,
            last_move: Instant::now(),
            viewer: None,
            handoff: None,
            error: None,
            rebased: None,
            notice: None,
            save_path: String::new(),
            saved: None,
            picked: None,
            guard: Guard::default(),
            dialog_def: None,
            starting: None,
            pointed: Vec::new(),
            keyed: None,
            named: Vec::new(),
            lit: Vec::new(),
        }
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

    /// The spaces whose names the board wrote last frame, with the name written.
    pub fn named_on_board(&self) -> &[(u32, String)] {
        &self.named
    }

    /// The spots lit on the board last frame: those of the action under the pointer in the
    /// list, or chosen with the keys.
    pub fn lit(&self) -> &[Spot] {
        &self.lit
    }

    /// The action chosen with the arrow keys, if any.
    pub fn keyed_action(&self) -> Option<&Offered> {
        let (i, step) = self.keyed?;
        let snap = self.snap.as_ref()?;
        (snap.step == step).then(|| snap.offered.get(i)).flatten()
    }

    /// The message shown above the game or the dialog (why a game could not start, what
    /// failed), if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
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

    /// The step of a game in progress: started, not over, with at least one action taken.
    pub fn in_progress(&self) -> Option<usize> {
        let snap = self.snap.as_ref()?;
        (self.worker.is_some() && snap.result.is_none() && snap.step > 0).then_some(snap.step)
    }

    /// Gives up the game in progress (the person agreed to leave it); the dialog stays.
    pub fn end_game(&mut self) {
        self.worker = None;
        self.snap = None;
        self.handoff = None;
        self.rebased = None;
        self.notice = None;
        self.picked = None;
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
                Reply::Rebased(r @ Rebased::Follows { .. }) => {
                    self.notice = Some(format!("The rules were reloaded. {}", r.describe()));
                    w.send(Request::Adopt(true));
                }
                Reply::Rebased(r) => self.rebased = Some(r),
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
        if snap.result.is_some() || w.busy() || self.rebased.is_some() {
            return;
        }
        let active = snap.active;
        match snap.seats.get(active as usize) {
            Some(SeatKind::Bot(_)) => {
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
            Some(SeatKind::Person) if self.viewer != Some(active) => {
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
        if let Some(n) = &self.notice {
            let mut close = false;
            ui.horizontal(|ui| {
                ui.label(n);
                close = ui.small_button("Dismiss").clicked();
            });
            if close {
                self.notice = None;
            }
        }
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
            table_ui(ui, &mut self.camera, &scene);
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

    fn dialog_ui(&mut self, ui: &mut egui::Ui, def: &Arc<GameDef>, out: &mut Vec<Command>) {
        let Some(d) = &mut self.dialog else { return };
        let fixed = d.fork.is_some();
        match &d.fork {
            Some((_, history)) => {
                ui.heading(format!("Continue a replay of {}", def.name));
                ui.label(format!(
                    "The game goes on from step {} of the replay, with its seed and options. Choose who plays each seat.",
                    history.len()
                ));
            }
            None => {
                ui.heading(format!("New game of {}", def.name));
            }
        }
        ui.add_space(6.0);
        let mut agents = vec![SeatKind::Person, SeatKind::Bot("random".into())];
        agents.extend(def.bots.iter().map(|b| SeatKind::Bot(b.id.clone())));
        let agent_name = |k: &SeatKind| match k {
            SeatKind::Person => "Person".to_string(),
            SeatKind::Bot(id) if id == "random" => "Random bot".to_string(),
            SeatKind::Bot(id) => def
                .bot(id)
                .map_or(id.clone(), |b| format!("Bot: {}", b.name)),
        };
        egui::Grid::new("seats")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .show(ui, |ui| {
                let l = ui.label("Players");
                let mut n = d.seats.len() as u32;
                ui.add_enabled(
                    !fixed,
                    egui::Slider::new(&mut n, def.players.0..=def.players.1),
                )
                .labelled_by(l.id);
                d.seats.resize(n as usize, SeatKind::Bot("random".into()));
                ui.end_row();
                for (i, seat) in d.seats.iter_mut().enumerate() {
                    let l =
                        ui.colored_label(board_view::seat_color(def, i as u8), def.seat_name(i));
                    egui::ComboBox::from_id_salt(("seat", i))
                        .selected_text(agent_name(seat))
                        .show_ui(ui, |ui| {
                            for a in &agents {
                                ui.selectable_value(seat, a.clone(), agent_name(a));
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.end_row();
                }
                if fixed {
                    // A fork keeps the replay's options and seed: shown, not changed.
                    ui.disable();
                }
                let chosen: Vec<String> = d.options.iter().map(|(_, v)| v.clone()).collect();
                for (i, (o, (_, value))) in def.options.iter().zip(d.options.iter_mut()).enumerate()
                {
                    // An option that only applies with another option's choice is greyed
                    // while that choice is not made (its value is kept and still passed on).
                    let idle = applies_when(def, i).filter(|(j, c)| chosen.get(*j) != Some(c));
                    let l = ui.add_enabled(idle.is_none(), egui::Label::new(&o.label));
                    let l = match &idle {
                        Some((j, c)) => {
                            let other = &def.options[*j];
                            let choice = match c.as_str() {
                                "true" => "on",
                                "false" => "off",
                                c => other
                                    .choices
                                    .iter()
                                    .find(|(id, _)| id == c)
                                    .map_or(c, |(_, l)| l.as_str()),
                            };
                            l.on_disabled_hover_text(format!(
                                "Applies only when {} is {choice}. {}",
                                other.label, o.description
                            ))
                        }
                        None => l.on_hover_text(&o.description),
                    };
                    ui.add_enabled_ui(idle.is_none(), |ui| match o.kind {
                        OptionType::Bool => {
                            let mut b = value == "true";
                            ui.checkbox(&mut b, "").labelled_by(l.id);
                            *value = b.to_string();
                        }
                        OptionType::Int => {
                            let mut v: i64 = value.parse().unwrap_or(0);
                            let lo = o.min.unwrap_or(i64::MIN / 2);
                            let hi = o.max.unwrap_or(i64::MAX / 2);
                            ui.add(egui::DragValue::new(&mut v).range(lo..=hi))
                                .labelled_by(l.id);
                            *value = v.to_string();
                        }
                        OptionType::Choice => {
                            let shown = o
                                .choices
                                .iter()
                                .find(|(c, _)| c == value)
                                .map_or(value.clone(), |(_, l)| l.clone());
                            egui::ComboBox::from_id_salt(("option", &o.id))
                                .selected_text(shown)
                                .show_ui(ui, |ui| {
                                    for (c, l) in &o.choices {
                                        ui.selectable_value(value, c.clone(), l);
                                    }
                                })
                                .response
                                .labelled_by(l.id);
                        }
                    });
                    ui.end_row();
                }
                let l = ui.label("Seed");
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut d.seed).desired_width(180.0))
                        .labelled_by(l.id);
                    if ui.small_button("New seed").clicked() {
                        d.seed = random_seed().to_string();
                    }
                });
                ui.end_row();
            });
        ui.add_space(8.0);
        let seed = d.seed.trim().parse::<u64>();
        if seed.is_err() {
            ui.colored_label(
                ui.visuals().error_fg_color,
                "The seed is a whole number, 0 or more.",
            );
        }
        self.dialog_def = Some(def.clone());
        if ui
            .add_enabled(seed.is_ok(), egui::Button::new("Start the game"))
            .clicked()
        {
            // Through the app, which asks first when a game in progress would be lost.
            out.push(Command::StartGame);
        }
        if self.snap.is_some() && ui.button("Back to the game in progress").clicked() {
            self.dialog = None;
        }
    }

    fn handoff_ui(&mut self, ui: &mut egui::Ui, seat: u8) {
        let name = self
            .snap
            .as_ref()
            .map_or(String::new(), |s| s.def.seat_name(seat as usize));
        ui.vertical_centered(|ui| {
            ui.add_space(120.0);
            ui.heading(format!("Pass the screen to {name}"));
            ui.label("The board is hidden so that nobody sees another player's cards.");
            ui.add_space(12.0);
            if ui.button(format!("I am {name}: show my view")).clicked() {
                self.handoff = None;
                self.viewer = Some(seat);
                if let Some(w) = &mut self.worker {
                    w.send(Request::Viewer(self.viewer));
                }
            }
        });
    }

    fn rebased_ui(&mut self, ui: &mut egui::Ui, r: &Rebased) {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong("The rules were reloaded");
            ui.label(r.describe());
            ui.horizontal(|ui| match r {
                Rebased::Follows { .. } => {
                    if ui.button("Go on with the new rules").clicked() {
                        self.adopt(true);
                    }
                }
                Rebased::NoStart { .. } => {
                    if ui.button("Keep playing the old version").clicked() {
                        self.adopt(false);
                    }
                }
                _ => {
                    if ui.button("Go on under the new rules from there").clicked() {
                        self.adopt(true);
                    }
                    if ui.button("Keep the old game").clicked() {
                        self.adopt(false);
                    }
                    if ui.button("Restart").clicked() {
                        self.rebased = None;
                        if let Some(s) = &self.snap {
                            let (def, seats) = (s.def.clone(), s.seats.clone());
                            self.dialog = Some(NewGame {
                                seats,
                                ..new_game(&def)
                            });
                        }
                    }
                }
            });
        });
    }

    fn adopt(&mut self, take: bool) {
        self.rebased = None;
        if let Some(w) = &mut self.worker {
            w.send(Request::Adopt(take));
        }
    }

    fn game_ui(&mut self, ui: &mut egui::Ui, snap: &Snapshot) {
        let def = snap.def.clone();
        let mut act: Option<String> = None;
        let armed = self.guard.update(ui.ctx(), snap);
        self.keys(ui.ctx(), snap, &mut act);
        self.pointed.clear();
        // The side panel keeps the width it was given (or dragged to): its contents wrap
        // inside it and never widen it, so the board beside it does not shift.
        egui::Panel::left("play-side")
            .resizable(true)
            .default_size(SIDE_W)
            .size_range(240.0..=640.0)
            .show(ui, |ui| {
                let rect = ui.available_rect_before_wrap();
                let mut inner = ui.new_child(
                    egui::UiBuilder::new()
                        .max_rect(rect)
                        .layout(egui::Layout::top_down(egui::Align::Min)),
                );
                inner.shrink_clip_rect(rect);
                self.side_ui(&mut inner, snap, &mut act, armed);
                ui.advance_cursor_after_rect(rect);
            });
        let offers: Vec<(Spot, String)> = snap
            .offered
            .iter()
            .flat_map(|o| {
                spots_of(&o.action, snap)
                    .into_iter()
                    .map(|s| (s, o.label.clone()))
            })
            .collect();
        let mut actionable: Vec<Spot> = offers.iter().map(|(s, _)| *s).collect();
        actionable.dedup();
        // The action under the pointer, or chosen with the keys: its spots are lit.
        let keyed = self
            .keyed
            .filter(|(_, at)| *at == snap.step)
            .map(|(i, _)| i);
        let lit: Vec<Spot> = self
            .pointed
            .iter()
            .copied()
            .chain(keyed)
            .filter_map(|i| snap.offered.get(i))
            .flat_map(|o| spots_of(&o.action, snap))
            .collect();
        let moved = move_marks(snap);
        let scene = Scene {
            def: &def,
            board: &snap.board,
            view: &snap.view,
            actionable: &actionable,
            banner: None,
            lit: &lit,
            moved: &moved,
            offers: &offers,
        };
        let r = table_ui(ui, &mut self.camera, &scene);
        self.named = r.named.clone();
        self.lit = lit.clone();
        if let Some(spot) = r.clicked.filter(|_| armed) {
            let here: Vec<&Offered> = snap
                .offered
                .iter()
                .filter(|o| spots_of(&o.action, snap).contains(&spot))
                .collect();
            if here.len() == 1 {
                act = here.first().map(|o| o.action.clone());
            } else if !here.is_empty() {
                self.picked = Some(spot);
            }
        }
        // Several actions at one place: a small menu to choose among them.
        if let Some(spot) = self.picked {
            let mut open = true;
            egui::Window::new("Actions here")
                .open(&mut open)
                .collapsible(false)
                .show(ui.ctx(), |ui| {
                    for o in snap
                        .offered
                        .iter()
                        .filter(|o| spots_of(&o.action, snap).contains(&spot))
                    {
                        if ui.button(&o.label).clicked() && armed {
                            act = Some(o.action.clone());
                        }
                    }
                });
            if !open || act.is_some() {
                self.picked = None;
            }
        }
        if let (Some(a), Some(w)) = (act, &mut self.worker) {
            w.send(Request::Act(a));
            self.last_move = Instant::now();
        }
    }

    /// Choosing an action from the keyboard (unless a text field has it): the arrow keys
    /// move through the actions in the order the list shows them, Enter takes the one
    /// chosen, Escape forgets it.
    fn keys(&mut self, ctx: &egui::Context, snap: &Snapshot, act: &mut Option<String>) {
        use egui::{Key, Modifiers};
        if snap.offered.is_empty() || ctx.egui_wants_keyboard_input() {
            return;
        }
        let order = visual_order(&snap.offered);
        let at = self
            .keyed
            .filter(|(_, step)| *step == snap.step)
            .and_then(|(i, _)| order.iter().position(|&o| o == i));
        let (down, up, enter, escape) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        let n = order.len();
        let next = match (down, up, at) {
            (true, _, None) => Some(0),
            (true, _, Some(k)) => Some((k + 1) % n),
            (_, true, None) => Some(n - 1),
            (_, true, Some(k)) => Some((k + n - 1) % n),
            _ => at,
        };
        self.keyed = next
            .and_then(|k| order.get(k))
            .map(|&i| (i, snap.step))
            .filter(|_| !escape);
        if enter
            && let Some((i, _)) = self.keyed
            && let Some(o) = snap.offered.get(i)
        {
            *act = Some(o.action.clone());
            self.keyed = None;
        }
    }

    /// The side panel: the game's state line and controls at the top, always the same rows
    /// so the list of actions under them starts at the same place after every action; the
    /// actions in a scroll area of their own; then saving and the log, which stays after
    /// the game ends.
    fn side_ui(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        act: &mut Option<String>,
        armed: bool,
    ) {
        let def = &snap.def;
        let name = |s: u8| def.seat_name(s as usize);
        ui.add(
            egui::Label::new(format!("Seed {} · {} actions", snap.setup.seed, snap.step)).wrap(),
        );
        if let Some(v) = snap.viewer {
            ui.label(format!("Showing what {} may see", name(v)));
        } else {
            ui.label("Showing what everyone may see");
        }
        ui.separator();
        if let Some(r) = &snap.result {
            // A cooperative ending is one result for the whole table.
            match r.together {
                Some(true) => ui.heading("Game over: everyone wins"),
                Some(false) => ui.heading("Game over: everyone loses"),
                None => ui.heading("Game over"),
            };
            ui.add(egui::Label::new(&r.reason).wrap());
            let mut order: Vec<usize> = (0..r.places.len()).collect();
            order.sort_by_key(|&i| r.places.get(i).copied().unwrap_or(u32::MAX));
            let unit = score_unit(def, &snap.view, &r.scores);
            let score = |n: i64| match &unit {
                Some(u) => format!("{n} {u}"),
                None => format!("score {n}"),
            };
            egui::Grid::new("places").show(ui, |ui| {
                for i in order {
                    match r.together {
                        Some(true) => ui.label("won"),
                        Some(false) => ui.label("lost"),
                        None => ui.label(crate::common::ordinal(
                            r.places.get(i).copied().unwrap_or(0),
                        )),
                    };
                    ui.colored_label(board_view::seat_color(def, i as u8), def.seat_name(i));
                    ui.label(score(r.scores.get(i).copied().unwrap_or(0)));
                    ui.end_row();
                }
            });
            ui.separator();
            self.save_ui(ui);
            if ui.button("New game").clicked() {
                self.dialog = Some(NewGame {
                    seats: snap.seats.clone(),
                    ..new_game(def)
                });
            }
            log_ui(ui, snap);
            return;
        }
        let active = snap.active;
        let bot_to_act = snap
            .seats
            .get(active as usize)
            .is_some_and(|s| !s.is_person());
        ui.horizontal_wrapped(|ui| {
            ui.label("To act:");
            ui.colored_label(board_view::seat_color(def, active), name(active));
            if bot_to_act {
                ui.weak("(a bot)");
                if !self.paused {
                    ui.spinner();
                }
            }
        });
        let bots = snap.seats.iter().any(|s| !s.is_person());
        if bots {
            ui.horizontal_wrapped(|ui| {
                let label = if self.paused { "Play" } else { "Pause" };
                if ui.button(label).clicked() {
                    self.paused = !self.paused;
                }
                if ui
                    .add_enabled(self.paused, egui::Button::new("Step"))
                    .clicked()
                {
                    self.step_once = true;
                }
                let mut ms = self.pace.as_millis() as u32;
                let l = ui.label("Pace");
                ui.add(egui::Slider::new(&mut ms, 0..=2000).suffix(" ms"))
                    .labelled_by(l.id);
                self.pace = Duration::from_millis(ms as u64);
            });
        }
        // Undo is always there (greyed when there is nothing to undo), so it never pushes
        // the actions down when it becomes possible.
        let undo = undo_of(snap);
        let r = ui.add_enabled(undo.is_ok(), egui::Button::new("Undo"));
        let r = match &undo {
            Ok((_, what)) => r.on_hover_text(format!("Undo move: {what} (Ctrl+Z)")),
            Err(why) => r.on_disabled_hover_text(why),
        };
        if r.clicked()
            && let Ok((to, _)) = undo
            && let Some(w) = &mut self.worker
        {
            w.send(Request::Undo(to));
        }
        ui.separator();
        ui.strong("Your actions");
        let list_h = (ui.available_height() * 0.55).max(120.0);
        egui::ScrollArea::vertical()
            .id_salt("play-actions")
            .max_height(list_h)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                if snap.offered.is_empty() {
                    ui.weak(format!("Waiting for {}…", name(active)));
                } else {
                    let keyed = self
                        .keyed
                        .filter(|(_, at)| *at == snap.step)
                        .map(|(i, _)| i);
                    self.pointed = actions_ui(ui, &snap.offered, act, armed, keyed);
                }
            });
        if !snap.offered.is_empty() {
            ui.weak("↑ ↓ choose an action, Enter takes it");
        }
        ui.separator();
        self.save_ui(ui);
        log_ui(ui, snap);
    }

    fn save_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("Replay file");
            // The field takes what the label and the button leave of the panel's width.
            let room = ui.available_width() - 100.0;
            ui.add(
                egui::TextEdit::singleline(&mut self.save_path)
                    .hint_text("game.replay.json")
                    .desired_width(room.clamp(60.0, 240.0)),
            )
            .labelled_by(l.id);
            if ui.button("Save replay").clicked()
                && !self.save_path.trim().is_empty()
                && let Some(w) = &mut self.worker
            {
                w.send(Request::Save(self.save_path.trim().into()));
            }
        });
        if let Some(s) = &self.saved {
            ui.add(egui::Label::new(egui::RichText::new(s).weak()).wrap());
        }
    }
}

/// Where the viewing person's undo goes and what it takes back, or why it cannot.
fn undo_of(snap: &Snapshot) -> Result<(usize, String), String> {
    if snap.result.is_some() {
        return Err("The game is over".into());
    }
    let Some(v) = snap.viewer else {
        return Err("Only bots play: no move of a person to undo".into());
    };
    match snap.undo_to.get(v as usize).copied().flatten() {
        Some(to) => {
            let what = snap.undo_what.get(v as usize).cloned().flatten();
            Ok((
                to,
                what.unwrap_or_else(|| format!("back to before action {}", to + 1)),
            ))
        }
        None => Err(
            "Nothing to undo: no decision of yours since the last random draw or revealed card"
                .into(),
        ),
    }
}

/// The actions as the menu their `describe` paths make (the terminal's menu,
/// [`crate::play_menu::Menu`]): a collapsible group per part shared by several actions, headed
/// with how many actions it holds ("Drive (47)", inside it "with Clear Road (4 spaces)
/// (12)"), a group of one folded into its entry. Labels wrap to the panel's width. A click
/// counts only when `armed` (see [`Guard`]).
/// Returns the actions under the pointer (an action, or all of a group's); `keyed`, the
/// action chosen with the keys, is shown selected, its group open.
fn actions_ui(
    ui: &mut egui::Ui,
    offered: &[Offered],
    act: &mut Option<String>,
    armed: bool,
    keyed: Option<usize>,
) -> Vec<usize> {
    let menu = menu_of(offered);
    let top = menu.entries(0);
    let groups_on_top = top
        .iter()
        .filter(|e| matches!(e.target, Target::Group(..)))
        .count();
    let mut pick = Pick {
        offered,
        act,
        armed,
        keyed,
        pointed: Vec::new(),
    };
    menu_level(ui, &menu, &top, &[], groups_on_top <= 2, &mut pick);
    pick.pointed
}

fn menu_of(offered: &[Offered]) -> Menu {
    let paths: Vec<Vec<String>> = offered.iter().map(|o| o.path.clone()).collect();
    let actions: Vec<String> = offered.iter().map(|o| o.action.clone()).collect();
    Menu::new(&paths, &actions)
}

/// The actions of a menu group, in the order the list shows them.
fn actions_in(menu: &Menu, group: usize, out: &mut Vec<usize>) {
    for e in menu.entries(group) {
        match e.target {
            Target::Action(i) => out.push(i),
            Target::Group(g, _) => actions_in(menu, g, out),
        }
    }
}

/// Every offered action, in the order the list shows them (the arrow keys follow it).
fn visual_order(offered: &[Offered]) -> Vec<usize> {
    let mut out = Vec::new();
    actions_in(&menu_of(offered), 0, &mut out);
    out
}

/// Each seat's last move where it changed the board, for the board to mark in the seat's
/// colour.
pub(crate) fn move_marks(snap: &Snapshot) -> Vec<board_view::MoveMark> {
    snap.last_moves()
        .into_iter()
        .flatten()
        .filter(|m| !m.spaces.is_empty())
        .map(|m| board_view::MoveMark {
            color: board_view::seat_color(&snap.def, m.seat),
            what: format!(
                "{}'s last move: {}",
                snap.def.seat_name(m.seat as usize),
                crate::common::shown(&m.label, 120)
            ),
            spaces: m.spaces,
        })
        .collect()
}

/// What a click in the action menu chooses from, and where the choice goes.
struct Pick<'a> {
    offered: &'a [Offered],
    act: &'a mut Option<String>,
    armed: bool,
    keyed: Option<usize>,
    /// The actions under the pointer.
    pointed: Vec<usize>,
}

/// One level of the action menu; `open_groups`: its groups start open whatever their size.
fn menu_level(
    ui: &mut egui::Ui,
    menu: &Menu,
    entries: &[Entry],
    path: &[&str],
    open_groups: bool,
    pick: &mut Pick,
) {
    for e in entries {
        match e.target {
            Target::Action(i) => {
                let Some(o) = pick.offered.get(i) else {
                    continue;
                };
                let chosen = pick.keyed == Some(i);
                let r = ui.add(egui::Button::new(&e.label).wrap().selected(chosen));
                if chosen {
                    r.scroll_to_me(None);
                }
                let r = if e.label == o.label {
                    r
                } else {
                    r.on_hover_text(&o.label)
                };
                if r.hovered() {
                    pick.pointed = vec![i];
                }
                if r.clicked() && pick.armed {
                    *pick.act = Some(o.action.clone());
                }
            }
            Target::Group(g, n) => {
                let mut here = path.to_vec();
                here.push(&e.label);
                let mut inside = Vec::new();
                actions_in(menu, g, &mut inside);
                let keyed_inside = pick.keyed.is_some_and(|k| inside.contains(&k));
                let header = egui::CollapsingHeader::new(wrapped(ui, format!("{} ({n})", e.label)))
                    .id_salt(("play-action-group", &here))
                    .default_open(open_groups || n <= 8);
                let header = if keyed_inside {
                    header.open(Some(true))
                } else {
                    header
                };
                let r = header.show(ui, |ui| {
                    let inner = menu.entries(g);
                    menu_level(ui, menu, &inner, &here, false, pick);
                });
                if r.header_response.hovered() {
                    pick.pointed = inside;
                }
            }
        }
    }
}

/// A group's heading laid out to wrap within the panel (a collapsing header's own text never
/// wraps, and a long one would widen everything under it).
fn wrapped(ui: &egui::Ui, text: String) -> egui::WidgetText {
    let width = (ui.available_width() - ui.spacing().indent - 8.0).max(60.0);
    egui::WidgetText::from(text)
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Wrap),
            width,
            egui::TextStyle::Button,
        )
        .into()
}

/// The log, newest first, in a scroll area of its own filling the rest of the panel; it
/// stays once the game is over. Each action's line ("Red: Place a tile at 3,4", in the
/// seat's colour, its own words for the viewer's moves and the public ones for everyone
/// else's) comes with the lines the rules wrote as it was applied, under it.
fn log_ui(ui: &mut egui::Ui, snap: &Snapshot) {
    ui.separator();
    ui.strong("Log");
    egui::ScrollArea::vertical()
        .id_salt("play-log")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // Newest first, each action still above what it wrote.
            let mut groups: Vec<&[super::worker::LogLine]> = Vec::new();
            let mut start = 0;
            for (i, l) in snap.log.iter().enumerate() {
                if l.seat.is_some() && i > start {
                    groups.push(&snap.log[start..i]);
                    start = i;
                }
            }
            groups.push(&snap.log[start..]);
            let mut shown = 0;
            for g in groups.iter().rev() {
                // Lines written before any action (setup) stand alone, not indented.
                let headed = g.first().is_some_and(|l| l.seat.is_some());
                for l in g.iter() {
                    match l.seat {
                        Some(seat) => {
                            let color = board_view::seat_color(&snap.def, seat);
                            ui.add(
                                egui::Label::new(
                                    egui::RichText::new(&l.text).color(color).strong(),
                                )
                                .wrap(),
                            );
                        }
                        None if headed => {
                            ui.indent("log-line", |ui| {
                                ui.add(egui::Label::new(&l.text).wrap());
                            });
                        }
                        None => {
                            ui.add(egui::Label::new(&l.text).wrap());
                        }
                    }
                }
                shown += g.len();
                if shown > 300 {
                    break;
                }
            }
        });
}

/// What the final scores count, as the game names it: the counter holding every seat's score
/// at the end (Critter Cab's coins, Taxi Derby's money, Curbside's stars), found by comparing
/// the scores with the counters the view shows; a mod's manifest has no word for its score.
/// None when no counter, or more than one, matches: then it is just the "score".
pub fn score_unit(def: &GameDef, view: &View, scores: &[i64]) -> Option<String> {
    use farebox::content::def::Scope;
    if scores.is_empty() {
        return None;
    }
    let counter = |id: &str| def.counter(id).and_then(|i| def.counters.get(i));
    let matching = |scope: Scope| -> Vec<&str> {
        view.counters
            .iter()
            .filter_map(|(id, values)| {
                let c = counter(id).filter(|c| c.scope == scope)?;
                let fits = match scope {
                    Scope::Seat => {
                        values.len() >= scores.len()
                            && scores.iter().zip(values.iter()).all(|(s, v)| s == v)
                    }
                    Scope::Global => values
                        .first()
                        .is_some_and(|v| scores.iter().all(|s| s == v)),
                };
                fits.then_some(c.name.as_str())
            })
            .collect()
    };
    // A seat's own counter first (a race for coins); a counter of the whole game only when
    // no seat's counter fits (a shared rating, everyone scoring the same).
    let seat = matching(Scope::Seat);
    let found = if seat.is_empty() {
        matching(Scope::Global)
    } else {
        seat
    };
    match found.as_slice() {
        [one] if !one.is_empty() => {
            // A name in capitals stays so ("VP"); else it reads as a word ("12 coins").
            Some(
                if one
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .all(char::is_uppercase)
                {
                    one.to_string()
                } else {
                    one.to_lowercase()
                },
            )
        }
        _ => None,
    }
}

/// The board with the zones beside it (or the zones alone, for a game without a board).
fn table_ui(ui: &mut egui::Ui, camera: &mut Camera, scene: &Scene) -> board_view::BoardResponse {
    let mut out = board_view::BoardResponse::default();
    if scene.board.kind != "none" {
        egui::Panel::right("play-zones")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    let r = board_view::zones_ui(ui, scene);
                    out.clicked = out.clicked.or(r.clicked);
                });
            });
    }
    egui::CentralPanel::default().show(ui, |ui| {
        let r = board_view::show(ui, camera, scene);
        out.clicked = out.clicked.or(r.clicked);
        out.hovered = r.hovered;
        out.named = r.named;
    });
    out
}

/// Where on the table an action belongs: every space it names (a space id, or a grid cell
/// as `x,y`) and every card it names that the viewer can see. An action naming none is only
/// in the list.
pub fn spots_of(action: &str, snap: &Snapshot) -> Vec<Spot> {
    let mut out = Vec::new();
    for token in action.split_whitespace() {
        if let Some((x, y)) = token.split_once(',')
            && let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>())
            && let Some(c) = snap.board.cell(x, y)
        {
            out.push(Spot::Space(c));
            continue;
        }
        if let Some(s) = snap.board.graph.find(token) {
            out.push(Spot::Space(s));
            continue;
        }
        for (zi, z) in snap.view.zones.iter().enumerate() {
            if z.owner.is_some() && z.owner != snap.viewer {
                continue;
            }
            // Every copy: in a hand of identical cards, any of them plays the action.
            for (ci, _) in z.cards.iter().enumerate().filter(|(_, c)| *c == token) {
                out.push(Spot::Card {
                    zone: zi,
                    index: ci,
                });
            }
        }
    }
    out
}

/// Whether a game has anything some seat may not see: then people sharing a screen take
/// turns behind a hand-off screen.
fn hides_anything(def: &GameDef) -> bool {
    def.zones.iter().any(|z| z.visibility != Visibility::Public)
}

/// The option (by index) and value under which option `i` matters, as its `applies_when`
/// says, with the value as the dialog holds it ("true", or a choice id).
fn applies_when(def: &GameDef, i: usize) -> Option<(usize, String)> {
    let (other, is) = def.options.get(i)?.applies_when.as_ref()?;
    let j = def.options.iter().position(|o| &o.id == other)?;
    let want = match is {
        Value::Str(s) => s.clone(),
        v => v.to_string(),
    };
    Some((j, want))
}

fn new_game(def: &GameDef) -> NewGame {
    let n = def.players.0.max(2).min(def.players.1) as usize;
    let bot = def
        .bots
        .first()
        .map_or(SeatKind::Bot("random".into()), |b| {
            SeatKind::Bot(b.id.clone())
        });
    let mut seats = vec![bot; n];
    if let Some(s) = seats.first_mut() {
        *s = SeatKind::Person;
    }
    NewGame {
        seats,
        options: def
            .options
            .iter()
            .map(|o| (o.id.clone(), o.default.to_string()))
            .collect(),
        seed: random_seed().to_string(),
        fork: None,
    }
}

/// A seed for a new game: the clock is fine here, since the seed is shown and recorded, and
/// the game itself draws every number from it.
fn random_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (t ^ (t >> 29)) % 1_000_000
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
