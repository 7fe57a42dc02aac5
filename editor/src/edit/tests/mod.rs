//! Tests of the editing model on copies of the bundled mods: files round-trip byte for byte,
//! every kind of edit reaches the engine's definition with the file's comments kept, undo
//! gives back the exact text, and a house rule's edits of its game land in the house rule.
//!
//! This file holds the helpers and the tests of documents as a whole (round trips, saving,
//! a failed edit, renaming, refreshing from disk); `boards.rs`, `content.rs` and
//! `house_rules.rs` the rest, by what is edited.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod boards;
mod content;
mod house_rules;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use farebox::GameDef;
use farebox::content::def::BoardDef;
use farebox::content::raw::RawValue;
use farebox::source::{FolderResolver, FsSource};
use farebox::value::Value;

use super::*;

fn bundled() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

/// A folder of copies of bundled mods, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap();
        }
    }
}

/// Copies the bundled mods `ids` into a new scratch folder.
fn scratch(ids: &[&str]) -> Scratch {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("farebox-edit-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for id in ids {
        copy_dir(&bundled().join(id), &dir.join(id));
    }
    Scratch(dir)
}

fn open(s: &Scratch, id: &str) -> Editor {
    Editor::open(&s.0.join(id), &FolderResolver::new(&s.0)).unwrap()
}

/// The mod as the engine loads it from disk.
fn load(s: &Scratch, id: &str) -> GameDef {
    match farebox::content::load_mod(&FsSource::new(s.0.join(id)), &FolderResolver::new(&s.0)) {
        Ok(d) => d,
        Err(e) => panic!(
            "{id} does not load: {}",
            e.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

fn read(s: &Scratch, rel: &str) -> String {
    std::fs::read_to_string(s.0.join(rel)).unwrap()
}

/// Every comment line of `before` is still in `after`.
fn comments_kept(before: &str, after: &str) {
    for line in before.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(after.contains(line), "comment lost: {line}\n---\n{after}");
    }
}

fn st(v: &str) -> RawValue {
    RawValue::String(v.into())
}

fn i(v: i64) -> RawValue {
    RawValue::Integer(v)
}

/// Applies edits, saves, checks the comments of every changed file, and loads the result.
fn edit_and_load(s: &Scratch, id: &str, edits: &[Edit]) -> GameDef {
    let mut ed = open(s, id);
    let before: Vec<(String, String)> = ed
        .docs()
        .open_mod()
        .paths()
        .map(|r| (r.to_string(), read(s, &format!("{id}/{r}"))))
        .collect();
    for e in edits {
        let changed = ed.apply(e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert!(!changed.is_empty(), "{e:?} changed nothing");
    }
    assert!(ed.is_dirty());
    // The unsaved documents already validate.
    if let Err(d) = ed.validate() {
        panic!("{d:?}");
    }
    let report = ed.save().unwrap();
    assert!(!report.written.is_empty());
    assert!(!ed.is_dirty());
    for (rel, old) in &before {
        let new = read(s, &format!("{id}/{rel}"));
        if new != *old {
            comments_kept(old, &new);
            assert!(report.written.contains(&s.0.join(id).join(rel)), "{rel}");
        } else {
            assert!(!report.written.contains(&s.0.join(id).join(rel)), "{rel}");
        }
    }
    load(s, id)
}

#[test]
fn every_bundled_toml_file_round_trips_byte_for_byte() {
    let mut seen = 0;
    let mut all = vec![];
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), out);
            } else if e.path().extension().is_some_and(|x| x == "toml") {
                out.push(e.path());
            }
        }
    }
    walk(&bundled(), &mut all);
    assert!(all.len() > 40, "{} files", all.len());
    let resolver = FolderResolver::new(bundled());
    for (id, folder) in resolver.all() {
        let docs = Docs::open(&folder, &resolver).unwrap();
        let own = docs.open_mod();
        assert_eq!(own.id, id);
        for rel in own.paths() {
            let f = own.file(rel).unwrap();
            assert!(f.parse_error().is_none(), "{id}/{rel}");
            let disk = std::fs::read_to_string(folder.join(rel)).unwrap();
            assert_eq!(f.text(), disk, "{id}/{rel} changed on the way through");
            assert!(!f.is_dirty());
            seen += 1;
        }
        assert!(!docs.is_dirty());
        // The documents, unsaved, load as the files do.
        let from_docs = docs.validate().unwrap();
        let from_disk = farebox::content::load_mod(&FsSource::new(&folder), &resolver).unwrap();
        assert_eq!(from_docs.content_hash, from_disk.content_hash, "{id}");
    }
    assert_eq!(seen, all.len(), "every TOML file under mods/ was opened");
}

#[test]
fn saving_without_changes_writes_nothing() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    assert!(ed.save().unwrap().written.is_empty());
    // An edit taken back is no change either.
    ed.apply(&Edit::set_count("road-tiles", "cs-t4", 9))
        .unwrap();
    assert!(ed.is_dirty());
    ed.undo().unwrap();
    assert!(!ed.is_dirty());
    assert!(ed.save().unwrap().written.is_empty());
}

#[test]
fn a_save_writes_only_the_changed_file_and_leaves_no_temporary_file() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    ed.apply(&Edit::set_count("road-tiles", "cs-t4", 9))
        .unwrap();
    assert_eq!(ed.docs().dirty_files(), vec!["decks/road-tiles.toml"]);
    let report = ed.save().unwrap();
    assert_eq!(
        report.written,
        vec![s.0.join("curbside/decks/road-tiles.toml")]
    );
    let names: Vec<String> = std::fs::read_dir(s.0.join("curbside/decks"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    let text = read(&s, "curbside/decks/road-tiles.toml");
    assert!(
        text.contains("id = \"cs-t4\"\nname = \"Straightaway\"\ntile = \"cs-t4\"\ncount = 9\n")
    );
}

fn grid(def: &GameDef) -> &farebox::content::def::GridDef {
    match &def.board {
        BoardDef::Grid(g) => g,
        other => panic!("not a grid: {}", other.kind_name()),
    }
}

fn graph(def: &GameDef) -> &farebox::content::def::GraphDef {
    match &def.board {
        BoardDef::Graph(g) => g,
        other => panic!("not a graph: {}", other.kind_name()),
    }
}

#[test]
fn a_failed_edit_changes_nothing() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    let before: Vec<String> = ed
        .docs()
        .open_mod()
        .paths()
        .map(|r| ed.docs().open_mod().file(r).unwrap().text())
        .collect();
    for bad in [
        Edit::set_count("road-tiles", "no-such-card", 2),
        Edit::DuplicateCard {
            deck: "road-tiles".into(),
            card: "cs-t1".into(),
            new_id: "cs-t2".into(),
        },
        Edit::SetCellTile {
            x: 1,
            y: 1,
            tile: Some("cs-t1".into()),
            rotation: 4,
        },
        Edit::MoveSpace {
            at: GraphAt::Board,
            id: "x".into(),
            x: 0.0,
            y: 0.0,
        },
    ] {
        assert!(ed.apply(&bad).is_err(), "{bad:?}");
    }
    let after: Vec<String> = ed
        .docs()
        .open_mod()
        .paths()
        .map(|r| ed.docs().open_mod().file(r).unwrap().text())
        .collect();
    assert_eq!(before, after);
    assert!(!ed.history().can_undo());
}

#[test]
fn renaming_a_space_renames_the_cards_that_name_it() {
    let s = scratch(&["critter-cab"]);
    let def = edit_and_load(
        &s,
        "critter-cab",
        &[Edit::RenameSpace {
            at: GraphAt::Board,
            id: "acorn-square".into(),
            new_id: "oak-square".into(),
        }],
    );
    let p = &def.decks[def.deck("passengers").unwrap()];
    let named = |id: &str| {
        p.cards
            .iter()
            .filter(|c| match c.fields.get("destinations") {
                Some(Value::List(l)) => l.iter().any(|v| *v == Value::Str(id.into())),
                _ => false,
            })
            .count()
    };
    assert_eq!(named("oak-square"), 12);
    assert_eq!(named("acorn-square"), 0);
    assert!(graph(&def).spaces.iter().any(|x| x.id == "oak-square"));
}

#[test]
fn refresh_reads_files_changed_on_disk_and_keeps_unsaved_ones() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    ed.apply(&Edit::set_count("road-tiles", "cs-t4", 9))
        .unwrap();
    let tiles = s.0.join("curbside/tiles.toml");
    let text = std::fs::read_to_string(&tiles).unwrap() + "# a note\n";
    std::fs::write(&tiles, &text).unwrap();
    let deck = s.0.join("curbside/decks/road-tiles.toml");
    let deck_text = std::fs::read_to_string(&deck).unwrap() + "# theirs\n";
    std::fs::write(&deck, deck_text).unwrap();
    let (reloaded, conflicts) = ed.refresh();
    assert_eq!(reloaded, vec!["tiles.toml"]);
    assert_eq!(conflicts, vec!["decks/road-tiles.toml"]);
    assert_eq!(
        ed.docs().open_mod().file("tiles.toml").unwrap().text(),
        text
    );
    assert!(
        ed.docs()
            .open_mod()
            .file("decks/road-tiles.toml")
            .unwrap()
            .text()
            .contains("count = 9")
    );
    assert!(
        !ed.history().can_undo(),
        "history is forgotten after a reload"
    );
    // Taking theirs: the edit made here is dropped and the file is what is on disk.
    ed.apply(&Edit::set_count("road-tiles", "cs-t3", 1))
        .unwrap();
    ed.revert_file("decks/road-tiles.toml").unwrap();
    let now = ed.docs().open_mod().file("decks/road-tiles.toml").unwrap();
    assert_eq!(now.text(), std::fs::read_to_string(&deck).unwrap());
    assert!(!now.is_dirty() && !ed.is_dirty());
    assert!(!ed.history().can_undo());
}
