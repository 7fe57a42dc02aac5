//! The spreadsheet of a deck or table: the strip of outcome figures above it, the header with
//! sorting, one row per card or row with its actions (duplicate, delete), and how each column is
//! made from a field and how wide it is.

use farebox::GameDef;
use farebox::content::def::{CardDef, FieldDef};
use farebox::content::raw::{FieldType, RawValue};

use super::cell::SheetRef;
use super::{ACTIONS_W, Column, OUTCOMES_W, ROW_H, STRIP_H, Sheets};
use crate::edit::Entry;
use crate::studio::Command;
use crate::studio::cell_text::{origin_text, show};
use crate::studio::content::Content;

impl Sheets {
    /// The grid of a sheet: a strip of messages that never changes height, a header row
    /// that stays while the rows scroll under it, columns of fixed widths (by their type),
    /// and horizontal scrolling when they are wider than the panel.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn grid_ui(
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
    pub(super) fn strip_ui(
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
    pub(super) fn header_ui(
        &mut self,
        ui: &mut egui::Ui,
        cols: &[Column],
        widths: &[f32],
        outcomes: bool,
    ) {
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
    pub(super) fn row_ui(
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

    pub(super) fn row_actions(
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
}

pub(super) fn col(key: &str, kind: FieldType, hint: &str) -> Column {
    Column {
        key: key.to_string(),
        kind,
        to: None,
        hint: hint.to_string(),
        required: key == "id",
        default: (key == "count").then(|| "1".to_string()),
        choices: Vec::new(),
        range: (None, None),
        length: None,
    }
}

pub(super) fn field_col(f: &FieldDef) -> Column {
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
        choices: f.choices.clone(),
        range: (f.min, f.max),
        length: f.length,
    }
}

/// How wide a column is: by its type, so the grid does not change shape as values do (a
/// reference shows a name and its id).
pub(super) fn col_width(c: &Column, key_col: &str) -> f32 {
    // Room for the button that picks spaces on the board.
    let pick = if c.to.as_deref() == Some("spaces") {
        44.0
    } else {
        0.0
    };
    pick + match c.kind {
        FieldType::Bool => 56.0,
        FieldType::Int | FieldType::Number => 76.0,
        FieldType::Ref => 190.0,
        FieldType::Ints | FieldType::Strings | FieldType::Refs => 170.0,
        FieldType::String if c.key == "text" || c.key == "description" => 300.0,
        FieldType::String if c.key == key_col => 150.0,
        FieldType::String => 160.0,
    }
}

pub(super) fn compare(a: Option<&RawValue>, b: Option<&RawValue>) -> std::cmp::Ordering {
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
pub(super) fn mentions(message: &str, key: &str) -> bool {
    message.contains(&format!("`{key}`")) || message.contains(&format!("{key} ="))
}

/// A card drawn as the board view draws cards: name, text and fields.
pub(super) fn card_preview(ui: &mut egui::Ui, card: &CardDef) {
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
