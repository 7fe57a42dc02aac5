//! A board from nothing: what the Board tab shows for a mod without a board, a choice of the
//! four kinds (a grid of a size, a map, a city of sections, track pieces), each added as a
//! board file written as an author would write it (see `edit/ops/create.rs`).

use eframe::egui;

use super::BoardEditor;
use crate::edit::{Edit, NewBoard};
use crate::studio::Command;
use crate::studio::content::Content;

/// The kind chosen, and the grid's size being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartForm {
    pub kind: Kind,
    pub width: u32,
    pub height: u32,
}

impl Default for StartForm {
    fn default() -> Self {
        StartForm {
            kind: Kind::Grid,
            width: 8,
            height: 8,
        }
    }
}

/// The kinds of board offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Grid,
    Map,
    Sections,
    Track,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Grid, Kind::Map, Kind::Sections, Kind::Track];

    fn name(self) -> &'static str {
        match self {
            Kind::Grid => "Grid",
            Kind::Map => "Map",
            Kind::Sections => "Sections city",
            Kind::Track => "Track pieces",
        }
    }

    fn hint(self) -> &'static str {
        match self {
            Kind::Grid => {
                "Cells in rows and columns, addressed x,y; tiles are laid on them (Curbside)."
            }
            Kind::Map => "Spaces anywhere on the table, joined by roads (Critter Cab).",
            Kind::Sections => {
                "Square sections of spaces, laid out (and shuffled or turned) at setup; roads join them where their connectors meet (Taxi Derby)."
            }
            Kind::Track => {
                "Pieces of track laid end to end while the game runs, from cards that name them (Dicey Curves)."
            }
        }
    }

    /// What the new file starts with.
    fn starts_with(self) -> &'static str {
        match self {
            Kind::Grid => "An empty grid of this size.",
            Kind::Map => "Two spaces joined by a road.",
            Kind::Sections => {
                "Two sections side by side, each with two spaces, joined where they meet."
            }
            Kind::Track => "A start, a straight, a gentle left with gates, and a finish.",
        }
    }
}

impl BoardEditor {
    /// The Board tab of a mod without a board: what it is now, and a board of any kind to
    /// add. The added board is an edit like any other (undone by Ctrl+Z, saved by Ctrl+S).
    pub(super) fn start_ui(&mut self, ui: &mut egui::Ui, c: &Content, out: &mut Vec<Command>) {
        ui.label(
            "This game has no board: its table is its zones of cards. Edit the cards in Decks & tables, or add a board.",
        );
        if let Some(m) = &c.message {
            ui.colored_label(ui.visuals().warn_fg_color, m);
        }
        // A board added but not valid (a file edited by hand since): say why.
        for d in c.problems.iter().take(4) {
            ui.colored_label(ui.visuals().error_fg_color, d.to_string());
        }
        let checking = c.checking();
        ui.add_space(12.0);
        ui.heading("Add a board");
        let f = &mut self.start;
        for k in Kind::ALL {
            ui.radio_value(&mut f.kind, k, k.name())
                .on_hover_text(k.hint());
        }
        ui.add_space(4.0);
        ui.label(egui::RichText::new(f.kind.hint()).weak());
        if f.kind == Kind::Grid {
            egui::Grid::new("new-grid-size")
                .num_columns(2)
                .show(ui, |ui| {
                    for (label, v) in [("Width", &mut f.width), ("Height", &mut f.height)] {
                        let l = ui.label(label);
                        ui.add(egui::DragValue::new(v).range(1..=64).suffix(" cells"))
                            .labelled_by(l.id);
                        ui.end_row();
                    }
                });
        }
        ui.label(egui::RichText::new(f.kind.starts_with()).weak());
        let board = match f.kind {
            Kind::Grid => NewBoard::Grid {
                width: f.width,
                height: f.height,
            },
            Kind::Map => NewBoard::Map,
            Kind::Sections => NewBoard::Sections,
            Kind::Track => NewBoard::Track,
        };
        let add = ui.add_enabled(!checking, egui::Button::new("Add the board"));
        let add = if checking {
            add.on_disabled_hover_text("The last edit is being checked.")
        } else {
            add.on_hover_text(format!(
                "Writes a {} board file and names it in mod.toml; Ctrl+Z takes it back.",
                board.kind()
            ))
        };
        if add.clicked() {
            out.push(Command::Edit(Edit::AddBoard(board)));
        }
        if checking {
            ui.label(egui::RichText::new("Checking the new board…").weak());
        }
    }
}
