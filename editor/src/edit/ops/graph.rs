//! Edits of a graph's spaces and edges, for a graph board's `[graph]` and for each section of a
//! sections board alike: spaces added, moved, renamed (with every reference to them) and
//! deleted; edges (entries or links of a path) added, changed and deleted.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

use super::sections::sections_mut;
use super::{EdgeChange, EdgeData, GraphAt, SpaceData, board_rel, err, put_list};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::tree::{ListMut, put_key, record_value, set_key, set_strings, str_of, strings};

/// Graph or section: a new space.
pub(super) fn add_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    space: &SpaceData,
) -> Result<(), EditError> {
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

/// Moves a space (its drawing position).
pub(super) fn move_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    x: &f64,
    y: &f64,
) -> Result<(), EditError> {
    if !x.is_finite() || !y.is_finite() {
        return err("a position is a number");
    }
    with_space(tx, base, at, id, |s| {
        set_key(s, "x", Value::from(*x));
        set_key(s, "y", Value::from(*y));
        Ok(())
    })
}

pub(super) fn set_space_name(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    name: &str,
) -> Result<(), EditError> {
    with_space(tx, base, at, id, |s| {
        let v = (!name.is_empty()).then(|| RawValue::String(name.to_string()));
        put_key(s, "name", v.as_ref());
        Ok(())
    })
}

pub(super) fn set_space_tags(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    tags: &[String],
) -> Result<(), EditError> {
    with_space(tx, base, at, id, |s| {
        put_list(s, "tags", tags);
        Ok(())
    })
}

pub(super) fn set_space_prop(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    key: &str,
    value: &Option<RawValue>,
) -> Result<(), EditError> {
    with_space(tx, base, at, id, |s| {
        set_prop(s, key, value.as_ref());
        Ok(())
    })
}

/// Deletes a space with its edges (paths through it are cut there) and connectors.
pub(super) fn delete_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
) -> Result<(), EditError> {
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
            let joins = edges
                .get(i)
                .is_some_and(|e| str_of(e, "from") == Some(id) || str_of(e, "to") == Some(id));
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
            if conns.get(i).and_then(|c| str_of(c, "space")) == Some(id) {
                conns.remove(i);
            }
        }
    }
    Ok(())
}

/// Gives a space a new id, everywhere the board names it.
pub(super) fn rename_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    new_id: &str,
) -> Result<(), EditError> {
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
        set_key(s, "id", Value::from(new_id));
    }
    let rename = |r: &mut dyn TableLike, key: &str| {
        if str_of(r, key) == Some(id) {
            set_key(r, key, Value::from(new_id));
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
                        .map(|s| if s == *id { new_id.to_string() } else { s })
                        .collect();
                    set_strings(r, "spaces", &ids);
                }
            }
        }
    }
    rename_refs(tx, "spaces", id, new_id)
}

pub(super) fn add_edge(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    edge: &EdgeData,
) -> Result<(), EditError> {
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

/// Deletes the edge from `from` to `to` (an undirected one either way round); an edge of
/// a path cuts the path there.
pub(super) fn delete_edge(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    from: &str,
    to: &str,
) -> Result<(), EditError> {
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

/// Changes an edge; an edge of a path is taken out of the path and written on its own.
pub(super) fn set_edge(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    from: &str,
    to: &str,
    change: &EdgeChange,
) -> Result<(), EditError> {
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
                ("from".to_string(), RawValue::String(from.to_string())),
                ("to".to_string(), RawValue::String(to.to_string())),
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

/// Graph or section: a copy of a space (name, tags, properties) under a new id, `dx`, `dy`
/// away, written right after it. Its roads are not copied: they would lead where the
/// original's do.
pub(super) fn duplicate_space(
    tx: &mut Tx<'_>,
    base: &[Layer],
    at: &GraphAt,
    id: &str,
    new_id: &str,
    (dx, dy): (f64, f64),
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let g = graph_mut(tx.doc_mut(&rel)?, at)?;
    let Some(mut spaces) = ListMut::at(g, "spaces") else {
        return err(format!("no space `{id}` here"));
    };
    if spaces.find("id", new_id).is_some() {
        return err(format!("there is a space `{new_id}` here already"));
    }
    let Some((i, rec)) = spaces
        .find("id", id)
        .and_then(|i| spaces.get(i).map(|r| (i, record_value(r))))
    else {
        return err(format!("no space `{id}` here"));
    };
    let mut f = fields_of(&rec);
    for (k, v) in &mut f {
        let moved = |v: &RawValue, d: f64| match v {
            RawValue::Float(n) => Some(n + d),
            RawValue::Integer(n) => Some(*n as f64 + d),
            _ => None,
        };
        match k.as_str() {
            "id" => *v = RawValue::String(new_id.to_string()),
            "x" => *v = RawValue::Float(moved(v, dx).unwrap_or(dx)),
            "y" => *v = RawValue::Float(moved(v, dy).unwrap_or(dy)),
            _ => {}
        }
    }
    spaces.insert(i + 1, &f);
    Ok(())
}
