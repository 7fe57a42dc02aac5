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

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

use super::EditError;
use super::doc::Layer;
use super::history::Tx;
use super::patch::{Catalog, Entry, Rec, ordered, recs_of};
use super::tree::{
    ListMut, header_first, put_key, record_value, set_key, set_strings, str_of, strings, to_edit,
};

/// Which graph a space or edge edit is about: the board's (`[graph]`) or a section's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GraphAt {
    /// The `[graph]` of a graph board.
    Board,
    /// The section with this id of a sections board.
    Section(String),
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
        } => {
            if *rotation > 3 {
                return err("a rotation is 0 to 3 quarter turns");
            }
            let rel = board_rel(tx, base)?;
            let grid = grid_mut(tx.doc_mut(&rel)?)?;
            let mut cells = ListMut::at_or_new(grid, "cells", false)?;
            let found = find_cell(&cells, *x, *y);
            match (found, tile) {
                (Some(i), Some(t)) => {
                    if let Some(c) = cells.get_mut(i) {
                        set_key(c, "tile", Value::from(t.as_str()));
                        rotation_key(c, *rotation);
                    }
                }
                (None, Some(t)) => {
                    let mut f = vec![
                        ("x".to_string(), RawValue::Integer((*x).into())),
                        ("y".to_string(), RawValue::Integer((*y).into())),
                        ("tile".to_string(), RawValue::String(t.clone())),
                    ];
                    if *rotation != 0 {
                        f.push(("rotation".into(), RawValue::Integer((*rotation).into())));
                    }
                    let n = cells.len();
                    cells.insert(n, &f);
                }
                (Some(i), None) => {
                    if let Some(c) = cells.get_mut(i) {
                        c.remove("tile");
                        c.remove("rotation");
                    }
                    drop_bare_cell(&mut cells, i);
                }
                (None, None) => {}
            }
            Ok(())
        }
        Edit::EraseCell { x, y } => {
            let rel = board_rel(tx, base)?;
            let grid = grid_mut(tx.doc_mut(&rel)?)?;
            if let Some(mut cells) = ListMut::at(grid, "cells")
                && let Some(i) = find_cell(&cells, *x, *y)
            {
                cells.remove(i);
            }
            Ok(())
        }
        Edit::SetCellLabel { x, y, id, tags } => {
            let rel = board_rel(tx, base)?;
            let grid = grid_mut(tx.doc_mut(&rel)?)?;
            let mut cells = ListMut::at_or_new(grid, "cells", false)?;
            let i = match find_cell(&cells, *x, *y) {
                Some(i) => i,
                None => {
                    let n = cells.len();
                    cells.insert(
                        n,
                        &[
                            ("x".into(), RawValue::Integer((*x).into())),
                            ("y".into(), RawValue::Integer((*y).into())),
                        ],
                    );
                    n
                }
            };
            if let Some(c) = cells.get_mut(i) {
                put_key(
                    c,
                    "id",
                    id.as_ref().map(|s| RawValue::String(s.clone())).as_ref(),
                );
                put_list(c, "tags", tags);
            }
            drop_bare_cell(&mut cells, i);
            Ok(())
        }
        Edit::SetGridSize { width, height } => {
            if *width == 0 || *height == 0 {
                return err("a grid is at least 1 x 1");
            }
            let rel = board_rel(tx, base)?;
            let grid = grid_mut(tx.doc_mut(&rel)?)?;
            set_key(grid, "width", Value::from(i64::from(*width)));
            set_key(grid, "height", Value::from(i64::from(*height)));
            if let Some(mut cells) = ListMut::at(grid, "cells") {
                for i in (0..cells.len()).rev() {
                    let outside = cells.get(i).is_some_and(|c| {
                        let n = |k: &str| c.get(k).and_then(Item::as_integer).unwrap_or(0);
                        n("x") > i64::from(*width) || n("y") > i64::from(*height)
                    });
                    if outside {
                        cells.remove(i);
                    }
                }
            }
            Ok(())
        }
        Edit::AddSpace { at, space } => {
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            let inline = ListMut::at(g, "spaces").is_none_or(|l| l.is_inline());
            let mut spaces = ListMut::at_or_new(g, "spaces", inline)?;
            if spaces.find("id", &space.id).is_some() {
                return err(format!("there is a space `{}` here already", space.id));
            }
            let mut f = vec![("id".to_string(), RawValue::String(space.id.clone()))];
            if !space.name.is_empty() {
                f.push(("name".into(), RawValue::String(space.name.clone())));
            }
            f.push(("x".into(), RawValue::Float(space.x)));
            f.push(("y".into(), RawValue::Float(space.y)));
            if let Some(t) = strings(&space.tags) {
                f.push(("tags".into(), t));
            }
            if !space.props.is_empty() {
                let mut p = RawValue::Table(Default::default());
                if let RawValue::Table(m) = &mut p {
                    for (k, v) in &space.props {
                        m.insert(k.clone(), v.clone());
                    }
                }
                f.push(("props".into(), p));
            }
            let n = spaces.len();
            spaces.insert(n, &f);
            Ok(())
        }
        Edit::MoveSpace { at, id, x, y } => {
            if !x.is_finite() || !y.is_finite() {
                return err("a position is a number");
            }
            with_space(tx, base, at, id, |s| {
                set_key(s, "x", Value::from(*x));
                set_key(s, "y", Value::from(*y));
                Ok(())
            })
        }
        Edit::SetSpaceName { at, id, name } => with_space(tx, base, at, id, |s| {
            let v = (!name.is_empty()).then(|| RawValue::String(name.clone()));
            put_key(s, "name", v.as_ref());
            Ok(())
        }),
        Edit::SetSpaceTags { at, id, tags } => with_space(tx, base, at, id, |s| {
            put_list(s, "tags", tags);
            Ok(())
        }),
        Edit::SetSpaceProp { at, id, key, value } => with_space(tx, base, at, id, |s| {
            set_prop(s, key, value.as_ref());
            Ok(())
        }),
        Edit::DeleteSpace { at, id } => {
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            let Some(mut spaces) = ListMut::at(g, "spaces") else {
                return err(format!("no space `{id}` here"));
            };
            let Some(i) = spaces.find("id", id) else {
                return err(format!("no space `{id}` here"));
            };
            spaces.remove(i);
            if let Some(mut edges) = ListMut::at(g, "edges") {
                for i in (0..edges.len()).rev() {
                    let joins = edges.get(i).is_some_and(|e| {
                        str_of(e, "from") == Some(id.as_str())
                            || str_of(e, "to") == Some(id.as_str())
                    });
                    if joins {
                        edges.remove(i);
                    }
                }
            }
            if let Some(mut paths) = ListMut::at(g, "paths") {
                for p in (0..paths.len()).rev() {
                    let Some(ids) = paths.get(p).map(path_spaces) else {
                        continue;
                    };
                    if ids.iter().any(|s| s == id) {
                        let parts: Vec<Vec<String>> =
                            ids.split(|s| s == id).map(<[String]>::to_vec).collect();
                        replace_path(&mut paths, p, parts);
                    }
                }
            }
            if let Some(mut conns) = ListMut::at(g, "connectors") {
                for i in (0..conns.len()).rev() {
                    if conns.get(i).and_then(|c| str_of(c, "space")) == Some(id.as_str()) {
                        conns.remove(i);
                    }
                }
            }
            Ok(())
        }
        Edit::RenameSpace { at, id, new_id } => {
            if new_id.is_empty() {
                return err("a space needs an id");
            }
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            let Some(mut spaces) = ListMut::at(g, "spaces") else {
                return err(format!("no space `{id}` here"));
            };
            if spaces.find("id", new_id).is_some() {
                return err(format!("there is a space `{new_id}` here already"));
            }
            let Some(i) = spaces.find("id", id) else {
                return err(format!("no space `{id}` here"));
            };
            if let Some(s) = spaces.get_mut(i) {
                set_key(s, "id", Value::from(new_id.as_str()));
            }
            let rename = |r: &mut dyn TableLike, key: &str| {
                if str_of(r, key) == Some(id.as_str()) {
                    set_key(r, key, Value::from(new_id.as_str()));
                }
            };
            for (list, keys) in [
                ("edges", &["from", "to"][..]),
                ("connectors", &["space"][..]),
            ] {
                if let Some(mut l) = ListMut::at(g, list) {
                    for i in 0..l.len() {
                        if let Some(r) = l.get_mut(i) {
                            for k in keys {
                                rename(r, k);
                            }
                        }
                    }
                }
            }
            if let Some(mut paths) = ListMut::at(g, "paths") {
                for p in 0..paths.len() {
                    if let Some(r) = paths.get_mut(p) {
                        let ids = path_spaces(r);
                        if ids.iter().any(|s| s == id) {
                            let ids: Vec<String> = ids
                                .into_iter()
                                .map(|s| if s == *id { new_id.clone() } else { s })
                                .collect();
                            set_strings(r, "spaces", &ids);
                        }
                    }
                }
            }
            rename_refs(tx, "spaces", id, new_id)
        }
        Edit::AddEdge { at, edge } => {
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            for end in [&edge.from, &edge.to] {
                if ListMut::at(g, "spaces")
                    .and_then(|s| s.find("id", end))
                    .is_none()
                {
                    return err(format!("no space `{end}` here"));
                }
            }
            if edge.from == edge.to {
                return err("an edge joins two different spaces");
            }
            let mut f = vec![
                ("from".to_string(), RawValue::String(edge.from.clone())),
                ("to".to_string(), RawValue::String(edge.to.clone())),
            ];
            if edge.directed {
                f.push(("directed".into(), RawValue::Boolean(true)));
            }
            if let Some(t) = strings(&edge.tags) {
                f.push(("tags".into(), t));
            }
            if let Some(c) = edge.cost {
                f.push(("cost".into(), RawValue::Integer(c.into())));
            }
            push_edge(g, &f)
        }
        Edit::DeleteEdge { at, from, to } => {
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            match find_edge(g, from, to) {
                Some(EdgeLoc::Edge(i)) => {
                    if let Some(mut edges) = ListMut::at(g, "edges") {
                        edges.remove(i);
                    }
                    Ok(())
                }
                Some(EdgeLoc::PathLink(p, i)) => {
                    detach_link(g, p, i);
                    Ok(())
                }
                None => err(format!("no edge from `{from}` to `{to}` here")),
            }
        }
        Edit::SetEdge {
            at,
            from,
            to,
            change,
        } => {
            let rel = board_rel(tx, base)?;
            let g = graph_mut(tx.doc_mut(&rel)?, at)?;
            let i = match find_edge(g, from, to) {
                Some(EdgeLoc::Edge(i)) => i,
                Some(EdgeLoc::PathLink(p, i)) => {
                    // The edge leaves its path and is written on its own.
                    let Some(mut f) = detach_link(g, p, i) else {
                        return err("the path could not be cut");
                    };
                    f.retain(|(k, _)| k != "spaces");
                    let mut fields = vec![
                        ("from".to_string(), RawValue::String(from.clone())),
                        ("to".to_string(), RawValue::String(to.clone())),
                    ];
                    fields.extend(f);
                    push_edge(g, &fields)?;
                    ListMut::at(g, "edges").map_or(0, |l| l.len().saturating_sub(1))
                }
                None => return err(format!("no edge from `{from}` to `{to}` here")),
            };
            let Some(mut edges) = ListMut::at(g, "edges") else {
                return err("no edges here");
            };
            let Some(e) = edges.get_mut(i) else {
                return err("no such edge");
            };
            match change {
                EdgeChange::Directed(d) => {
                    let v = (*d || e.contains_key("directed")).then_some(RawValue::Boolean(*d));
                    put_key(e, "directed", if *d { v.as_ref() } else { None });
                }
                EdgeChange::Cost(c) => {
                    let v = c.map(|c| RawValue::Integer(c.into()));
                    put_key(e, "cost", v.as_ref());
                }
                EdgeChange::Tags(t) => put_list(e, "tags", t),
            }
            Ok(())
        }
        Edit::SetSectionsLayout { columns, rows } => {
            let rel = board_rel(tx, base)?;
            let s = sections_mut(tx.doc_mut(&rel)?)?;
            set_key(s, "columns", Value::from(i64::from(*columns)));
            set_key(s, "rows", Value::from(i64::from(*rows)));
            Ok(())
        }
        Edit::SetSectionsShuffle(on) | Edit::SetSectionsRotate(on) => {
            let key = if matches!(edit, Edit::SetSectionsShuffle(_)) {
                "shuffle"
            } else {
                "rotate"
            };
            let rel = board_rel(tx, base)?;
            let s = sections_mut(tx.doc_mut(&rel)?)?;
            if *on || s.contains_key(key) {
                set_key(s, key, Value::from(*on));
            }
            Ok(())
        }
        Edit::MoveSection { id, to } => {
            let rel = board_rel(tx, base)?;
            let s = sections_mut(tx.doc_mut(&rel)?)?;
            let Some(mut pieces) = ListMut::at(s, "pieces") else {
                return err("the board has no sections");
            };
            let Some(from) = pieces.find("id", id) else {
                return err(format!("no section `{id}`"));
            };
            let to = (*to).min(pieces.len().saturating_sub(1));
            pieces.move_to(from, to);
            Ok(())
        }
        Edit::AddSection { id, name } => {
            let rel = board_rel(tx, base)?;
            let s = sections_mut(tx.doc_mut(&rel)?)?;
            let mut pieces = ListMut::at_or_new(s, "pieces", false)?;
            if pieces.find("id", id).is_some() {
                return err(format!("there is a section `{id}` already"));
            }
            let mut f = vec![("id".to_string(), RawValue::String(id.clone()))];
            if !name.is_empty() {
                f.push(("name".into(), RawValue::String(name.clone())));
            }
            f.push(("spaces".into(), RawValue::Array(vec![])));
            let n = pieces.len();
            pieces.insert(n, &f);
            Ok(())
        }
        Edit::DeleteSection { id } => {
            let rel = board_rel(tx, base)?;
            let s = sections_mut(tx.doc_mut(&rel)?)?;
            let Some(mut pieces) = ListMut::at(s, "pieces") else {
                return err("the board has no sections");
            };
            let Some(i) = pieces.find("id", id) else {
                return err(format!("no section `{id}`"));
            };
            pieces.remove(i);
            Ok(())
        }
        Edit::SetTrackPiece { id, change } => {
            let rel = board_rel(tx, base)?;
            let doc = tx.doc_mut(&rel)?;
            let Some(track) = doc.get_mut("track").and_then(Item::as_table_like_mut) else {
                return err("the board is not a track board");
            };
            let Some(mut pieces) = ListMut::at(track, "pieces") else {
                return err("the track has no pieces");
            };
            let Some(i) = pieces.find("id", id) else {
                return err(format!("no track piece `{id}`"));
            };
            let Some(p) = pieces.get_mut(i) else {
                return err(format!("no track piece `{id}`"));
            };
            match change {
                TrackChange::Name(n) => {
                    let v = (!n.is_empty()).then(|| RawValue::String(n.clone()));
                    put_key(p, "name", v.as_ref());
                }
                TrackChange::Lanes(n) => set_key(p, "lanes", Value::from(i64::from(*n))),
                TrackChange::Rows(n) => set_key(p, "rows", Value::from(i64::from(*n))),
                TrackChange::Turn(t) => {
                    let v = (*t != 0).then_some(RawValue::Integer((*t).into()));
                    put_key(p, "turn", v.as_ref());
                }
                TrackChange::Gates(gates) => {
                    let v = (!gates.is_empty()).then(|| {
                        RawValue::Array(
                            gates
                                .iter()
                                .map(|g| {
                                    let mut t = RawValue::Table(Default::default());
                                    if let RawValue::Table(m) = &mut t {
                                        m.insert(
                                            "lanes".into(),
                                            RawValue::Array(
                                                g.lanes
                                                    .iter()
                                                    .map(|l| RawValue::Integer((*l).into()))
                                                    .collect(),
                                            ),
                                        );
                                        m.insert("size".into(), RawValue::Integer(g.size.into()));
                                    }
                                    t
                                })
                                .collect(),
                        )
                    });
                    put_key(p, "gates", v.as_ref());
                }
                TrackChange::Tags(t) => put_list(p, "tags", t),
            }
            Ok(())
        }
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

fn grid_mut(doc: &mut DocumentMut) -> Result<&mut dyn TableLike, EditError> {
    match doc.get_mut("grid").and_then(Item::as_table_like_mut) {
        Some(g) => Ok(g),
        None => err("the board is not a grid"),
    }
}

fn sections_mut(doc: &mut DocumentMut) -> Result<&mut dyn TableLike, EditError> {
    match doc.get_mut("sections").and_then(Item::as_table_like_mut) {
        Some(g) => Ok(g),
        None => err("the board is not made of sections"),
    }
}

/// The table holding a graph's spaces, edges and paths.
fn graph_mut<'d>(
    doc: &'d mut DocumentMut,
    at: &GraphAt,
) -> Result<&'d mut dyn TableLike, EditError> {
    match at {
        GraphAt::Board => {
            if !doc.contains_key("graph") {
                if doc.get("kind").and_then(Item::as_str) != Some("graph") {
                    return err("the board is not a graph");
                }
                doc.insert("graph", Item::Table(Table::new()));
            }
            match doc.get_mut("graph").and_then(Item::as_table_like_mut) {
                Some(g) => Ok(g),
                None => err("`graph` is not a table"),
            }
        }
        GraphAt::Section(id) => {
            let s = sections_mut(doc)?;
            let Some(pieces) = ListMut::at(s, "pieces") else {
                return err("the board has no sections");
            };
            let Some(i) = pieces.find("id", id) else {
                return err(format!("no section `{id}`"));
            };
            match pieces.into_mut(i) {
                Some(t) => Ok(t),
                None => err(format!("no section `{id}`")),
            }
        }
    }
}

fn with_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    f: impl FnOnce(&mut dyn TableLike) -> Result<(), EditError>,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let g = graph_mut(tx.doc_mut(&rel)?, at)?;
    let Some(mut spaces) = ListMut::at(g, "spaces") else {
        return err(format!("no space `{id}` here"));
    };
    let Some(i) = spaces.find("id", id) else {
        return err(format!("no space `{id}` here"));
    };
    match spaces.get_mut(i) {
        Some(s) => f(s),
        None => err(format!("no space `{id}` here")),
    }
}

fn find_cell(cells: &ListMut<'_>, x: u32, y: u32) -> Option<usize> {
    (0..cells.len()).find(|&i| {
        cells.get(i).is_some_and(|c| {
            c.get("x").and_then(Item::as_integer) == Some(x.into())
                && c.get("y").and_then(Item::as_integer) == Some(y.into())
        })
    })
}

/// A cell entry with nothing left but its place says nothing: it goes.
fn drop_bare_cell(cells: &mut ListMut<'_>, i: usize) {
    let bare = cells
        .get(i)
        .is_some_and(|c| c.iter().all(|(k, _)| k == "x" || k == "y"));
    if bare {
        cells.remove(i);
    }
}

fn rotation_key(c: &mut dyn TableLike, rotation: u8) {
    if rotation == 0 {
        c.remove("rotation");
    } else {
        set_key(c, "rotation", Value::from(i64::from(rotation)));
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

/// Sets one property of a record's `props` (made when missing, taken out when emptied).
fn set_prop(t: &mut dyn TableLike, key: &str, value: Option<&RawValue>) {
    if t.get("props").and_then(Item::as_table_like).is_none() {
        if value.is_none() {
            return;
        }
        let mut p = toml_edit::InlineTable::new();
        p.fmt();
        set_key(t, "props", Value::InlineTable(p));
    }
    if let Some(p) = t.get_mut("props").and_then(Item::as_table_like_mut) {
        put_key(p, key, value);
        if p.is_empty() {
            t.remove("props");
        } else if let Some(Item::Value(Value::InlineTable(it))) = t.get_mut("props") {
            it.fmt();
        }
    }
}

fn path_spaces(p: &dyn TableLike) -> Vec<String> {
    p.get("spaces")
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Replaces path `p` by the parts of it that still join two spaces or more (the first part
/// keeps the path's own entry and comments).
fn replace_path(paths: &mut ListMut<'_>, p: usize, parts: Vec<Vec<String>>) {
    let parts: Vec<Vec<String>> = parts.into_iter().filter(|s| s.len() >= 2).collect();
    let Some(template) = paths.get(p).map(record_value) else {
        return;
    };
    let mut rest = parts.into_iter();
    match rest.next() {
        None => paths.remove(p),
        Some(first) => {
            if let Some(r) = paths.get_mut(p) {
                set_strings(r, "spaces", &first);
            }
            for (n, part) in rest.enumerate() {
                let mut f = fields_of(&template);
                for (k, v) in f.iter_mut() {
                    if k == "spaces" {
                        *v = RawValue::Array(part.iter().cloned().map(RawValue::String).collect());
                    }
                }
                paths.insert(p + 1 + n, &f);
            }
        }
    }
}

/// The keys and values of a record value, in order.
fn fields_of(v: &RawValue) -> Vec<(String, RawValue)> {
    match v {
        RawValue::Table(m) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => vec![],
    }
}

enum EdgeLoc {
    Edge(usize),
    PathLink(usize, usize),
}

/// Where the edge from `from` to `to` is written: an edge entry, or a link of a path; an
/// undirected one may be written the other way round.
fn find_edge(g: &mut dyn TableLike, from: &str, to: &str) -> Option<EdgeLoc> {
    for reversed in [false, true] {
        let (a, b) = if reversed { (to, from) } else { (from, to) };
        if let Some(edges) = ListMut::at(g, "edges") {
            for i in 0..edges.len() {
                if let Some(e) = edges.get(i)
                    && str_of(e, "from") == Some(a)
                    && str_of(e, "to") == Some(b)
                    && !(reversed && e.get("directed").and_then(Item::as_bool) == Some(true))
                {
                    return Some(EdgeLoc::Edge(i));
                }
            }
        }
        if let Some(paths) = ListMut::at(g, "paths") {
            for p in 0..paths.len() {
                let Some(r) = paths.get(p) else { continue };
                if reversed && r.get("directed").and_then(Item::as_bool) == Some(true) {
                    continue;
                }
                let ids = path_spaces(r);
                if let Some(i) = ids.windows(2).position(|w| w[0] == a && w[1] == b) {
                    return Some(EdgeLoc::PathLink(p, i));
                }
            }
        }
    }
    None
}

/// Cuts link `i` out of path `p`; returns the path's fields (its directed, tags and cost).
fn detach_link(g: &mut dyn TableLike, p: usize, i: usize) -> Option<Vec<(String, RawValue)>> {
    let mut paths = ListMut::at(g, "paths")?;
    let r = paths.get(p)?;
    let fields = fields_of(&record_value(r));
    let ids = path_spaces(r);
    let (left, right) = ids.split_at((i + 1).min(ids.len()));
    replace_path(&mut paths, p, vec![left.to_vec(), right.to_vec()]);
    Some(fields)
}

/// Adds an edge entry, in the style of the graph's edges (or of its spaces when it has none).
fn push_edge(g: &mut dyn TableLike, f: &[(String, RawValue)]) -> Result<(), EditError> {
    let inline = match ListMut::at(g, "edges") {
        Some(l) => l.is_inline(),
        None => ListMut::at(g, "spaces").is_none_or(|l| l.is_inline()),
    };
    let mut edges = ListMut::at_or_new(g, "edges", inline)?;
    let n = edges.len();
    edges.insert(n, f);
    Ok(())
}

/// Renames `old` to `new` in every card field and table column of the open mod that refers
/// to `to` (`ref`/`refs` fields with that `to`).
fn rename_refs(tx: &mut Tx<'_>, to: &str, old: &str, new: &str) -> Result<(), EditError> {
    for (kind, defs, list) in [("decks", "fields", "cards"), ("tables", "columns", "rows")] {
        for rel in tx.layer.content(kind) {
            let Some(doc) = tx.doc(&rel) else { continue };
            let names: Vec<String> = doc
                .get(defs)
                .and_then(Item::as_table_like)
                .map(|t| {
                    t.iter()
                        .filter(|(_, d)| {
                            let d = d.as_table_like();
                            let ty = d.and_then(|d| str_of(d, "type"));
                            matches!(ty, Some("ref" | "refs"))
                                && d.and_then(|d| str_of(d, "to")) == Some(to)
                        })
                        .map(|(k, _)| k.to_string())
                        .collect()
                })
                .unwrap_or_default();
            if names.is_empty() {
                continue;
            }
            let doc = tx.doc_mut(&rel)?;
            let root: &mut dyn TableLike = doc.as_table_mut();
            let Some(mut l) = ListMut::at(root, list) else {
                continue;
            };
            for i in 0..l.len() {
                let Some(r) = l.get_mut(i) else { continue };
                for n in &names {
                    match r.get_mut(n) {
                        Some(Item::Value(Value::String(v))) if v.value() == old => {
                            set_key(r, n, Value::from(new));
                        }
                        Some(Item::Value(Value::Array(a))) => {
                            for v in a.iter_mut() {
                                if v.as_str() == Some(old) {
                                    let decor = v.decor().clone();
                                    *v = Value::from(new);
                                    *v.decor_mut() = decor;
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Decks and tables

/// A deck's cards or a table's rows: where they are written and how one is named.
struct Coll {
    /// `decks` or `tables` (the manifest's list, and a patch's list of changes).
    kind: &'static str,
    /// `cards` or `rows`.
    list: &'static str,
    id: String,
    /// The field that names an entry: `id` for cards, the key column for rows.
    key: Option<String>,
}

/// Where an entry is written.
enum Home {
    /// In the open mod's own deck or table file, at this index.
    Own(String, usize),
    /// In a patch file of the open mod: (file, index of the `[[decks]]` entry, index).
    Patch(String, usize, usize),
    /// Only in the game below (a house rule has not touched it).
    Base,
}

/// Cards and rows equal but for a written-out default count.
fn same_entry(a: &RawValue, b: &RawValue) -> bool {
    let strip = |v: &RawValue| {
        let mut v = v.clone();
        if let RawValue::Table(m) = &mut v
            && m.get("count") == Some(&RawValue::Integer(1))
        {
            m.remove("count");
        }
        v
    };
    strip(a) == strip(b)
}

impl Coll {
    fn deck(id: &str) -> Coll {
        Coll {
            kind: "decks",
            list: "cards",
            id: id.to_string(),
            key: Some("id".into()),
        }
    }

    fn table(tx: &Tx<'_>, base: &[Layer], id: &str) -> Result<Coll, EditError> {
        let mut c = Coll {
            kind: "tables",
            list: "rows",
            id: id.to_string(),
            key: None,
        };
        if let Some(rel) = c.own_file(tx) {
            c.key = tx
                .doc(&rel)
                .and_then(|d| d.get("key"))
                .and_then(Item::as_str)
                .map(String::from);
        } else {
            let cat = Catalog::build(base);
            match cat.table(id) {
                Some(t) => c.key = t.key.clone(),
                None => return err(format!("there is no table `{id}`")),
            }
        }
        Ok(c)
    }

    fn what(&self) -> &'static str {
        if self.kind == "decks" { "card" } else { "row" }
    }

    fn name(&self, r: &RowRef) -> String {
        match r {
            RowRef::Key(RawValue::String(s)) => format!("`{s}`"),
            RowRef::Key(v) => format!("with {} = {v}", self.key.as_deref().unwrap_or("key")),
            RowRef::Index(i) => format!("#{}", i + 1),
        }
    }

    /// The open mod's own file of this deck or table.
    fn own_file(&self, tx: &Tx<'_>) -> Option<String> {
        tx.layer.content(self.kind).into_iter().find(|rel| {
            tx.doc(rel).and_then(|d| d.get("id")).and_then(Item::as_str) == Some(self.id.as_str())
        })
    }

    fn matches(&self, rec: &dyn TableLike, r: &RowRef) -> bool {
        match (r, &self.key) {
            (RowRef::Key(v), Some(k)) => {
                rec.get(k).and_then(super::tree::item_value).as_ref() == Some(v)
            }
            _ => false,
        }
    }

    fn matches_value(&self, rec: &RawValue, r: &RowRef) -> bool {
        match (r, &self.key) {
            (RowRef::Key(v), Some(k)) => rec.get(k) == Some(v),
            _ => false,
        }
    }

    /// The open mod's patch entries for this deck or table: (file, entry index), latest last.
    fn patch_entries(&self, tx: &Tx<'_>) -> Vec<(String, usize)> {
        let mut out = vec![];
        for rel in tx.layer.content("patches") {
            let Some(doc) = tx.doc(&rel) else { continue };
            if let Some(Item::ArrayOfTables(a)) = doc.get(self.kind) {
                for (i, t) in a.iter().enumerate() {
                    if str_of(t, "id") == Some(self.id.as_str()) {
                        out.push((rel.clone(), i));
                    }
                }
            }
        }
        out
    }

    /// The list of a patch entry, to change.
    fn patch_list<'d>(
        &self,
        doc: &'d mut DocumentMut,
        entry: usize,
    ) -> Result<(&'d mut dyn TableLike, &'static str), EditError> {
        let Some(Item::ArrayOfTables(a)) = doc.get_mut(self.kind) else {
            return err("the patch entry is gone");
        };
        match a.get_mut(entry) {
            Some(t) => Ok((t, self.list)),
            None => err("the patch entry is gone"),
        }
    }

    /// Whether a patch entry of the open mod takes this entry out.
    fn removed_by_patch(&self, tx: &Tx<'_>, r: &RowRef) -> bool {
        let RowRef::Key(v) = r else { return false };
        self.patch_entries(tx).iter().any(|(rel, i)| {
            tx.doc(rel)
                .and_then(|d| d.get(self.kind))
                .and_then(Item::as_array_of_tables)
                .and_then(|a| a.get(*i))
                .and_then(|t| t.get("remove"))
                .and_then(Item::as_array)
                .is_some_and(|a| a.iter().any(|x| super::tree::from_edit(x) == *v))
        })
    }

    fn home(&self, tx: &Tx<'_>, cat: &Catalog, r: &RowRef) -> Result<Home, EditError> {
        let missing = || {
            EditError::new(format!(
                "{} `{}` has no {} {}",
                if self.kind == "decks" {
                    "deck"
                } else {
                    "table"
                },
                self.id,
                self.what(),
                self.name(r)
            ))
        };
        if let Some(rel) = self.own_file(tx) {
            let doc = tx.doc(&rel).ok_or_else(missing)?;
            let root: &dyn TableLike = doc.as_table();
            let found = match (r, root.get(self.list)) {
                (RowRef::Index(i), Some(Item::ArrayOfTables(a))) => (*i < a.len()).then_some(*i),
                (RowRef::Index(i), Some(Item::Value(Value::Array(a)))) => {
                    (*i < a.len()).then_some(*i)
                }
                (_, Some(Item::ArrayOfTables(a))) => a.iter().position(|t| self.matches(t, r)),
                (_, Some(Item::Value(Value::Array(a)))) => a
                    .iter()
                    .position(|v| v.as_inline_table().is_some_and(|t| self.matches(t, r))),
                _ => None,
            };
            if let Some(i) = found {
                return Ok(Home::Own(rel, i));
            }
        }
        for (rel, e) in self.patch_entries(tx).into_iter().rev() {
            let found = tx
                .doc(&rel)
                .and_then(|d| d.get(self.kind))
                .and_then(Item::as_array_of_tables)
                .and_then(|a| a.get(e))
                .map(|t| recs_of(t.get(self.list)))
                .and_then(|rs| rs.iter().position(|x| self.matches_value(&x.0, r)));
            if let Some(i) = found {
                return Ok(Home::Patch(rel, e, i));
            }
        }
        if self.own_file(tx).is_some() || self.removed_by_patch(tx, r) {
            return Err(missing());
        }
        if self.base_value(cat, r).is_some() {
            if self.key.is_none() {
                return err(format!(
                    "table `{}` has no `key` column, so a house rule can only add rows to it",
                    self.id
                ));
            }
            return Ok(Home::Base);
        }
        Err(missing())
    }

    /// The entry as the game below has it.
    fn base_value<'c>(&self, cat: &'c Catalog, r: &RowRef) -> Option<&'c RawValue> {
        self.base_entry(cat, r).map(|e| &e.value)
    }

    fn base_entry<'c>(&self, cat: &'c Catalog, r: &RowRef) -> Option<&'c Entry> {
        if self.kind == "decks" {
            let RowRef::Key(RawValue::String(id)) = r else {
                return None;
            };
            return cat.card(&self.id, id);
        }
        let t = cat.table(&self.id)?;
        match r {
            RowRef::Index(i) => t.rows.get(*i).map(|(_, e)| e),
            RowRef::Key(k) => t
                .rows
                .iter()
                .find(|(rk, _)| rk.as_ref() == Some(k))
                .map(|(_, e)| e),
        }
    }

    /// The entry as it is now (own file, patch or game below).
    fn current(&self, tx: &Tx<'_>, cat: &Catalog, home: &Home, r: &RowRef) -> Option<Rec> {
        match home {
            Home::Own(rel, i) => {
                let doc = tx.doc(rel)?;
                recs_of(doc.get(self.list)).get(*i).cloned()
            }
            Home::Patch(rel, e, i) => tx
                .doc(rel)
                .and_then(|d| d.get(self.kind))
                .and_then(Item::as_array_of_tables)
                .and_then(|a| a.get(*e))
                .map(|t| recs_of(t.get(self.list)))
                .and_then(|rs| rs.get(*i).cloned()),
            Home::Base => self
                .base_entry(cat, r)
                .map(|e| (e.value.clone(), e.keys.clone())),
        }
    }

    /// The open mod's patch entry for this deck or table, made when missing (in the patch
    /// file that has one, else the first patch file, else a new `patches/<mod id>.toml`).
    fn ensure_entry(&self, tx: &mut Tx<'_>) -> Result<(String, usize), EditError> {
        if let Some(last) = self.patch_entries(tx).pop() {
            return Ok(last);
        }
        let rel = match tx.layer.content("patches").into_iter().next() {
            Some(rel) if tx.layer.files.contains_key(&rel) => rel,
            Some(rel) => return err(format!("the patch file `{rel}` is missing")),
            None => {
                let rel = format!("patches/{}.toml", tx.layer.id);
                tx.create(&rel, DocumentMut::new())?;
                add_content(tx, "patches", &rel)?;
                rel
            }
        };
        let doc = tx.doc_mut(&rel)?;
        let fresh = doc.is_empty();
        let root: &mut dyn TableLike = doc.as_table_mut();
        let mut entries = ListMut::at_or_new(root, self.kind, false)?;
        let n = entries.len();
        entries.insert(n, &[("id".into(), RawValue::String(self.id.clone()))]);
        if fresh {
            header_first(doc, "#:schema ../../../schemas/patch.schema.json");
        }
        Ok((rel, n))
    }

    /// Takes a patch entry out once it changes nothing (only its id is left).
    fn tidy_entry(&self, tx: &mut Tx<'_>, rel: &str, e: usize) -> Result<(), EditError> {
        let doc = tx.doc_mut(rel)?;
        let Some(Item::ArrayOfTables(a)) = doc.get_mut(self.kind) else {
            return Ok(());
        };
        let empty = a.get(e).is_some_and(|t| {
            t.iter().all(|(k, v)| {
                k == "id"
                    || v.as_array().is_some_and(|a| a.is_empty())
                    || v.as_array_of_tables().is_some_and(|a| a.is_empty())
            })
        });
        if empty {
            let root: &mut dyn TableLike = doc.as_table_mut();
            if let Some(mut l) = ListMut::at(root, self.kind) {
                l.remove(e);
            }
        }
        Ok(())
    }

    /// Writes a record into the patch entry (replacing the one at `at`, or at the end).
    fn write_patch(
        &self,
        tx: &mut Tx<'_>,
        rel: &str,
        e: usize,
        at: Option<usize>,
        value: &Rec,
    ) -> Result<(), EditError> {
        let doc = tx.doc_mut(rel)?;
        let (entry, list) = self.patch_list(doc, e)?;
        let mut l = ListMut::at_or_new(entry, list, false)?;
        let fields = ordered(&value.0, &value.1);
        match at {
            Some(i) => {
                // In place: every key set, keys no longer there taken out.
                if let Some(r) = l.get_mut(i) {
                    write_record(r, &fields);
                }
            }
            None => {
                let n = l.len();
                l.insert(n, &fields);
            }
        }
        Ok(())
    }

    fn remove_patch_record(
        &self,
        tx: &mut Tx<'_>,
        rel: &str,
        e: usize,
        i: usize,
    ) -> Result<(), EditError> {
        let doc = tx.doc_mut(rel)?;
        let (entry, list) = self.patch_list(doc, e)?;
        if let Some(mut l) = ListMut::at(entry, list) {
            l.remove(i);
        }
        Ok(())
    }

    /// Adds a card id or row key to the patch entry's `remove` list.
    fn add_removal(&self, tx: &mut Tx<'_>, r: &RowRef) -> Result<(), EditError> {
        let RowRef::Key(v) = r else {
            return err("only rows with a key can be removed by a house rule");
        };
        let (rel, e) = self.ensure_entry(tx)?;
        let doc = tx.doc_mut(&rel)?;
        let (entry, _) = self.patch_list(doc, e)?;
        match entry.get_mut("remove") {
            Some(Item::Value(Value::Array(a))) => {
                a.push(to_edit(v));
                Ok(())
            }
            Some(_) => err("`remove` of the patch entry is not a list"),
            None => {
                let mut a = toml_edit::Array::new();
                a.push(to_edit(v));
                // After the id, before any cards or rows.
                entry.insert("remove", Item::Value(Value::Array(a)));
                if let Some(t) = entry.get_mut("remove").and_then(Item::as_value_mut) {
                    t.decor_mut().set_prefix(" ");
                }
                Ok(())
            }
        }
    }

    fn set(
        &self,
        tx: &mut Tx<'_>,
        base: &[Layer],
        r: &RowRef,
        field: &str,
        value: Option<&RawValue>,
    ) -> Result<(), EditError> {
        let cat = Catalog::build(base);
        let home = self.home(tx, &cat, r)?;
        let is_key = self.key.as_deref() == Some(field);
        if is_key && value.is_none() {
            return err(format!("a {} needs its `{field}`", self.what()));
        }
        if is_key && let Some(v) = value {
            let now = self.current(tx, &cat, &home, r);
            let renamed = now.as_ref().and_then(|n| n.0.get(field)) != Some(v);
            if renamed && self.exists(tx, &cat, v) {
                return err(format!(
                    "there is a {} with {field} = {v} already",
                    self.what()
                ));
            }
        }
        match home {
            Home::Own(rel, i) => {
                let doc = tx.doc_mut(&rel)?;
                let root: &mut dyn TableLike = doc.as_table_mut();
                let Some(mut l) = ListMut::at(root, self.list) else {
                    return err("the list is gone");
                };
                if let Some(rec) = l.get_mut(i) {
                    put_key(rec, field, value);
                }
                Ok(())
            }
            Home::Patch(rel, e, i) => {
                if is_key && self.base_value(&cat, r).is_some() {
                    return err(format!(
                        "a house rule cannot rename its game's {}; duplicate it under the new {field} and delete this one",
                        self.what()
                    ));
                }
                let Some(mut now) = self.current(tx, &cat, &Home::Patch(rel.clone(), e, i), r)
                else {
                    return err("the patch entry is gone");
                };
                with_field(&mut now, field, value);
                if self
                    .base_value(&cat, r)
                    .is_some_and(|b| same_entry(b, &now.0))
                {
                    // Back to the game's own: the patch entry goes.
                    self.remove_patch_record(tx, &rel, e, i)?;
                    self.tidy_entry(tx, &rel, e)
                } else {
                    self.write_patch(tx, &rel, e, Some(i), &now)
                }
            }
            Home::Base => {
                if is_key {
                    return err(format!(
                        "a house rule cannot rename its game's {}; duplicate it under the new {field} and delete this one",
                        self.what()
                    ));
                }
                let Some(b) = self.base_entry(&cat, r) else {
                    return err("no such entry");
                };
                let mut now = (b.value.clone(), b.keys.clone());
                with_field(&mut now, field, value);
                if same_entry(&b.value, &now.0) {
                    return Ok(());
                }
                let (rel, e) = self.ensure_entry(tx)?;
                self.write_patch(tx, &rel, e, None, &now)
            }
        }
    }

    /// Whether an entry with key value `v` exists (own file, patches or game below).
    fn exists(&self, tx: &Tx<'_>, cat: &Catalog, v: &RawValue) -> bool {
        self.home(tx, cat, &RowRef::Key(v.clone())).is_ok()
    }

    fn add(
        &self,
        tx: &mut Tx<'_>,
        base: &[Layer],
        fields: &[(String, RawValue)],
    ) -> Result<(), EditError> {
        let cat = Catalog::build(base);
        let mut value = RawValue::Table(Default::default());
        if let RawValue::Table(m) = &mut value {
            for (k, v) in fields {
                m.insert(k.clone(), v.clone());
            }
        }
        if let Some(k) = &self.key {
            let Some(v) = value.get(k) else {
                return err(format!("a new {} needs its `{k}`", self.what()));
            };
            if self.exists(tx, &cat, v) {
                return err(format!("there is a {} with {k} = {v} already", self.what()));
            }
        }
        if let Some(rel) = self.own_file(tx) {
            let doc = tx.doc_mut(&rel)?;
            let root: &mut dyn TableLike = doc.as_table_mut();
            let mut l = ListMut::at_or_new(root, self.list, false)?;
            let n = l.len();
            l.insert(n, fields);
            return Ok(());
        }
        if self.kind == "decks" && cat.deck(&self.id).is_none() {
            return err(format!("there is no deck `{}`", self.id));
        }
        let (rel, e) = self.ensure_entry(tx)?;
        let keys = fields.iter().map(|(k, _)| k.clone()).collect();
        self.write_patch(tx, &rel, e, None, &(value, keys))
    }

    fn duplicate(
        &self,
        tx: &mut Tx<'_>,
        base: &[Layer],
        r: &RowRef,
        new_key: Option<&RawValue>,
    ) -> Result<(), EditError> {
        let cat = Catalog::build(base);
        let home = self.home(tx, &cat, r)?;
        let Some(mut value) = self.current(tx, &cat, &home, r) else {
            return err("no such entry");
        };
        if let Some(k) = &self.key {
            let Some(v) = new_key else {
                return err(format!("the copy needs a new `{k}`"));
            };
            if self.exists(tx, &cat, v) {
                return err(format!("there is a {} with {k} = {v} already", self.what()));
            }
            with_field(&mut value, k, Some(v));
        }
        let fields = ordered(&value.0, &value.1);
        match home {
            Home::Own(rel, i) => {
                let doc = tx.doc_mut(&rel)?;
                let root: &mut dyn TableLike = doc.as_table_mut();
                let mut l = ListMut::at_or_new(root, self.list, false)?;
                l.insert(i + 1, &fields);
                Ok(())
            }
            Home::Patch(rel, e, i) => {
                let doc = tx.doc_mut(&rel)?;
                let (entry, list) = self.patch_list(doc, e)?;
                let mut l = ListMut::at_or_new(entry, list, false)?;
                l.insert(i + 1, &fields);
                Ok(())
            }
            Home::Base => {
                let (rel, e) = self.ensure_entry(tx)?;
                self.write_patch(tx, &rel, e, None, &value)
            }
        }
    }

    fn delete(&self, tx: &mut Tx<'_>, base: &[Layer], r: &RowRef) -> Result<(), EditError> {
        let cat = Catalog::build(base);
        match self.home(tx, &cat, r)? {
            Home::Own(rel, i) => {
                let doc = tx.doc_mut(&rel)?;
                let root: &mut dyn TableLike = doc.as_table_mut();
                if let Some(mut l) = ListMut::at(root, self.list) {
                    l.remove(i);
                }
                Ok(())
            }
            Home::Patch(rel, e, i) => {
                self.remove_patch_record(tx, &rel, e, i)?;
                if self.base_value(&cat, r).is_some() {
                    self.add_removal(tx, r)?;
                }
                self.tidy_entry(tx, &rel, e)
            }
            Home::Base => self.add_removal(tx, r),
        }
    }
}

/// Sets (or takes out) a field of a record value.
fn with_field((v, keys): &mut Rec, field: &str, value: Option<&RawValue>) {
    if !keys.iter().any(|k| k == field) {
        keys.push(field.to_string());
    }
    if let RawValue::Table(m) = v {
        match value {
            Some(x) => {
                m.insert(field.to_string(), x.clone());
            }
            None => {
                m.remove(field);
            }
        }
    }
}

/// Makes a record hold exactly `fields`, changing only the keys that differ.
fn write_record(r: &mut dyn TableLike, fields: &[(String, RawValue)]) {
    let gone: Vec<String> = r
        .iter()
        .map(|(k, _)| k.to_string())
        .filter(|k| !fields.iter().any(|(f, _)| f == k))
        .collect();
    for k in gone {
        r.remove(&k);
    }
    for (k, v) in fields {
        let same = r.get(k).and_then(super::tree::item_value).as_ref() == Some(v);
        if !same {
            put_key(r, k, Some(v));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tiles and options: replaced whole, by id

enum Whole {
    Tiles,
    Options,
}

impl Whole {
    fn what(&self) -> &'static str {
        match self {
            Whole::Tiles => "tile",
            Whole::Options => "option",
        }
    }

    /// The open mod's files that hold these items, and the list's key.
    fn own_files(&self, tx: &Tx<'_>) -> Vec<String> {
        match self {
            Whole::Tiles => tx.layer.content("tiles"),
            Whole::Options => vec!["mod.toml".to_string()],
        }
    }

    fn list(&self) -> &'static str {
        match self {
            Whole::Tiles => "tiles",
            Whole::Options => "options",
        }
    }

    fn find_own(&self, tx: &Tx<'_>, id: &str) -> Option<(String, usize)> {
        for rel in self.own_files(tx) {
            let Some(doc) = tx.doc(&rel) else { continue };
            let found = match doc.get(self.list()) {
                Some(Item::ArrayOfTables(a)) => a.iter().position(|t| str_of(t, "id") == Some(id)),
                Some(Item::Value(Value::Array(a))) => a.iter().position(|v| {
                    v.as_inline_table()
                        .is_some_and(|t| str_of(t, "id") == Some(id))
                }),
                _ => None,
            };
            if let Some(i) = found {
                return Some((rel, i));
            }
        }
        None
    }

    fn base<'c>(&self, cat: &'c Catalog, id: &str) -> Option<&'c Entry> {
        match self {
            Whole::Tiles => cat.tile(id),
            Whole::Options => cat.option(id),
        }
    }

    fn set(
        &self,
        tx: &mut Tx<'_>,
        base: &[Layer],
        id: &str,
        field: &str,
        value: Option<&RawValue>,
    ) -> Result<(), EditError> {
        if field == "id" {
            return err(format!("the id of a {} is not changed here", self.what()));
        }
        let cat = Catalog::build(base);
        let list = self.list();
        if let Some((rel, i)) = self.find_own(tx, id) {
            let doc = tx.doc_mut(&rel)?;
            let root: &mut dyn TableLike = doc.as_table_mut();
            let Some(mut l) = ListMut::at(root, list) else {
                return err("the list is gone");
            };
            let Some(rec) = l.get_mut(i) else {
                return err("the entry is gone");
            };
            put_key(rec, field, value);
            let now = l.get(i).map(record_value);
            if let (Some(b), Some(now)) = (self.base(&cat, id), now)
                && b.value == now
            {
                // Back to the game's own: the replacement goes.
                l.remove(i);
                if l.len() == 0 && matches!(self, Whole::Tiles) {
                    // A tile set must still have its list.
                    root.insert(list, Item::Value(Value::Array(toml_edit::Array::new())));
                }
            }
            return Ok(());
        }
        let Some(b) = self.base(&cat, id) else {
            return err(format!("there is no {} `{id}`", self.what()));
        };
        let mut now = (b.value.clone(), b.keys.clone());
        with_field(&mut now, field, value);
        if now.0 == b.value {
            return Ok(());
        }
        let rel = match self.own_files(tx).into_iter().next() {
            Some(rel) => rel,
            None => {
                let rel = "tiles.toml".to_string();
                tx.create(&rel, DocumentMut::new())?;
                add_content(tx, "tiles", &rel)?;
                rel
            }
        };
        let doc = tx.doc_mut(&rel)?;
        let fresh = doc.is_empty();
        let root: &mut dyn TableLike = doc.as_table_mut();
        if root
            .get(list)
            .and_then(Item::as_array)
            .is_some_and(|a| a.is_empty())
        {
            root.remove(list);
        }
        let mut l = ListMut::at_or_new(root, list, false)?;
        let n = l.len();
        l.insert(n, &ordered(&now.0, &now.1));
        if fresh {
            header_first(doc, "#:schema ../../schemas/tiles.schema.json");
        }
        Ok(())
    }
}

/// Sets a constant; in a house rule, a value equal to the game's takes the key out.
fn set_constant(
    tx: &mut Tx<'_>,
    base: &[Layer],
    key: &str,
    value: Option<&RawValue>,
) -> Result<(), EditError> {
    let cat = Catalog::build(base);
    let doc = tx.doc_mut("mod.toml")?;
    if !doc.contains_key("constants") {
        if value.is_none() {
            return Ok(());
        }
        doc.insert("constants", Item::Table(Table::new()));
    }
    let Some(c) = doc.get_mut("constants").and_then(Item::as_table_like_mut) else {
        return err("`constants` in mod.toml is not a table");
    };
    let back_to_base = match (value, cat.constant(key)) {
        (Some(v), Some(b)) => b.value == *v,
        _ => false,
    };
    if back_to_base {
        c.remove(key);
    } else {
        put_key(c, key, value);
    }
    Ok(())
}
