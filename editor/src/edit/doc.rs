//! The documents of an open mod: every TOML file of the mod (and, read-only, of each mod it
//! depends on) as a `toml_edit` document with the text it was read from. Saving writes back
//! only what changed, atomically; the engine can load the unsaved documents from memory.

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use farebox::content::{self, GameDef};
use farebox::diag::Diagnostics;
use farebox::source::{
    FolderResolver, FsSource, MAX_FILE_BYTES, MemMods, MemSource, ModSource, read_bounded,
    write_in_mod,
};
use toml_edit::DocumentMut;

use super::EditError;

/// How many TOML files one mod may have opened for editing.
const MAX_TOML_FILES: usize = 2_000;
/// How deep the folders of a mod are searched for TOML files.
const MAX_DEPTH: usize = 8;
/// How many mods one open mod may be built of (itself and its dependencies).
const MAX_LAYERS: usize = 32;

/// One TOML file of a mod.
#[derive(Clone)]
pub struct FileDoc {
    /// The text on disk when it was read or last saved; `None` for a file not written yet.
    pub(crate) disk: Option<String>,
    /// The document, or why the text is not TOML (such a file is shown, not edited).
    pub(crate) doc: Result<DocumentMut, String>,
    /// Whether the document differs from `disk`.
    pub(crate) dirty: bool,
}

impl FileDoc {
    fn read(text: String) -> FileDoc {
        let doc = text.parse::<DocumentMut>().map_err(|e| e.to_string());
        FileDoc {
            disk: Some(text),
            doc,
            dirty: false,
        }
    }

    /// A file made by an edit (not on disk yet).
    pub(crate) fn new_file(doc: DocumentMut) -> FileDoc {
        FileDoc {
            disk: None,
            doc: Ok(doc),
            dirty: true,
        }
    }

    /// The text the file has now: the document written out, or the text that did not parse.
    pub fn text(&self) -> String {
        match &self.doc {
            Ok(d) => d.to_string(),
            Err(_) => self.disk.clone().unwrap_or_default(),
        }
    }

    /// The document (None when the file is not valid TOML).
    pub fn doc(&self) -> Option<&DocumentMut> {
        self.doc.as_ref().ok()
    }

    /// Why the file could not be read as TOML, if it could not.
    pub fn parse_error(&self) -> Option<&str> {
        self.doc.as_ref().err().map(String::as_str)
    }

    /// Whether the file has changes not saved yet.
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Works out `dirty` again after the document changed.
    pub(crate) fn recheck(&mut self) {
        self.dirty = match (&self.disk, &self.doc) {
            (Some(disk), Ok(d)) => d.to_string() != *disk,
            (None, _) => true,
            (Some(_), Err(_)) => false,
        };
    }
}

/// One mod of the open set: the open mod itself, or one it depends on.
#[derive(Clone)]
pub struct Layer {
    /// The mod's id (from its `mod.toml`).
    pub id: String,
    /// Its folder, as it was found.
    pub folder: PathBuf,
    /// Only the open mod is edited; the mods it depends on are read-only.
    pub editable: bool,
    /// Every TOML file, by path relative to the folder (with `/`).
    pub(crate) files: BTreeMap<String, FileDoc>,
}

impl Layer {
    /// The file at `rel`, if the mod has it.
    pub fn file(&self, rel: &str) -> Option<&FileDoc> {
        self.files.get(rel)
    }

    /// Paths (relative to the folder) of every TOML file.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The document at `rel`, if it is there and is TOML.
    pub(crate) fn doc(&self, rel: &str) -> Option<&DocumentMut> {
        self.files.get(rel).and_then(FileDoc::doc)
    }

    /// The manifest's `[content]` lists: (kind, paths). Kinds: board, tiles, decks, tables,
    /// pieces, patches.
    pub(crate) fn content(&self, kind: &str) -> Vec<String> {
        let Some(c) = self
            .doc("mod.toml")
            .and_then(|d| d.get("content"))
            .and_then(|c| c.as_table_like())
        else {
            return vec![];
        };
        match c.get(kind) {
            Some(i) if i.is_str() => i.as_str().map(normal).into_iter().collect(),
            Some(i) => i
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).map(normal).collect())
                .unwrap_or_default(),
            None => vec![],
        }
    }

    /// The ids this mod's manifest depends on.
    fn depends(&self) -> Vec<String> {
        let Some(list) = self
            .doc("mod.toml")
            .and_then(|d| d.get("depends"))
            .and_then(|d| d.as_array())
        else {
            return vec![];
        };
        list.iter()
            .filter_map(|v| v.as_inline_table())
            .filter_map(|t| t.get("id").and_then(|i| i.as_str()))
            .map(str::to_string)
            .collect()
    }

    /// Scripts the manifest names (rules and bots): they are read from disk for validation.
    fn scripts(&self) -> Vec<String> {
        let Some(d) = self.doc("mod.toml") else {
            return vec![];
        };
        let mut out: Vec<String> = d
            .get("scripts")
            .and_then(|s| s.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_str()).map(normal).collect())
            .unwrap_or_default();
        if let Some(bots) = d.get("bots").and_then(|b| b.as_array_of_tables()) {
            out.extend(
                bots.iter()
                    .filter_map(|b| b.get("script").and_then(|s| s.as_str()))
                    .map(normal),
            );
        }
        out
    }
}

/// A path as the manifest writes it, as the key of [`Layer::files`].
fn normal(rel: &str) -> String {
    rel.split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// The documents of an open mod and of every mod it depends on.
#[derive(Clone)]
pub struct Docs {
    /// Dependencies first, in the engine's load order; the open mod last.
    pub(crate) layers: Vec<Layer>,
}

/// What [`Docs::save`] wrote.
#[derive(Debug, Default)]
pub struct SaveReport {
    /// Every file written, as `folder/rel` with the folder as the mod was opened (what a
    /// watcher on that folder reports), in the order written.
    pub written: Vec<PathBuf>,
}

/// A save that stopped at a file it could not write; the files before it were written.
#[derive(Debug)]
pub struct SaveError {
    pub written: Vec<PathBuf>,
    pub path: PathBuf,
    pub error: io::Error,
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot save {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for SaveError {}

impl Docs {
    /// Opens the mod in `folder` and, read-only, every mod it depends on (found by `resolver`,
    /// dependencies first as the engine loads them).
    pub fn open(folder: &Path, resolver: &FolderResolver) -> Result<Docs, EditError> {
        let mut layers = vec![];
        let mut seen = HashSet::new();
        let mut loading = vec![];
        Self::open_layer(folder, resolver, &mut layers, &mut seen, &mut loading)?;
        if let Some(last) = layers.last_mut() {
            last.editable = true;
        }
        Ok(Docs { layers })
    }

    fn open_layer(
        folder: &Path,
        resolver: &FolderResolver,
        layers: &mut Vec<Layer>,
        seen: &mut HashSet<String>,
        loading: &mut Vec<String>,
    ) -> Result<(), EditError> {
        let mut layer = read_layer(folder)?;
        if loading.contains(&layer.id) || loading.len() >= MAX_LAYERS {
            return Err(EditError::new(format!(
                "mod `{}` depends on itself (through {})",
                layer.id,
                loading.join(" -> ")
            )));
        }
        loading.push(layer.id.clone());
        for dep in layer.depends() {
            if !seen.insert(dep.clone()) {
                continue;
            }
            // A dependency that is not installed is the engine's to report.
            if let Some(f) = resolver.folder(&dep) {
                Self::open_layer(&f, resolver, layers, seen, loading)?;
            }
        }
        loading.pop();
        layer.editable = false;
        layers.push(layer);
        Ok(())
    }

    /// Every layer, dependencies first; the open mod is the last.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The open mod.
    pub fn open_mod(&self) -> &Layer {
        // `open` never makes an empty list.
        &self.layers[self.layers.len() - 1]
    }

    pub(crate) fn open_mod_mut(&mut self) -> &mut Layer {
        let n = self.layers.len() - 1;
        &mut self.layers[n]
    }

    /// The mods below the open one (a house rule's game), dependencies first.
    pub fn base_layers(&self) -> &[Layer] {
        &self.layers[..self.layers.len() - 1]
    }

    /// Whether the open mod is a house rule: it depends on another mod.
    pub fn is_house_rule(&self) -> bool {
        self.layers.len() > 1
    }

    /// Whether any file of the open mod has unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.open_mod().files.values().any(|f| f.dirty)
    }

    /// The open mod's files with unsaved changes (relative paths).
    pub fn dirty_files(&self) -> Vec<String> {
        self.open_mod()
            .files
            .iter()
            .filter(|(_, f)| f.dirty)
            .map(|(r, _)| r.clone())
            .collect()
    }

    /// Writes every changed file of the open mod, each atomically (a temporary file in the
    /// same folder, synced, then renamed over the original). Files whose text is what is on
    /// disk are not written.
    pub fn save(&mut self) -> Result<SaveReport, SaveError> {
        let layer = self.open_mod_mut();
        let folder = layer.folder.clone();
        let mut report = SaveReport::default();
        for (rel, f) in layer.files.iter_mut() {
            if !f.dirty {
                continue;
            }
            let text = f.text();
            if f.disk.as_deref() == Some(text.as_str()) {
                f.dirty = false;
                continue;
            }
            match write_in_mod(&folder, rel, &text) {
                Ok(_) => {
                    f.disk = Some(text);
                    f.dirty = false;
                    report.written.push(folder.join(rel));
                }
                Err(error) => {
                    return Err(SaveError {
                        written: report.written,
                        path: folder.join(rel),
                        error,
                    });
                }
            }
        }
        Ok(report)
    }

    /// The mods as the engine would read them with the edits made so far: the open mod and
    /// every dependency in memory, TOML from the documents (saved or not), scripts from disk.
    /// Diagnostics name files as `folder/rel`, as they would after a save.
    pub fn mem_mods(&self) -> (MemSource, MemMods) {
        let mut mods = MemMods::default();
        let mut own = MemSource::default();
        for (i, layer) in self.layers.iter().enumerate() {
            let mut src = MemSource::new(layer.folder.display().to_string());
            for (rel, f) in &layer.files {
                src.files.insert(rel.clone(), f.text());
            }
            let disk = FsSource::new(&layer.folder);
            for rel in layer.scripts() {
                if !src.files.contains_key(&rel)
                    && let Ok(text) = disk.read(&rel)
                {
                    src.files.insert(rel, text);
                }
            }
            if i + 1 == self.layers.len() {
                own = src;
            } else {
                mods.0.insert(layer.id.clone(), src);
            }
        }
        (own, mods)
    }

    /// Loads and checks the edited content as the engine would after a save: the game
    /// definition, or every diagnostic (with file, line and column).
    pub fn validate(&self) -> Result<GameDef, Diagnostics> {
        let (own, mods) = self.mem_mods();
        content::load_mod(&own, &mods)
    }

    /// Drops the unsaved edits of one file of the open mod: it is read again from disk (a
    /// file made by an edit and never saved goes).
    pub fn revert_file(&mut self, rel: &str) -> Result<(), EditError> {
        let layer = self.open_mod_mut();
        let path = layer.folder.join(rel);
        if !layer.files.contains_key(rel) {
            return Err(EditError::new(format!("the mod has no file `{rel}`")));
        }
        match read_bounded(&path, MAX_FILE_BYTES) {
            Ok(text) => {
                layer.files.insert(rel.to_string(), FileDoc::read(text));
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                layer.files.remove(rel);
                Ok(())
            }
            Err(e) => Err(EditError::new(format!(
                "cannot read {}: {e}",
                path.display()
            ))),
        }
    }

    /// Reads again the files of the open mod that changed on disk and have no unsaved edits
    /// (another editor saved them), and files that appeared. Returns the paths reloaded and
    /// those changed on disk that also have unsaved edits here (left as they are).
    pub fn refresh(&mut self) -> (Vec<String>, Vec<String>) {
        let layer = self.open_mod_mut();
        let mut reloaded = vec![];
        let mut conflicts = vec![];
        let found = toml_files(&layer.folder);
        for rel in found {
            let Ok(text) = read_bounded(&layer.folder.join(&rel), MAX_FILE_BYTES) else {
                continue;
            };
            match layer.files.get(&rel) {
                Some(f) if f.disk.as_deref() == Some(text.as_str()) => {}
                Some(f) if f.dirty => conflicts.push(rel),
                _ => {
                    layer.files.insert(rel.clone(), FileDoc::read(text));
                    reloaded.push(rel);
                }
            }
        }
        (reloaded, conflicts)
    }
}

/// Reads one mod folder: its manifest (to learn its id) and every TOML file in it.
fn read_layer(folder: &Path) -> Result<Layer, EditError> {
    let mut files = BTreeMap::new();
    for rel in toml_files(folder) {
        match read_bounded(&folder.join(&rel), MAX_FILE_BYTES) {
            Ok(text) => {
                files.insert(rel, FileDoc::read(text));
            }
            Err(e) if rel == "mod.toml" => {
                return Err(EditError::new(format!(
                    "cannot read {}: {e}",
                    folder.join(&rel).display()
                )));
            }
            Err(_) => {}
        }
    }
    let id = files
        .get("mod.toml")
        .and_then(FileDoc::doc)
        .and_then(|d| d.get("id"))
        .and_then(|i| i.as_str())
        .map(str::to_string)
        .ok_or_else(|| {
            EditError::new(format!(
                "{} has no readable mod.toml with an `id`",
                folder.display()
            ))
        })?;
    Ok(Layer {
        id,
        folder: folder.to_path_buf(),
        editable: false,
        files,
    })
}

/// Every `.toml` file under `folder` (regular files only; hidden files and folders, links and
/// temporary files left out), as sorted relative paths.
fn toml_files(folder: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut stack = vec![(folder.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, rel, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            if out.len() >= MAX_TOML_FILES {
                break;
            }
            let name = e.file_name().to_string_lossy().to_string();
            if name.starts_with('.') {
                continue;
            }
            let Ok(t) = e.file_type() else { continue };
            let r = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if t.is_dir() && depth < MAX_DEPTH {
                stack.push((e.path(), r, depth + 1));
            } else if t.is_file() && name.ends_with(".toml") {
                out.push(r);
            }
        }
    }
    out.sort();
    out
}
