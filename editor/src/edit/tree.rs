//! Low-level helpers over `toml_edit` trees: values in and out, records (a `[[x]]` table or an
//! inline `{ ... }` in an array) and lists of records, changed without disturbing the comments
//! and layout around them.

use farebox::content::raw::RawValue;
use toml_edit::{Array, ArrayOfTables, InlineTable, Item, Table, TableLike, Value};

use super::EditError;

/// A TOML value of the engine's raw model as a `toml_edit` value (default formatting).
pub fn to_edit(v: &RawValue) -> Value {
    match v {
        RawValue::String(s) => Value::from(s.as_str()),
        RawValue::Integer(i) => Value::from(*i),
        RawValue::Float(f) => Value::from(*f),
        RawValue::Boolean(b) => Value::from(*b),
        RawValue::Datetime(d) => Value::from(*d),
        RawValue::Array(items) => {
            let mut a = Array::new();
            for i in items {
                a.push(to_edit(i));
            }
            Value::Array(a)
        }
        RawValue::Table(t) => {
            let mut it = InlineTable::new();
            for (k, v) in t {
                it.insert(k, to_edit(v));
            }
            it.fmt();
            Value::InlineTable(it)
        }
    }
}

/// A `toml_edit` value in the engine's raw model.
pub fn from_edit(v: &Value) -> RawValue {
    match v {
        Value::String(s) => RawValue::String(s.value().clone()),
        Value::Integer(i) => RawValue::Integer(*i.value()),
        Value::Float(f) => RawValue::Float(*f.value()),
        Value::Boolean(b) => RawValue::Boolean(*b.value()),
        Value::Datetime(d) => RawValue::Datetime(*d.value()),
        Value::Array(a) => RawValue::Array(a.iter().map(from_edit).collect()),
        Value::InlineTable(t) => record_value(t),
    }
}

/// An item (value, table or array of tables) in the raw model; `None` for an empty slot.
pub fn item_value(item: &Item) -> Option<RawValue> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(from_edit(v)),
        Item::Table(t) => Some(record_value(t)),
        Item::ArrayOfTables(a) => {
            Some(RawValue::Array(a.iter().map(|t| record_value(t)).collect()))
        }
    }
}

/// A whole record (table) in the raw model.
pub fn record_value(t: &dyn TableLike) -> RawValue {
    let mut out = RawValue::Table(Default::default());
    if let RawValue::Table(m) = &mut out {
        for (k, item) in t.iter() {
            if let Some(v) = item_value(item) {
                m.insert(k.to_string(), v);
            }
        }
    }
    out
}

/// The string at `key` of a record.
pub fn str_of<'t>(t: &'t dyn TableLike, key: &str) -> Option<&'t str> {
    t.get(key).and_then(Item::as_str)
}

/// Sets `key` of a record to `v`, keeping the decoration (spacing, trailing comment) of the
/// value it replaces; a new key goes at the end of the record.
pub fn set_key(t: &mut dyn TableLike, key: &str, v: Value) {
    match t.get_mut(key) {
        Some(Item::Value(old)) => {
            let decor = old.decor().clone();
            *old = v;
            *old.decor_mut() = decor;
        }
        Some(slot) => *slot = Item::Value(v),
        None => {
            t.insert(key, Item::Value(v));
            // A new key of an inline table gets the spacing of its neighbours.
            if let Some(Item::Value(v)) = t.get_mut(key)
                && v.decor().prefix().is_none()
            {
                v.decor_mut().set_prefix(" ");
                v.decor_mut().set_suffix("");
            }
        }
    }
}

/// Sets or removes (`None`) `key` of a record.
pub fn put_key(t: &mut dyn TableLike, key: &str, v: Option<&RawValue>) {
    match v {
        Some(v) => set_key(t, key, to_edit(v)),
        None => {
            t.remove(key);
        }
    }
}

/// What comes before a record in its list: the part of its prefix that is a trailing comment
/// of the record before it (same line), and the rest.
fn split_prefix(p: &str) -> (&str, &str) {
    match p.find('\n') {
        Some(nl) if p[..nl].contains('#') => (&p[..nl], &p[nl..]),
        _ => ("", p),
    }
}

/// The prefix the record after a removed one should get: the removed record's own comment
/// lines (a heading of a group, say) are kept, its trailing comment (in the next record's
/// prefix) goes with it.
fn merged_prefix(removed: &str, next: &str) -> String {
    let (trail_prev, own) = split_prefix(removed);
    let (_, next_own) = split_prefix(next);
    let mut out = trail_prev.to_string();
    match own.rfind('\n') {
        Some(last_nl) if own.contains('#') => {
            out.push_str(&own[..last_nl]);
            if next_own.contains('\n') {
                out.push_str(next_own);
            } else {
                out.push_str(&own[last_nl..]);
            }
        }
        // The next one takes the removed one's place at the start of its line.
        Some(_) if !next_own.contains('\n') => out.push_str(own),
        _ => out.push_str(next_own),
    }
    out
}

fn prefix_str(d: &toml_edit::Decor) -> String {
    d.prefix()
        .and_then(|p| p.as_str())
        .unwrap_or_default()
        .to_string()
}

/// A list of records: `[[name]]` tables, or an inline array of `{ ... }` tables.
pub enum ListMut<'a> {
    Tables(&'a mut ArrayOfTables),
    Inline(&'a mut Array),
}

impl<'a> ListMut<'a> {
    /// The list at `key` of a record, if it is one.
    pub fn at(t: &'a mut dyn TableLike, key: &str) -> Option<ListMut<'a>> {
        match t.get_mut(key)? {
            Item::ArrayOfTables(a) => Some(ListMut::Tables(a)),
            Item::Value(Value::Array(a)) => Some(ListMut::Inline(a)),
            _ => None,
        }
    }

    /// The list at `key`, made (empty) when missing: inline when `inline`, else `[[...]]`.
    pub fn at_or_new(
        t: &'a mut dyn TableLike,
        key: &str,
        inline: bool,
    ) -> Result<ListMut<'a>, EditError> {
        let missing = !matches!(
            t.get(key),
            Some(Item::ArrayOfTables(_)) | Some(Item::Value(Value::Array(_)))
        );
        if missing {
            if t.get(key).is_some_and(|i| !i.is_none()) {
                return Err(EditError::new(format!(
                    "`{key}` is not a list; fix it in the file first"
                )));
            }
            if inline {
                let mut a = Array::new();
                a.set_trailing("\n");
                a.set_trailing_comma(true);
                set_key(t, key, Value::Array(a));
            } else {
                t.insert(key, Item::ArrayOfTables(ArrayOfTables::new()));
            }
        }
        ListMut::at(t, key).ok_or_else(|| EditError::new(format!("`{key}` is not a list")))
    }

    pub fn len(&self) -> usize {
        match self {
            ListMut::Tables(a) => a.len(),
            ListMut::Inline(a) => a.len(),
        }
    }

    pub fn is_inline(&self) -> bool {
        matches!(self, ListMut::Inline(_))
    }

    /// Record `i` (None if it is not a table).
    pub fn get(&self, i: usize) -> Option<&dyn TableLike> {
        match self {
            ListMut::Tables(a) => a.get(i).map(|t| t as &dyn TableLike),
            ListMut::Inline(a) => a
                .get(i)
                .and_then(Value::as_inline_table)
                .map(|t| t as &dyn TableLike),
        }
    }

    /// Record `i`, to change, keeping the borrow of the list's owner.
    pub fn into_mut(self, i: usize) -> Option<&'a mut dyn TableLike> {
        match self {
            ListMut::Tables(a) => a.get_mut(i).map(|t| t as &mut dyn TableLike),
            ListMut::Inline(a) => a
                .get_mut(i)
                .and_then(Value::as_inline_table_mut)
                .map(|t| t as &mut dyn TableLike),
        }
    }

    /// Record `i`, to change.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut dyn TableLike> {
        match self {
            ListMut::Tables(a) => a.get_mut(i).map(|t| t as &mut dyn TableLike),
            ListMut::Inline(a) => a
                .get_mut(i)
                .and_then(Value::as_inline_table_mut)
                .map(|t| t as &mut dyn TableLike),
        }
    }

    /// The index of the first record whose string `key` is `id`.
    pub fn find(&self, key: &str, id: &str) -> Option<usize> {
        (0..self.len()).find(|&i| self.get(i).and_then(|r| str_of(r, key)) == Some(id))
    }

    /// The key order the records of this list use: every key, by first appearance.
    fn key_order(&self) -> Vec<String> {
        let mut out: Vec<String> = vec![];
        for i in 0..self.len() {
            if let Some(r) = self.get(i) {
                for (k, _) in r.iter() {
                    if !out.iter().any(|o| o == k) {
                        out.push(k.to_string());
                    }
                }
            }
        }
        out
    }

    /// Removes record `i`, handing the comments above it (a heading) to the record after it.
    pub fn remove(&mut self, i: usize) {
        match self {
            ListMut::Tables(a) => {
                if i >= a.len() {
                    return;
                }
                let gone = a.remove(i);
                let removed = prefix_str(gone.decor());
                if let Some(next) = a.get_mut(i) {
                    let p = merged_prefix(&removed, &prefix_str(next.decor()));
                    next.decor_mut().set_prefix(p);
                }
            }
            ListMut::Inline(a) => {
                if i >= a.len() {
                    return;
                }
                let gone = a.remove(i);
                let removed = prefix_str(gone.decor());
                if let Some(next) = a.get_mut(i) {
                    let p = merged_prefix(&removed, &prefix_str(next.decor()));
                    next.decor_mut().set_prefix(p);
                } else if i == 0 {
                    a.set_trailing("");
                    a.set_trailing_comma(false);
                } else {
                    // The last one went: its comment lines stay before the `]`.
                    let (_, own) = split_prefix(&removed);
                    if own.contains('#')
                        && let Some(nl) = own.rfind('\n')
                    {
                        let trailing = a.trailing().as_str().unwrap_or_default().to_string();
                        a.set_trailing(format!("{}{trailing}", &own[..nl]));
                    }
                }
            }
        }
    }

    /// Inserts a record at `at` (at most the length), written like its neighbours: keys in
    /// the order the list's records use, `[[...]]` or `{ ... }` as they are, on a line of its
    /// own when they are.
    pub fn insert(&mut self, at: usize, fields: &[(String, RawValue)]) {
        let order = self.key_order();
        let mut sorted: Vec<&(String, RawValue)> = fields.iter().collect();
        sorted.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
        match self {
            ListMut::Tables(a) => {
                let mut t = Table::new();
                for (k, v) in sorted {
                    t.insert(k, Item::Value(to_edit(v)));
                }
                let at = at.min(a.len());
                a.insert(at, t);
            }
            ListMut::Inline(a) => {
                let mut t = InlineTable::new();
                for (k, v) in sorted {
                    t.insert(k, to_edit(v));
                }
                t.fmt();
                let at = at.min(a.len());
                // The neighbour's line start (without its comments), or a space.
                let near = if at > 0 { at - 1 } else { 0 };
                let prefix = a
                    .get(near)
                    .map(|v| prefix_str(v.decor()))
                    .map(|p| match p.rfind('\n') {
                        Some(nl) => format!("\n{}", &p[nl + 1..]),
                        None if !a.is_empty() && at > 0 => " ".to_string(),
                        None => p,
                    })
                    .unwrap_or_else(|| "\n  ".to_string());
                let mut v = Value::InlineTable(t);
                v.decor_mut().set_prefix(prefix.clone());
                v.decor_mut().set_suffix("");
                if at == 0
                    && let Some(first) = a.get_mut(0)
                {
                    // The old first one keeps its comments, on a line (or place) like ours.
                    let old = prefix_str(first.decor());
                    let (_, own) = split_prefix(&old);
                    let moved = if own.contains('#') {
                        // Its heading now heads the new first record.
                        v.decor_mut().set_prefix(old.clone());
                        prefix.clone()
                    } else {
                        old
                    };
                    first.decor_mut().set_prefix(moved);
                }
                a.insert_formatted(at, v);
                if a.len() == 1 {
                    a.set_trailing_comma(true);
                    a.set_trailing("\n");
                }
            }
        }
    }

    /// Moves record `from` to index `to`, comments and all.
    pub fn move_to(&mut self, from: usize, to: usize) {
        let n = self.len();
        if from >= n || to >= n || from == to {
            return;
        }
        match self {
            ListMut::Tables(a) => {
                // Tables are written in the order of their positions in the document: the
                // positions the list and the tables under it hold stay the same set, handed
                // out again in the new order.
                let mut held: Vec<isize> = vec![];
                for t in a.iter() {
                    positions(t, &mut held);
                }
                held.sort_unstable();
                let t = a.remove(from);
                a.insert(to, t);
                let mut next = held.into_iter();
                for t in a.iter_mut() {
                    renumber(t, &mut next);
                }
            }
            ListMut::Inline(a) => {
                let v = a.remove(from);
                a.insert_formatted(to, v);
            }
        }
    }
}

/// The positions `t` and the tables under it hold, in the order they are visited.
fn positions(t: &Table, out: &mut Vec<isize>) {
    out.extend(t.position());
    for (_, item) in t.iter() {
        match item {
            Item::Table(sub) => positions(sub, out),
            Item::ArrayOfTables(a) => a.iter().for_each(|sub| positions(sub, out)),
            _ => {}
        }
    }
}

/// Hands `t` and the tables under it the next positions, in the order they are visited.
fn renumber(t: &mut Table, next: &mut impl Iterator<Item = isize>) {
    if t.position().is_some() {
        t.set_position(next.next());
    }
    for (_, item) in t.iter_mut() {
        match item {
            Item::Table(sub) => renumber(sub, next),
            Item::ArrayOfTables(a) => a.iter_mut().for_each(|sub| renumber(sub, next)),
            _ => {}
        }
    }
}

/// A list of strings as an inline array, or `None` when it is empty.
pub fn strings(items: &[String]) -> Option<RawValue> {
    if items.is_empty() {
        None
    } else {
        Some(RawValue::Array(
            items.iter().map(|s| RawValue::String(s.clone())).collect(),
        ))
    }
}

/// Replaces the strings of an inline array in place (keeping its decoration), or sets a new one.
pub fn set_strings(t: &mut dyn TableLike, key: &str, items: &[String]) {
    if let Some(Item::Value(Value::Array(a))) = t.get_mut(key) {
        // Values keep their own spacing where they stay; new ones get the usual.
        let old: Vec<Value> = a.iter().cloned().collect();
        a.clear();
        for (i, s) in items.iter().enumerate() {
            let mut v = Value::from(s.as_str());
            if let Some(o) = old.get(i) {
                *v.decor_mut() = o.decor().clone();
            } else if i > 0 {
                v.decor_mut().set_prefix(" ");
                v.decor_mut().set_suffix("");
            }
            a.push_formatted(v);
        }
        if items.is_empty() {
            a.set_trailing("");
            a.set_trailing_comma(false);
        }
        return;
    }
    let mut a = Array::new();
    for s in items {
        a.push(s.as_str());
    }
    set_key(t, key, Value::Array(a));
}

/// Puts `header` (a `#:schema` line) at the top of a document made by an edit: before its
/// first `[[...]]` table (a new document keeps a lone comment at its end otherwise).
pub fn header_first(doc: &mut toml_edit::DocumentMut, header: &str) {
    let root = doc.as_table_mut();
    for (_, item) in root.iter_mut() {
        if let Item::ArrayOfTables(a) = item
            && let Some(t) = a.get_mut(0)
        {
            t.decor_mut().set_prefix(format!("{header}\n"));
            return;
        }
    }
}
