//! The undo history beside the editors: every step of the edit history, named as the Edit
//! menu names it, the current one marked, the undone ones greyed after it; clicking a step
//! undoes or redoes edits until the content is as it was right after that step.

use super::Command;
use super::content::Content;

/// The panel, on the right of the Board and Decks & tables tabs.
pub(super) fn history_ui(ui: &mut egui::Ui, c: &Content, out: &mut Vec<Command>) {
    let (done, undone) = c.editor.history().steps();
    egui::Panel::right("edit-history")
        .resizable(true)
        .default_size(240.0)
        .show(ui, |ui| {
            ui.heading("Edit history");
            ui.label(
                egui::RichText::new("Click a step to go back to it; later steps can be made again until the next edit.")
                    .weak(),
            );
            ui.separator();
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    let here = done.len();
                    if ui
                        .selectable_label(here == 0, "0. Before these steps")
                        .clicked()
                    {
                        out.push(Command::UndoTo(0));
                    }
                    for (i, label) in done.iter().chain(undone.iter()).enumerate() {
                        let n = i + 1;
                        let text = format!("{n}. {label}");
                        let text = if n > here {
                            egui::RichText::new(text).weak().italics()
                        } else {
                            egui::RichText::new(text)
                        };
                        let r = ui.selectable_label(n == here, text);
                        let r = if n > here {
                            r.on_hover_text("Undone: click to make it again (with the steps before it)")
                        } else {
                            r
                        };
                        if r.clicked() && n != here {
                            out.push(Command::UndoTo(n));
                        }
                    }
                    if done.is_empty() && undone.is_empty() {
                        ui.label(egui::RichText::new("No edits yet.").weak());
                    }
                });
        });
}
