//! Patch files: a later layer takes items out of what the layers before it merged, by id
//! (tiles, pieces, counters, zones, decks, tables, options), or changes the cards of a deck
//! and the rows of a table in place.

use std::collections::HashMap;

use super::{At, MAX_ERRORS_PER_FILE, Merged, Reader, Removed};
use crate::content::raw::*;
use crate::diag::suggestion;

impl Reader<'_> {
    /// Applies a patch file (`f`) of mod `mod_id` to what the layers so far have merged.
    pub(super) fn apply_patch(
        &mut self,
        f: usize,
        mod_id: &str,
        patch: RawPatch,
        merged: &mut Merged,
    ) {
        let r = patch.remove;
        let mut removed = vec![];
        for (target, ids) in [
            ("tiles", &r.tiles),
            ("pieces", &r.pieces),
            ("decks", &r.decks),
            ("tables", &r.tables),
            ("options", &r.options),
        ] {
            for id in ids {
                removed.push((target.to_string(), id.clone()));
            }
        }
        self.take_out(f, mod_id, "tile", &mut merged.tiles, r.tiles, |t| &t.id);
        self.take_out(f, mod_id, "deck", &mut merged.decks, r.decks, |t| &t.id);
        self.take_out(f, mod_id, "table", &mut merged.tables, r.tables, |t| &t.id);
        self.take_out(f, mod_id, "piece", &mut merged.pieces, r.pieces, |t| &t.id);
        self.take_out(
            f,
            mod_id,
            "counter",
            &mut merged.counters,
            r.counters,
            |t| &t.id,
        );
        self.take_out(f, mod_id, "zone", &mut merged.zones, r.zones, |t| &t.id);
        self.take_out(f, mod_id, "option", &mut merged.options, r.options, |t| {
            &t.id
        });
        for dp in patch.decks {
            self.patch_deck(f, &mut merged.decks, dp, &mut removed);
        }
        for tp in patch.tables {
            self.patch_table(f, &mut merged.tables, tp);
        }
        for (target, id) in removed {
            let place = self.files.error(f, id.span(), "").place();
            merged.removed.push(Removed {
                target,
                id: id.get().clone(),
                mod_id: mod_id.to_string(),
                place,
            });
        }
    }

    /// Changes one deck as a patch file's `[[decks]]` entry says: cards taken out (each
    /// noted in `removed`), then cards added or replaced by id.
    fn patch_deck(
        &mut self,
        f: usize,
        decks: &mut [At<RawDeck>],
        dp: RawDeckPatch,
        removed: &mut Vec<(String, Sp<String>)>,
    ) {
        let Some(deck) = self.patched(f, "deck", decks, &dp.id, |d| &d.id) else {
            return;
        };
        let deck = &mut deck.item;
        deck.card_files.resize(deck.cards.len(), None);
        let card_id = |c: &SpannedMap| {
            c.iter()
                .find(|(k, _)| k.get() == "id")
                .and_then(|(_, v)| v.get().as_str().map(String::from))
        };
        // Cards by id, so each removal or replacement is a lookup, not a search.
        let mut at: HashMap<String, usize> = HashMap::new();
        for (i, c) in deck.cards.iter().enumerate().rev() {
            if let Some(id) = card_id(c) {
                at.insert(id, i);
            }
        }
        let mut gone = vec![false; deck.cards.len()];
        let mut misses = 0usize;
        for id in dp.remove {
            match at.get(id.get()).copied().filter(|&i| !gone[i]) {
                Some(i) => {
                    gone[i] = true;
                    removed.push((format!("deck:{}", dp.id.get()), id));
                }
                None => {
                    misses += 1;
                    let hint = if misses <= MAX_ERRORS_PER_FILE {
                        let ids: Vec<String> = deck.cards.iter().filter_map(card_id).collect();
                        suggestion(id.get(), ids.iter().map(String::as_str))
                    } else {
                        String::new()
                    };
                    let msg = format!(
                        "deck `{}` has no card `{}` to remove{hint}",
                        dp.id.get(),
                        id.get()
                    );
                    let d = self.files.error(f, id.span(), msg);
                    self.diags.push(d);
                }
            }
        }
        if gone.iter().any(|&g| g) {
            let keep: Vec<bool> = gone.iter().map(|g| !g).collect();
            let mut i = 0;
            deck.cards.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            let mut i = 0;
            deck.card_files.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            at.clear();
            for (i, c) in deck.cards.iter().enumerate().rev() {
                if let Some(id) = card_id(c) {
                    at.insert(id, i);
                }
            }
        }
        for card in dp.cards {
            // A card without an id is added, and reported when the deck is checked.
            let id = card_id(&card);
            let pos = id.as_ref().and_then(|id| at.get(id).copied());
            if pos.is_none()
                && let Some(id) = id
            {
                at.insert(id, deck.cards.len());
            }
            put(&mut deck.cards, &mut deck.card_files, pos, card, f);
        }
    }

    /// Changes one lookup table as a patch file's `[[tables]]` entry says: rows taken out by
    /// key, then rows added or replaced by key.
    fn patch_table(&mut self, f: usize, tables: &mut [At<RawTable>], tp: RawTablePatch) {
        let Some(table) = self.patched(f, "table", tables, &tp.id, |t| &t.id) else {
            return;
        };
        let table = &mut table.item;
        table.row_files.resize(table.rows.len(), None);
        let key = table.key.as_ref().map(|k| k.get().clone());
        let key_of = |row: &SpannedMap| {
            let k = key.as_deref()?;
            row.iter()
                .find(|(name, _)| name.get() == k)
                .map(|(_, v)| v.get().clone())
        };
        // Rows by key, so each removal or replacement is a lookup, not a search.
        let row_key = |v: &RawValue| format!("{v:?}");
        let index = |rows: &[SpannedMap]| {
            let mut at: HashMap<String, usize> = HashMap::new();
            for (i, r) in rows.iter().enumerate().rev() {
                if let Some(v) = key_of(r) {
                    at.insert(row_key(&v), i);
                }
            }
            at
        };
        let mut at = index(&table.rows);
        let mut gone = vec![false; table.rows.len()];
        for v in tp.remove {
            let found = at.get(&row_key(v.get())).copied().filter(|&i| !gone[i]);
            match (&key, found) {
                (Some(_), Some(i)) => gone[i] = true,
                (Some(k), None) => {
                    let msg = format!(
                        "table `{}` has no row with {k} = {} to remove",
                        tp.id.get(),
                        v.get()
                    );
                    let d = self.files.error(f, v.span(), msg);
                    self.diags.push(d);
                }
                (None, _) => {
                    let msg = format!(
                        "table `{}` has no `key` column, so its rows cannot be removed or replaced (only added)",
                        tp.id.get()
                    );
                    let d = self.files.error(f, v.span(), msg);
                    self.diags.push(d);
                }
            }
        }
        if gone.iter().any(|&g| g) {
            let mut i = 0;
            table.rows.retain(|_| {
                i += 1;
                !gone[i - 1]
            });
            let mut i = 0;
            table.row_files.retain(|_| {
                i += 1;
                !gone[i - 1]
            });
            at = index(&table.rows);
        }
        for row in tp.rows {
            let k = key_of(&row).map(|v| row_key(&v));
            let pos = k.as_ref().and_then(|k| at.get(k).copied());
            if pos.is_none()
                && let Some(k) = k
            {
                at.insert(k, table.rows.len());
            }
            put(&mut table.rows, &mut table.row_files, pos, row, f);
        }
    }

    /// Takes items out of a merged list by id, for a patch of mod `mod_id`.
    fn take_out<T>(
        &mut self,
        f: usize,
        mod_id: &str,
        what: &'static str,
        list: &mut Vec<At<T>>,
        ids: Vec<Sp<String>>,
        id: impl Fn(&T) -> &Sp<String>,
    ) {
        if ids.is_empty() {
            return;
        }
        let index: HashMap<&str, usize> = list
            .iter()
            .enumerate()
            .rev()
            .map(|(i, a)| (id(&a.item).get().as_str(), i))
            .collect();
        let mut gone = vec![false; list.len()];
        let mut misses = 0usize;
        for wanted in ids {
            match index.get(wanted.get().as_str()).copied() {
                Some(i) if list[i].mod_id == mod_id => {
                    let msg = format!(
                        "{what} `{}` is defined by this mod; delete it there instead of removing it",
                        wanted.get()
                    );
                    let d = self.files.error(f, wanted.span(), msg);
                    self.diags.push(d);
                }
                Some(i) if !gone[i] => gone[i] = true,
                _ => {
                    // "Did you mean" compares with every id: only for the first few misses.
                    misses += 1;
                    let hint = if misses <= MAX_ERRORS_PER_FILE {
                        suggestion(
                            wanted.get(),
                            list.iter().map(|a| id(&a.item).get().as_str()),
                        )
                    } else {
                        String::new()
                    };
                    let msg = format!("there is no {what} `{}` to remove{hint}", wanted.get());
                    let d = self.files.error(f, wanted.span(), msg);
                    self.diags.push(d);
                }
            }
        }
        drop(index);
        let mut i = 0;
        list.retain(|_| {
            i += 1;
            !gone[i - 1]
        });
        self.ids.remove(what);
    }

    /// The item a patch changes, or an error (with a suggestion) when there is none.
    fn patched<'m, T>(
        &mut self,
        f: usize,
        what: &str,
        list: &'m mut [At<T>],
        wanted: &Sp<String>,
        id: impl Fn(&T) -> &Sp<String>,
    ) -> Option<&'m mut At<T>> {
        let i = list.iter().position(|a| id(&a.item).get() == wanted.get());
        if i.is_none() {
            let hint = suggestion(
                wanted.get(),
                list.iter().map(|a| id(&a.item).get().as_str()),
            );
            let msg = format!("there is no {what} `{}` to change{hint}", wanted.get());
            let d = self.files.error(f, wanted.span(), msg);
            self.diags.push(d);
        }
        list.get_mut(i?)
    }
}

/// Puts a card or row from patch file `f` in place of row `at`, or at the end.
fn put(
    rows: &mut Vec<SpannedMap>,
    files: &mut Vec<Option<usize>>,
    at: Option<usize>,
    row: SpannedMap,
    f: usize,
) {
    match at {
        Some(i) => {
            rows[i] = row;
            files[i] = Some(f);
        }
        None => {
            rows.push(row);
            files.push(Some(f));
        }
    }
}
