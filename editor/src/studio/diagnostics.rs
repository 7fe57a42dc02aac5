//! The list of problems the engine found in the open mod, each opening its file at its line in
//! the person's editor.

use std::path::PathBuf;

use farebox::Diagnostic;

use super::{Command, Project};

/// Every problem of the newest version of the mod, with its place; each can be copied or
/// opened in the system's editor for that file.
pub(super) fn diagnostics_ui(ui: &mut egui::Ui, p: &Project, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.heading("Diagnostics");
        if ui.button("Check again").clicked() {
            out.push(Command::Reload);
        }
    });
    if p.checking() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Checking the newest files…");
        });
    }
    if p.diagnostics.is_empty() {
        if p.def.is_some() {
            ui.label(
                "No problems: the mod loads, its scripts compile, and a game of every seat \
                 count sets up.",
            );
        }
        return;
    }
    if p.def.is_some() {
        ui.label("The files on disk have these problems; the last version that loaded keeps running until they are fixed.");
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for d in &p.diagnostics {
            ui.horizontal(|ui| {
                let place = if d.line == 0 {
                    d.path.clone()
                } else {
                    format!("{}:{}:{}", d.path, d.line, d.col)
                };
                if ui
                    .small_button("Copy")
                    .on_hover_text("Copy this line")
                    .clicked()
                {
                    ui.ctx().copy_text(d.to_string());
                }
                if ui
                    .small_button("Open")
                    .on_hover_text("Open the file in the system's editor")
                    .clicked()
                {
                    open_in_editor(&p.place.folder, d);
                }
                ui.monospace(place);
                ui.label(&d.message);
            });
        }
    });
}

/// Opens a diagnostic's file: with `$FAREBOX_EDITOR` (`{file}` and `{line}` in it are filled
/// in, e.g. `code -g {file}:{line}`), else the desktop's handler for the file.
pub(super) fn open_in_editor(folder: &std::path::Path, d: &Diagnostic) {
    // Diagnostic paths start with the mod folder as it was given.
    let file = PathBuf::from(&d.path);
    let file = if file.exists() {
        file
    } else {
        folder.join(d.path.split('/').skip(1).collect::<Vec<_>>().join("/"))
    };
    let spawned = match std::env::var("FAREBOX_EDITOR") {
        Ok(template) => {
            let filled = template
                .replace("{file}", &file.display().to_string())
                .replace("{line}", &d.line.max(1).to_string());
            let mut parts = filled.split_whitespace();
            parts.next().map(|prog| {
                std::process::Command::new(prog)
                    .args(parts)
                    .spawn()
                    .map(|_| ())
            })
        }
        Err(_) => Some(
            std::process::Command::new("xdg-open")
                .arg(&file)
                .spawn()
                .map(|_| ()),
        ),
    };
    let _ = spawned;
}
