//! Loading: files -> raw structs -> one resolved [`GameDef`].
//!
//! A mod and its dependencies are read as *layers* (dependencies first, then the mod). Each
//! layer's files are parsed into raw structs; items with the same id in a later layer replace
//! the earlier ones; then [`super::resolve`] checks the merged content and builds the
//! definition. Problems are collected, never thrown: the caller gets every diagnostic at once.
//!
//! This file reads the layers and merges their items; `parse.rs` turns one file into a raw
//! struct and `patch.rs` applies a layer's patch files.

mod parse;
mod patch;

use std::collections::{BTreeMap, HashMap, HashSet};

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
pub use parse::friendly_toml_error;

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
    /// The print layout of the last layer that names one.
    pub print: Option<crate::content::def::PrintSource>,
    /// `[search] playouts` and `root` of the last layer that gives each.
    pub search_playouts: Option<At<Sp<u32>>>,
    pub search_root: Option<At<Sp<String>>>,
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
        if let Some(p) = &c.print
            && let Some(f) = self.read(src, p.get(), Some((mf, p.span())))
            && let Some(file) = self.files.files.get(f)
        {
            merged.print = Some(crate::content::def::PrintSource {
                path: file.path.clone(),
                text: file.text.clone(),
            });
        }
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
        if let Some(s) = manifest.search.take() {
            if let Some(p) = s.playouts {
                merged.search_playouts = Some(at(mf).make(p));
            }
            if let Some(r) = s.root {
                merged.search_root = Some(at(mf).make(r));
            }
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

/// How many problems one file reports before the rest are left for the next run.
const MAX_ERRORS_PER_FILE: usize = 20;
