//! The Replay tab: open a replay file of the open mod, step through it with a scrubber, see
//! each state as any seat (or a spectator) saw it, and fork a new game from any step.
//!
//! Each position is rebuilt on the game worker from the replay's setup and its first actions,
//! which replays exactly; the UI thread only reads the file.

use std::sync::Arc;

use farebox::GameDef;
use farebox::replay::Replay;

use super::board_view::{self, Camera, Scene};
use super::worker::{Reply, Request, SeatKind, Snapshot, Worker};
use super::{Command, Project};

pub struct ReplayPanel {
    ctx: egui::Context,
    path: String,
    replay: Option<Replay>,
    /// The replay was recorded on other content than the open mod's.
    other_content: bool,
    step: usize,
    shown_step: Option<(usize, Option<u8>)>,
    viewer: Option<u8>,
    worker: Option<Worker>,
    snap: Option<Snapshot>,
    camera: Camera,
    error: Option<String>,
    browser: Option<super::files::Browser>,
}

/// Replays larger than this are refused.
const MAX_REPLAY: u64 = 16 << 20;

impl ReplayPanel {
    pub fn new(ctx: &egui::Context) -> ReplayPanel {
        ReplayPanel {
            ctx: ctx.clone(),
            path: String::new(),
            replay: None,
            other_content: false,
            step: 0,
            shown_step: None,
            viewer: None,
            worker: None,
            snap: None,
            camera: Camera::default(),
            error: None,
            browser: None,
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
        self.snap.as_ref().map(|s| s.step)
    }

    /// Reads a replay file of the open mod.
    pub fn open(&mut self, path: &str, def: &GameDef) {
        self.error = None;
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
                self.other_content = r.content_hash != def.content_hash;
                self.step = r.steps.len();
                self.replay = Some(r);
                self.shown_step = None;
                self.snap = None;
            }
            Err(e) => self.error = Some(format!("{path}: {e}")),
        }
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
        let Some(def) = p.def.clone() else {
            ui.label("The mod has not loaded.");
            return;
        };
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
        if let Some(s) = self.step.checked_sub(1).and_then(|i| r.steps.get(i)) {
            ui.label(format!(
                "Action {}: {} — {}",
                self.step,
                def.seat_name(s.seat as usize),
                s.action
            ));
        }
        self.show_position(def.clone());
        if let Some(w) = &mut self.worker {
            for reply in w.poll() {
                match reply {
                    Reply::Snapshot(s) => self.snap = Some(*s),
                    Reply::Failed(e) => self.error = Some(e),
                    _ => {}
                }
            }
        }
        match &self.snap {
            Some(s) => {
                let scene = Scene {
                    def: &s.def,
                    board: &s.board,
                    view: &s.view,
                    actionable: &[],
                    banner: None,
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
            None => {
                ui.spinner();
            }
        }
    }

    /// Asks the worker for the position at the scrubber, when it moved.
    fn show_position(&mut self, def: Arc<GameDef>) {
        let Some(r) = &self.replay else { return };
        if self.shown_step == Some((self.step, self.viewer)) {
            return;
        }
        self.shown_step = Some((self.step, self.viewer));
        let w = self
            .worker
            .get_or_insert_with(|| Worker::spawn(super::waker(&self.ctx)));
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
