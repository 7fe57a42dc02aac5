//! A card's or row's field that names spaces, set on the board: Decks & tables' "Pick" button
//! shows the board with a banner; each click on a space picks it (a field of one space is set
//! at once; a list when it holds as many as it must, or on Done) and Decks & tables comes back.

use eframe::egui;
use farebox::content::raw::RawValue;

use super::{BoardEditor, Built};
use crate::edit::Edit;
use crate::studio::{Command, Tab};

/// The field's edit with `v` as its value.
fn with_value(e: &Edit, v: RawValue) -> Option<Edit> {
    match e.clone() {
        Edit::SetCardField {
            deck, card, field, ..
        } => Some(Edit::SetCardField {
            deck,
            card,
            field,
            value: Some(v),
        }),
        Edit::SetRowCell {
            table, row, column, ..
        } => Some(Edit::SetRowCell {
            table,
            row,
            column,
            value: Some(v),
        }),
        _ => None,
    }
}

impl BoardEditor {
    /// The banner over the board while a field is being picked.
    pub(super) fn pick_banner(&mut self, ui: &mut egui::Ui, out: &mut Vec<Command>) {
        let Some(p) = &self.pick else { return };
        let how_many = match p.list {
            Some(Some(n)) => format!("Click {n} spaces"),
            Some(None) => "Click spaces, then Done,".to_string(),
            None => "Click a space".to_string(),
        };
        let mut done = false;
        let mut cancel = false;
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("{how_many} on the board for {}.", p.what),
            );
            if !p.picked.is_empty() {
                ui.label(format!("Picked: {}", p.picked.join(", ")));
            }
            if p.list == Some(None) && ui.button("Done").clicked() {
                done = true;
            }
            cancel = ui.button("Cancel picking").clicked();
        });
        if cancel {
            self.pick = None;
            out.push(Command::Show(Tab::Data));
        } else if done {
            self.finish_pick(out);
        }
    }

    /// A click on the space `s` while picking: it is picked. Whether the click was taken.
    pub(super) fn pick_click(&mut self, b: &Built, s: u32, out: &mut Vec<Command>) -> bool {
        let Some(p) = &mut self.pick else {
            return false;
        };
        let Some(id) = b.board.graph.spaces.get(s as usize).map(|sp| sp.id.clone()) else {
            return true;
        };
        match p.list {
            None => {
                p.picked = vec![id];
                self.finish_pick(out);
            }
            Some(n) => {
                if !p.picked.contains(&id) {
                    p.picked.push(id);
                }
                if n.is_some_and(|n| p.picked.len() >= n) {
                    self.finish_pick(out);
                }
            }
        }
        true
    }

    /// Writes what was picked into the field and goes back to Decks & tables.
    fn finish_pick(&mut self, out: &mut Vec<Command>) {
        let Some(p) = self.pick.take() else { return };
        let value = match p.list {
            None => p.picked.first().cloned().map(RawValue::String),
            Some(_) => Some(RawValue::Array(
                p.picked.into_iter().map(RawValue::String).collect(),
            )),
        };
        if let Some(e) = value.and_then(|v| with_value(&p.edit, v)) {
            out.push(Command::Edit(e));
            out.push(Command::SealEdit);
        }
        out.push(Command::Show(Tab::Data));
    }
}
