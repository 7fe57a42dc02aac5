//! Edits of a grid board (`[grid]`): its size, and each cell's tile, name and tags.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::{GridSide, board_rel, err, put_list};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::tree::{ListMut, put_key, record_value, set_key};

/// Grid: places a tile (quarter turns clockwise) on a cell before the game starts, or
/// takes it away (`None`); the cell keeps its name and tags.
pub(super) fn set_cell_tile(
    tx: &mut Tx<'_>,
    base: &[Layer],
    x: &u32,
    y: &u32,
    tile: &Option<String>,
    rotation: &u8,
) -> Result<(), EditError> {
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

/// Grid: forgets everything about a cell (tile, name, tags, properties).
pub(super) fn erase_cell(
    tx: &mut Tx<'_>,
    base: &[Layer],
    x: &u32,
    y: &u32,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let grid = grid_mut(tx.doc_mut(&rel)?)?;
    if let Some(mut cells) = ListMut::at(grid, "cells")
        && let Some(i) = find_cell(&cells, *x, *y)
    {
        cells.remove(i);
    }
    Ok(())
}

/// Grid: a cell's name and tags (the corner starts are cells named `start-1`... and
/// tagged `start`).
pub(super) fn set_cell_label(
    tx: &mut Tx<'_>,
    base: &[Layer],
    x: &u32,
    y: &u32,
    id: &Option<String>,
    tags: &[String],
) -> Result<(), EditError> {
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

/// Grid: the board's size; cells outside it are forgotten.
pub(super) fn set_grid_size(
    tx: &mut Tx<'_>,
    base: &[Layer],
    width: &u32,
    height: &u32,
) -> Result<(), EditError> {
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

/// Grid: adds (`by` above 0) or takes away (below 0) columns or rows on one side. On the left
/// and the top, the cells there move with the side: every cell keeps its tile, name and tags
/// at its new place. Cells that fall off the board are forgotten.
pub(super) fn grow_grid(
    tx: &mut Tx<'_>,
    base: &[Layer],
    side: GridSide,
    by: i32,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let grid = grid_mut(tx.doc_mut(&rel)?)?;
    let across = matches!(side, GridSide::Left | GridSide::Right);
    let (size_key, coord) = if across {
        ("width", "x")
    } else {
        ("height", "y")
    };
    let size = grid.get(size_key).and_then(Item::as_integer).unwrap_or(0);
    let new = size + i64::from(by);
    if !(1..=64).contains(&new) {
        return err(format!(
            "the grid would be {new} cells {}: sides are 1 to 64 cells",
            if across { "wide" } else { "high" }
        ));
    }
    set_key(grid, size_key, Value::from(new));
    // How far the cells move: only the left and top sides move what is there.
    let shift = match side {
        GridSide::Left | GridSide::Top => i64::from(by),
        GridSide::Right | GridSide::Bottom => 0,
    };
    if let Some(mut cells) = ListMut::at(grid, "cells") {
        for i in (0..cells.len()).rev() {
            let at = cells
                .get(i)
                .and_then(|c| c.get(coord))
                .and_then(Item::as_integer)
                .unwrap_or(0)
                + shift;
            if !(1..=new).contains(&at) {
                cells.remove(i);
            } else if shift != 0
                && let Some(c) = cells.get_mut(i)
            {
                set_key(c, coord, Value::from(at));
            }
        }
    }
    Ok(())
}

fn grid_mut(doc: &mut DocumentMut) -> Result<&mut dyn TableLike, EditError> {
    match doc.get_mut("grid").and_then(Item::as_table_like_mut) {
        Some(g) => Ok(g),
        None => err("the board is not a grid"),
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

/// A grid cell's record as written (`x`, `y`, `tile`, `rotation`, `id`, `tags`, `props`...),
/// its keys in the file's order.
pub type CellRecord = Vec<(String, RawValue)>;

/// Grid: many cells at once (a paste, a move, a fill, a turned or flipped selection). The
/// records at `clear` and at every place a record of `cells` lands are taken out; then each
/// record of `cells` is written at the `x` and `y` it gives, with every key it holds (tile and
/// turn, name, tags, properties).
pub(super) fn place_cells(
    tx: &mut Tx<'_>,
    base: &[Layer],
    clear: &[(u32, u32)],
    cells: &[CellRecord],
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let grid = grid_mut(tx.doc_mut(&rel)?)?;
    let size = |k: &str| grid.get(k).and_then(Item::as_integer).unwrap_or(0);
    let (w, h) = (size("width"), size("height"));
    let mut gone: std::collections::HashSet<(i64, i64)> = clear
        .iter()
        .map(|&(x, y)| (i64::from(x), i64::from(y)))
        .collect();
    for rec in cells {
        let at = |k: &str| match rec.iter().find(|(n, _)| n == k) {
            Some((_, RawValue::Integer(v))) => Some(*v),
            _ => None,
        };
        let (Some(x), Some(y)) = (at("x"), at("y")) else {
            return err("a cell to write has no x and y");
        };
        if !(1..=w).contains(&x) || !(1..=h).contains(&y) {
            return err(format!("cell {x},{y} is off the {w} x {h} grid"));
        }
        gone.insert((x, y));
    }
    let mut list = ListMut::at_or_new(grid, "cells", false)?;
    for i in (0..list.len()).rev() {
        let xy = list.get(i).map(|c| {
            let n = |k: &str| c.get(k).and_then(Item::as_integer).unwrap_or(0);
            (n("x"), n("y"))
        });
        if xy.is_some_and(|xy| gone.contains(&xy)) {
            list.remove(i);
        }
    }
    for rec in cells {
        let n = list.len();
        list.insert(n, rec);
    }
    Ok(())
}

/// Every cell record of the grid board the open mod plays on (its own board file, else the
/// one it inherits), by `x` and `y`.
pub fn grid_cells(layers: &[Layer]) -> std::collections::BTreeMap<(u32, u32), CellRecord> {
    let mut out = std::collections::BTreeMap::new();
    let Some(doc) = layers.iter().rev().find_map(|l| {
        l.content("board")
            .into_iter()
            .next()
            .and_then(|rel| l.doc(&rel))
    }) else {
        return out;
    };
    let Some(cells) = doc
        .get("grid")
        .and_then(Item::as_table_like)
        .and_then(|g| g.get("cells"))
    else {
        return out;
    };
    let records: Vec<RawValue> = match cells {
        Item::ArrayOfTables(a) => a.iter().map(|t| record_value(t)).collect(),
        Item::Value(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_inline_table)
            .map(|t| record_value(t))
            .collect(),
        _ => vec![],
    };
    for r in records {
        let RawValue::Table(m) = r else { continue };
        let n = |k: &str| match m.get(k) {
            Some(RawValue::Integer(v)) => u32::try_from(*v).ok(),
            _ => None,
        };
        if let (Some(x), Some(y)) = (n("x"), n("y")) {
            out.insert((x, y), m.into_iter().collect());
        }
    }
    out
}
