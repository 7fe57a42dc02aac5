//! Undo and redo. An edit is recorded as the documents it changed, before and after, so undo
//! and redo give back the exact text of every file; consecutive edits of one target (typing
//! into one field, dragging one space) merge into one step, and a group (a paint stroke, a
//! drag) is one step whatever it holds.

use std::collections::BTreeMap;

use toml_edit::DocumentMut;

use super::EditError;
use super::doc::{FileDoc, Layer};

/// One file's part of a step: its document before and after (`None`: no such file).
#[derive(Clone)]
pub(crate) struct FileChange {
    pub rel: String,
    pub before: Option<DocumentMut>,
    pub after: Option<DocumentMut>,
}

/// Changes to the open mod's documents, recorded while an edit runs so that it can be
/// rolled back when it fails and undone later.
pub(crate) struct Tx<'a> {
    pub layer: &'a mut Layer,
    before: BTreeMap<String, Option<DocumentMut>>,
}

impl<'a> Tx<'a> {
    pub fn new(layer: &'a mut Layer) -> Tx<'a> {
        Tx {
            layer,
            before: BTreeMap::new(),
        }
    }

    /// A document of the open mod to read.
    pub fn doc(&self, rel: &str) -> Option<&DocumentMut> {
        self.layer.doc(rel)
    }

    /// A document of the open mod to change (its state before is kept).
    pub fn doc_mut(&mut self, rel: &str) -> Result<&mut DocumentMut, EditError> {
        let f = self
            .layer
            .files
            .get_mut(rel)
            .ok_or_else(|| EditError::new(format!("the mod has no file `{rel}`")))?;
        match &mut f.doc {
            Ok(d) => {
                if !self.before.contains_key(rel) {
                    self.before.insert(rel.to_string(), Some(d.clone()));
                }
                Ok(d)
            }
            Err(e) => Err(EditError::new(format!(
                "`{rel}` is not valid TOML ({}); fix it in the file first",
                e.trim()
            ))),
        }
    }

    /// Makes a new file of the open mod (written at the next save).
    pub fn create(&mut self, rel: &str, doc: DocumentMut) -> Result<(), EditError> {
        if self.layer.files.contains_key(rel) {
            return Err(EditError::new(format!("`{rel}` exists already")));
        }
        self.before.entry(rel.to_string()).or_insert(None);
        self.layer
            .files
            .insert(rel.to_string(), FileDoc::new_file(doc));
        Ok(())
    }

    /// The changes made, each file's text compared with before (files left as they were
    /// drop out).
    pub fn finish(self) -> Vec<FileChange> {
        let mut out = vec![];
        for (rel, before) in self.before {
            let after = self.layer.doc(&rel).cloned();
            if let Some(f) = self.layer.files.get_mut(&rel) {
                f.recheck();
            }
            if !same_text(before.as_ref(), after.as_ref()) {
                out.push(FileChange { rel, before, after });
            }
        }
        out
    }

    /// Puts every document back as it was before the transaction.
    pub fn rollback(self) {
        for (rel, before) in self.before {
            restore(self.layer, &rel, before.as_ref());
        }
    }
}

fn same_text(a: Option<&DocumentMut>, b: Option<&DocumentMut>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.to_string() == b.to_string(),
        _ => false,
    }
}

/// Sets the document at `rel` (None: the file goes, unless it is on disk already).
pub(crate) fn restore(layer: &mut Layer, rel: &str, doc: Option<&DocumentMut>) {
    match doc {
        Some(d) => match layer.files.get_mut(rel) {
            Some(f) => {
                f.doc = Ok(d.clone());
                f.recheck();
            }
            None => {
                layer
                    .files
                    .insert(rel.to_string(), FileDoc::new_file(d.clone()));
            }
        },
        None => {
            layer.files.remove(rel);
        }
    }
}

/// One undoable step.
pub(crate) struct Step {
    pub label: String,
    /// What consecutive edits must share to merge into this step (None: they never do).
    pub merge: Option<String>,
    pub files: Vec<FileChange>,
}

impl Step {
    /// Adds a later change of the same step: a file keeps its first `before`.
    fn absorb(&mut self, files: Vec<FileChange>) {
        for c in files {
            match self.files.iter_mut().find(|f| f.rel == c.rel) {
                Some(f) => f.after = c.after,
                None => self.files.push(c),
            }
        }
        self.files
            .retain(|f| !same_text(f.before.as_ref(), f.after.as_ref()));
    }
}

/// The undo and redo stacks.
#[derive(Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The group being recorded, and how deep `begin_group` calls nest.
    group: Option<Step>,
    depth: usize,
    /// Whether the top step may take more edits of its target.
    open: bool,
}

/// How many steps are kept.
const MAX_STEPS: usize = 500;

impl History {
    /// Records an edit's changes.
    pub(crate) fn record(&mut self, label: String, merge: Option<String>, files: Vec<FileChange>) {
        if files.is_empty() {
            return;
        }
        self.redo.clear();
        if let Some(g) = &mut self.group {
            g.absorb(files);
            return;
        }
        if self.open
            && merge.is_some()
            && let Some(top) = self.undo.last_mut()
            && top.merge == merge
        {
            top.absorb(files);
            if top.files.is_empty() {
                self.undo.pop();
            }
            return;
        }
        self.undo.push(Step {
            label,
            merge,
            files,
        });
        self.open = true;
        if self.undo.len() > MAX_STEPS {
            self.undo.remove(0);
        }
    }

    /// Starts a group: every edit until the matching [`History::end_group`] is one step.
    pub fn begin_group(&mut self, label: &str) {
        if self.depth == 0 {
            self.group = Some(Step {
                label: label.to_string(),
                merge: None,
                files: vec![],
            });
        }
        self.depth += 1;
    }

    /// Ends a group; the outermost end records it as one step.
    pub fn end_group(&mut self) {
        if self.depth == 0 {
            return;
        }
        self.depth -= 1;
        if self.depth > 0 {
            return;
        }
        if let Some(g) = self.group.take()
            && !g.files.is_empty()
        {
            self.undo.push(g);
            if self.undo.len() > MAX_STEPS {
                self.undo.remove(0);
            }
        }
        self.open = false;
    }

    /// Whether a group is being recorded.
    pub fn in_group(&self) -> bool {
        self.depth > 0
    }

    /// Ends merging: the next edit starts a step of its own even if it has the same target.
    pub fn seal(&mut self) {
        self.open = false;
    }

    /// Every step's label: those made, oldest first, and those undone, in the order redo
    /// would make them again.
    pub fn steps(&self) -> (Vec<&str>, Vec<&str>) {
        (
            self.undo.iter().map(|s| s.label.as_str()).collect(),
            self.redo.iter().rev().map(|s| s.label.as_str()).collect(),
        )
    }

    /// Label of the step undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// Label of the step redo would make again.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.group.as_ref().is_some_and(|g| !g.files.is_empty())
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last step; returns the files it touched.
    pub(crate) fn undo(&mut self, layer: &mut Layer) -> Option<Vec<String>> {
        // An unfinished group is closed first, so it is undone whole.
        while self.depth > 0 {
            self.end_group();
        }
        let step = self.undo.pop()?;
        for f in step.files.iter().rev() {
            restore(layer, &f.rel, f.before.as_ref());
        }
        let touched = step.files.iter().map(|f| f.rel.clone()).collect();
        self.redo.push(step);
        self.open = false;
        Some(touched)
    }

    /// Makes the last undone step again; returns the files it touched.
    pub(crate) fn redo(&mut self, layer: &mut Layer) -> Option<Vec<String>> {
        while self.depth > 0 {
            self.end_group();
        }
        let step = self.redo.pop()?;
        for f in &step.files {
            restore(layer, &f.rel, f.after.as_ref());
        }
        let touched = step.files.iter().map(|f| f.rel.clone()).collect();
        self.undo.push(step);
        self.open = false;
        Some(touched)
    }

    /// Forgets every step (after the files were read again from disk).
    pub fn clear(&mut self) {
        *self = History::default();
    }
}
