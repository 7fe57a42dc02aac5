//! Decks and tables as spreadsheets: one row per card or table row, a column per field with
//! a widget by the field's type (numbers, text, yes/no, a drop-down of the ids a reference
//! may name, lists as comma-separated text), the count column, add, duplicate, delete, sort
//! and filter, and a preview of the selected card as the board view draws cards. Every change
//! is an [`Edit`] pushed to the app; problems the engine finds are shown on the row and cell
//! they concern.

use farebox::GameDef;
use farebox::content::def::{BoardDef, CardDef, FieldDef};
use farebox::content::raw::{FieldType, RawValue};

use super::cell_text::{origin_text, show};
use super::content::Content;
use super::edit::{DeckEntry, Edit, Entry, RowRef, TableEntry};
use super::{Command, Project};

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
}

impl Sheets {
    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, c: &Content, out: &mut Vec<Command>) {
        let def = p.def.clone();
        egui::Panel::left("sheets-list")
            .resizable(true)
            .default_size(200.0)
            .show(ui, |ui| self.list_ui(ui, c));
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
                        ui.label(format!("There is no deck `{id}` any more."));
                    }
                },
                Some(Sheet::Table(id)) => match c.catalog.table(&id) {
                    Some(t) => self.table_ui(ui, def.as_deref(), c, t, out),
                    None => {
                        ui.label(format!("There is no table `{id}` any more."));
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
                    ui.label("This mod has no decks or tables.");
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

    /// The grid of a sheet: a strip of messages that never changes height, a header row
    /// that stays while the rows scroll under it, columns of fixed widths (by their type),
    /// and horizontal scrolling when they are wider than the panel.
    #[allow(clippy::too_many_arguments)]
    fn grid_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: Option<&GameDef>,
        c: &Content,
        sheet: &SheetRef,
        rel: &str,
        cols: &[Column],
        mut rows: Vec<(String, &Entry)>,
        out: &mut Vec<Command>,
    ) {
        let key_col = sheet.key();
        let needle = self.filter_of(&sheet.id()).trim().to_lowercase();
        if !needle.is_empty() {
            // A row just added stays in sight whatever the filter.
            let added = self.added.clone();
            rows.retain(|(id, e)| {
                Some(id) == added.as_ref()
                    || id.to_lowercase().contains(&needle)
                    || e.value.to_string().to_lowercase().contains(&needle)
            });
        }
        if let Some((k, up)) = &self.sort {
            rows.sort_by(|a, b| {
                let o = compare(a.1.value.get(k), b.1.value.get(k));
                if *up { o } else { o.reverse() }
            });
        }
        let problems_here = c.problems_in(rel);
        self.strip_ui(ui, c, rel, key_col, &rows, &problems_here);
        let widths: Vec<f32> = cols.iter().map(|col| col_width(col, key_col)).collect();
        let sx = ui.spacing().item_spacing.x;
        // A deck's cards' win rates, once an outcomes run has them.
        let outcomes = matches!(sheet, SheetRef::Deck(_)) && !self.outcomes.is_empty();
        let total = ACTIONS_W
            + widths.iter().map(|w| w + sx).sum::<f32>()
            + if outcomes { OUTCOMES_W + sx } else { 0.0 };
        egui::ScrollArea::horizontal()
            .id_salt(("sheet-h", sheet.id()))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.set_min_width(total);
                ui.vertical(|ui| {
                    self.header_ui(ui, cols, &widths, outcomes);
                    ui.separator();
                    egui::ScrollArea::vertical()
                        .id_salt(("sheet-v", sheet.id()))
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            if rows.is_empty() {
                                if needle.is_empty() {
                                    ui.weak("No rows yet.");
                                } else {
                                    ui.label(format!(
                                        "No matches for “{}”.",
                                        crate::common::shown(&needle, 60)
                                    ));
                                }
                            }
                            for (n, (id, e)) in rows.iter().enumerate() {
                                self.row_ui(
                                    ui,
                                    def,
                                    c,
                                    (sheet, rel),
                                    (n, id, e),
                                    cols,
                                    &widths,
                                    total,
                                    out,
                                );
                            }
                        });
                });
            });
    }

    /// The messages above the grid, in a strip of fixed height: what the last save or edit
    /// said, then every problem in this sheet's file with its line and row.
    fn strip_ui(
        &self,
        ui: &mut egui::Ui,
        c: &Content,
        rel: &str,
        key_col: &str,
        rows: &[(String, &Entry)],
        problems_here: &[&farebox::Diagnostic],
    ) {
        let w = ui.available_width();
        let red = ui.visuals().error_fg_color;
        let frame = egui::Frame::new()
            .fill(ui.visuals().faint_bg_color)
            .corner_radius(4.0)
            .inner_margin(egui::Margin::symmetric(6, 3));
        let w = w - 12.0;
        frame.show(ui, |ui| {
            ui.allocate_ui_with_layout(
                egui::vec2(w, STRIP_H),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    ui.set_min_size(egui::vec2(w, STRIP_H));
                    egui::ScrollArea::vertical()
                        .id_salt(("sheet-strip", rel))
                        .max_height(STRIP_H)
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            if let Some(m) = &c.message {
                                ui.colored_label(ui.visuals().warn_fg_color, m);
                            }
                            if let Some((row, key, why)) = &self.cell_error {
                                ui.colored_label(red, format!("{row} {key}: {why}"));
                            }
                            if problems_here.is_empty() {
                                if c.message.is_none() && self.cell_error.is_none() {
                                    ui.weak(format!("No problems in {rel}."));
                                }
                                return;
                            }
                            ui.colored_label(
                                red,
                                format!(
                                    "{} {} in {rel}; the last good version keeps playing:",
                                    problems_here.len(),
                                    crate::common::plural(problems_here.len(), "problem")
                                ),
                            );
                            for d in problems_here {
                                let row = (!key_col.is_empty())
                                    .then(|| {
                                        rows.iter().position(|(id, _)| {
                                            c.problems_of(rel, key_col, id).contains(d)
                                        })
                                    })
                                    .flatten()
                                    .map_or(String::new(), |i| format!(" (row {})", i + 1));
                                ui.colored_label(
                                    red,
                                    format!("  line {}{row}: {}", d.line, d.message),
                                );
                            }
                        });
                },
            );
        });
    }

    /// The header row: each column's name, clicked to sort.
    fn header_ui(&mut self, ui: &mut egui::Ui, cols: &[Column], widths: &[f32], outcomes: bool) {
        ui.horizontal(|ui| {
            ui.add_sized([ACTIONS_W, ROW_H], egui::Label::new(""));
            for (col, w) in cols.iter().zip(widths) {
                let arrow = match &self.sort {
                    Some((k, true)) if *k == col.key => " ▲",
                    Some((k, false)) if *k == col.key => " ▼",
                    _ => "",
                };
                let mut text = egui::RichText::new(format!("{}{arrow}", col.key)).strong();
                if col.required {
                    text = text.underline();
                }
                // Left-aligned over the cells, which start at the left of their column.
                let r = ui
                    .allocate_ui_with_layout(
                        egui::vec2(*w, ROW_H),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_size(egui::vec2(*w, ROW_H));
                            ui.set_max_width(*w);
                            ui.add(egui::Button::new(text).frame(false).truncate())
                        },
                    )
                    .inner
                    .on_hover_text(match (col.hint.is_empty(), col.required) {
                        (true, false) => "Click to sort".to_string(),
                        (true, true) => "Required. Click to sort".to_string(),
                        (false, false) => format!("{}. Click to sort", col.hint),
                        (false, true) => format!("{}. Required. Click to sort", col.hint),
                    });
                if r.clicked() {
                    self.sort = match &self.sort {
                        Some((k, true)) if *k == col.key => Some((col.key.clone(), false)),
                        Some((k, false)) if *k == col.key => None,
                        _ => Some((col.key.clone(), true)),
                    };
                }
            }
            if outcomes {
                ui.add_sized(
                    [OUTCOMES_W, ROW_H],
                    egui::Label::new(egui::RichText::new("win rate (outcomes)").strong()),
                )
                .on_hover_text(
                    "How often a seat that played the card (else held it) won, in the Outcomes tab's run and in the accepted outcomes",
                );
            }
        });
    }

    /// One row: its number and buttons, then a cell per column at the column's width.
    #[allow(clippy::too_many_arguments)]
    fn row_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: Option<&GameDef>,
        c: &Content,
        (sheet, rel): (&SheetRef, &str),
        (n, id, e): (usize, &String, &&Entry),
        cols: &[Column],
        widths: &[f32],
        total: f32,
        out: &mut Vec<Command>,
    ) {
        let key_col = sheet.key();
        let problems = if key_col.is_empty() {
            Vec::new()
        } else {
            c.problems_of(rel, key_col, id)
        };
        let stripe = ui.painter().add(egui::Shape::Noop);
        let r = ui.horizontal(|ui| {
            ui.allocate_ui_with_layout(
                egui::vec2(ACTIONS_W, ROW_H),
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_size(egui::vec2(ACTIONS_W, ROW_H));
                    self.row_actions(ui, sheet, (n + 1, id, e), !problems.is_empty(), out);
                },
            );
            for (col, w) in cols.iter().zip(widths) {
                let bad: Vec<String> = problems
                    .iter()
                    .filter(|d| mentions(&d.message, &col.key))
                    .map(|d| d.message.clone())
                    .collect();
                let missing = col.required && e.value.get(&col.key).is_none();
                let typed_wrong = self
                    .cell_error
                    .as_ref()
                    .filter(|(r, k, _)| r == id && *k == col.key)
                    .map(|(_, _, why)| why.clone());
                let cell = ui
                    .allocate_ui_with_layout(
                        egui::vec2(*w, ROW_H),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_min_size(egui::vec2(*w, ROW_H));
                            ui.set_max_width(*w);
                            self.cell_ui(ui, def, sheet, id, e, col, *w, out)
                        },
                    )
                    .inner;
                let mut why = bad;
                if missing {
                    why.push(format!(
                        "`{}` is required: this row does not give it",
                        col.key
                    ));
                }
                why.extend(typed_wrong);
                if !why.is_empty() {
                    ui.painter().rect_stroke(
                        cell.rect.expand(2.0),
                        2.0,
                        egui::Stroke::new(1.5, ui.visuals().error_fg_color),
                        egui::StrokeKind::Outside,
                    );
                    cell.on_hover_text(why.join("\n"));
                }
            }
            if matches!(sheet, SheetRef::Deck(_)) && !self.outcomes.is_empty() {
                ui.add_sized(
                    [OUTCOMES_W, ROW_H],
                    egui::Label::new(self.outcomes.get(id.as_str()).map_or("—", String::as_str)),
                );
            }
        });
        let rect = egui::Rect::from_min_size(r.response.rect.min, egui::vec2(total, ROW_H));
        if n % 2 == 1 {
            ui.painter().set(
                stripe,
                egui::Shape::rect_filled(rect, 0.0, ui.visuals().faint_bg_color),
            );
        }
        if self.reveal.as_deref() == Some(id.as_str()) {
            // Scrolled to its start, so the row's number and first cells are in sight.
            let start = egui::Rect::from_min_size(rect.min, egui::vec2(ACTIONS_W, ROW_H));
            ui.scroll_to_rect(start, Some(egui::Align::Center));
            self.reveal = None;
        }
    }

    fn row_actions(
        &mut self,
        ui: &mut egui::Ui,
        sheet: &SheetRef,
        (n, id, e): (usize, &str, &Entry),
        bad: bool,
        out: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            // The row's number: click it to preview the card; red when the row has a problem
            // (on the picked row's highlight, marked "!" in the highlight's own text colour,
            // since red on it does not read).
            let picked = self.picked.as_deref() == Some(id);
            let mut mark = egui::RichText::new(format!("{n:>3}")).monospace();
            if bad && picked {
                mark = egui::RichText::new(format!("!{n:>3}")).monospace().strong();
            } else if bad {
                mark = mark.color(ui.visuals().error_fg_color).strong();
            }
            let r = ui.selectable_label(picked, mark).on_hover_text(format!(
                "{id}: {}. Click to preview.",
                origin_text(&e.origin)
            ));
            if r.clicked() {
                self.picked = Some(id.to_string());
            }
            if ui
                .small_button("Copy")
                .on_hover_text(format!("Duplicate {id}"))
                .clicked()
            {
                out.push(Command::Edit(sheet.duplicate(id)));
            }
            if ui
                .small_button("Delete")
                .on_hover_text(format!("Delete {id}"))
                .clicked()
            {
                out.push(Command::Edit(sheet.delete(id)));
            }
        });
    }

    /// One cell, `w` wide, with a widget by the column's type. Numbers and lists are typed
    /// and written on Enter (or when the cell is left); an absent value shows what it means
    /// (the default, greyed) or that it is required, never a made-up 0.
    #[allow(clippy::too_many_arguments)]
    fn cell_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: Option<&GameDef>,
        sheet: &SheetRef,
        id: &str,
        e: &Entry,
        col: &Column,
        w: f32,
        out: &mut Vec<Command>,
    ) -> egui::Response {
        let now = e.value.get(&col.key).cloned();
        let set = |v: Option<RawValue>, out: &mut Vec<Command>| {
            if v != now {
                out.push(Command::Edit(sheet.set(id, &col.key, v)));
            }
        };
        let hint = if col.required {
            "required".to_string()
        } else {
            col.default.clone().unwrap_or_default()
        };
        let field_w = (w - 6.0).max(30.0);
        match col.kind {
            FieldType::Int | FieldType::Number => {
                let shown = now.as_ref().map(show).unwrap_or_default();
                let (r, done) = self.buffered(ui, id, &col.key, shown, field_w, &hint);
                if let Some(text) = done {
                    match parse_number(&text, col.kind) {
                        Ok(v) => {
                            self.cell_error = None;
                            set(v, out);
                        }
                        Err(why) => {
                            self.cell_error = Some((id.to_string(), col.key.clone(), why));
                        }
                    }
                }
                r
            }
            FieldType::Bool => {
                let mut b = now.as_ref().and_then(RawValue::as_bool).unwrap_or(false);
                let r = ui.checkbox(&mut b, "");
                if r.changed() {
                    set(Some(RawValue::Boolean(b)), out);
                }
                r
            }
            FieldType::Ref => {
                let shown = now.as_ref().map(show).unwrap_or_default();
                let mut chosen = None;
                let r = egui::ComboBox::from_id_salt(("cell", id, &col.key))
                    .width(field_w - 8.0)
                    .truncate()
                    .selected_text(if shown.is_empty() {
                        if hint.is_empty() {
                            "—".to_string()
                        } else {
                            format!("— {hint}")
                        }
                    } else {
                        shown.clone()
                    })
                    .height(320.0)
                    .show_ui(ui, |ui| {
                        // Worked out only while the list is open.
                        let ids = def
                            .zip(col.to.as_deref())
                            .map(|(d, to)| ref_ids(d, to))
                            .unwrap_or_default();
                        if ui.selectable_label(shown.is_empty(), "— none").clicked() {
                            chosen = Some(None);
                        }
                        for i in &ids {
                            if ui.selectable_label(*i == shown, i).clicked() {
                                chosen = Some(Some(i.clone()));
                            }
                        }
                    })
                    .response;
                if let Some(v) = chosen {
                    set(v.map(RawValue::String), out);
                }
                r
            }
            FieldType::Ints | FieldType::Strings | FieldType::Refs => {
                let shown = now.as_ref().map(list_text).unwrap_or_default();
                let (r, done) = self.buffered(ui, id, &col.key, shown, field_w, &hint);
                if let Some(text) = done {
                    set(parse_list(&text, col.kind), out);
                }
                r
            }
            // The row's id (or key): renaming it as each letter is typed would move the row
            // under the cursor, so it is written when the cell is left.
            FieldType::String if col.key == sheet.key() => {
                let shown = now.as_ref().map(show).unwrap_or_default();
                let (r, done) = self.buffered(ui, id, &col.key, shown, field_w, &hint);
                if let Some(text) = done {
                    set(Some(RawValue::String(text)), out);
                }
                r
            }
            FieldType::String => {
                let mut text = now.as_ref().map(show).unwrap_or_default();
                let r = ui.add(
                    egui::TextEdit::singleline(&mut text)
                        .id_salt(("cell", id, &col.key))
                        .hint_text(hint)
                        .desired_width(field_w),
                );
                if r.changed() {
                    set((!text.is_empty()).then_some(RawValue::String(text)), out);
                }
                if r.lost_focus() {
                    out.push(Command::SealEdit);
                }
                r
            }
        }
    }
}

impl Sheets {
    /// A text cell whose value is written only on Enter or when the cell is left: what was
    /// typed, then. `hint` shows greyed while the cell is empty.
    fn buffered(
        &mut self,
        ui: &mut egui::Ui,
        id: &str,
        key: &str,
        shown: String,
        width: f32,
        hint: &str,
    ) -> (egui::Response, Option<String>) {
        let typing = matches!(&self.typing, Some((r, k, _)) if r == id && k == key);
        let mut text = match (&self.typing, typing) {
            (Some(t), true) => t.2.clone(),
            _ => shown,
        };
        let r = ui.add(
            egui::TextEdit::singleline(&mut text)
                .id_salt(("cell", id, key))
                .hint_text(hint)
                .desired_width(width),
        );
        if r.changed() {
            self.typing = Some((id.to_string(), key.to_string(), text.clone()));
        }
        let done = (r.lost_focus() && typing).then(|| {
            self.typing = None;
            text
        });
        (r, done)
    }
}

/// Which sheet an edit is about, with what it takes to name a row.
enum SheetRef {
    Deck(String),
    Table(String, Option<String>),
}

impl SheetRef {
    fn id(&self) -> String {
        match self {
            SheetRef::Deck(d) => format!("deck:{d}"),
            SheetRef::Table(t, _) => format!("table:{t}"),
        }
    }

    /// The column that names a row: a card's `id`, a table's key column.
    fn key(&self) -> &str {
        match self {
            SheetRef::Deck(_) => "id",
            SheetRef::Table(_, k) => k.as_deref().unwrap_or(""),
        }
    }

    fn row(&self, id: &str) -> RowRef {
        match self {
            SheetRef::Table(_, None) | SheetRef::Deck(_) => RowRef::Index(
                id.trim_start_matches('#')
                    .parse::<usize>()
                    .map_or(0, |n| n.saturating_sub(1)),
            ),
            SheetRef::Table(_, Some(_)) => RowRef::Key(parse_key(id)),
        }
    }

    fn set(&self, id: &str, key: &str, value: Option<RawValue>) -> Edit {
        match self {
            SheetRef::Deck(d) => Edit::SetCardField {
                deck: d.clone(),
                card: id.to_string(),
                field: key.to_string(),
                value,
            },
            SheetRef::Table(t, _) => Edit::SetRowCell {
                table: t.clone(),
                row: self.row(id),
                column: key.to_string(),
                value,
            },
        }
    }

    fn duplicate(&self, id: &str) -> Edit {
        match self {
            SheetRef::Deck(d) => Edit::DuplicateCard {
                deck: d.clone(),
                card: id.to_string(),
                new_id: format!("{id}-copy"),
            },
            SheetRef::Table(t, key) => Edit::DuplicateRow {
                table: t.clone(),
                row: self.row(id),
                key: key.as_ref().map(|_| match parse_key(id) {
                    RawValue::Integer(n) => RawValue::Integer(n + 100),
                    other => RawValue::String(format!("{}-copy", show(&other))),
                }),
            },
        }
    }

    fn delete(&self, id: &str) -> Edit {
        match self {
            SheetRef::Deck(d) => Edit::DeleteCard {
                deck: d.clone(),
                card: id.to_string(),
            },
            SheetRef::Table(t, _) => Edit::DeleteRow {
                table: t.clone(),
                row: self.row(id),
            },
        }
    }
}

fn col(key: &str, kind: FieldType, hint: &str) -> Column {
    Column {
        key: key.to_string(),
        kind,
        to: None,
        hint: hint.to_string(),
        required: key == "id",
        default: (key == "count").then(|| "1".to_string()),
    }
}

fn field_col(f: &FieldDef) -> Column {
    Column {
        key: f.name.clone(),
        kind: f.kind,
        to: f.to.clone(),
        hint: f.description.clone(),
        required: f.required && f.default.is_none(),
        default: f.default.as_ref().map(|v| match v {
            farebox::value::Value::Str(s) => s.clone(),
            farebox::value::Value::List(items) if items.is_empty() => "none".to_string(),
            farebox::value::Value::List(items) => items
                .iter()
                .map(|i| match i {
                    farebox::value::Value::Str(s) => s.clone(),
                    i => i.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", "),
            v => v.to_string(),
        }),
    }
}

/// How wide a column is: by its type, so the grid does not change shape as values do.
fn col_width(c: &Column, key_col: &str) -> f32 {
    match c.kind {
        FieldType::Bool => 56.0,
        FieldType::Int | FieldType::Number => 76.0,
        FieldType::Ref => 150.0,
        FieldType::Ints | FieldType::Strings | FieldType::Refs => 170.0,
        FieldType::String if c.key == "text" || c.key == "description" => 300.0,
        FieldType::String if c.key == key_col => 150.0,
        FieldType::String => 160.0,
    }
}

/// A number typed into a cell: empty takes the key out (its default applies); anything else
/// must be a number of the column's kind.
fn parse_number(text: &str, kind: FieldType) -> Result<Option<RawValue>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match kind {
        FieldType::Int => t
            .parse::<i64>()
            .map(|n| Some(RawValue::Integer(n)))
            .map_err(|_| format!("“{}” is not a whole number", crate::common::shown(t, 40))),
        _ => t
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| Some(RawValue::Float(f)))
            .ok_or_else(|| format!("“{}” is not a number", crate::common::shown(t, 40))),
    }
}

/// The ids a reference field may name.
pub fn ref_ids(def: &GameDef, to: &str) -> Vec<String> {
    match to {
        "tiles" => def.tiles.iter().map(|t| t.id.clone()).collect(),
        "pieces" => def.pieces.iter().map(|p| p.id.clone()).collect(),
        "spaces" => {
            let setup = farebox::game::Setup::new(def.players.0.max(1) as u8, 1);
            farebox::game::initial_state(def, &setup)
                .map(|s| s.board.graph.spaces.iter().map(|x| x.id.clone()).collect())
                .unwrap_or_default()
        }
        "track-pieces" => match &def.board {
            BoardDef::Track(t) => t.pieces.iter().map(|p| p.id.clone()).collect(),
            _ => Vec::new(),
        },
        t => {
            if let Some(d) = t.strip_prefix("deck:") {
                def.decks
                    .iter()
                    .find(|x| x.id == d)
                    .map(|x| x.cards.iter().map(|c| c.id.clone()).collect())
                    .unwrap_or_default()
            } else if let Some(tb) = t.strip_prefix("table:") {
                def.tables
                    .iter()
                    .find(|x| x.id == tb)
                    .and_then(|x| {
                        let k = x.key.as_ref()?;
                        Some(
                            x.rows
                                .iter()
                                .filter_map(|r| r.get(k).map(|v| format!("{v:?}")))
                                .collect(),
                        )
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            }
        }
    }
}

fn count_of(v: &RawValue) -> i64 {
    v.get("count").and_then(RawValue::as_integer).unwrap_or(1)
}

fn list_text(v: &RawValue) -> String {
    match v {
        RawValue::Array(a) => a.iter().map(show).collect::<Vec<_>>().join(", "),
        other => show(other),
    }
}

/// A comma-separated list typed into a cell (None when empty: the key is taken out).
fn parse_list(text: &str, kind: FieldType) -> Option<RawValue> {
    let items: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        return None;
    }
    Some(RawValue::Array(
        items
            .into_iter()
            .map(|s| match (kind, s.parse::<i64>()) {
                (FieldType::Ints, Ok(n)) => RawValue::Integer(n),
                _ => RawValue::String(s.to_string()),
            })
            .collect(),
    ))
}

fn parse_key(id: &str) -> RawValue {
    id.parse::<i64>()
        .map_or_else(|_| RawValue::String(id.to_string()), RawValue::Integer)
}

fn default_of(kind: FieldType) -> RawValue {
    match kind {
        FieldType::Int => RawValue::Integer(0),
        FieldType::Number => RawValue::Float(0.0),
        FieldType::Bool => RawValue::Boolean(false),
        FieldType::Ints | FieldType::Strings | FieldType::Refs => RawValue::Array(vec![]),
        FieldType::String | FieldType::Ref => RawValue::String(String::new()),
    }
}

/// An id not yet used in the deck.
fn fresh_id<'a>(taken: impl Iterator<Item = &'a str> + Clone, deck: &str) -> String {
    (1..)
        .map(|n| format!("{deck}-new-{n}"))
        .find(|c| !taken.clone().any(|t| t == c))
        .unwrap_or_else(|| format!("{deck}-new"))
}

fn compare(a: Option<&RawValue>, b: Option<&RawValue>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(RawValue::Integer(x)), Some(RawValue::Integer(y))) => x.cmp(y),
        (Some(x), Some(y)) => show(x).cmp(&show(y)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

/// Whether a diagnostic's message is about field `key` (named in backquotes, or as
/// `key =`).
fn mentions(message: &str, key: &str) -> bool {
    message.contains(&format!("`{key}`")) || message.contains(&format!("{key} ="))
}

/// A card drawn as the board view draws cards: name, text and fields.
fn card_preview(ui: &mut egui::Ui, card: &CardDef) {
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(0xf4, 0xf1, 0xe8))
        .stroke(egui::Stroke::new(1.0, egui::Color32::from_gray(90)))
        .corner_radius(6.0)
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_max_width(260.0);
            let ink = egui::Color32::from_rgb(0x22, 0x24, 0x28);
            ui.label(
                egui::RichText::new(&card.name)
                    .strong()
                    .color(ink)
                    .size(16.0),
            );
            if !card.text.is_empty() {
                ui.label(egui::RichText::new(&card.text).color(ink));
            }
            for (k, v) in &card.fields {
                ui.label(egui::RichText::new(format!("{k}: {v}")).color(ink).small());
            }
            if card.count != 1 {
                ui.label(
                    egui::RichText::new(format!("× {}", card.count))
                        .color(ink)
                        .small(),
                );
            }
        });
}
