//! Content as the layers make it: every tile, option, constant, deck with its cards and table
//! with its rows, each with its value after the layers so far and which mod defined it and
//! which changed it last. Built from the documents, the way the engine's loader merges
//! layers (later mods replace items by id; their patches take items out and change decks
//! card by card and tables row by row).
//!
//! A house rule's edits of its game's content compare against the catalog of the layers
//! below it: the value to copy into a patch, and the value that, reached again, takes the
//! patch entry out.

use farebox::content::raw::RawValue;
use toml_edit::{DocumentMut, Item, TableLike, Value};

use super::doc::Layer;
use super::tree::{from_edit, item_value, record_value, str_of};

/// Where an item comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The mod that first defined it (by its id).
    pub defined_by: String,
    /// The mod that changed it last (replaced it, or patched it); the same as `defined_by`
    /// when nothing changed it.
    pub changed_by: String,
    /// The file of `changed_by` (relative to its folder) that holds it as it is now.
    pub file: String,
}

/// One item: its value and where it comes from.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The item as written (a table for records, the value for a constant).
    pub value: RawValue,
    /// A record's keys in the order they are written.
    pub keys: Vec<String>,
    pub origin: Origin,
}

/// A deck and its cards, in order.
#[derive(Debug, Clone)]
pub struct DeckEntry {
    pub id: String,
    pub origin: Origin,
    pub cards: Vec<(String, Entry)>,
}

/// A table and its rows, in order, each with its key value (None in a table without `key`).
#[derive(Debug, Clone)]
pub struct TableEntry {
    pub id: String,
    /// The key column.
    pub key: Option<String>,
    pub origin: Origin,
    pub rows: Vec<(Option<RawValue>, Entry)>,
}

/// Everything by kind, as the layers make it.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub tiles: Vec<(String, Entry)>,
    pub options: Vec<(String, Entry)>,
    pub constants: Vec<(String, Entry)>,
    pub decks: Vec<DeckEntry>,
    pub tables: Vec<TableEntry>,
}

fn upsert(list: &mut Vec<(String, Entry)>, id: String, rec: Rec, mod_id: &str, file: &str) {
    let (value, keys) = rec;
    match list.iter_mut().find(|(i, _)| *i == id) {
        Some((_, e)) => {
            e.value = value;
            e.keys = keys;
            e.origin.changed_by = mod_id.to_string();
            e.origin.file = file.to_string();
        }
        None => list.push((
            id,
            Entry {
                value,
                keys,
                origin: Origin {
                    defined_by: mod_id.to_string(),
                    changed_by: mod_id.to_string(),
                    file: file.to_string(),
                },
            },
        )),
    }
}

/// A record: its value and its keys in written order.
pub type Rec = (RawValue, Vec<String>);

/// A record of a `toml_edit` table.
pub fn rec_of(t: &dyn TableLike) -> Rec {
    (
        record_value(t),
        t.iter().map(|(k, _)| k.to_string()).collect(),
    )
}

/// The records of a list (`[[x]]` tables or an inline array of tables).
pub fn recs_of(item: Option<&Item>) -> Vec<Rec> {
    match item {
        Some(Item::ArrayOfTables(a)) => a.iter().map(|t| rec_of(t)).collect(),
        Some(Item::Value(Value::Array(a))) => a
            .iter()
            .filter_map(|v| v.as_inline_table())
            .map(|t| rec_of(t))
            .collect(),
        _ => vec![],
    }
}

/// The records of the list at `key` of a document's top table.
fn records(doc: &DocumentMut, key: &str) -> Vec<Rec> {
    recs_of(doc.get(key))
}

/// The string field `key` of a record value.
pub fn field_str<'v>(v: &'v RawValue, key: &str) -> Option<&'v str> {
    v.get(key).and_then(RawValue::as_str)
}

fn origin(mod_id: &str, file: &str) -> Origin {
    Origin {
        defined_by: mod_id.to_string(),
        changed_by: mod_id.to_string(),
        file: file.to_string(),
    }
}

impl Catalog {
    /// The catalog of `layers` (dependencies first).
    pub fn build(layers: &[Layer]) -> Catalog {
        let mut c = Catalog::default();
        for layer in layers {
            c.add_layer(layer);
        }
        c
    }

    fn add_layer(&mut self, layer: &Layer) {
        let m = layer.id.as_str();
        for rel in layer.content("tiles") {
            if let Some(doc) = layer.doc(&rel) {
                for t in records(doc, "tiles") {
                    if let Some(id) = field_str(&t.0, "id").map(str::to_string) {
                        upsert(&mut self.tiles, id, t, m, &rel);
                    }
                }
            }
        }
        for rel in layer.content("decks") {
            let Some(doc) = layer.doc(&rel) else { continue };
            let Some(id) = doc.get("id").and_then(|i| i.as_str()) else {
                continue;
            };
            let old = self.decks.iter().position(|d| d.id == id);
            let mut deck = DeckEntry {
                id: id.to_string(),
                origin: origin(m, &rel),
                cards: vec![],
            };
            let before = old.map(|i| self.decks.remove(i));
            if let Some(b) = &before {
                deck.origin.defined_by = b.origin.defined_by.clone();
            }
            for (card, keys) in records(doc, "cards") {
                let Some(cid) = field_str(&card, "id").map(str::to_string) else {
                    continue;
                };
                let mut o = origin(m, &rel);
                if let Some((_, e)) = before
                    .as_ref()
                    .and_then(|b| b.cards.iter().find(|(i, _)| *i == cid))
                {
                    o.defined_by = e.origin.defined_by.clone();
                }
                deck.cards.push((
                    cid,
                    Entry {
                        value: card,
                        keys,
                        origin: o,
                    },
                ));
            }
            match old {
                Some(i) => self.decks.insert(i, deck),
                None => self.decks.push(deck),
            }
        }
        for rel in layer.content("tables") {
            let Some(doc) = layer.doc(&rel) else { continue };
            let Some(id) = doc.get("id").and_then(|i| i.as_str()) else {
                continue;
            };
            let key = doc.get("key").and_then(|k| k.as_str()).map(str::to_string);
            let old = self.tables.iter().position(|d| d.id == id);
            let before = old.map(|i| self.tables.remove(i));
            let mut table = TableEntry {
                id: id.to_string(),
                key: key.clone(),
                origin: origin(m, &rel),
                rows: vec![],
            };
            if let Some(b) = &before {
                table.origin.defined_by = b.origin.defined_by.clone();
            }
            for (row, keys) in records(doc, "rows") {
                let k = key.as_deref().and_then(|k| row.get(k)).cloned();
                let mut o = origin(m, &rel);
                if let Some((_, e)) = before
                    .as_ref()
                    .and_then(|b| b.rows.iter().find(|(rk, _)| k.is_some() && *rk == k))
                {
                    o.defined_by = e.origin.defined_by.clone();
                }
                table.rows.push((
                    k,
                    Entry {
                        value: row,
                        keys,
                        origin: o,
                    },
                ));
            }
            match old {
                Some(i) => self.tables.insert(i, table),
                None => self.tables.push(table),
            }
        }
        if let Some(doc) = layer.doc("mod.toml") {
            for o in records(doc, "options") {
                if let Some(id) = field_str(&o.0, "id").map(str::to_string) {
                    upsert(&mut self.options, id, o, m, "mod.toml");
                }
            }
            if let Some(t) = doc.get("constants").and_then(|c| c.as_table_like()) {
                for (k, item) in t.iter() {
                    if let Some(v) = item_value(item) {
                        upsert(
                            &mut self.constants,
                            k.to_string(),
                            (v, vec![]),
                            m,
                            "mod.toml",
                        );
                    }
                }
            }
        }
        for rel in layer.content("patches") {
            if let Some(doc) = layer.doc(&rel) {
                self.add_patch(m, &rel, doc);
            }
        }
    }

    fn add_patch(&mut self, m: &str, rel: &str, doc: &DocumentMut) {
        if let Some(r) = doc.get("remove").and_then(|r| r.as_table_like()) {
            let ids = |k: &str| -> Vec<String> {
                r.get(k)
                    .and_then(|i| i.as_array())
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str())
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let tiles = ids("tiles");
            self.tiles.retain(|(i, _)| !tiles.contains(i));
            let options = ids("options");
            self.options.retain(|(i, _)| !options.contains(i));
            let decks = ids("decks");
            self.decks.retain(|d| !decks.contains(&d.id));
            let tables = ids("tables");
            self.tables.retain(|d| !tables.contains(&d.id));
        }
        for dp in doc.get("decks").map(tables_of).unwrap_or_default() {
            let Some(deck) =
                str_of(dp, "id").and_then(|id| self.decks.iter_mut().find(|d| d.id == id))
            else {
                continue;
            };
            if let Some(gone) = dp.get("remove").and_then(Item::as_array) {
                deck.cards
                    .retain(|(i, _)| !gone.iter().any(|g| g.as_str() == Some(i.as_str())));
            }
            for card in recs_of(dp.get("cards")) {
                if let Some(cid) = field_str(&card.0, "id").map(str::to_string) {
                    upsert(&mut deck.cards, cid, card, m, rel);
                }
            }
        }
        for tp in doc.get("tables").map(tables_of).unwrap_or_default() {
            let Some(table) =
                str_of(tp, "id").and_then(|id| self.tables.iter_mut().find(|d| d.id == id))
            else {
                continue;
            };
            if let Some(gone) = dp_values(tp.get("remove"))
                && table.key.is_some()
            {
                table
                    .rows
                    .retain(|(k, _)| !k.as_ref().is_some_and(|k| gone.contains(k)));
            }
            for (row, keys) in recs_of(tp.get("rows")) {
                let k = table.key.as_deref().and_then(|k| row.get(k)).cloned();
                match table
                    .rows
                    .iter_mut()
                    .find(|(rk, _)| k.is_some() && *rk == k)
                {
                    Some((_, e)) => {
                        e.value = row;
                        e.keys = keys;
                        e.origin.changed_by = m.to_string();
                        e.origin.file = rel.to_string();
                    }
                    None => table.rows.push((
                        k,
                        Entry {
                            value: row,
                            keys,
                            origin: origin(m, rel),
                        },
                    )),
                }
            }
        }
    }

    /// A deck by id.
    pub fn deck(&self, id: &str) -> Option<&DeckEntry> {
        self.decks.iter().find(|d| d.id == id)
    }

    /// A table by id.
    pub fn table(&self, id: &str) -> Option<&TableEntry> {
        self.tables.iter().find(|d| d.id == id)
    }

    /// A card of a deck.
    pub fn card(&self, deck: &str, card: &str) -> Option<&Entry> {
        self.deck(deck)?
            .cards
            .iter()
            .find(|(i, _)| i == card)
            .map(|(_, e)| e)
    }

    /// A tile by id.
    pub fn tile(&self, id: &str) -> Option<&Entry> {
        self.tiles.iter().find(|(i, _)| i == id).map(|(_, e)| e)
    }

    /// An option by id.
    pub fn option(&self, id: &str) -> Option<&Entry> {
        self.options.iter().find(|(i, _)| i == id).map(|(_, e)| e)
    }

    /// A constant by name.
    pub fn constant(&self, key: &str) -> Option<&Entry> {
        self.constants
            .iter()
            .find(|(i, _)| i == key)
            .map(|(_, e)| e)
    }
}

/// The tables of a list item (`[[x]]` or inline).
fn tables_of(item: &Item) -> Vec<&dyn TableLike> {
    match item {
        Item::ArrayOfTables(a) => a.iter().map(|t| t as &dyn TableLike).collect(),
        Item::Value(Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_inline_table())
            .map(|t| t as &dyn TableLike)
            .collect(),
        _ => vec![],
    }
}

/// The values of an inline array.
fn dp_values(item: Option<&Item>) -> Option<Vec<RawValue>> {
    item.and_then(Item::as_array)
        .map(|a| a.iter().map(from_edit).collect())
}

/// A record's fields in the order of `keys` (keys not listed come after, in name order).
pub fn ordered(value: &RawValue, keys: &[String]) -> Vec<(String, RawValue)> {
    let RawValue::Table(m) = value else {
        return vec![];
    };
    let mut out: Vec<(String, RawValue)> = keys
        .iter()
        .filter_map(|k| m.get(k).map(|v| (k.clone(), v.clone())))
        .collect();
    for (k, v) in m {
        if !keys.contains(k) {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}
