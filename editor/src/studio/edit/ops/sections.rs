//! Edits of a sections board's layout (`[sections]`): its columns and rows, shuffle and rotate,
//! and its sections added, moved and deleted.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::{board_rel, err};
use crate::studio::edit::EditError;
use crate::studio::edit::doc::Layer;
use crate::studio::edit::history::Tx;
use crate::studio::edit::tree::{ListMut, set_key};

/// Sections: how many columns and rows of sections make the city.
pub(super) fn set_sections_layout(
    tx: &mut Tx<'_>,
    base: &[Layer],
    columns: &u32,
    rows: &u32,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let s = sections_mut(tx.doc_mut(&rel)?)?;
    set_key(s, "columns", Value::from(i64::from(*columns)));
    set_key(s, "rows", Value::from(i64::from(*rows)));
    Ok(())
}

/// Sections: sets `shuffle` or `rotate` (a `false` is written only where the key already is).
pub(super) fn set_sections_flag(
    tx: &mut Tx<'_>,
    base: &[Layer],
    key: &str,
    on: bool,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let s = sections_mut(tx.doc_mut(&rel)?)?;
    if on || s.contains_key(key) {
        set_key(s, key, Value::from(on));
    }
    Ok(())
}

/// Sections: moves a section to place `to` of the default arrangement (left to right,
/// top to bottom).
pub(super) fn move_section(
    tx: &mut Tx<'_>,
    base: &[Layer],
    id: &str,
    to: &usize,
) -> Result<(), EditError> {
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

/// Sections: a new, empty section at the end.
pub(super) fn add_section(
    tx: &mut Tx<'_>,
    base: &[Layer],
    id: &str,
    name: &str,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let s = sections_mut(tx.doc_mut(&rel)?)?;
    let mut pieces = ListMut::at_or_new(s, "pieces", false)?;
    if pieces.find("id", id).is_some() {
        return err(format!("there is a section `{id}` already"));
    }
    let mut f = vec![("id".to_string(), RawValue::String(id.to_string()))];
    if !name.is_empty() {
        f.push(("name".into(), RawValue::String(name.to_string())));
    }
    f.push(("spaces".into(), RawValue::Array(vec![])));
    let n = pieces.len();
    pieces.insert(n, &f);
    Ok(())
}

pub(super) fn delete_section(tx: &mut Tx<'_>, base: &[Layer], id: &str) -> Result<(), EditError> {
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

pub(super) fn sections_mut(doc: &mut DocumentMut) -> Result<&mut dyn TableLike, EditError> {
    match doc.get_mut("sections").and_then(Item::as_table_like_mut) {
        Some(g) => Ok(g),
        None => err("the board is not made of sections"),
    }
}
