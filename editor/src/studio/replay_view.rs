//! The Replay tab: open a replay file of the open mod, step through it with a scrubber, see
//! each state as any seat (or a spectator) saw it, and fork a new game from any step.
//!
//! Each position is rebuilt on the game worker from the replay's setup and its first actions,
//! which replays exactly; the UI thread only reads the file. When a replay opens, the worker
//! first plays it through once as a spectator, for the public label of every action (the
//! captions and the list of actions use them, never the actions' own strings), and a thread
//! checks it against the open mod (`farebox replay`'s check): a replay that does not match
//! says why and shows no board.

use std::sync::Arc;
use std::sync::mpsc::Receiver;

use farebox::GameDef;
use farebox::content::def::Visibility;
use farebox::replay::{Mismatch, Replay};

use super::board_view::{self, Camera, Scene};
use super::worker::{Reply, Request, SeatKind, Snapshot, Worker};
use super::{Command, Project};

pub struct ReplayPanel {
    ctx: egui::Context,
    path: String,
    replay: Option<Replay>,
    /// The replay was recorded on other content than the open mod's.
    other_content: bool,
    /// Every action's seat and public label, once the worker has played the replay through.
    labels: Option<Vec<(u8, String)>>,
    /// The next snapshot the worker sends is the whole replay's, for the labels.
    labels_coming: bool,
    /// The check of the replay against the open mod, under way.
    checking: Option<Receiver<Result<(), String>>>,
    /// The game has something some seat may not see (cards, secrets): the replay can show
    /// every seat's.
    hidden: bool,
    /// The step the list of actions last scrolled to.
    listed_step: Option<usize>,
    step: usize,
    shown_step: Option<(usize, Option<u8>)>,
    viewer: Option<u8>,
    worker: Option<Worker>,
    snap: Option<Snapshot>,
    camera: Camera,
    error: Option<String>,
    browser: Option<super::files::Browser>,
    /// A failed game of an outcome run being played again to show it, and, once shown, what
    /// went wrong at its last step.
    rebuilding: Option<(Arc<GameDef>, Receiver<Rebuilt>)>,
    failure: Option<String>,
}

/// A failed game played again: its replay and what went wrong, or why it could not be.
type Rebuilt = Result<(Replay, String), String>;

/// Replays larger than this are refused.
const MAX_REPLAY: u64 = 16 << 20;

impl ReplayPanel {
    pub fn new(ctx: &egui::Context) -> ReplayPanel {
        ReplayPanel {
            ctx: ctx.clone(),
            path: String::new(),
            replay: None,
            other_content: false,
            labels: None,
            labels_coming: false,
            checking: None,
            hidden: false,
            listed_step: None,
            step: 0,
            shown_step: None,
            viewer: None,
            worker: None,
            snap: None,
            camera: Camera::default(),
            error: None,
            browser: None,
            rebuilding: None,
            failure: None,
        }
    }

    /// The step shown, once it is built.
    pub fn snapshot(&self) -> Option<&Snapshot> {
        self.snap.as_ref()
    }

    /// Sets the file name field (as typing it would).
    pub fn set_path(&mut self, path: &str) {
        self.path = path.to_string();
    }

    /// The scrubber's step and the replay's length, once a replay is open.
    pub fn position(&self) -> Option<(usize, usize)> {
        self.replay.as_ref().map(|r| (self.step, r.steps.len()))
    }

    /// The step of the position drawn (it follows the scrubber once the worker answers).
    pub fn showing(&self) -> Option<usize> {
        self.snap.as_ref().map(|s| s.step())
    }

    /// The public label of every action of the open replay, once worked out.
    pub fn labels(&self) -> Option<&[(u8, String)]> {
        self.labels.as_deref()
    }

    /// Whether the warning that the replay can show every seat's hidden information shows.
    pub fn warns_hidden(&self) -> bool {
        self.replay.is_some() && self.hidden
    }

    /// The error shown, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Moves the scrubber (as the list of actions or the slider would).
    pub fn go_to(&mut self, step: usize) {
        if let Some(r) = &self.replay {
            self.step = step.min(r.steps.len());
        }
    }

    /// Reads a replay file of the open mod. Whatever was open before is gone, even when the
    /// new file cannot be shown: a replay that does not fit never shows another's board.
    pub fn open(&mut self, path: &str, def: &Arc<GameDef>) {
        self.clear();
        if path.trim().is_empty() {
            self.error = Some("Type the path of a replay file, or find one with Browse…".into());
            return;
        }
        let text = match farebox::source::read_bounded(std::path::Path::new(path), MAX_REPLAY) {
            Ok(t) => t,
            Err(e) => {
                self.error = Some(format!("{path}: {e}"));
                return;
            }
        };
        match Replay::from_json(&text) {
            Ok(r) => {
                if r.mod_id != def.id {
                    self.error = Some(format!(
                        "{path} is a replay of `{}`, and the open mod is `{}`",
                        r.mod_id, def.id
                    ));
                    return;
                }
                self.show(r, def);
            }
            Err(e) => self.error = Some(format!("{path}: {e}")),
        }
    }

    /// Plays again, on a thread, the game with `seed` of an outcome run with `settings` that
    /// failed or reached the cap, exactly as the run played it, and shows it at its last step
    /// before the stop, with what went wrong there.
    pub fn open_failed(
        &mut self,
        def: &Arc<GameDef>,
        settings: crate::accepted::Settings,
        seed: u64,
    ) {
        self.clear();
        self.path.clear();
        let (tx, rx) = std::sync::mpsc::channel();
        let (d, wake) = (def.clone(), super::waker(&self.ctx));
        let _ = std::thread::Builder::new()
            .name("farebox-replay-failed".into())
            .spawn(move || {
                let r = crate::accepted::failed_game(&d, &settings, seed)
                    .map(|(replay, out)| {
                        let next = replay.steps.len() + 1;
                        let why = match (&out.error, out.capped) {
                            (Some(e), _) => format!(
                                "Seed {seed}: action {next} failed (the board shows the game just before it): {e}"
                            ),
                            (None, true) => format!(
                                "Seed {seed}: the game reached the run's cap of {} actions without ending",
                                settings.cap
                            ),
                            (None, false) => format!(
                                "Seed {seed}: played again, the game ended without a failure"
                            ),
                        };
                        (replay, why)
                    })
                    .map_err(|f| f.message().to_string());
                let _ = tx.send(r);
                wake();
            });
        self.rebuilding = Some((def.clone(), rx));
    }

    /// What a failed game showed when it stopped (None for a replay file).
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Forgets the replay shown, and what was under way for it.
    fn clear(&mut self) {
        self.error = None;
        self.failure = None;
        self.rebuilding = None;
        self.replay = None;
        self.snap = None;
        self.labels = None;
        self.labels_coming = false;
        self.checking = None;
        self.shown_step = None;
        self.listed_step = None;
        // Replies still on their way from the last replay's worker go with it.
        self.worker = None;
    }

    /// Shows `r`, a replay of the open mod, at its end, and checks it against the mod.
    fn show(&mut self, r: Replay, def: &Arc<GameDef>) {
        self.other_content = r.content_hash != def.content_hash;
        self.hidden = def.zones.iter().any(|z| z.visibility != Visibility::Public);
        self.step = r.steps.len();
        // The check runs on a thread: a long replay takes a while to re-run.
        let (tx, rx) = std::sync::mpsc::channel();
        let (d, replay, wake) = (def.clone(), r.clone(), super::waker(&self.ctx));
        let _ = std::thread::Builder::new()
            .name("farebox-replay-check".into())
            .spawn(move || {
                let checked = match farebox::replay::verify(&d, &replay) {
                    Ok(_) => Ok(()),
                    // Other content is said as a warning; the replay is still shown.
                    Err(Mismatch::Content { .. }) => Ok(()),
                    Err(e) => Err(e.to_string()),
                };
                let _ = tx.send(checked);
                wake();
            });
        self.checking = Some(rx);
        self.replay = Some(r);
    }

    /// Picks up the check and the worker's answers.
    fn poll(&mut self) {
        if let Some((def, rx)) = &self.rebuilding
            && let Ok(r) = rx.try_recv()
        {
            let def = def.clone();
            self.rebuilding = None;
            match r {
                Ok((replay, why)) => {
                    self.show(replay, &def);
                    self.failure = Some(why);
                }
                Err(e) => {
                    self.error = Some(format!("The failed game could not be played again: {e}"))
                }
            }
        }
        if let Some(rx) = &self.checking
            && let Ok(checked) = rx.try_recv()
        {
            self.checking = None;
            if let Err(e) = checked {
                // The replay does not fit the mod: the reason, and no board.
                self.error = Some(format!("This replay does not match the open mod: {e}"));
                self.replay = None;
                self.snap = None;
                self.worker = None;
                self.labels = None;
            }
        }
        let Some(w) = &mut self.worker else { return };
        for reply in w.poll() {
            match reply {
                Reply::Snapshot(s) if self.labels_coming => {
                    self.labels_coming = false;
                    self.labels = Some(s.moves.iter().map(|m| (m.seat, m.label.clone())).collect());
                    self.hidden |= s.local.as_ref().is_some_and(|l| l.secret);
                }
                Reply::Snapshot(s) => self.snap = Some(*s),
                Reply::Failed(e) => {
                    // No board for a position that could not be rebuilt: the last one drawn
                    // was another step's.
                    self.labels_coming = false;
                    self.snap = None;
                    self.error = Some(e);
                }
                _ => {}
            }
        }
    }

    // One piece: the replay tab laid out top to bottom (the controls, the step list, the board
    // at the chosen step); a control used in this frame moves the step the rest then shows.
    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
        let Some(def) = p.def.clone() else {
            ui.label("The mod has not loaded.");
            return;
        };
        self.poll();
        ui.horizontal(|ui| {
            let l = ui.label("Replay file:");
            ui.add(
                egui::TextEdit::singleline(&mut self.path)
                    .hint_text("game.replay.json")
                    .desired_width(320.0),
            )
            .labelled_by(l.id);
            if ui.button("Open replay").clicked() {
                let path = self.path.trim().to_string();
                self.open(&path, &def);
            }
            if ui
                .button("Browse…")
                .on_hover_text("Find a replay file on disk")
                .clicked()
            {
                let typed = std::path::PathBuf::from(self.path.trim());
                let start = typed
                    .parent()
                    .filter(|d| d.is_dir())
                    .map_or_else(|| p.place.folder.clone(), std::path::Path::to_path_buf);
                self.browser = Some(super::files::Browser::new(
                    ui.ctx(),
                    super::files::Want::Replay,
                    &start,
                ));
            }
        });
        if let Some(f) = super::files::show(&mut self.browser, ui.ctx()) {
            self.path = f.display().to_string();
            let path = self.path.clone();
            self.open(&path, &def);
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if self.rebuilding.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Playing the failed game again…");
            });
            return;
        }
        if let Some(f) = &self.failure {
            ui.colored_label(ui.visuals().error_fg_color, f);
        }
        let Some(r) = &self.replay else {
            ui.weak("Save a game from the Play tab, or record one with `farebox record`, then open it here.");
            return;
        };
        if self.other_content {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "This replay was recorded on other content than the mod as it is now: it may go astray.",
            );
        }
        if self.hidden {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "This game has hidden information (cards in hand, secrets). A replay can show every seat's: choose a seat's view only if everyone may see it, e.g. after the game.",
            );
        }
        let total = r.steps.len();
        let setup = r.setup.clone();
        let seats = setup.seats;
        ui.horizontal(|ui| {
            if ui.button("First").clicked() {
                self.step = 0;
            }
            if ui.button("Back").on_hover_text("Back one action").clicked() {
                self.step = self.step.saturating_sub(1);
            }
            let l = ui.label("Position");
            ui.add(
                egui::Slider::new(&mut self.step, 0..=total).text(format!("of {total} actions")),
            )
            .labelled_by(l.id);
            if ui
                .button("Forward")
                .on_hover_text("Forward one action")
                .clicked()
            {
                self.step = (self.step + 1).min(total);
            }
            if ui.button("Last").clicked() {
                self.step = total;
            }
            let lv = ui.label("View");
            egui::ComboBox::from_id_salt("replay-viewer")
                .selected_text(match self.viewer {
                    None => "Everyone's view".to_string(),
                    Some(s) => format!("{}'s view", def.seat_name(s as usize)),
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.viewer, None, "Everyone's view");
                    for s in 0..seats {
                        ui.selectable_value(
                            &mut self.viewer,
                            Some(s),
                            format!("{}'s view", def.seat_name(s as usize)),
                        );
                    }
                })
                .response
                .labelled_by(lv.id);
            if ui
                .button("Fork from here")
                .on_hover_text("Start a new game in the Play tab from this position")
                .clicked()
            {
                out.push(Command::Fork {
                    setup: setup.clone(),
                    history: r.steps[..self.step]
                        .iter()
                        .map(|s| s.action.clone())
                        .collect(),
                });
            }
        });
        // The caption: who did what, in the words everyone was told.
        let caption = match self.step.checked_sub(1) {
            None => "The start, before any action".to_string(),
            Some(i) => {
                let seat = r.steps.get(i).map_or(0, |s| s.seat);
                let said = self
                    .labels
                    .as_ref()
                    .and_then(|l| l.get(i))
                    .map_or("…", |(_, l)| l.as_str());
                format!(
                    "Action {}: {} — {said}",
                    self.step,
                    def.seat_name(seat as usize)
                )
            }
        };
        ui.add(egui::Label::new(egui::RichText::new(caption).strong()).wrap());
        self.show_position(def.clone());
        self.list_ui(ui, &def);
        match &self.snap {
            Some(s) => {
                // Each seat's last turn up to this step, marked as in the Play tab.
                let moved = super::play::move_marks(s);
                let scene = Scene {
                    moved: &moved,
                    ..Scene::plain(&s.def, &s.board, &s.view, None)
                };
                egui::Panel::right("replay-zones")
                    .resizable(true)
                    .default_size(300.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| {
                            board_view::zones_ui(ui, &scene);
                        });
                    });
                egui::CentralPanel::default().show(ui, |ui| {
                    board_view::show(ui, &mut self.camera, &scene);
                });
            }
            None if self.error.is_none() => {
                ui.spinner();
            }
            None => {}
        }
    }

    /// Every action of the replay in a list, by seat and public label; clicking one goes to
    /// the position right after it.
    fn list_ui(&mut self, ui: &mut egui::Ui, def: &GameDef) {
        let Some(r) = &self.replay else { return };
        let step = self.step;
        let mut go = None;
        let scroll = self.listed_step != Some(step);
        egui::Panel::left("replay-actions")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                ui.strong("Actions");
                egui::ScrollArea::vertical()
                    .id_salt("replay-action-list")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        let r0 = ui.selectable_label(step == 0, "0. The start");
                        if r0.clicked() {
                            go = Some(0);
                        }
                        for (i, st) in r.steps.iter().enumerate() {
                            let label = self
                                .labels
                                .as_ref()
                                .and_then(|l| l.get(i))
                                .map_or("…", |(_, l)| l.as_str());
                            let text = egui::RichText::new(format!(
                                "{}. {}: {label}",
                                i + 1,
                                def.seat_name(st.seat as usize)
                            ))
                            .color(board_view::seat_color(def, st.seat));
                            let on = step == i + 1;
                            let b = ui.add(egui::Button::selectable(on, text).wrap());
                            if on && scroll {
                                b.scroll_to_me(Some(egui::Align::Center));
                            }
                            if b.clicked() {
                                go = Some(i + 1);
                            }
                        }
                    });
            });
        self.listed_step = Some(step);
        if let Some(g) = go {
            self.step = g;
            self.listed_step = Some(g);
        }
    }

    /// Asks the worker for the position at the scrubber, when it moved.
    fn show_position(&mut self, def: Arc<GameDef>) {
        let Some(r) = &self.replay else { return };
        if self.shown_step == Some((self.step, self.viewer)) {
            return;
        }
        self.shown_step = Some((self.step, self.viewer));
        let new_worker = self.worker.is_none();
        let w = self
            .worker
            .get_or_insert_with(|| Worker::spawn(super::waker(&self.ctx)));
        if new_worker {
            // First the whole replay as a spectator: every action's public label.
            w.send(Request::Viewer(None));
            w.send(Request::Start {
                def: def.clone(),
                setup: r.setup.clone(),
                seats: vec![SeatKind::Person; r.setup.seats as usize],
                history: r.steps.iter().map(|s| s.action.clone()).collect(),
            });
            self.labels_coming = true;
        }
        w.send(Request::Viewer(self.viewer));
        w.send(Request::Start {
            def,
            setup: r.setup.clone(),
            seats: vec![SeatKind::Person; r.setup.seats as usize],
            history: r.steps[..self.step.min(r.steps.len())]
                .iter()
                .map(|s| s.action.clone())
                .collect(),
        });
    }
}
