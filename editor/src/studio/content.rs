//! The open mod's content being edited in the Studio: the editing model ([`edit::Editor`]),
//! the check of every edit by the engine on a background thread, saving (announced to the
//! watcher, so the Studio's own save does not reload the mod), and which problems of the
//! newest check belong to which card, row or space.
//!
//! Panels read [`Content`] and push [`Command::Edit`](super::Command::Edit); the app applies
//! the edit here and, when the check finds the content valid, makes it the live version (the
//! game in progress is rebased and the outcomes run again), as a reload does.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use farebox::{Diagnostic, GameDef};

use super::Why;
use super::reload::{ModPlace, Watcher};
use crate::edit::{Catalog, Edit, Editor};

/// A finished check of the edited content.
pub struct Checked {
    pub result: Result<Arc<GameDef>, farebox::Diagnostics>,
    /// The engine's load and validation alone.
    pub took: Duration,
    /// From the edit to the result.
    pub since_edit: Duration,
    /// What started it (an edit here, files changed on disk), for the status line.
    pub why: Why,
}

pub struct Content {
    pub editor: Editor,
    /// The content as the layers make it, after the edits so far.
    pub catalog: Catalog,
    /// For a house rule: its game's content, to tell what the house rule changed.
    pub base: Catalog,
    checking: Option<Receiver<Checked>>,
    /// An edit came while a check ran: check again when it ends (since when, and why).
    again: Option<(Instant, Why)>,
    /// Why the check under way was started.
    checking_why: Why,
    /// Problems the newest check found (empty: valid, or not checked yet).
    pub problems: Vec<Diagnostic>,
    /// The open mod's files as the newest check read them (the problems' lines are theirs),
    /// and as the check under way reads them.
    checked_texts: BTreeMap<String, String>,
    checking_texts: BTreeMap<String, String>,
    /// Why the last edit could not be made, or what the last save did.
    pub message: Option<String>,
    /// The last check's times, for the status line and the benchmark.
    pub last_check: Option<(Duration, Duration)>,
    /// Files on disk changed by someone else while they had unsaved edits here.
    pub conflicts: Vec<String>,
    /// The person chose to close without saving: the edits no longer hold the window open.
    discarded: bool,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Content {
    /// Opens the mod's files for editing.
    pub fn open(place: &ModPlace, ctx: &egui::Context) -> Result<Content, String> {
        let editor = Editor::open(&place.folder, &place.resolver).map_err(|e| e.to_string())?;
        let ctx = ctx.clone();
        Ok(Content {
            catalog: editor.catalog(),
            base: editor.base_catalog(),
            editor,
            checking: None,
            again: None,
            checking_why: Why::Edit,
            problems: Vec::new(),
            checked_texts: BTreeMap::new(),
            checking_texts: BTreeMap::new(),
            message: None,
            last_check: None,
            conflicts: Vec::new(),
            discarded: false,
            wake: Arc::new(move || ctx.request_repaint()),
        })
    }

    /// Applies one edit; a refused edit changes nothing and says why in `message`.
    pub fn apply(&mut self, edit: &Edit) {
        match self.editor.apply(edit) {
            Ok(files) if files.is_empty() => {}
            Ok(_) => {
                self.message = None;
                self.changed();
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Whether there are edits to save (and the person has not chosen to drop them).
    pub fn unsaved(&self) -> bool {
        !self.discarded && self.editor.is_dirty()
    }

    /// The edits will not be saved: closing goes ahead.
    pub fn discard(&mut self) {
        self.discarded = true;
    }

    pub fn undo(&mut self) {
        if self.editor.undo().is_some() {
            self.changed();
        }
    }

    /// Goes back or forward to where the history stood after its first `k` steps (0: before
    /// every step kept), by undoing or redoing one step at a time; checked once.
    pub fn undo_to(&mut self, k: usize) {
        let (done, undone) = {
            let (d, u) = self.editor.history().steps();
            (d.len(), u.len())
        };
        let mut changed = false;
        if k < done {
            for _ in k..done {
                changed |= self.editor.undo().is_some();
            }
        } else {
            for _ in done..k.min(done + undone) {
                changed |= self.editor.redo().is_some();
            }
        }
        if changed {
            self.changed();
        }
    }

    pub fn redo(&mut self) {
        if self.editor.redo().is_some() {
            self.changed();
        }
    }

    /// The content changed: the catalog is rebuilt and the engine checks it.
    fn changed(&mut self) {
        self.changed_by(Why::Edit);
    }

    fn changed_by(&mut self, why: Why) {
        self.catalog = self.editor.catalog();
        self.check(Instant::now(), why);
    }

    /// Checks the edited content on a thread; one check at a time, the newest edits last.
    /// A check asked for while one runs is made when it ends, for every reason asked since
    /// (files changed on disk win over an edit here, for the status line).
    pub fn check(&mut self, since: Instant, why: Why) {
        if self.checking.is_some() {
            self.again = Some(match self.again.take() {
                None => (since, why),
                Some((first, old)) => (first, old.and(why)),
            });
            return;
        }
        self.checking_why = why.clone();
        let (own, mods) = self.editor.docs().mem_mods();
        self.checking_texts = own.files.clone();
        let (tx, rx) = channel();
        let wake = self.wake.clone();
        let _ = std::thread::Builder::new()
            .name("farebox-check".into())
            .spawn(move || {
                let t = Instant::now();
                let result = super::reload::check(&own, &mods);
                let took = t.elapsed();
                let _ = tx.send(Checked {
                    result,
                    took,
                    since_edit: since.elapsed(),
                    why,
                });
                wake();
            });
        self.checking = Some(rx);
    }

    /// Whether a check is under way.
    pub fn checking(&self) -> bool {
        self.checking.is_some()
    }

    /// A check that finished, if any (then the next one starts when edits came meanwhile).
    pub fn poll(&mut self) -> Option<Checked> {
        let done = self.checking.as_ref()?.try_recv().ok()?;
        self.checking = None;
        self.checked_texts = std::mem::take(&mut self.checking_texts);
        if let Some((since, why)) = self.again.take() {
            self.check(since, why);
        }
        self.problems = match &done.result {
            Ok(_) => Vec::new(),
            Err(d) => d.0.clone(),
        };
        self.last_check = Some((done.took, done.since_edit));
        Some(done)
    }

    /// Saves every changed file, each atomically; the watcher is told first what the
    /// Studio writes, so its own save is not taken for someone else's change.
    pub fn save(&mut self, watcher: Option<&Watcher>) {
        let layer = self.editor.docs().open_mod();
        let folder = layer.folder.clone();
        if let Some(w) = watcher {
            for rel in self.editor.docs().dirty_files() {
                if let Some(f) = layer.file(&rel) {
                    w.expect(&folder.join(&rel), f.text().as_bytes());
                }
            }
        }
        self.message = Some(match self.editor.save() {
            Ok(r) if r.written.is_empty() => "Nothing to save.".to_string(),
            Ok(r) => format!("Saved {}.", names(&r.written)),
            Err(e) => format!("{e} (saved before it: {})", names(&e.written)),
        });
    }

    /// Someone else changed files of the mod: files without unsaved edits are read again
    /// (and the content checked); files that also have unsaved edits here are conflicts,
    /// for the person to settle. Whether anything was read again.
    /// `why` is what the check reports as its cause.
    pub fn disk_changed(&mut self, why: Why) -> bool {
        let (reloaded, conflicts) = self.editor.refresh();
        for c in conflicts {
            if !self.conflicts.contains(&c) {
                self.conflicts.push(c);
            }
        }
        if !reloaded.is_empty() {
            self.changed_by(why);
        }
        !reloaded.is_empty()
    }

    /// Settles a conflict: keep the edits made here (the next save overwrites the disk), or
    /// take the file as it is on disk (the edits made here to it are dropped).
    pub fn settle(&mut self, rel: &str, keep_mine: bool) {
        self.conflicts.retain(|c| c != rel);
        if !keep_mine {
            match self.editor.revert_file(rel) {
                Ok(()) => self.changed(),
                Err(e) => self.message = Some(e.to_string()),
            }
        }
    }

    /// The problems of the newest check that point into `rel` (a file of the open mod) at
    /// the record whose `id` (or key value) is `id`, read in the text that check read.
    pub fn problems_of(&self, rel: &str, key: &str, id: &str) -> Vec<&Diagnostic> {
        let Some(text) = self.checked_texts.get(rel) else {
            return Vec::new();
        };
        self.problems
            .iter()
            .filter(|d| d.line > 0 && same_file(&d.path, rel))
            .filter(|d| record_key_at(text, d.line, key).as_deref() == Some(id))
            .collect()
    }

    /// File `rel` of the open mod as the newest check read it (the problems' lines are its).
    pub fn checked_text(&self, rel: &str) -> Option<&str> {
        self.checked_texts.get(rel).map(String::as_str)
    }

    /// The problems of the newest check in file `rel` of the open mod.
    pub fn problems_in(&self, rel: &str) -> Vec<&Diagnostic> {
        self.problems
            .iter()
            .filter(|d| same_file(&d.path, rel))
            .collect()
    }
}

/// Whether a diagnostic's path (`folder/rel` as the mod was opened) names `rel`.
fn same_file(path: &str, rel: &str) -> bool {
    path == rel || path.ends_with(&format!("/{rel}"))
}

fn names(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "nothing".into();
    }
    paths
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The value of `key` (e.g. `id`) of the record that line `line` (1-based) of a TOML text
/// belongs to: an inline `{ ... }` record on that line, or the `[[...]]` table around it.
pub fn record_key_at(text: &str, line: usize, key: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = line.checked_sub(1)?;
    let here = *lines.get(at)?;
    if let Some(v) = key_in(here, key)
        && here.contains('{')
    {
        return Some(v);
    }
    // The table header at or above the line, then the key's line below it (before the
    // next header).
    let start = (0..=at)
        .rev()
        .find(|&i| lines[i].trim_start().starts_with("[["))?;
    lines[start + 1..]
        .iter()
        .take_while(|l| !l.trim_start().starts_with('['))
        .find_map(|l| {
            let t = l.trim_start();
            t.starts_with(key).then(|| key_in(t, key)).flatten()
        })
}

/// The value of `key = value` in a line (a string without its quotes, else the raw value).
fn key_in(line: &str, key: &str) -> Option<String> {
    let mut rest = line;
    loop {
        let i = rest.find(key)?;
        let before = rest[..i].chars().last();
        let after = rest[i + key.len()..].trim_start();
        rest = &rest[i + key.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let Some(v) = after.strip_prefix('=') else {
            continue;
        };
        let v = v.trim_start();
        if let Some(s) = v.strip_prefix('"') {
            return s.find('"').map(|e| s[..e].to_string());
        }
        let end = v
            .find(|c: char| c == ',' || c == '}' || c == '#' || c.is_whitespace())
            .unwrap_or(v.len());
        return Some(v[..end].to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_belongs_to_its_record() {
        let text =
            "# deck\n[[cards]]\nid = \"a\"\nname = \"A\"\n\n[[cards]]\nid = \"b\"\ncount = x\n";
        assert_eq!(record_key_at(text, 4, "id").as_deref(), Some("a"));
        assert_eq!(record_key_at(text, 8, "id").as_deref(), Some("b"));
        assert_eq!(record_key_at(text, 1, "id"), None);
        let inline = "rows = [\n  { size = 2, stars = 3 },\n  { size = 3, stars = 4 },\n]\n";
        assert_eq!(record_key_at(inline, 3, "size").as_deref(), Some("3"));
        // A key whose name ends another key's is not mistaken for it.
        assert_eq!(
            key_in("{ grid = 1, id = \"x\" }", "id").as_deref(),
            Some("x")
        );
    }
}
