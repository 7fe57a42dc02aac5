//! Decks and tables as spreadsheets: one row per card or table row, a column per field with
//! a widget by the field's type (numbers, text, yes/no, a drop-down of the ids a reference
//! may name, lists as comma-separated text), the count column, add, duplicate, delete, sort
//! and filter, and a preview of the selected card as the board view draws cards. Every change
//! is an [`Edit`] pushed to the app; problems the engine finds are shown on the row and cell
//! they concern.

mod cell;
mod grid;
mod new;

use farebox::GameDef;
use farebox::content::raw::{FieldType, RawValue};

use super::cell_text::{origin_text, show};
use super::content::Content;
use super::{Command, Project};
use crate::edit::{DeckEntry, Edit, Entry, TableEntry};
use cell::{SheetRef, count_of, default_of, fresh_id};

pub use cell::{ref_choices, ref_ids};
use grid::{card_preview, col, field_col};

/// Which sheet is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sheet {
    Deck(String),
    Table(String),
    /// Tiles, options, constants or rule hooks.
    Items(super::items::Items),
}

/// A column of a sheet.
struct Column {
    key: String,
    kind: FieldType,
    /// For references: what they name (`tiles`, `deck:x`...).
    to: Option<String>,
    hint: String,
    /// A card or row must give it (and it has no default).
    required: bool,
    /// What an absent value means, as the cell shows it greyed.
    default: Option<String>,
    /// A string field's allowed values with their labels (empty: any string).
    choices: Vec<(String, String)>,
    /// A number field's least and greatest value.
    range: (Option<i64>, Option<i64>),
    /// A list's fixed length.
    length: Option<u32>,
}

/// The strip of messages above a sheet's grid (what a save did, the problems): always this
/// tall, so the grid under it never moves when a message comes or goes.
const STRIP_H: f32 = 66.0;
/// The height of a row of the grid.
const ROW_H: f32 = 26.0;
/// The width of the first column (the row's number, copy and delete).
const ACTIONS_W: f32 = 160.0;
/// The width of a deck's win-rate column (see `Sheets::outcomes`).
const OUTCOMES_W: f32 = 170.0;

#[derive(Default)]
pub struct Sheets {
    pub sheet: Option<Sheet>,
    /// Each deck's and table's own filter text, by sheet.
    filters: std::collections::HashMap<String, String>,
    /// A row just added, to scroll into view once it is drawn.
    reveal: Option<String>,
    /// The row added last in this sheet: it stays in sight whatever the filter says.
    added: Option<String>,
    /// A cell whose typed text could not be written: (row id, column, why).
    cell_error: Option<(String, String, String)>,
    /// Sort by this column, ascending or not.
    sort: Option<(String, bool)>,
    /// The card or row picked for the preview and its problems.
    picked: Option<String>,
    /// A list cell being typed into: (row id, column, text), written when it loses focus.
    typing: Option<(String, String, String)>,
    hooks: super::items::HookOrigins,
    /// Per card id, its win rate in the outcomes run now and in the accepted ones, shown as
    /// the last column of every deck (set by the Studio each frame; empty when none).
    pub outcomes: std::collections::BTreeMap<String, String>,
    /// The form that adds a deck, a table or a tile set.
    new: new::NewForm,
}

impl Sheets {
    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, c: &Content, out: &mut Vec<Command>) {
        let def = p.def.clone();
        egui::Panel::left("sheets-list")
            .resizable(true)
            .default_size(200.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.list_ui(ui, c);
                    self.new_ui(ui, c, out);
                })
            });
        if self.sheet.is_none() {
            self.sheet = c
                .catalog
                .decks
                .first()
                .map(|d| Sheet::Deck(d.id.clone()))
                .or_else(|| c.catalog.tables.first().map(|t| Sheet::Table(t.id.clone())));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            // Decks and tables show the message in their strip, where it moves nothing.
            if matches!(self.sheet, Some(Sheet::Items(_)) | None)
                && let Some(m) = &c.message
            {
                ui.colored_label(ui.visuals().warn_fg_color, m);
            }
            match self.sheet.clone() {
                Some(Sheet::Deck(id)) => match c.catalog.deck(&id) {
                    Some(d) => self.deck_ui(ui, def.as_deref(), c, d, out),
                    None => {
                        missing(ui, c, &format!("There is no deck `{id}` any more."));
                    }
                },
                Some(Sheet::Table(id)) => match c.catalog.table(&id) {
                    Some(t) => self.table_ui(ui, def.as_deref(), c, t, out),
                    None => {
                        missing(ui, c, &format!("There is no table `{id}` any more."));
                    }
                },
                Some(Sheet::Items(which)) => super::items::items_ui(
                    ui,
                    which,
                    c,
                    def.as_ref(),
                    &mut self.hooks,
                    &mut self.typing,
                    out,
                ),
                None => {
                    ui.label("This mod has no decks or tables. Add one under the list.");
                }
            }
        });
    }

    fn list_ui(&mut self, ui: &mut egui::Ui, c: &Content) {
        ui.strong("Decks");
        for d in &c.catalog.decks {
            let on = self.sheet == Some(Sheet::Deck(d.id.clone()));
            let n: i64 = d.cards.iter().map(|(_, e)| count_of(&e.value)).sum();
            let r = ui.selectable_label(on, format!("{} ({n})", d.id));
            if r.on_hover_text(origin_text(&d.origin)).clicked() {
                self.pick(Sheet::Deck(d.id.clone()));
            }
        }
        ui.add_space(8.0);
        ui.strong("Tables");
        for t in &c.catalog.tables {
            let on = self.sheet == Some(Sheet::Table(t.id.clone()));
            let r = ui.selectable_label(on, format!("{} ({})", t.id, t.rows.len()));
            if r.on_hover_text(origin_text(&t.origin)).clicked() {
                self.pick(Sheet::Table(t.id.clone()));
            }
        }
        ui.add_space(8.0);
        ui.strong("Other content");
        use super::items::Items;
        for (which, n) in [
            (Items::Tiles, Some(c.catalog.tiles.len())),
            (Items::Options, Some(c.catalog.options.len())),
            (Items::Constants, Some(c.catalog.constants.len())),
            (Items::Hooks, None),
        ] {
            let on = self.sheet == Some(Sheet::Items(which));
            let label = match n {
                Some(n) => format!("{} ({n})", which.name()),
                None => which.name().to_string(),
            };
            if ui.selectable_label(on, label).clicked() {
                self.pick(Sheet::Items(which));
            }
        }
    }

    fn pick(&mut self, s: Sheet) {
        if self.sheet.as_ref() != Some(&s) {
            self.sheet = Some(s);
            self.picked = None;
            self.sort = None;
            self.typing = None;
            self.reveal = None;
            self.added = None;
            self.cell_error = None;
        }
    }

    /// Shows a sheet (as clicking it in the list would).
    pub fn show_sheet(&mut self, s: Sheet) {
        self.pick(s);
    }

    /// The filter text of a deck (`deck:id`) or table (`table:id`).
    pub fn filter_of(&self, sheet: &str) -> &str {
        self.filters.get(sheet).map_or("", String::as_str)
    }

    fn toolbar(&mut self, ui: &mut egui::Ui, add: &str, sheet: &str) -> bool {
        let mut clicked = false;
        let filter = self.filters.entry(sheet.to_string()).or_default();
        ui.horizontal(|ui| {
            clicked = ui.button(add).clicked();
            ui.separator();
            let l = ui.label("Filter");
            ui.add(
                egui::TextEdit::singleline(filter)
                    .id_salt(("sheet-filter", sheet))
                    .hint_text("any text in the row")
                    .desired_width(220.0),
            )
            .labelled_by(l.id);
            if !filter.is_empty() && ui.small_button("Clear").clicked() {
                filter.clear();
            }
        });
        clicked
    }

    fn deck_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: Option<&GameDef>,
        c: &Content,
        d: &DeckEntry,
        out: &mut Vec<Command>,
    ) {
        let deck_def = def.and_then(|g| g.decks.iter().find(|x| x.id == d.id));
        ui.horizontal(|ui| {
            ui.heading(deck_def.map_or(d.id.clone(), |x| x.name.clone()));
            ui.weak(origin_text(&d.origin));
        });
        if let Some(x) = deck_def
            && !x.description.is_empty()
        {
            ui.weak(&x.description);
        }
        let mut cols = vec![
            col("id", FieldType::String, "The card's id: references name it"),
            col("name", FieldType::String, "The name players see"),
            col("count", FieldType::Int, "Copies in the deck"),
        ];
        if let Some(x) = deck_def {
            cols.extend(x.fields.iter().map(field_col));
        }
        cols.push(col("tags", FieldType::Strings, "Tags, comma-separated"));
        cols.push(col("text", FieldType::String, "The card's text"));
        // Keys written on cards that the deck does not declare still show.
        for (_, e) in &d.cards {
            for k in &e.keys {
                if !cols.iter().any(|c| &c.key == k) {
                    cols.push(col(k, FieldType::String, ""));
                }
            }
        }
        let sheet = SheetRef::Deck(d.id.clone());
        if self.toolbar(ui, "Add a card", &sheet.id()) {
            // An id and a name; the deck's required fields without a default are left for
            // the author to fill, marked in their cells.
            let id = fresh_id(d.cards.iter().map(|(i, _)| i.as_str()), &d.id);
            out.push(Command::Edit(Edit::AddCard {
                deck: d.id.clone(),
                card: vec![
                    ("id".into(), RawValue::String(id.clone())),
                    ("name".into(), RawValue::String("New card".into())),
                ],
            }));
            self.picked = Some(id.clone());
            self.reveal = Some(id.clone());
            self.added = Some(id);
        }
        let rows: Vec<(String, &Entry)> = d.cards.iter().map(|(i, e)| (i.clone(), e)).collect();
        let rel = d.origin.file.clone();
        // The preview of the picked card in a panel of its own under the grid, always there,
        // so the grid keeps its height when a card is picked.
        egui::Panel::bottom(("sheet-preview", &d.id))
            .exact_size(150.0)
            .show(ui, |ui| {
                ui.strong("Preview");
                match (&self.picked, deck_def) {
                    (Some(id), Some(x)) => match x.cards.iter().find(|k| &k.id == id) {
                        Some(card) => {
                            egui::ScrollArea::vertical()
                                .id_salt("sheet-preview-scroll")
                                .show(ui, |ui| card_preview(ui, card));
                        }
                        None => {
                            ui.weak(format!("{id} is not in the last version that loaded."));
                        }
                    },
                    _ => {
                        ui.weak("Click a row's number to preview its card.");
                    }
                }
            });
        self.grid_ui(ui, def, c, &sheet, &rel, &cols, rows, out);
    }

    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: Option<&GameDef>,
        c: &Content,
        t: &TableEntry,
        out: &mut Vec<Command>,
    ) {
        let table_def = def.and_then(|g| g.tables.iter().find(|x| x.id == t.id));
        ui.horizontal(|ui| {
            ui.heading(table_def.map_or(t.id.clone(), |x| x.name.clone()));
            ui.weak(origin_text(&t.origin));
        });
        if let Some(x) = table_def
            && !x.description.is_empty()
        {
            ui.weak(&x.description);
        }
        let mut cols: Vec<Column> = table_def
            .map(|x| x.columns.iter().map(field_col).collect())
            .unwrap_or_default();
        for (_, e) in &t.rows {
            for k in &e.keys {
                if !cols.iter().any(|c| &c.key == k) {
                    cols.push(col(k, FieldType::String, ""));
                }
            }
        }
        let key = t.key.clone();
        let sheet = SheetRef::Table(t.id.clone(), key.clone());
        if self.toolbar(ui, "Add a row", &sheet.id()) {
            let row = match &key {
                Some(k) => {
                    let next = t
                        .rows
                        .iter()
                        .filter_map(|(v, _)| v.as_ref().and_then(RawValue::as_integer))
                        .max()
                        .map_or(1, |m| m + 1);
                    vec![(k.clone(), RawValue::Integer(next))]
                }
                None => cols
                    .first()
                    .map(|c| vec![(c.key.clone(), default_of(c.kind))])
                    .unwrap_or_default(),
            };
            self.reveal = match &key {
                Some(_) => row.first().map(|(_, v)| show(v)),
                None => Some(format!("#{}", t.rows.len() + 1)),
            };
            self.added = self.reveal.clone();
            out.push(Command::Edit(Edit::AddRow {
                table: t.id.clone(),
                row,
            }));
        }
        // A row's id: its key value, or its place in a table without a key.
        let rows: Vec<(String, &Entry)> = t
            .rows
            .iter()
            .enumerate()
            .map(|(i, (k, e))| (k.as_ref().map_or_else(|| format!("#{}", i + 1), show), e))
            .collect();
        let rel = t.origin.file.clone();
        self.grid_ui(ui, def, c, &sheet, &rel, &cols, rows, out);
    }
}

/// A sheet that is not there: why (an add that was refused says so), else that it is gone.
fn missing(ui: &mut egui::Ui, c: &Content, gone: &str) {
    match &c.message {
        Some(m) => ui.colored_label(ui.visuals().warn_fg_color, m),
        None => ui.label(gone),
    };
}
