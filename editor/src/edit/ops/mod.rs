//! Typed edits of a mod's content, applied to its documents in place.
//!
//! Every kind of content the bundled games use has its edits: grid cells and size, graph and
//! section spaces and edges, the section layout, track pieces, deck cards, table rows, tiles,
//! options and constants. New entries are written in the style of their neighbours
//! (`[[cards]]` tables or inline `{ ... }` items, keys in the order the others use).
//!
//! In a house rule, an edit of content that comes from the game below goes into the house
//! rule: cards and rows into its patch file (`[[decks]]`/`[[tables]]` entries), tiles and
//! options as a replacement by id (a copy in its own tiles file or `mod.toml`), constants
//! into its `[constants]`, and the board as a copy of the game's board file. An edit that
//! brings such an item back to the game's value takes the house rule's entry out again.
//!
//! This file holds `Edit` and `apply`, which hands each edit to the file of its kind: `grid`,
//! `graph` (spaces and edges, of a graph board or a section), `sections`, `track`, `records`
//! (cards and rows) and `whole` (tiles, options and constants).

mod create;
mod graph;
mod grid;
mod records;
mod sections;
mod track;
mod whole;

use farebox::content::raw::RawValue;
use toml_edit::{Item, Table, TableLike, Value};

use super::EditError;
use super::doc::Layer;
use super::history::Tx;
use super::tree::{set_key, set_strings};
pub use create::NewBoard;
pub use grid::{CellRecord, grid_cells};
use records::Coll;
use whole::{Whole, set_constant};

/// Which graph a space or edge edit is about: the board's (`[graph]`) or a section's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GraphAt {
    /// The `[graph]` of a graph board.
    Board,
    /// The section with this id of a sections board.
    Section(String),
}

/// A side of a grid board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridSide {
    Left,
    Top,
    Right,
    Bottom,
}

impl GridSide {
    /// "column on the left", "row at the top"...
    pub fn words(self) -> &'static str {
        match self {
            GridSide::Left => "column on the left",
            GridSide::Top => "row at the top",
            GridSide::Right => "column on the right",
            GridSide::Bottom => "row at the bottom",
        }
    }
}

/// A new space.
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceData {
    pub id: String,
    /// Name shown to players (left out when empty).
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub tags: Vec<String>,
    pub props: Vec<(String, RawValue)>,
}

/// A new edge.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeData {
    pub from: String,
    pub to: String,
    pub directed: bool,
    /// Movement cost; `None` is the default, 1.
    pub cost: Option<u32>,
    pub tags: Vec<String>,
}

/// A change to one edge.
#[derive(Debug, Clone, PartialEq)]
pub enum EdgeChange {
    /// One-way from `from` to `to` (true) or both ways.
    Directed(bool),
    /// The cost (`None`: the default, 1).
    Cost(Option<u32>),
    Tags(Vec<String>),
}

/// A gate at the exit of a track piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    pub lanes: Vec<u32>,
    pub size: u32,
}

/// A change to one track piece.
#[derive(Debug, Clone, PartialEq)]
pub enum TrackChange {
    Name(String),
    Lanes(u32),
    Rows(u32),
    /// Turn at the exit, in degrees (0 leaves the key out).
    Turn(i32),
    /// Gates at the exit (none leaves the key out).
    Gates(Vec<Gate>),
    Tags(Vec<String>),
}

/// A row of a table: by the value of its key column, or (tables without `key`) by its place.
#[derive(Debug, Clone, PartialEq)]
pub enum RowRef {
    Key(RawValue),
    Index(usize),
}

/// One edit of a mod's content. Values are TOML values as the engine reads them; `None`
/// takes a key out (back to its default).
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Grid: places a tile (quarter turns clockwise) on a cell before the game starts, or
    /// takes it away (`None`); the cell keeps its name and tags.
    SetCellTile {
        x: u32,
        y: u32,
        tile: Option<String>,
        rotation: u8,
    },
    /// Grid: forgets everything about a cell (tile, name, tags, properties).
    EraseCell {
        x: u32,
        y: u32,
    },
    /// Grid: a cell's name and tags (the corner starts are cells named `start-1`... and
    /// tagged `start`).
    SetCellLabel {
        x: u32,
        y: u32,
        id: Option<String>,
        tags: Vec<String>,
    },
    /// Grid: the board's size; cells outside it are forgotten.
    SetGridSize {
        width: u32,
        height: u32,
    },
    /// Grid: `by` columns or rows added on one side (taken away when below 0); on the left
    /// and the top the cells move with the side, keeping their tiles, names and tags.
    GrowGrid {
        side: GridSide,
        by: i32,
    },
    /// Grid: many cells at once (a paste, a move, a fill, a turned or flipped selection):
    /// the cells at `clear` and where each record lands are emptied, then each record of
    /// `cells` (with its `x` and `y`) is written. `what` names the step ("Paste 6 cells").
    PlaceCells {
        what: String,
        clear: Vec<(u32, u32)>,
        cells: Vec<CellRecord>,
    },
    /// Graph or section: a new space.
    AddSpace {
        at: GraphAt,
        space: SpaceData,
    },
    /// Moves a space (its drawing position).
    MoveSpace {
        at: GraphAt,
        id: String,
        x: f64,
        y: f64,
    },
    /// Deletes a space with its edges (paths through it are cut there) and connectors.
    DeleteSpace {
        at: GraphAt,
        id: String,
    },
    /// Gives a space a new id, everywhere the board names it.
    RenameSpace {
        at: GraphAt,
        id: String,
        new_id: String,
    },
    SetSpaceName {
        at: GraphAt,
        id: String,
        name: String,
    },
    SetSpaceTags {
        at: GraphAt,
        id: String,
        tags: Vec<String>,
    },
    SetSpaceProp {
        at: GraphAt,
        id: String,
        key: String,
        value: Option<RawValue>,
    },
    AddEdge {
        at: GraphAt,
        edge: EdgeData,
    },
    /// Deletes the edge from `from` to `to` (an undirected one either way round); an edge of
    /// a path cuts the path there.
    DeleteEdge {
        at: GraphAt,
        from: String,
        to: String,
    },
    /// Changes an edge; an edge of a path is taken out of the path and written on its own.
    SetEdge {
        at: GraphAt,
        from: String,
        to: String,
        change: EdgeChange,
    },
    /// Sections: how many columns and rows of sections make the city.
    SetSectionsLayout {
        columns: u32,
        rows: u32,
    },
    /// Sections: whether the order is shuffled at setup.
    SetSectionsShuffle(bool),
    /// Sections: whether each section is turned at setup.
    SetSectionsRotate(bool),
    /// Sections: moves a section to place `to` of the default arrangement (left to right,
    /// top to bottom).
    MoveSection {
        id: String,
        to: usize,
    },
    /// Sections: a new, empty section at the end.
    AddSection {
        id: String,
        name: String,
    },
    DeleteSection {
        id: String,
    },
    /// Sections: a copy of a section at the end, with new ids for its spaces.
    DuplicateSection {
        id: String,
        new_id: String,
        name: String,
    },
    /// Graph or section: a copy of a space under a new id, moved by (dx, dy), without roads.
    DuplicateSpace {
        at: GraphAt,
        id: String,
        new_id: String,
        dx: f64,
        dy: f64,
    },
    /// Track: changes a track piece's shape.
    SetTrackPiece {
        id: String,
        change: TrackChange,
    },
    /// Deck: sets (or takes out) a field of a card: `name`, `text`, `count`, `tags`, `id` or
    /// one of the deck's fields.
    SetCardField {
        deck: String,
        card: String,
        field: String,
        value: Option<RawValue>,
    },
    /// Deck: a new card at the end (fields with `id`).
    AddCard {
        deck: String,
        card: Vec<(String, RawValue)>,
    },
    /// Deck: a copy of a card under a new id, right after it.
    DuplicateCard {
        deck: String,
        card: String,
        new_id: String,
    },
    DeleteCard {
        deck: String,
        card: String,
    },
    /// Table: sets (or takes out) a cell of a row.
    SetRowCell {
        table: String,
        row: RowRef,
        column: String,
        value: Option<RawValue>,
    },
    /// Table: a new row at the end.
    AddRow {
        table: String,
        row: Vec<(String, RawValue)>,
    },
    /// Table: a copy of a row right after it; `key` is the copy's key value (required when
    /// the table has a key column).
    DuplicateRow {
        table: String,
        row: RowRef,
        key: Option<RawValue>,
    },
    DeleteRow {
        table: String,
        row: RowRef,
    },
    /// Tile kind: sets (or takes out) a key (`name`, `roads`, `move_cost`...).
    SetTileField {
        tile: String,
        field: String,
        value: Option<RawValue>,
    },
    /// Option: sets (or takes out) a key (`default`, `min`, `label`...).
    SetOptionField {
        option: String,
        field: String,
        value: Option<RawValue>,
    },
    /// A constant of `[constants]`.
    SetConstant {
        key: String,
        value: Option<RawValue>,
    },
    /// A board for a mod that has none (a new file, or the mod's board of kind `none`
    /// written over).
    AddBoard(NewBoard),
    /// A new deck file with one card.
    AddDeck {
        id: String,
        name: String,
    },
    /// A new table file with a key column, a number column and one row.
    AddTable {
        id: String,
        name: String,
    },
    /// A new tile set file with one tile.
    AddTileSet {
        tile: String,
        name: String,
    },
}

impl Edit {
    /// Sets a card's number of copies.
    pub fn set_count(deck: &str, card: &str, count: u32) -> Edit {
        Edit::SetCardField {
            deck: deck.into(),
            card: card.into(),
            field: "count".into(),
            value: Some(RawValue::Integer(count.into())),
        }
    }

    /// A short description for an undo menu.
    pub fn label(&self) -> String {
        match self {
            Edit::SetCellTile { x, y, tile, .. } => match tile {
                Some(t) => format!("Place {t} at {x},{y}"),
                None => format!("Clear the tile at {x},{y}"),
            },
            Edit::EraseCell { x, y } => format!("Erase cell {x},{y}"),
            Edit::SetCellLabel { x, y, .. } => format!("Name cell {x},{y}"),
            Edit::SetGridSize { width, height } => format!("Resize the grid to {width}x{height}"),
            Edit::GrowGrid { side, by } => match by.unsigned_abs() {
                1 if *by > 0 => format!("Add a {}", side.words()),
                1 => format!("Remove the {}", side.words()),
                n if *by > 0 => format!("Add {n} x {}", side.words()),
                n => format!("Remove {n} x {}", side.words()),
            },
            Edit::PlaceCells { what, .. } => what.clone(),
            Edit::AddSpace { space, .. } => format!("Add space {}", space.id),
            Edit::MoveSpace { id, .. } => format!("Move {id}"),
            Edit::DeleteSpace { id, .. } => format!("Delete {id}"),
            Edit::RenameSpace { id, new_id, .. } => format!("Rename {id} to {new_id}"),
            Edit::SetSpaceName { id, .. } => format!("Name {id}"),
            Edit::SetSpaceTags { id, .. } => format!("Tag {id}"),
            Edit::SetSpaceProp { id, key, .. } => format!("Set {id} {key}"),
            Edit::AddEdge { edge, .. } => format!("Join {} and {}", edge.from, edge.to),
            Edit::DeleteEdge { from, to, .. } => format!("Cut {from} - {to}"),
            Edit::SetEdge { from, to, .. } => format!("Change {from} - {to}"),
            Edit::SetSectionsLayout { columns, rows } => format!("Lay out {columns}x{rows}"),
            Edit::SetSectionsShuffle(_) => "Shuffle sections".into(),
            Edit::SetSectionsRotate(_) => "Turn sections".into(),
            Edit::MoveSection { id, .. } => format!("Move section {id}"),
            Edit::AddSection { id, .. } => format!("Add section {id}"),
            Edit::DeleteSection { id } => format!("Delete section {id}"),
            Edit::DuplicateSection { id, .. } => format!("Duplicate section {id}"),
            Edit::DuplicateSpace { id, .. } => format!("Duplicate {id}"),
            Edit::SetTrackPiece { id, .. } => format!("Change {id}"),
            Edit::SetCardField { card, field, .. } => format!("Set {card} {field}"),
            Edit::AddCard { deck, .. } => format!("Add a card to {deck}"),
            Edit::DuplicateCard { card, .. } => format!("Duplicate {card}"),
            Edit::DeleteCard { card, .. } => format!("Delete {card}"),
            Edit::SetRowCell { table, column, .. } => format!("Set {table} {column}"),
            Edit::AddRow { table, .. } => format!("Add a row to {table}"),
            Edit::DuplicateRow { table, .. } => format!("Duplicate a row of {table}"),
            Edit::DeleteRow { table, .. } => format!("Delete a row of {table}"),
            Edit::SetTileField { tile, field, .. } => format!("Set {tile} {field}"),
            Edit::SetOptionField { option, field, .. } => format!("Set {option} {field}"),
            Edit::SetConstant { key, .. } => format!("Set {key}"),
            Edit::AddBoard(b) => format!("Add {}", b.what()),
            Edit::AddDeck { id, .. } => format!("Add deck {id}"),
            Edit::AddTable { id, .. } => format!("Add table {id}"),
            Edit::AddTileSet { tile, .. } => format!("Add a tile set with {tile}"),
        }
    }

    /// What consecutive edits must share to merge into one undo step: the same field of
    /// the same thing (typing into a field, dragging a space). Edits that add or remove
    /// things never merge.
    pub fn merge_key(&self) -> Option<String> {
        Some(match self {
            Edit::MoveSpace { at, id, .. } => format!("move {at:?} {id}"),
            Edit::SetSpaceName { at, id, .. } => format!("name {at:?} {id}"),
            Edit::SetSpaceProp { at, id, key, .. } => format!("prop {at:?} {id} {key}"),
            Edit::SetCardField {
                deck, card, field, ..
            } if field != "id" => format!("card {deck} {card} {field}"),
            Edit::SetRowCell {
                table, row, column, ..
            } => format!("row {table} {row:?} {column}"),
            Edit::SetTileField { tile, field, .. } => format!("tile {tile} {field}"),
            Edit::SetOptionField { option, field, .. } => format!("option {option} {field}"),
            Edit::SetConstant { key, .. } => format!("constant {key}"),
            Edit::SetTrackPiece { id, change } => {
                format!("track {id} {:?}", std::mem::discriminant(change))
            }
            _ => return None,
        })
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, EditError> {
    Err(EditError::new(msg))
}

/// Applies an edit to the open mod (`tx`), with `base` the layers below it.
pub(crate) fn apply(tx: &mut Tx<'_>, base: &[Layer], edit: &Edit) -> Result<(), EditError> {
    match edit {
        Edit::SetCellTile {
            x,
            y,
            tile,
            rotation,
        } => grid::set_cell_tile(tx, base, x, y, tile, rotation),
        Edit::EraseCell { x, y } => grid::erase_cell(tx, base, x, y),
        Edit::SetCellLabel { x, y, id, tags } => grid::set_cell_label(tx, base, x, y, id, tags),
        Edit::SetGridSize { width, height } => grid::set_grid_size(tx, base, width, height),
        Edit::GrowGrid { side, by } => grid::grow_grid(tx, base, *side, *by),
        Edit::PlaceCells { clear, cells, .. } => grid::place_cells(tx, base, clear, cells),
        Edit::AddSpace { at, space } => graph::add_space(tx, base, at, space),
        Edit::MoveSpace { at, id, x, y } => graph::move_space(tx, base, at, id, x, y),
        Edit::SetSpaceName { at, id, name } => graph::set_space_name(tx, base, at, id, name),
        Edit::SetSpaceTags { at, id, tags } => graph::set_space_tags(tx, base, at, id, tags),
        Edit::SetSpaceProp { at, id, key, value } => {
            graph::set_space_prop(tx, base, at, id, key, value)
        }
        Edit::DeleteSpace { at, id } => graph::delete_space(tx, base, at, id),
        Edit::RenameSpace { at, id, new_id } => graph::rename_space(tx, base, at, id, new_id),
        Edit::AddEdge { at, edge } => graph::add_edge(tx, base, at, edge),
        Edit::DeleteEdge { at, from, to } => graph::delete_edge(tx, base, at, from, to),
        Edit::SetEdge {
            at,
            from,
            to,
            change,
        } => graph::set_edge(tx, base, at, from, to, change),
        Edit::SetSectionsLayout { columns, rows } => {
            sections::set_sections_layout(tx, base, columns, rows)
        }
        Edit::SetSectionsShuffle(on) => sections::set_sections_flag(tx, base, "shuffle", *on),
        Edit::SetSectionsRotate(on) => sections::set_sections_flag(tx, base, "rotate", *on),
        Edit::MoveSection { id, to } => sections::move_section(tx, base, id, to),
        Edit::AddSection { id, name } => sections::add_section(tx, base, id, name),
        Edit::DeleteSection { id } => sections::delete_section(tx, base, id),
        Edit::DuplicateSection { id, new_id, name } => {
            sections::duplicate_section(tx, base, id, new_id, name)
        }
        Edit::DuplicateSpace {
            at,
            id,
            new_id,
            dx,
            dy,
        } => graph::duplicate_space(tx, base, at, id, new_id, (*dx, *dy)),
        Edit::SetTrackPiece { id, change } => track::set_track_piece(tx, base, id, change),
        Edit::SetCardField {
            deck,
            card,
            field,
            value,
        } => {
            let c = Coll::deck(deck);
            c.set(
                tx,
                base,
                &RowRef::Key(RawValue::String(card.clone())),
                field,
                value.as_ref(),
            )
        }
        Edit::AddCard { deck, card } => Coll::deck(deck).add(tx, base, card),
        Edit::DuplicateCard { deck, card, new_id } => Coll::deck(deck).duplicate(
            tx,
            base,
            &RowRef::Key(RawValue::String(card.clone())),
            Some(&RawValue::String(new_id.clone())),
        ),
        Edit::DeleteCard { deck, card } => {
            Coll::deck(deck).delete(tx, base, &RowRef::Key(RawValue::String(card.clone())))
        }
        Edit::SetRowCell {
            table,
            row,
            column,
            value,
        } => Coll::table(tx, base, table)?.set(tx, base, row, column, value.as_ref()),
        Edit::AddRow { table, row } => Coll::table(tx, base, table)?.add(tx, base, row),
        Edit::DuplicateRow { table, row, key } => {
            Coll::table(tx, base, table)?.duplicate(tx, base, row, key.as_ref())
        }
        Edit::DeleteRow { table, row } => Coll::table(tx, base, table)?.delete(tx, base, row),
        Edit::SetTileField { tile, field, value } => {
            Whole::Tiles.set(tx, base, tile, field, value.as_ref())
        }
        Edit::SetOptionField {
            option,
            field,
            value,
        } => Whole::Options.set(tx, base, option, field, value.as_ref()),
        Edit::SetConstant { key, value } => set_constant(tx, base, key, value.as_ref()),
        Edit::AddBoard(b) => create::add_board(tx, base, b),
        Edit::AddDeck { id, name } => create::add_deck(tx, id, name),
        Edit::AddTable { id, name } => create::add_table(tx, id, name),
        Edit::AddTileSet { tile, name } => create::add_tile_set(tx, tile, name),
    }
}

// ---------------------------------------------------------------------------------------------
// Board helpers

/// The open mod's board file; a house rule without one gets a copy of its game's board.
fn board_rel(tx: &mut Tx<'_>, base: &[Layer]) -> Result<String, EditError> {
    if let Some(rel) = tx.layer.content("board").into_iter().next() {
        if tx.layer.files.contains_key(&rel) {
            return Ok(rel);
        }
        return err(format!("the board file `{rel}` is missing"));
    }
    let Some((layer, rel)) = base
        .iter()
        .rev()
        .find_map(|l| l.content("board").into_iter().next().map(|r| (l, r)))
    else {
        return err("the mod has no board file");
    };
    let Some(doc) = layer.doc(&rel).cloned() else {
        return err(format!("`{rel}` of `{}` is not valid TOML", layer.id));
    };
    let own = "board.toml".to_string();
    tx.create(&own, doc)?;
    add_content(tx, "board", &own)?;
    Ok(own)
}

/// Names a new file in the open mod's `[content]`: `board`/`pieces` as a string, the other
/// kinds as a list.
fn add_content(tx: &mut Tx<'_>, kind: &str, rel: &str) -> Result<(), EditError> {
    let doc = tx.doc_mut("mod.toml")?;
    if !doc.contains_key("content") {
        doc.insert("content", Item::Table(Table::new()));
    }
    let Some(c) = doc.get_mut("content").and_then(Item::as_table_like_mut) else {
        return err("`content` in mod.toml is not a table");
    };
    if kind == "board" || kind == "pieces" {
        set_key(c, kind, Value::from(rel));
        return Ok(());
    }
    match c.get_mut(kind) {
        Some(Item::Value(Value::Array(a))) => {
            a.push(rel);
            Ok(())
        }
        Some(_) => err(format!("`content.{kind}` in mod.toml is not a list")),
        None => {
            let mut a = toml_edit::Array::new();
            a.push(rel);
            set_key(c, kind, Value::Array(a));
            Ok(())
        }
    }
}

/// Sets a list of strings, or takes the key out when the list is empty.
fn put_list(t: &mut dyn TableLike, key: &str, items: &[String]) {
    if items.is_empty() {
        t.remove(key);
    } else {
        set_strings(t, key, items);
    }
}
