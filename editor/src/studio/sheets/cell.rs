//! One cell of a sheet: its widget by the field's type, the text typed into it as a value
//! (numbers, lists, references), and the edit it makes of the card or row it belongs to.

use farebox::GameDef;
use farebox::content::def::BoardDef;
use farebox::content::raw::{FieldType, RawValue};

use super::{Column, Sheets};
use crate::edit::{Edit, Entry, RowRef};
use crate::studio::Command;
use crate::studio::cell_text::show;

impl Sheets {
    /// One cell, `w` wide, with a widget by the column's type. Numbers and lists are typed
    /// and written on Enter (or when the cell is left); an absent value shows what it means
    /// (the default, greyed) or that it is required, never a made-up 0.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cell_ui(
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
        // A field naming spaces has a button that picks them on the board.
        let on_board = matches!(col.kind, FieldType::Ref | FieldType::Refs)
            && col.to.as_deref() == Some("spaces");
        let field_w = (w - if on_board { 50.0 } else { 6.0 }).max(30.0);
        if on_board
            && ui
                .small_button("Pick")
                .on_hover_text("Pick on the board: click the spaces there")
                .clicked()
        {
            out.push(Command::PickSpace(crate::studio::PickSpace {
                what: format!("{} of {id}", col.key),
                edit: sheet.set(id, &col.key, None),
                list: (col.kind == FieldType::Refs).then(|| col.length.map(|n| n as usize)),
                picked: vec![],
            }));
        }
        match col.kind {
            // A whole number between two bounds: dragged or typed, never out of them.
            FieldType::Int if col.range.0.is_some() && col.range.1.is_some() && now.is_some() => {
                let (r, chosen, seal) = ranged_cell(ui, col, now.as_ref(), field_w);
                if let Some(v) = chosen {
                    set(Some(v), out);
                }
                if seal {
                    out.push(Command::SealEdit);
                }
                r
            }
            FieldType::String if !col.choices.is_empty() => {
                let (r, chosen) = choice_cell(ui, id, col, now.as_ref(), &hint, field_w);
                if let Some(v) = chosen {
                    set(v, out);
                }
                r
            }
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
                let (r, chosen) = ref_cell(ui, def, id, col, now.as_ref(), &hint, field_w);
                if let Some(v) = chosen {
                    set(v, out);
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

    /// A text cell whose value is written only on Enter or when the cell is left: what was
    /// typed, then. `hint` shows greyed while the cell is empty.
    pub(super) fn buffered(
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

/// The height of a cell's field.
const ROW_FIELD_H: f32 = 20.0;

/// A tile as the board draws it, small, in a row of a sheet or a list (named for screen
/// readers: "picture of Crossroads").
fn tile_icon(ui: &mut egui::Ui, t: &farebox::content::def::TileDef) {
    let (rect, r) = ui.allocate_exact_size(egui::vec2(20.0, 20.0), egui::Sense::hover());
    crate::studio::board_view::paint_tile(ui.painter(), rect.center(), 20.0, t, 0);
    r.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Image, true, format!("picture of {}", t.name))
    });
}

impl SheetRef {
    pub(super) fn id(&self) -> String {
        match self {
            SheetRef::Deck(d) => format!("deck:{d}"),
            SheetRef::Table(t, _) => format!("table:{t}"),
        }
    }

    /// The column that names a row: a card's `id`, a table's key column.
    pub(super) fn key(&self) -> &str {
        match self {
            SheetRef::Deck(_) => "id",
            SheetRef::Table(_, k) => k.as_deref().unwrap_or(""),
        }
    }

    pub(super) fn row(&self, id: &str) -> RowRef {
        match self {
            SheetRef::Table(_, None) | SheetRef::Deck(_) => RowRef::Index(
                id.trim_start_matches('#')
                    .parse::<usize>()
                    .map_or(0, |n| n.saturating_sub(1)),
            ),
            SheetRef::Table(_, Some(_)) => RowRef::Key(parse_key(id)),
        }
    }

    pub(super) fn set(&self, id: &str, key: &str, value: Option<RawValue>) -> Edit {
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

    pub(super) fn duplicate(&self, id: &str) -> Edit {
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

    pub(super) fn delete(&self, id: &str) -> Edit {
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

/// Which sheet an edit is about, with what it takes to name a row.
pub(super) enum SheetRef {
    Deck(String),
    Table(String, Option<String>),
}

/// A number typed into a cell: empty takes the key out (its default applies); anything else
/// must be a number of the column's kind.
pub(super) fn parse_number(text: &str, kind: FieldType) -> Result<Option<RawValue>, String> {
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

/// What a reference field may name, as its drop-down lists it: each id with the name the
/// content gives it, "Crossroads (cs-t1)" (the id alone where the content gives no name).
/// The id is what the cell writes.
pub fn ref_choices(def: &GameDef, to: &str) -> Vec<(String, String)> {
    ref_ids(def, to)
        .into_iter()
        .map(|id| {
            let label = ref_label(def, to, &id);
            (id, label)
        })
        .collect()
}

/// "Name (id)", or the id where the content names it no other way.
fn ref_label(def: &GameDef, to: &str, id: &str) -> String {
    let name = crate::card_brief::ref_name(def, to, id);
    if name == id {
        id.to_string()
    } else {
        format!("{name} ({id})")
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
                                .filter_map(|r| r.get(k).map(|v| v.to_string()))
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

pub(super) fn count_of(v: &RawValue) -> i64 {
    v.get("count").and_then(RawValue::as_integer).unwrap_or(1)
}

pub(super) fn list_text(v: &RawValue) -> String {
    match v {
        RawValue::Array(a) => a.iter().map(show).collect::<Vec<_>>().join(", "),
        other => show(other),
    }
}

/// A comma-separated list typed into a cell (None when empty: the key is taken out).
pub(super) fn parse_list(text: &str, kind: FieldType) -> Option<RawValue> {
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

pub(super) fn parse_key(id: &str) -> RawValue {
    id.parse::<i64>()
        .map_or_else(|_| RawValue::String(id.to_string()), RawValue::Integer)
}

pub(super) fn default_of(kind: FieldType) -> RawValue {
    match kind {
        FieldType::Int => RawValue::Integer(0),
        FieldType::Number => RawValue::Float(0.0),
        FieldType::Bool => RawValue::Boolean(false),
        FieldType::Ints | FieldType::Strings | FieldType::Refs => RawValue::Array(vec![]),
        FieldType::String | FieldType::Ref => RawValue::String(String::new()),
    }
}

/// An id not yet used in the deck.
pub(super) fn fresh_id<'a>(taken: impl Iterator<Item = &'a str> + Clone, deck: &str) -> String {
    (1..)
        .map(|n| format!("{deck}-new-{n}"))
        .find(|c| !taken.clone().any(|t| t == c))
        .unwrap_or_else(|| format!("{deck}-new"))
}

/// The choice a picker cell made this frame: None, nothing; Some(None), the value cleared;
/// Some(Some(v)), `v` chosen.
type Chosen = Option<Option<RawValue>>;

/// A reference cell: a list of what it may name, by the content's own names ("Crossroads
/// (cs-t1)"), a tile drawn beside its name as the board draws it.
fn ref_cell(
    ui: &mut egui::Ui,
    def: Option<&GameDef>,
    id: &str,
    col: &Column,
    now: Option<&RawValue>,
    hint: &str,
    field_w: f32,
) -> (egui::Response, Chosen) {
    let shown = now.map(show).unwrap_or_default();
    // The content's own name for what the cell names, with the id it writes.
    let named = match def.zip(col.to.as_deref()) {
        Some((d, to)) if !shown.is_empty() => ref_label(d, to, &shown),
        _ => shown.clone(),
    };
    let mut chosen = None;
    let tile_of = |tid: &str| {
        def.filter(|_| col.to.as_deref() == Some("tiles"))
            .and_then(|d| d.tiles.iter().find(|t| t.id == tid))
    };
    let icon = tile_of(&shown).is_some();
    let r = ui
        .horizontal(|ui| {
            if let Some(t) = tile_of(&shown) {
                tile_icon(ui, t);
            }
            let field_w = if icon { field_w - 24.0 } else { field_w };
            egui::ComboBox::from_id_salt(("cell", id, &col.key))
                .width(field_w - 8.0)
                .truncate()
                .selected_text(match (shown.is_empty(), hint.is_empty()) {
                    (true, true) => "—".to_string(),
                    (true, false) => format!("— {hint}"),
                    (false, _) => named,
                })
                .height(320.0)
                .show_ui(ui, |ui| {
                    // Worked out only while the list is open.
                    let choices = def
                        .zip(col.to.as_deref())
                        .map(|(d, to)| ref_choices(d, to))
                        .unwrap_or_default();
                    if ui.selectable_label(shown.is_empty(), "— none").clicked() {
                        chosen = Some(None);
                    }
                    for (id, label) in &choices {
                        let picked = ui
                            .horizontal(|ui| {
                                if let Some(t) = tile_of(id) {
                                    tile_icon(ui, t);
                                }
                                ui.selectable_label(*id == shown, label).clicked()
                            })
                            .inner;
                        if picked {
                            chosen = Some(Some(RawValue::String(id.clone())));
                        }
                    }
                })
                .response
        })
        .inner;
    (r, chosen)
}

/// A string cell with a list of choices: picked by the words on the card, the id written.
fn choice_cell(
    ui: &mut egui::Ui,
    id: &str,
    col: &Column,
    now: Option<&RawValue>,
    hint: &str,
    field_w: f32,
) -> (egui::Response, Chosen) {
    let shown = now.map(show).unwrap_or_default();
    let label = col
        .choices
        .iter()
        .find(|(id, _)| *id == shown)
        .map_or(shown.clone(), |(_, l)| l.clone());
    let mut chosen = None;
    let r = egui::ComboBox::from_id_salt(("cell", id, &col.key))
        .width(field_w - 8.0)
        .truncate()
        .selected_text(if shown.is_empty() {
            format!("— {hint}")
        } else {
            label
        })
        .show_ui(ui, |ui| {
            if !col.required && ui.selectable_label(shown.is_empty(), "— none").clicked() {
                chosen = Some(None);
            }
            for (cid, l) in &col.choices {
                if ui.selectable_label(*cid == shown, l).clicked() {
                    chosen = Some(Some(RawValue::String(cid.clone())));
                }
            }
        })
        .response;
    (r, chosen)
}

/// A whole number between two bounds: dragged or typed, never out of them. The value chosen
/// (if it changed) and whether the edit is done (the drag or the typing ended).
fn ranged_cell(
    ui: &mut egui::Ui,
    col: &Column,
    now: Option<&RawValue>,
    field_w: f32,
) -> (egui::Response, Option<RawValue>, bool) {
    let (lo, hi) = (col.range.0.unwrap_or(0), col.range.1.unwrap_or(0));
    let was = now.and_then(RawValue::as_integer);
    let mut n = was.unwrap_or(lo);
    let r = ui
        .add_sized(
            [field_w, ROW_FIELD_H],
            egui::DragValue::new(&mut n).range(lo..=hi).speed(0.1),
        )
        .on_hover_text(format!("{lo} to {hi}: drag, or click and type"));
    let chosen = (r.changed() && Some(n) != was).then_some(RawValue::Integer(n));
    let seal = r.drag_stopped() || r.lost_focus();
    (r, chosen, seal)
}

#[cfg(test)]
mod tests {
    use super::ref_choices;

    fn load(id: &str) -> farebox::GameDef {
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        farebox::content::load_mod(&farebox::source::FsSource::new(mods.join(id)), &resolver)
            .unwrap_or_else(|d| panic!("{id}: {d}"))
    }

    #[test]
    fn a_reference_s_choices_are_its_ids_with_the_content_s_names() {
        let def = load("taxi-derby");
        let rows = ref_choices(&def, "table:locations");
        assert!(
            rows.contains(&(
                "ballpark".to_string(),
                "Copperfield Ballpark (ballpark)".to_string()
            )),
            "{rows:?}"
        );
        let def = load("curbside");
        let tiles = ref_choices(&def, "tiles");
        assert_eq!(tiles.len(), def.tiles.len());
        assert_eq!(tiles[0], ("cs-t1".into(), "Crossroads (cs-t1)".into()));
    }
}
