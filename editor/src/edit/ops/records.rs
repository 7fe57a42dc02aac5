//! Edits of decks' cards and tables' rows: where each entry is written (the mod's own file,
//! or in a house rule its patch file), and fields set, entries added, duplicated and deleted.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::{RowRef, add_content, err};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::patch::{Catalog, Entry, Rec, ordered, recs_of};
use crate::edit::tree::{ListMut, header_first, put_key, str_of, to_edit};

/// A deck's cards or a table's rows: where they are written and how one is named.
pub(super) struct Coll {
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
    pub(super) fn deck(id: &str) -> Coll {
        Coll {
            kind: "decks",
            list: "cards",
            id: id.to_string(),
            key: Some("id".into()),
        }
    }

    pub(super) fn table(tx: &Tx<'_>, base: &[Layer], id: &str) -> Result<Coll, EditError> {
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
                rec.get(k).and_then(crate::edit::tree::item_value).as_ref() == Some(v)
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
                .is_some_and(|a| a.iter().any(|x| crate::edit::tree::from_edit(x) == *v))
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

    pub(super) fn set(
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

    pub(super) fn add(
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

    pub(super) fn duplicate(
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

    pub(super) fn delete(
        &self,
        tx: &mut Tx<'_>,
        base: &[Layer],
        r: &RowRef,
    ) -> Result<(), EditError> {
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
pub(super) fn with_field((v, keys): &mut Rec, field: &str, value: Option<&RawValue>) {
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
        let same = r.get(k).and_then(crate::edit::tree::item_value).as_ref() == Some(v);
        if !same {
            put_key(r, k, Some(v));
        }
    }
}
