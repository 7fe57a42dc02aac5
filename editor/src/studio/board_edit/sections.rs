//! The board editor's sections board (Taxi Derby): which sections make the city and their
//! default order, the layout, and whether a game shuffles or turns them.

use eframe::egui;

use crate::studio::Command;
use crate::studio::edit::Edit;

/// The sections of the city, in their default order, with the layout and setup flags.
pub(super) fn sections_ui(
    ui: &mut egui::Ui,
    s: &farebox::content::def::SectionsDef,
    out: &mut Vec<Command>,
) {
    let n = s.sections.len();
    for (i, sec) in s.sections.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("{}. {}", i + 1, sec.name));
            if i > 0
                && ui
                    .small_button("⬆")
                    .on_hover_text("Earlier in the city")
                    .clicked()
            {
                out.push(Command::Edit(Edit::MoveSection {
                    id: sec.id.clone(),
                    to: i - 1,
                }));
            }
            if i + 1 < n
                && ui
                    .small_button("⬇")
                    .on_hover_text("Later in the city")
                    .clicked()
            {
                out.push(Command::Edit(Edit::MoveSection {
                    id: sec.id.clone(),
                    to: i + 1,
                }));
            }
            if ui
                .small_button("✖")
                .on_hover_text("Delete this section")
                .clicked()
            {
                out.push(Command::Edit(Edit::DeleteSection { id: sec.id.clone() }));
            }
        });
    }
    if ui.button("Add a section").clicked() {
        let id = (n + 1..)
            .map(|k| format!("section-{k}"))
            .find(|id| !s.sections.iter().any(|sec| &sec.id == id))
            .unwrap_or_default();
        out.push(Command::Edit(Edit::AddSection {
            name: format!("Section {}", n + 1),
            id,
        }));
    }
    ui.horizontal(|ui| {
        ui.label("Layout");
        let (mut cols, mut rows) = (s.columns, s.rows);
        let a = ui
            .add(egui::DragValue::new(&mut cols).range(1..=8))
            .on_hover_text("columns");
        ui.label("x");
        let b = ui
            .add(egui::DragValue::new(&mut rows).range(1..=8))
            .on_hover_text("rows");
        if (a.changed() || b.changed()) && (cols, rows) != (s.columns, s.rows) {
            out.push(Command::Edit(Edit::SetSectionsLayout {
                columns: cols,
                rows,
            }));
        }
    });
    let mut shuffle = s.shuffle;
    if ui
        .checkbox(&mut shuffle, "Shuffle the order for each game")
        .changed()
    {
        out.push(Command::Edit(Edit::SetSectionsShuffle(shuffle)));
    }
    let mut rotate = s.rotate;
    if ui
        .checkbox(&mut rotate, "Turn each section at random")
        .changed()
    {
        out.push(Command::Edit(Edit::SetSectionsRotate(rotate)));
    }
    if s.shuffle_option.is_some() || s.rotate_option.is_some() {
        ui.label(
            egui::RichText::new("Game options may override these two when a game starts.").weak(),
        );
    }
    ui.label(egui::RichText::new("The board shows the default order, unturned.").weak());
}
