//! Edits of a sections board's layout (`[sections]`): its columns and rows, shuffle and rotate,
//! and its sections added, moved and deleted.

use std::collections::{HashMap, HashSet};

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::{board_rel, err};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::tree::{ListMut, record_value, set_key};

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

/// Sections: a copy of a section at the end, under a new id and name, with its spaces, roads
/// and connectors. Space ids are the board's own, so each copied space gets a new one: the
/// section's id in front of it replaced by the copy's (`harbor-dock` of `harbor` becomes
/// `harbor-2-dock` of `harbor-2`), else the copy's id put in front; every road, path and
/// connector of the copy names the new ids.
pub(super) fn duplicate_section(
    tx: &mut Tx<'_>,
    base: &[Layer],
    id: &str,
    new_id: &str,
    name: &str,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let s = sections_mut(tx.doc_mut(&rel)?)?;
    let Some(mut pieces) = ListMut::at(s, "pieces") else {
        return err("the board has no sections");
    };
    if pieces.find("id", new_id).is_some() {
        return err(format!("there is a section `{new_id}` already"));
    }
    let Some(i) = pieces.find("id", id) else {
        return err(format!("no section `{id}`"));
    };
    // Every space id of the board, so the copy's are new.
    let mut taken: HashSet<String> = HashSet::new();
    for k in 0..pieces.len() {
        if let Some(RawValue::Table(m)) = pieces.get(k).map(record_value)
            && let Some(RawValue::Array(sp)) = m.get("spaces")
        {
            taken.extend(sp.iter().filter_map(space_id));
        }
    }
    let Some(RawValue::Table(mut copy)) = pieces.get(i).map(record_value) else {
        return err(format!("section `{id}` is not a table"));
    };
    let mut names: HashMap<String, String> = HashMap::new();
    if let Some(RawValue::Array(sp)) = copy.get("spaces") {
        for old in sp.iter().filter_map(space_id) {
            let stem = match old.strip_prefix(&format!("{id}-")) {
                Some(rest) => format!("{new_id}-{rest}"),
                None => format!("{new_id}-{old}"),
            };
            let mut new = stem.clone();
            let mut n = 2;
            while taken.contains(&new) {
                new = format!("{stem}-{n}");
                n += 1;
            }
            taken.insert(new.clone());
            names.insert(old, new);
        }
    }
    let rename = |v: &mut RawValue| {
        if let RawValue::String(s) = v
            && let Some(n) = names.get(s.as_str())
        {
            *s = n.clone();
        }
    };
    for (list, keys) in [
        ("spaces", &["id"][..]),
        ("edges", &["from", "to"][..]),
        ("connectors", &["space"][..]),
        ("paths", &["spaces"][..]),
    ] {
        let Some(RawValue::Array(items)) = copy.get_mut(list) else {
            continue;
        };
        for item in items.iter_mut() {
            let RawValue::Table(t) = item else { continue };
            for key in keys {
                match t.get_mut(*key) {
                    Some(RawValue::Array(a)) => a.iter_mut().for_each(rename),
                    Some(v) => rename(v),
                    None => {}
                }
            }
        }
    }
    copy.insert("id".into(), RawValue::String(new_id.to_string()));
    copy.insert("name".into(), RawValue::String(name.to_string()));
    let fields: Vec<(String, RawValue)> = copy.into_iter().collect();
    let n = pieces.len();
    pieces.insert(n, &fields);
    // Its lists one item a line, as the sections of a hand-written board are.
    if !pieces.is_inline()
        && let Some(rec) = pieces.get_mut(n)
    {
        for key in ["spaces", "edges", "paths", "connectors"] {
            if let Some(Item::Value(Value::Array(a))) = rec.get_mut(key) {
                for v in a.iter_mut() {
                    v.decor_mut().set_prefix("\n  ");
                    v.decor_mut().set_suffix("");
                }
                a.set_trailing("\n");
                a.set_trailing_comma(true);
            }
        }
    }
    Ok(())
}

fn space_id(v: &RawValue) -> Option<String> {
    match v {
        RawValue::Table(t) => match t.get("id") {
            Some(RawValue::String(s)) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
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
