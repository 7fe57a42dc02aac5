//! Loading: files -> raw structs -> one resolved [`GameDef`].
//!
//! A mod and its dependencies are read as *layers* (dependencies first, then the mod). Each
//! layer's files are parsed into raw structs; items with the same id in a later layer replace
//! the earlier ones; then [`super::resolve`] checks the merged content and builds the
//! definition. Problems are collected, never thrown: the caller gets every diagnostic at once.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::de::DeserializeOwned;

use super::raw::*;
use super::version::{version_numbers, version_satisfies};
use crate::diag::{Diagnostic, Diagnostics, SourceText, suggestion};
use crate::source::{ModResolver, ModSource, check_rel_path};

/// How many bytes of files a mod and its dependencies may have read in all.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;
/// How many files a mod and its dependencies may name in all (read or not).
pub const MAX_FILES: usize = 2_000;
/// How many mods (the mod and all its dependencies) one load may read.
pub const MAX_LAYERS: usize = 32;
/// How many records (TOML tables: a card, a row, a tile, a cell, a space, an edge written
/// `{ ... }`, a `[[...]]` or `[...]` header) the files of a mod and its dependencies may hold
/// in all. Parsing costs far more memory than the text takes (a few hundred bytes a record),
/// so files are counted before they are parsed.
pub const MAX_RECORDS: usize = 50_000;
/// How many values (a key's value, an item of a list) those files may hold in all.
pub const MAX_VALUES: usize = 500_000;
// Tile kinds are numbered in 16 bits on the board; the budget of records keeps them fewer.
const _: () = assert!(MAX_RECORDS < u16::MAX as usize);
pub use super::files::{Files, MAX_MESSAGE_CHARS, cut};
pub use super::version::ENGINE_VERSION;

/// One item with the file it came from.
pub struct At<T> {
    pub file: usize,
    pub item: T,
    /// The mod that contributed it.
    pub mod_id: String,
}

/// A script with its source text.
pub struct RawScript {
    pub mod_id: String,
    pub path: String,
    pub display: String,
    pub source: String,
    pub file: usize,
    pub span: std::ops::Range<usize>,
}

/// Everything read from all layers, merged by id.
#[derive(Default)]
pub struct Merged {
    pub manifest: Option<At<RawManifest>>,
    /// The seat counts of the last layer that gives them: a house rule that says nothing
    /// plays with its game's.
    pub players: Option<At<RawPlayers>>,
    /// The seat names of the last layer that gives any.
    pub seat_names: Vec<String>,
    pub layers: Vec<(String, String)>,
    pub options: Vec<At<RawOption>>,
    pub constants: BTreeMap<String, toml::Value>,
    pub board: Option<At<RawBoard>>,
    pub tiles: Vec<At<RawTile>>,
    pub decks: Vec<At<RawDeck>>,
    pub tables: Vec<At<RawTable>>,
    pub pieces: Vec<At<RawPiece>>,
    pub counters: Vec<At<RawCounter>>,
    pub zones: Vec<At<RawZone>>,
    pub scripts: Vec<RawScript>,
    pub bots: Vec<(At<RawBot>, Option<RawScript>)>,
    /// What patches took out, so a reference to it can say so.
    pub removed: Vec<Removed>,
}

/// An item a patch took out.
pub struct Removed {
    /// What a reference to it names as its target: "tiles", "pieces", "decks", "tables",
    /// "options", or "deck:<id>" for a card of that deck.
    pub target: String,
    pub id: String,
    /// The mod whose patch took it out, and where.
    pub mod_id: String,
    pub place: String,
}

struct AtMaker<'a> {
    file: usize,
    mod_id: &'a str,
}
impl AtMaker<'_> {
    fn make<T>(self, item: T) -> At<T> {
        At {
            file: self.file,
            item,
            mod_id: self.mod_id.to_string(),
        }
    }
}

pub struct Reader<'r> {
    pub files: Files,
    pub diags: Diagnostics,
    resolver: &'r dyn ModResolver,
    loading: Vec<String>,
    /// Dependencies already asked for: each is read once, however many mods name it.
    deps_seen: HashSet<String>,
    /// Files named so far (as shown), so none is read twice, and how many bytes were read.
    named: HashSet<String>,
    bytes_read: u64,
    /// Whether the limit on files or bytes was reported already (it is said once).
    over_budget: bool,
    /// Records and values in the files parsed so far (see [`MAX_RECORDS`]).
    records: usize,
    values: usize,
    /// For each kind of item, where each id sits in its merged list (rebuilt when a patch
    /// takes items out), so adding an item is not a search of the list.
    ids: HashMap<&'static str, HashMap<String, usize>>,
}

impl<'r> Reader<'r> {
    pub fn new(resolver: &'r dyn ModResolver) -> Self {
        Reader {
            files: Files::default(),
            diags: Diagnostics::default(),
            resolver,
            loading: vec![],
            deps_seen: HashSet::new(),
            named: HashSet::new(),
            bytes_read: 0,
            over_budget: false,
            records: 0,
            values: 0,
            ids: HashMap::new(),
        }
    }

    /// Adds an item to a merged list. An item with the id of one from a dependency replaces it
    /// (that is how a house rule changes a game); the same id twice within one mod is a mistake,
    /// reported at the second, and the first is kept.
    fn upsert<T>(
        &mut self,
        what: &'static str,
        list: &mut Vec<At<T>>,
        new: At<T>,
        id: impl Fn(&T) -> &Sp<String>,
    ) {
        let key = id(&new.item).get().clone();
        let index = self.ids.entry(what).or_default();
        if index.len() != list.len() {
            index.clear();
            for (i, a) in list.iter().enumerate() {
                index.entry(id(&a.item).get().clone()).or_insert(i);
            }
        }
        let found = index.get(&key).copied();
        if found.is_none() {
            index.insert(key.clone(), list.len());
        }
        match found.and_then(|i| list.get_mut(i)) {
            Some(slot) if slot.mod_id == new.mod_id => {
                let first = self
                    .files
                    .error(slot.file, id(&slot.item).span(), "")
                    .place();
                let d = self.files.error(
                    new.file,
                    id(&new.item).span(),
                    format!("{what} `{key}` is defined twice in this mod (first at {first})"),
                );
                self.diags.push(d);
            }
            Some(slot) => *slot = new,
            None => list.push(new),
        }
    }

    /// Applies a patch file (`f`) of mod `mod_id` to what the layers so far have merged.
    fn apply_patch(&mut self, f: usize, mod_id: &str, patch: RawPatch, merged: &mut Merged) {
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
            let Some(deck) = self.patched(f, "deck", &mut merged.decks, &dp.id, |d| &d.id) else {
                continue;
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
        for tp in patch.tables {
            let Some(table) = self.patched(f, "table", &mut merged.tables, &tp.id, |t| &t.id)
            else {
                continue;
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

    /// Reads a file; a missing file is reported at `from` (the place that named it).
    fn read(
        &mut self,
        src: &dyn ModSource,
        rel: &str,
        from: Option<(usize, std::ops::Range<usize>)>,
    ) -> Option<usize> {
        let report = |this: &mut Self, msg: String| {
            let d = match &from {
                Some((file, span)) => this.files.error(*file, span.clone(), msg),
                None => Diagnostic {
                    path: src.display(rel),
                    line: 0,
                    col: 0,
                    message: msg,
                },
            };
            this.diags.push(d);
        };
        if let Err(e) = check_rel_path(rel) {
            report(self, cut(&e, MAX_MESSAGE_CHARS).into_owned());
            return None;
        }
        // Each file is read once: naming it again (`a.toml`, `./a.toml`) would only read the
        // same items again, and a manifest naming one big file a million times must not read
        // it a million times.
        let normal: Vec<&str> = rel
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        let shown = src.display(&normal.join("/"));
        if self.named.len() >= MAX_FILES || self.bytes_read > MAX_TOTAL_BYTES {
            if !self.over_budget {
                self.over_budget = true;
                report(
                    self,
                    format!(
                        "the mod and its dependencies name more than {MAX_FILES} files or {} MiB of them; the rest are not read",
                        MAX_TOTAL_BYTES >> 20
                    ),
                );
            }
            return None;
        }
        // (A manifest may be read again: that is how a mod that depends on itself is found.)
        if !self.named.insert(shown) && rel != "mod.toml" {
            report(
                self,
                format!("`{rel}` is named twice; each file is read once, where it is first named"),
            );
            return None;
        }
        match src.read(rel) {
            Ok(text) if self.bytes_read + text.len() as u64 > MAX_TOTAL_BYTES => {
                self.bytes_read += text.len() as u64;
                self.over_budget = true;
                report(
                    self,
                    format!(
                        "cannot read `{rel}`: the mod and its dependencies have more than {} MiB of files",
                        MAX_TOTAL_BYTES >> 20
                    ),
                );
                None
            }
            Ok(text) => {
                self.bytes_read += text.len() as u64;
                self.files.hasher.update(rel.as_bytes());
                self.files.hasher.update(&[0]);
                self.files.hasher.update(text.as_bytes());
                self.files
                    .files
                    .push(SourceText::new(src.display(rel), text));
                Some(self.files.files.len() - 1)
            }
            Err(e) => {
                let why = if e.kind() == std::io::ErrorKind::NotFound {
                    "not found".to_string()
                } else {
                    e.to_string()
                };
                let hint = if e.kind() == std::io::ErrorKind::NotFound {
                    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
                    let listed = src.list(dir);
                    suggestion(rel, listed.iter().map(|s| s.as_str()))
                } else {
                    String::new()
                };
                report(self, format!("cannot read `{rel}`: {why}{hint}"));
                None
            }
        }
    }

    /// Parses a TOML file into a raw struct, turning every problem into a diagnostic: all
    /// syntax errors the parser recovers from, then each key serde refuses (the key is taken
    /// out and the file read again, so one misspelling does not hide the next).
    fn parse<T: DeserializeOwned>(&mut self, file: usize) -> Option<T> {
        if !self.within_budget(file) {
            return None;
        }
        let f = self.files.files.get(file)?;
        let (doc, syntax) = toml::de::DeTable::parse_recoverable(&f.text);
        if !syntax.is_empty() {
            // After one mistake the parser often trips again on the same line: one error per
            // line, preferring the one that names what was left open.
            let mut by_line: BTreeMap<usize, &toml::de::Error> = BTreeMap::new();
            for e in &syntax {
                let line = f.line_col(e.span().map_or(0, |s| s.start)).0;
                let slot = by_line.entry(line).or_insert(e);
                if !slot.message().starts_with("unclosed") && e.message().starts_with("unclosed") {
                    *slot = e;
                }
            }
            for e in by_line.values().take(MAX_ERRORS_PER_FILE) {
                let d = match (e.span(), e.message().trim()) {
                    // The parser gives no place for a key path too deep to read: the line is
                    // found here, so the error is not reported at the top of the file.
                    (None, "recursion limit") => f.error(
                        deep_key(&f.text).unwrap_or(0..0),
                        format!(
                            "a key nested too deeply: tables and dotted keys are read to {} levels",
                            MAX_KEY_DEPTH - 1
                        ),
                    ),
                    (span, m) => f.error(span.unwrap_or(0..0), m.to_string()),
                };
                self.diags.push(d);
            }
            return None;
        }
        // The usual case, a good file, is read once; the tree is only kept (parsed again) when
        // there are keys to take out.
        let mut e = match T::deserialize(toml::de::Deserializer::from(doc)) {
            Ok(v) => return Some(v),
            Err(e) => e,
        };
        let (mut doc, _) = toml::de::DeTable::parse_recoverable(&f.text);
        // Keys now known to be absent: taken out for being wrong, or meant by a misspelling.
        // Their "missing field" error is not news.
        let mut absent: Vec<String> = Vec::new();
        for _ in 0..MAX_ERRORS_PER_FILE {
            if absent
                .iter()
                .any(|k| e.message().starts_with(&format!("missing field `{k}`")))
            {
                return None;
            }
            let span = e.span().unwrap_or(0..0);
            let d = f.error(span.clone(), friendly_toml_error(e.message()));
            self.diags.push(d);
            // An error about a whole table (a missing key) names no key to take out.
            if span.is_empty() || e.message().starts_with("missing field") {
                return None;
            }
            absent.extend(meant_key(e.message()));
            absent.push(take_out(doc.get_mut(), span.start)?);
            e = match T::deserialize(toml::de::Deserializer::from(doc.clone())) {
                Ok(_) => return None,
                Err(e) => e,
            };
        }
        None
    }

    /// Counts a file's records and values with the TOML lexer alone (no tree is built, nothing
    /// is kept) and adds them to the load's; a file that would take the load past
    /// [`MAX_RECORDS`] or [`MAX_VALUES`] is refused, at the first record or value too many, and
    /// counts for nothing. A list that starts a line counts as a record: an overcount only a
    /// list of lists written one to a line makes.
    fn within_budget(&mut self, file: usize) -> bool {
        use toml_parser::lexer::TokenKind as K;
        let Some(f) = self.files.files.get(file) else {
            return false;
        };
        let (mut records, mut values) = (self.records, self.values);
        let mut line_start = true;
        for token in toml_parser::Source::new(&f.text).lex() {
            match token.kind() {
                K::Newline => {
                    line_start = true;
                    continue;
                }
                K::Whitespace | K::Comment => continue,
                K::LeftCurlyBracket => records += 1,
                K::LeftSquareBracket if line_start => records += 1,
                K::Equals | K::Comma => values += 1,
                _ => {}
            }
            line_start = false;
            let what = if records > MAX_RECORDS {
                format!(
                    "{MAX_RECORDS} records (tables: cards, rows, tiles, cells, spaces, edges...)"
                )
            } else if values > MAX_VALUES {
                format!("{MAX_VALUES} values")
            } else {
                continue;
            };
            let at = token.span().start();
            let d = f.error(
                at..at,
                format!(
                    "with this file the mod and its dependencies hold more than {what}, more than a game can use; the file is not read"
                ),
            );
            self.diags.push(d);
            return false;
        }
        (self.records, self.values) = (records, values);
        true
    }

    /// Reads a mod and, first, everything it depends on.
    pub fn read_mod(&mut self, src: &dyn ModSource, merged: &mut Merged) {
        let Some(mf) = self.read(src, "mod.toml", None) else {
            return;
        };
        let Some(manifest) = self.parse::<RawManifest>(mf) else {
            return;
        };
        for d in super::version::check(&self.files, mf, &manifest) {
            self.diags.push(d);
        }
        let id = manifest.id.get().clone();
        if self.loading.contains(&id) {
            let d = self.files.error(
                mf,
                manifest.id.span(),
                format!(
                    "mod `{id}` depends on itself (through {})",
                    self.loading.join(" -> ")
                ),
            );
            self.diags.push(d);
            return;
        }
        self.loading.push(id.clone());
        for dep in &manifest.depends {
            let dep_id = dep.id.get();
            match self.resolver.find(dep_id) {
                None => {
                    let d = self.files.error(
                        mf,
                        dep.id.span(),
                        format!("depends on mod `{dep_id}`, which is not installed"),
                    );
                    self.diags.push(d);
                }
                Some(dep_src) => {
                    // Each dependency is read once, even when it did not load (a broken mod
                    // at the foot of a diamond of dependencies would be read once per path).
                    if merged.layers.iter().any(|(l, _)| l == dep_id)
                        || !self.deps_seen.insert(dep_id.clone())
                    {
                        continue;
                    }
                    if self.deps_seen.len() >= MAX_LAYERS {
                        let d = self.files.error(
                            mf,
                            dep.id.span(),
                            format!(
                                "depends on mod `{dep_id}`, but one game may be built of at most {MAX_LAYERS} mods"
                            ),
                        );
                        self.diags.push(d);
                        continue;
                    }
                    let before = merged.layers.len();
                    self.read_mod(dep_src.as_ref(), merged);
                    // (A version that is not one, here or in the dependency's manifest, was
                    // reported with that manifest.)
                    if let Some((_, have)) = merged
                        .layers
                        .get(before..)
                        .and_then(|l| l.iter().find(|(l, _)| l == dep_id))
                        && version_numbers(dep.version.get()).is_some()
                        && version_numbers(have).is_some()
                        && !version_satisfies(have, dep.version.get())
                    {
                        let d = self.files.error(
                            mf,
                            dep.version.span(),
                            format!(
                                "needs `{dep_id}` version {}, but {have} is installed",
                                dep.version.get()
                            ),
                        );
                        self.diags.push(d);
                    }
                }
            }
        }
        self.loading.pop();
        self.read_layer(src, mf, manifest, merged);
    }

    fn read_layer(
        &mut self,
        src: &dyn ModSource,
        mf: usize,
        manifest: RawManifest,
        merged: &mut Merged,
    ) {
        let mod_id = manifest.id.get().clone();
        merged
            .layers
            .push((mod_id.clone(), manifest.version.get().clone()));
        let at = |file: usize| AtMaker {
            file,
            mod_id: &mod_id,
        };

        let c = &manifest.content;
        if let Some(b) = &c.board
            && let Some(f) = self.read(src, b.get(), Some((mf, b.span())))
            && let Some(board) = self.parse::<RawBoard>(f)
        {
            merged.board = Some(at(f).make(board));
        }
        for t in &c.tiles {
            if let Some(f) = self.read(src, t.get(), Some((mf, t.span())))
                && let Some(set) = self.parse::<RawTileSet>(f)
            {
                for tile in set.tiles {
                    self.upsert("tile", &mut merged.tiles, at(f).make(tile), |t| &t.id);
                }
            }
        }
        for d in &c.decks {
            if let Some(f) = self.read(src, d.get(), Some((mf, d.span())))
                && let Some(deck) = self.parse::<RawDeck>(f)
            {
                self.upsert("deck", &mut merged.decks, at(f).make(deck), |d| &d.id);
            }
        }
        for t in &c.tables {
            if let Some(f) = self.read(src, t.get(), Some((mf, t.span())))
                && let Some(table) = self.parse::<RawTable>(f)
            {
                self.upsert("table", &mut merged.tables, at(f).make(table), |t| &t.id);
            }
        }
        if let Some(p) = &c.pieces
            && let Some(f) = self.read(src, p.get(), Some((mf, p.span())))
            && let Some(pieces) = self.parse::<RawPieces>(f)
        {
            for x in pieces.pieces {
                self.upsert("piece", &mut merged.pieces, at(f).make(x), |p| &p.id);
            }
            for x in pieces.counters {
                self.upsert("counter", &mut merged.counters, at(f).make(x), |p| &p.id);
            }
            for x in pieces.zones {
                self.upsert("zone", &mut merged.zones, at(f).make(x), |p| &p.id);
            }
        }
        let mut manifest = manifest;
        for s in std::mem::take(&mut manifest.scripts) {
            if let Some(script) = self.read_script(src, &mod_id, mf, &s) {
                merged.scripts.push(script);
            }
        }
        for b in std::mem::take(&mut manifest.bots) {
            let script = self.read_script(src, &mod_id, mf, &b.script);
            merged.bots.push((at(mf).make(b), script));
        }
        for o in std::mem::take(&mut manifest.options) {
            self.upsert("option", &mut merged.options, at(mf).make(o), |o| &o.id);
        }
        merged
            .constants
            .extend(std::mem::take(&mut manifest.constants));
        for p in std::mem::take(&mut manifest.content.patches) {
            if let Some(f) = self.read(src, p.get(), Some((mf, p.span())))
                && let Some(patch) = self.parse::<RawPatch>(f)
            {
                self.apply_patch(f, &mod_id, patch, merged);
            }
        }
        if let Some(p) = manifest.players.take() {
            merged.players = Some(at(mf).make(p));
        }
        if !manifest.seat_names.is_empty() {
            merged.seat_names = std::mem::take(&mut manifest.seat_names);
        }
        // Layers are read dependencies first, so the last manifest stored is the mod's own.
        merged.manifest = Some(at(mf).make(manifest));
    }

    fn read_script(
        &mut self,
        src: &dyn ModSource,
        mod_id: &str,
        mf: usize,
        path: &Sp<String>,
    ) -> Option<RawScript> {
        let rel = path.get();
        if !rel.ends_with(".luau") && !rel.ends_with(".lua") {
            let d = self.files.error(
                mf,
                path.span(),
                format!("script `{rel}` should end in `.luau`"),
            );
            self.diags.push(d);
        }
        let file = self.read(src, rel, Some((mf, path.span())))?;
        let f = self.files.files.get(file)?;
        Some(RawScript {
            mod_id: mod_id.to_string(),
            path: rel.clone(),
            display: f.path.clone(),
            source: f.text.clone(),
            file: mf,
            span: path.span(),
        })
    }
}

/// The ticked names in serde's "unknown field `x`, expected one of `a`, `b`" (or "unknown
/// variant ..."): the wrong one and the expected ones.
fn unknown_name<'m>(msg: &'m str, prefix: &str) -> Option<(&'m str, Vec<&'m str>)> {
    let rest = msg.trim().strip_prefix(prefix)?;
    let ticks: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    let (wrong, expected) = ticks.split_first()?;
    Some((wrong, expected.to_vec()))
}

/// For an unknown key, the known key it is closest to (the one it was meant to be).
fn meant_key(msg: &str) -> Option<String> {
    let (wrong, expected) = unknown_name(msg, "unknown field")?;
    crate::diag::did_you_mean(wrong, expected).map(str::to_string)
}

/// The depth of key paths at which the TOML parser stops (its own limit).
const MAX_KEY_DEPTH: usize = 80;

/// Where the first key path of `text` that reaches [`MAX_KEY_DEPTH`] levels is: a table
/// header (`[a.b.c]`) or a dotted key (`a.b.c = 1`), counted with the header it is under.
/// Quoted parts are counted as one part; a line that is neither is skipped.
fn deep_key(text: &str) -> Option<std::ops::Range<usize>> {
    let parts = |path: &str| {
        let mut n = 1;
        let mut quote: Option<char> = None;
        for c in path.chars() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '.') => n += 1,
                _ => {}
            }
        }
        n
    };
    let mut header = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim();
        let depth = if let Some(h) = t.strip_prefix("[[").or_else(|| t.strip_prefix('[')) {
            header = parts(h.split(']').next().unwrap_or(""));
            header
        } else if let Some((key, _)) = t.split_once('=') {
            header + parts(key)
        } else {
            continue;
        };
        if depth >= MAX_KEY_DEPTH {
            return Some(start..start + line.trim_end().len());
        }
    }
    None
}

/// How many problems one file reports before the rest are left for the next run.
const MAX_ERRORS_PER_FILE: usize = 20;

/// Takes out of `table`, at any depth, the key whose name or value holds byte `at`, and
/// returns its name. (A table's own span is only its header, so tables are searched, not
/// matched.) Nothing is taken when no key holds `at`, as for an error about a whole table.
fn take_out(table: &mut toml::de::DeTable<'_>, at: usize) -> Option<String> {
    use toml::de::DeValue;
    let within = |r: std::ops::Range<usize>| r.contains(&at);
    let mut hit: Option<String> = None;
    for (k, v) in table.iter_mut() {
        let holds_tables = match v.get_ref() {
            DeValue::Table(_) => true,
            DeValue::Array(items) => {
                !items.is_empty()
                    && items
                        .iter()
                        .all(|i| matches!(i.get_ref(), DeValue::Table(_)))
            }
            _ => false,
        };
        if within(k.span()) || (!holds_tables && within(v.span())) {
            hit = Some(k.get_ref().to_string());
            break;
        }
        match v.get_mut() {
            DeValue::Table(t) => {
                if let Some(key) = take_out(t, at) {
                    return Some(key);
                }
            }
            DeValue::Array(items) => {
                for item in items.iter_mut() {
                    if let DeValue::Table(t) = item.get_mut()
                        && let Some(key) = take_out(t, at)
                    {
                        return Some(key);
                    }
                }
            }
            _ => {}
        }
    }
    let key = hit?;
    table.remove(key.as_str());
    Some(key)
}

/// Rewrites serde's messages into the words of a mod author, with "did you mean".
pub fn friendly_toml_error(msg: &str) -> String {
    let msg = msg.trim();
    for (prefix, what) in [("unknown field", "key"), ("unknown variant", "value")] {
        if let Some((wrong, expected)) = unknown_name(msg, prefix) {
            let hint = suggestion(wrong, expected.iter().copied());
            let list = if expected.is_empty() {
                "none are allowed here".to_string()
            } else {
                format!(
                    "expected one of {}",
                    expected
                        .iter()
                        .map(|e| format!("`{e}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return if hint.is_empty() {
                format!("unknown {what} `{wrong}`; {list}")
            } else {
                format!("unknown {what} `{wrong}`{hint}")
            };
        }
    }
    if let Some(rest) = msg.strip_prefix("missing field") {
        return format!("missing key{rest}");
    }
    let mut msg = msg.replace("invalid type: ", "wrong type: ");
    // Rust's type names mean nothing to a mod author.
    for (rust, plain) in [
        ("u8", "a whole number, 0 or more"),
        ("u16", "a whole number, 0 or more"),
        ("u32", "a whole number, 0 or more"),
        ("u64", "a whole number, 0 or more"),
        ("usize", "a whole number, 0 or more"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
    ] {
        if let Some(head) = msg.strip_suffix(&format!("expected {rust}")) {
            msg = format!("{head}expected {plain}");
            break;
        }
    }
    // A whole number past 64 bits reaches serde as a 128-bit one ("integer `N` as i128").
    for wide in ["` as i128", "` as u128"] {
        if let Some(at) = msg.find(wide)
            && let Some(start) = msg[..at].rfind("integer `")
        {
            let number = &msg[start + 9..at];
            let expected = msg[at + wide.len()..]
                .strip_prefix(", expected ")
                .filter(|e| !e.starts_with("any valid"))
                .map_or(String::new(), |e| format!("; expected {e}"));
            return format!(
                "the number {number} is out of range: whole numbers run from -9223372036854775808 to 9223372036854775807{expected}"
            );
        }
    }
    if msg.ends_with("number overflowed") {
        return "the number is too large".to_string();
    }
    msg.replace("invalid value: integer `", "wrong value: `")
        .replace("floating point `", "a number with a fraction `")
        .replace("expected a map", "expected a table")
        .replace("expected a sequence", "expected a list")
        .replace("wrong type: map,", "wrong type: a table,")
        .replace("wrong type: sequence,", "wrong type: a list,")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let m = friendly_toml_error("unknown field `coutn`, expected one of `id`, `count`, `name`");
        assert_eq!(m, "unknown key `coutn`; did you mean `count`?");
        let m = friendly_toml_error("unknown variant `gird`, expected one of `grid`, `graph`");
        assert_eq!(m, "unknown value `gird`; did you mean `grid`?");
    }
}
