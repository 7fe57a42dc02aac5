//! Edits of tiles and options, which a house rule replaces whole by id, and of constants.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

use super::records::with_field;
use super::{add_content, err};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::patch::{Catalog, Entry, ordered};
use crate::edit::tree::{ListMut, header_first, put_key, record_value, str_of};

pub(super) enum Whole {
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

    pub(super) fn set(
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
pub(super) fn set_constant(
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
