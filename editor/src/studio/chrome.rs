//! The Studio window's chrome around the tabs: the top bar with its menus (the Edit menu's undo
//! and redo), the keyboard shortcuts, the window title, and the strip of outcome figures.

use std::time::Duration;

use super::{Command, Studio, Tab};
use super::{content, play};

impl Studio {
    /// Ctrl+S saves. Ctrl+Z acts on the tab shown: in Play it undoes the person's last move
    /// (and Ctrl+Shift+Z does nothing: moves are not redone), in the editors it undoes and
    /// Ctrl+Shift+Z (or Ctrl+Y) redoes edits; never while a text field has the keyboard
    /// (it undoes its own typing).
    pub(super) fn shortcuts(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if self.project.is_none() {
            return;
        }
        let ctx = ui.ctx().clone();
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let editing = self.project.as_ref().is_some_and(|p| p.content.is_some());
        if editing && ctx.input_mut(|i| i.consume_shortcut(&save)) {
            out.push(Command::Save);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        // The longer shortcut first: Ctrl+Shift+Z also matches Ctrl+Z's keys.
        let redo = ctx.input_mut(|i| i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y));
        let undo = !redo && ctx.input_mut(|i| i.consume_shortcut(&undo));
        match self.tab {
            Tab::Play if undo => out.push(Command::UndoMove),
            Tab::Board | Tab::Data if editing && redo => out.push(Command::Redo),
            Tab::Board | Tab::Data if editing && undo => out.push(Command::Undo),
            _ => {}
        }
    }

    /// The window's title: the mod, and a mark while edits are unsaved.
    /// Under the editors: what the last edit did to the outcomes (provisional figures as
    /// they come, then the whole run's), or a button to start them.
    pub(super) fn outcomes_strip(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        if self.project.is_none() || !self.outcomes.runnable() {
            return;
        }
        self.outcomes.poll();
        let line = self.outcomes.status_line();
        if self.outcomes.is_running() {
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
        let mut run = false;
        egui::Panel::bottom("editor-outcomes").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                match &line {
                    Some(l) => {
                        ui.label(l);
                    }
                    None => {
                        ui.label("Outcomes: not run for this version.");
                        run = ui
                            .button("Run outcomes")
                            .on_hover_text("Play the seeded games in the background; after each valid edit they run again")
                            .clicked();
                    }
                }
                if ui.link("Open the Outcomes tab").clicked() {
                    out.push(Command::Show(Tab::Outcomes));
                }
            });
        });
        if run {
            self.outcomes.run_now(ui.ctx());
        }
    }

    pub(super) fn set_title(&mut self, ctx: &egui::Context) {
        let title = match &self.project {
            None => "Farebox Studio".to_string(),
            Some(p) => {
                let name = p
                    .def
                    .as_ref()
                    .map_or(p.place.name.clone(), |d| d.name.clone());
                let dirty = p.content.as_ref().is_some_and(|c| c.unsaved());
                format!("{}{name} — Farebox Studio", if dirty { "● " } else { "" })
            }
        };
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    pub(super) fn top_bar(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(p) = &self.project else {
            return;
        };
        egui::Panel::top("studio-top").show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui
                    .button("All games")
                    .on_hover_text("Back to the start screen")
                    .clicked()
                {
                    out.push(Command::Close);
                }
                let name = p
                    .def
                    .as_ref()
                    .map_or(p.place.name.clone(), |d| d.name.clone());
                ui.heading(name);
                ui.separator();
                for (tab, label) in [
                    (Tab::Play, "Play".to_string()),
                    (Tab::Outcomes, "Outcomes".to_string()),
                    (Tab::Replay, "Replay".to_string()),
                    (Tab::Board, "Board".to_string()),
                    (Tab::Data, "Decks & tables".to_string()),
                    (
                        Tab::Diagnostics,
                        if p.diagnostics.is_empty() {
                            "Diagnostics".to_string()
                        } else {
                            format!("Diagnostics ({})", p.diagnostics.len())
                        },
                    ),
                    (Tab::Console, "Console".to_string()),
                    (Tab::Print, "Print".to_string()),
                ] {
                    if ui.selectable_label(self.tab == tab, label).clicked() {
                        out.push(Command::Show(tab));
                    }
                }
                ui.separator();
                edit_menu(ui, self.tab, p.content.as_ref(), &self.play, out);
                if matches!(self.tab, Tab::Board | Tab::Data) {
                    ui.toggle_value(&mut self.history_open, "History")
                        .on_hover_text("The edits so far, each named; click one to go back to it");
                }
                ui.separator();
                if p.loading.is_some() {
                    ui.spinner();
                }
                let status = egui::RichText::new(&p.status);
                if p.diagnostics.is_empty() {
                    ui.label(status);
                } else {
                    ui.colored_label(ui.visuals().error_fg_color, status);
                }
            });
        });
    }
}

/// Undo and redo of the tab shown, each naming what it takes back or makes again (a move
/// in Play, an edit in the editors) or why there is nothing, and save.
pub(super) fn edit_menu(
    ui: &mut egui::Ui,
    tab: Tab,
    c: Option<&content::Content>,
    play: &play::PlayPanel,
    out: &mut Vec<Command>,
) {
    let unsaved = c.is_some_and(|c| c.unsaved());
    let history = c.map(|c| c.editor.history());
    let (undo, redo) = match tab {
        Tab::Play => (
            play.undo_label()
                .map(|l| (format!("Undo move: {l}"), Command::UndoMove)),
            Err("Moves are not redone: play the move again".to_string()),
        ),
        Tab::Board | Tab::Data => match history {
            Some(h) => (
                h.undo_label()
                    .map(|l| (format!("Undo edit: {l}"), Command::Undo))
                    .ok_or_else(|| "Nothing to undo: no edits yet".to_string()),
                h.redo_label()
                    .map(|l| (format!("Redo edit: {l}"), Command::Redo))
                    .ok_or_else(|| "Nothing to redo".to_string()),
            ),
            None => (
                Err("The mod's files are not open for editing".to_string()),
                Err("Nothing to redo".to_string()),
            ),
        },
        _ => {
            let why = "Undo works in the Play tab (moves) and the editors (edits)".to_string();
            (Err(why.clone()), Err(why))
        }
    };
    let title = if unsaved { "Edit •" } else { "Edit" };
    let hover = match &undo {
        Ok((l, _)) => l.clone(),
        Err(why) => why.clone(),
    };
    ui.menu_button(title, |ui| {
        let save = if unsaved {
            Ok(("Save".to_string(), Command::Save))
        } else {
            Err("Nothing to save".to_string())
        };
        for (i, (item, keys)) in [(undo, "Ctrl+Z"), (redo, "Ctrl+Shift+Z"), (save, "Ctrl+S")]
            .into_iter()
            .enumerate()
        {
            if i == 2 {
                ui.separator();
            }
            match item {
                Ok((label, command)) => {
                    let button = egui::Button::new(label).shortcut_text(keys);
                    if ui.add(button).clicked() {
                        out.push(command);
                        ui.close();
                    }
                }
                Err(why) => {
                    let button = egui::Button::new(why).shortcut_text(keys);
                    ui.add_enabled(false, button);
                }
            }
        }
    })
    .response
    .on_hover_text(hover);
}
