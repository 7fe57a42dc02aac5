//! The board editor's sections board (Taxi Derby): which sections make the city and their
//! default order, the layout, and whether a game shuffles or turns them.

use eframe::egui;

use crate::edit::Edit;
use crate::studio::Command;

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
                .small_button("Copy")
                .on_hover_text("A copy of this section at the end, its spaces under new ids")
                .clicked()
            {
                duplicate(s, &sec.id, &sec.name, out);
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

/// Duplicates a section; a layout of one row or one column grows to hold the copy, in the
/// same undo step.
fn duplicate(s: &farebox::content::def::SectionsDef, id: &str, name: &str, out: &mut Vec<Command>) {
    let new_id = (2..)
        .map(|k| format!("{id}-{k}"))
        .find(|c| !s.sections.iter().any(|sec| &sec.id == c))
        .unwrap_or_default();
    let label = format!("Duplicate section {id}");
    out.push(Command::BeginGroup(label));
    out.push(Command::Edit(Edit::DuplicateSection {
        id: id.to_string(),
        new_id,
        name: format!("{name} (copy)"),
    }));
    let full = s.columns as usize * s.rows as usize == s.sections.len();
    if full && s.rows == 1 {
        out.push(Command::Edit(Edit::SetSectionsLayout {
            columns: s.columns + 1,
            rows: 1,
        }));
    } else if full && s.columns == 1 {
        out.push(Command::Edit(Edit::SetSectionsLayout {
            columns: 1,
            rows: s.rows + 1,
        }));
    }
    out.push(Command::EndGroup);
}
