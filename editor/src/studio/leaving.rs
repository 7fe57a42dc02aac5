//! What the Studio asks before something is lost: unsaved edits or a game in progress when a
//! command would close the mod or replace the game, and files changed on disk under unsaved
//! edits (the conflicts).

use std::path::PathBuf;

use super::{Command, Studio};

impl Loss {
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty() && self.game.is_none()
    }

    /// What closing or leaving loses of the game in Play: the game in progress, and the
    /// people seated at a table hosted here.
    fn game_of(play: &super::play::PlayPanel) -> Loss {
        let game = play.in_progress();
        Loss {
            edits: Vec::new(),
            game,
            hosted_for: if game.is_some() { play.hosted_for() } else { 0 },
        }
    }

    /// One sentence naming what would be lost.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.edits.is_empty() {
            parts.push(format!("unsaved edits in {}", self.edits.join(", ")));
        }
        match self.game {
            Some(0) => parts.push("a game in progress, just started".to_string()),
            Some(step) => parts.push(format!("a game in progress at action {step}")),
            None => {}
        }
        if self.hosted_for > 0 {
            parts.push(format!(
                "its table is hosted here, so leaving stops the game for the {} other {} seated",
                self.hosted_for,
                if self.hosted_for == 1 {
                    "person"
                } else {
                    "people"
                }
            ));
        }
        let mut s = parts.join("; ");
        if let Some(first) = s.get(..1) {
            s = first.to_uppercase() + s.get(1..).unwrap_or("");
        }
        s
    }
}

impl Studio {
    /// Whether edits are unsaved.
    pub fn unsaved(&self) -> bool {
        self.project
            .as_ref()
            .and_then(|p| p.content.as_ref())
            .is_some_and(|c| c.unsaved())
    }

    /// A file changed on disk while it had unsaved edits here: which to keep.
    pub(super) fn conflicts_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(file) = self
            .project
            .as_ref()
            .and_then(|p| p.content.as_ref())
            .and_then(|c| c.conflicts.first().cloned())
        else {
            return;
        };
        egui::Modal::new(egui::Id::unique("farebox-conflict")).show(ui.ctx(), |ui| {
            ui.heading("Changed in two places");
            ui.label(format!(
                "{file} was changed on disk, and it has edits here that are not saved."
            ));
            ui.horizontal(|ui| {
                if ui
                    .button("Keep my edits")
                    .on_hover_text("Saving will overwrite the file on disk")
                    .clicked()
                {
                    out.push(Command::Settle {
                        file: file.clone(),
                        keep_mine: true,
                    });
                }
                if ui
                    .button("Take the file from disk")
                    .on_hover_text("The edits made here to this file are dropped")
                    .clicked()
                {
                    out.push(Command::Settle {
                        file: file.clone(),
                        keep_mine: false,
                    });
                }
            });
        });
    }

    /// What a command would throw away: closing the mod or opening another loses the
    /// unsaved edits and the game in progress; forking or starting a new game loses the game.
    pub fn at_risk(&self, c: &Command) -> Loss {
        match c {
            Command::Open(_) | Command::Close if self.project.is_some() => Loss {
                edits: self.unsaved_files(),
                ..Loss::game_of(&self.play)
            },
            Command::Fork { .. } | Command::StartGame | Command::LeaveGame => {
                Loss::game_of(&self.play)
            }
            _ => Loss::default(),
        }
    }

    /// The open mod's files with unsaved edits.
    pub(super) fn unsaved_files(&self) -> Vec<String> {
        match self.project.as_ref().and_then(|p| p.content.as_ref()) {
            Some(c) if c.unsaved() => c.editor.docs().dirty_files(),
            _ => Vec::new(),
        }
    }

    /// Whether the question about losing work shows.
    pub fn asking(&self) -> bool {
        self.leaving.is_some()
    }

    /// Closing the window, closing the mod or replacing the game asks first when unsaved
    /// edits or a game in progress would be lost: the question names them, and offers to
    /// save and go on, to discard and go on (or to leave the game), or to cancel.
    pub(super) fn leaving_ui(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let ctx = ui.ctx().clone();
        let at_stake = self.unsaved() || self.play.in_progress().is_some();
        if ctx.input(|i| i.viewport().close_requested()) && at_stake && self.leaving.is_none() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.leaving = Some(Leave::Window);
        }
        let Some(leave) = &self.leaving else {
            return;
        };
        let window = matches!(leave, Leave::Window);
        let loss = match leave {
            Leave::Window => Loss {
                edits: self.unsaved_files(),
                ..Loss::game_of(&self.play)
            },
            Leave::Then(c) => self.at_risk(c),
        };
        let mut done = false;
        let mut go = None::<bool>;
        egui::Modal::new(egui::Id::unique("farebox-leaving")).show(&ctx, |ui| {
            ui.heading(if loss.edits.is_empty() {
                "Leave the game?"
            } else {
                "Unsaved edits"
            });
            ui.label(format!("{}.", loss.describe()));
            ui.horizontal(|ui| {
                let on = if window { "close" } else { "go on" };
                if loss.edits.is_empty() {
                    let leave = if window {
                        "Leave the game and close"
                    } else {
                        "Leave the game"
                    };
                    if ui.button(leave).clicked() {
                        go = Some(false);
                    }
                } else {
                    if ui.button(format!("Save and {on}")).clicked() {
                        out.push(Command::Save);
                        go = Some(true);
                    }
                    let discard = if window {
                        "Close without saving".to_string()
                    } else {
                        "Discard and go on".to_string()
                    };
                    if ui.button(discard).clicked() {
                        out.push(Command::Discard);
                        go = Some(false);
                    }
                }
                if ui.button("Cancel").clicked() {
                    done = true;
                }
            });
        });
        if go.is_some() {
            done = true;
            match self.leaving.take() {
                Some(Leave::Window) => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                Some(Leave::Then(c)) => out.push(Command::Confirmed(c)),
                None => {}
            }
        }
        if done {
            self.leaving = None;
        }
    }
}

/// What waits while the Studio asks whether to lose unsaved edits or a game in progress.
pub enum Leave {
    /// The window is closing.
    Window,
    /// A command that closes the mod or replaces the game.
    Then(Box<Command>),
}

/// What a command would throw away: the unsaved edits (their files), a game in progress
/// (its step).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Loss {
    pub edits: Vec<String>,
    pub game: Option<usize>,
    /// Other people seated at a table hosted here, whose game leaving would stop.
    pub hosted_for: usize,
}

/// The changed files as the status line names them: relative to the watched folder that
/// holds them, the first by name and the rest counted.
pub(super) fn changed_files(paths: &[PathBuf], folders: &[PathBuf]) -> String {
    let rel = |p: &PathBuf| {
        folders
            .iter()
            .find_map(|f| {
                p.strip_prefix(f)
                    .ok()
                    .or_else(|| p.strip_prefix(f.canonicalize().ok()?).ok())
                    .map(|r| r.display().to_string())
            })
            .unwrap_or_else(|| p.display().to_string())
    };
    let mut names: Vec<String> = paths.iter().map(rel).collect();
    names.sort();
    names.dedup();
    let shown = crate::common::shown(names.first().map_or("A file", String::as_str), 80);
    match names.len() {
        0 | 1 => shown,
        n => format!(
            "{shown} and {} other {}",
            n - 1,
            crate::common::plural(n - 1, "file")
        ),
    }
}
