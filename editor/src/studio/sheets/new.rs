//! Adding content from nothing in Decks & tables: a deck, a table or a tile set, each a new
//! file written as an author would write it (see `edit/ops/create.rs`), named in `mod.toml`
//! and shown at once.

use super::{Sheet, Sheets};
use crate::edit::Edit;
use crate::studio::Command;
use crate::studio::content::Content;
use crate::studio::items::Items;

/// What is being added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NewKind {
    #[default]
    Deck,
    Table,
    TileSet,
}

/// The form under the list: the kind, and the id and name typed.
#[derive(Debug, Clone, Default)]
pub struct NewForm {
    pub kind: NewKind,
    pub id: String,
    pub name: String,
}

impl NewKind {
    fn name(self) -> &'static str {
        match self {
            NewKind::Deck => "Deck",
            NewKind::Table => "Table",
            NewKind::TileSet => "Tile set",
        }
    }

    fn id_hint(self) -> &'static str {
        match self {
            NewKind::Deck => "e.g. night-fares",
            NewKind::Table => "e.g. fare-prices",
            NewKind::TileSet => "its first tile's, e.g. straight",
        }
    }
}

impl Sheets {
    /// The "Add to the mod" form: a deck, a table or a tile set.
    pub(super) fn new_ui(&mut self, ui: &mut egui::Ui, c: &Content, out: &mut Vec<Command>) {
        ui.add_space(12.0);
        ui.strong("Add to the mod");
        let f = &mut self.new;
        ui.horizontal_wrapped(|ui| {
            for k in [NewKind::Deck, NewKind::Table, NewKind::TileSet] {
                ui.radio_value(&mut f.kind, k, k.name());
            }
        });
        let l = ui.label("Id");
        ui.add(
            egui::TextEdit::singleline(&mut f.id)
                .hint_text(f.kind.id_hint())
                .desired_width(180.0),
        )
        .labelled_by(l.id);
        let l = ui.label("Name");
        ui.add(
            egui::TextEdit::singleline(&mut f.name)
                .hint_text("as players read it")
                .desired_width(180.0),
        )
        .labelled_by(l.id);
        let id = f.id.trim().to_string();
        let taken = match f.kind {
            NewKind::Deck => c.catalog.deck(&id).is_some(),
            NewKind::Table => c.catalog.table(&id).is_some(),
            NewKind::TileSet => c.catalog.tiles.iter().any(|(t, _)| *t == id),
        };
        if taken {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("The mod has a {} `{id}` already.", what(f.kind)),
            );
        }
        let add = ui.add_enabled(
            !id.is_empty() && !taken,
            egui::Button::new(format!("Add the {}", f.kind.name().to_lowercase())),
        );
        if !add.clicked() {
            return;
        }
        let name = match f.name.trim() {
            "" => title(&id),
            n => n.to_string(),
        };
        let (edit, sheet) = match f.kind {
            NewKind::Deck => (
                Edit::AddDeck {
                    id: id.clone(),
                    name,
                },
                Sheet::Deck(id),
            ),
            NewKind::Table => (
                Edit::AddTable {
                    id: id.clone(),
                    name,
                },
                Sheet::Table(id),
            ),
            NewKind::TileSet => (
                Edit::AddTileSet { tile: id, name },
                Sheet::Items(Items::Tiles),
            ),
        };
        f.id.clear();
        f.name.clear();
        out.push(Command::Edit(edit));
        self.pick(sheet);
    }
}

fn what(k: NewKind) -> &'static str {
    match k {
        NewKind::Deck => "deck",
        NewKind::Table => "table",
        NewKind::TileSet => "tile",
    }
}

/// "night-fares" as "Night fares".
fn title(id: &str) -> String {
    let words = id.replace(['-', '_'], " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}
