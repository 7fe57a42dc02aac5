//! The Studio's editing model, without any user interface: the open mod's TOML files as
//! `toml_edit` documents, typed edits of every kind of content, undo and redo, validation of
//! unsaved edits by the engine, house-rule patches and where each item comes from.
//!
//! - [`Docs`] ([`doc`]): every TOML file of the open mod and, read-only, of the mods it
//!   depends on. Saving writes only the files that changed, each atomically, and reports
//!   them; [`Docs::validate`] loads the unsaved documents from memory.
//! - [`Edit`] ([`ops`]): one change of content (a grid cell, a space, an edge, a section, a
//!   track piece, a card, a row, a tile, an option, a constant).
//! - [`History`] ([`history`]): undo and redo; groups and merged edits.
//! - [`Catalog`] ([`patch`]): content as the layers make it, with each item's [`Origin`].
//!
//! [`Editor`] puts them together; it is what the Studio's content panels hold.
//!
//! In a house rule, an edit of content that comes from its game lands in the house rule:
//! cards and rows in its patch file, tiles and options as replacements by id in its own
//! files, constants in its `[constants]`, the board as its own copy; the game's files are
//! never written. Bringing such an item back to the game's value takes the entry out again.

pub mod doc;
pub mod history;
pub mod ops;
pub mod patch;
mod tree;

#[cfg(test)]
mod tests;

use std::path::Path;
use std::sync::Arc;

use farebox::GameDef;
use farebox::diag::Diagnostics;
use farebox::script::{HookPart, Host, Limits, ScriptError};
use farebox::source::FolderResolver;

pub use doc::{Docs, FileDoc, Layer, SaveError, SaveReport};
pub use history::History;
pub use ops::{
    CellRecord, EdgeChange, EdgeData, Edit, Gate, GraphAt, GridSide, NewBoard, RowRef, SpaceData,
    TrackChange,
};
pub use patch::{Catalog, DeckEntry, Entry, Origin, TableEntry};
pub(crate) use tree::from_edit;

/// Why an edit (or opening a mod) could not be done, in words for the person editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditError(pub String);

impl EditError {
    /// An error with this message.
    pub fn new(msg: impl Into<String>) -> EditError {
        EditError(msg.into())
    }
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

/// An open mod being edited: its documents and their history.
pub struct Editor {
    docs: Docs,
    history: History,
}

impl Editor {
    /// Opens the mod in `folder`; its dependencies are found with `resolver`.
    pub fn open(folder: &Path, resolver: &FolderResolver) -> Result<Editor, EditError> {
        Ok(Editor {
            docs: Docs::open(folder, resolver)?,
            history: History::default(),
        })
    }

    /// The documents (to read; change them with [`Editor::apply`]).
    pub fn docs(&self) -> &Docs {
        &self.docs
    }

    /// The undo and redo stacks.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Applies an edit. On success returns the open mod's files it changed (relative
    /// paths; empty when it changed nothing); on failure nothing is changed.
    pub fn apply(&mut self, edit: &Edit) -> Result<Vec<String>, EditError> {
        let Some((own, base)) = self.docs.layers.split_last_mut() else {
            return Err(EditError::new("no mod is open"));
        };
        let mut tx = history::Tx::new(own);
        if let Err(e) = ops::apply(&mut tx, base, edit) {
            tx.rollback();
            return Err(e);
        }
        let files = tx.finish();
        let touched = files.iter().map(|f| f.rel.clone()).collect();
        self.history.record(edit.label(), edit.merge_key(), files);
        Ok(touched)
    }

    /// Starts a group of edits that undo as one step (a paint stroke, a drag).
    pub fn begin_group(&mut self, label: &str) {
        self.history.begin_group(label);
    }

    /// Ends the group started by [`Editor::begin_group`].
    pub fn end_group(&mut self) {
        self.history.end_group();
    }

    /// Stops merging: the next edit is a step of its own even if it changes the same field
    /// (call it when a text field loses focus, or a drag ends).
    pub fn seal(&mut self) {
        self.history.seal();
    }

    /// Takes back the last step; returns the files it touched (None: nothing to undo).
    pub fn undo(&mut self) -> Option<Vec<String>> {
        self.history.undo(self.docs.open_mod_mut())
    }

    /// Makes the last undone step again; returns the files it touched.
    pub fn redo(&mut self) -> Option<Vec<String>> {
        self.history.redo(self.docs.open_mod_mut())
    }

    /// Saves every changed file (see [`Docs::save`]). Undo still works after a save.
    pub fn save(&mut self) -> Result<SaveReport, SaveError> {
        self.history.seal();
        self.docs.save()
    }

    /// Whether anything is unsaved.
    pub fn is_dirty(&self) -> bool {
        self.docs.is_dirty()
    }

    /// Checks the edited content with the engine, without saving.
    pub fn validate(&self) -> Result<GameDef, Diagnostics> {
        self.docs.validate()
    }

    /// Reads again the files changed on disk by someone else (see [`Docs::refresh`]); the
    /// history is forgotten when any file was read again, since its steps may no longer fit.
    pub fn refresh(&mut self) -> (Vec<String>, Vec<String>) {
        let (reloaded, conflicts) = self.docs.refresh();
        if !reloaded.is_empty() {
            self.history.clear();
        }
        (reloaded, conflicts)
    }

    /// Drops the unsaved edits of one file and reads it again from disk (see
    /// [`Docs::revert_file`]); the history is forgotten, since its steps may no longer fit.
    pub fn revert_file(&mut self, rel: &str) -> Result<(), EditError> {
        self.docs.revert_file(rel)?;
        self.history.clear();
        Ok(())
    }

    /// Every cell record of the grid board, by `x` and `y` (empty for other boards).
    pub fn grid_cells(&self) -> std::collections::BTreeMap<(u32, u32), CellRecord> {
        ops::grid_cells(&self.docs.layers)
    }

    /// Every tile, option, constant, deck, card, table and row as the open mod makes them,
    /// with which mod defines each and which changed it last.
    pub fn catalog(&self) -> Catalog {
        Catalog::build(&self.docs.layers)
    }

    /// The content of the game below a house rule (empty for a game).
    pub fn base_catalog(&self) -> Catalog {
        Catalog::build(self.docs.base_layers())
    }
}

/// Where each rule hook comes from, for a loaded definition: the mod whose script gives the
/// hook that the others wrap (or the first step, when only wrappers are left) and the mod
/// whose script was added to the hook last, with that script's path. Runs the rule scripts
/// (a Luau VM is made), so call it off the UI thread.
pub fn hook_origins(def: Arc<GameDef>) -> Result<Vec<(String, Origin)>, ScriptError> {
    let host = Host::new(def, Limits::default())?;
    let mut out = vec![];
    for (name, _) in farebox::script::HOOKS {
        let chain = host.hook_chain(name);
        let Some(last) = chain.iter().max_by_key(|s| s.order) else {
            continue;
        };
        let defined = chain
            .iter()
            .find(|s| s.part == HookPart::Base)
            .or_else(|| chain.iter().min_by_key(|s| s.order))
            .unwrap_or(last);
        out.push((
            name.to_string(),
            Origin {
                defined_by: defined.mod_id.clone(),
                changed_by: last.mod_id.clone(),
                file: last.script.clone(),
            },
        ));
    }
    Ok(out)
}
