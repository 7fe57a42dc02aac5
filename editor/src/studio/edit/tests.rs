//! Tests of the editing model on copies of the bundled mods: files round-trip byte for byte,
//! every kind of edit reaches the engine's definition with the file's comments kept, undo
//! gives back the exact text, and a house rule's edits of its game land in the house rule.
#![allow(clippy::unwrap_used, clippy::expect_used)]

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

// ---------------------------------------------------------------------------------------------
// Documents

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

// ---------------------------------------------------------------------------------------------
// Grid (Curbside)

fn grid(def: &GameDef) -> &farebox::content::def::GridDef {
    match &def.board {
        BoardDef::Grid(g) => g,
        other => panic!("not a grid: {}", other.kind_name()),
    }
}

#[test]
fn grid_edits_reach_the_board() {
    let s = scratch(&["curbside"]);
    let def = edit_and_load(
        &s,
        "curbside",
        &[
            Edit::SetCellTile {
                x: 3,
                y: 4,
                tile: Some("cs-t4".into()),
                rotation: 1,
            },
            // A preset tile on a corner start keeps its name and tag.
            Edit::SetCellTile {
                x: 1,
                y: 1,
                tile: Some("cs-t1".into()),
                rotation: 0,
            },
            Edit::EraseCell { x: 1, y: 6 },
            Edit::SetCellLabel {
                x: 2,
                y: 2,
                id: Some("depot".into()),
                tags: vec!["start".into()],
            },
        ],
    );
    let g = grid(&def);
    let t4 = def.tile("cs-t4").unwrap();
    let t1 = def.tile("cs-t1").unwrap();
    let cell = |x, y| g.cells.iter().find(|c| c.x == x && c.y == y);
    assert_eq!(cell(3, 4).unwrap().tile, Some((t4, 1)));
    let corner = cell(1, 1).unwrap();
    assert_eq!(corner.tile, Some((t1, 0)));
    assert_eq!(corner.id.as_deref(), Some("start-1"));
    assert!(cell(1, 6).is_none());
    assert_eq!(cell(2, 2).unwrap().id.as_deref(), Some("depot"));
    assert_eq!(g.cells.len(), 5);
    let text = read(&s, "curbside/board.toml");
    assert!(
        text.ends_with("[[grid.cells]]\nx = 3\ny = 4\ntile = \"cs-t4\"\nrotation = 1\n\n[[grid.cells]]\nx = 2\ny = 2\nid = \"depot\"\ntags = [\"start\"]\n"),
        "{text}"
    );

    // Taking the tile off again leaves the corner as it was; the bare cell goes.
    let mut ed = open(&s, "curbside");
    ed.apply(&Edit::SetCellTile {
        x: 3,
        y: 4,
        tile: None,
        rotation: 0,
    })
    .unwrap();
    ed.apply(&Edit::SetCellTile {
        x: 1,
        y: 1,
        tile: None,
        rotation: 0,
    })
    .unwrap();
    ed.apply(&Edit::SetGridSize {
        width: 7,
        height: 5,
    })
    .unwrap();
    ed.save().unwrap();
    let def = load(&s, "curbside");
    let g = grid(&def);
    assert_eq!((g.width, g.height), (7, 5));
    // start-2 (6,6) lay outside the new size and went; (2,2) and the two top corners stay.
    let mut ids: Vec<&str> = g.cells.iter().filter_map(|c| c.id.as_deref()).collect();
    ids.sort();
    assert_eq!(ids, vec!["depot", "start-1", "start-3"]);
    assert!(g.cells.iter().all(|c| c.tile.is_none()));
}

#[test]
fn a_paint_stroke_is_one_undo_step_and_undo_restores_the_exact_bytes() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    let original = ed.docs().open_mod().file("board.toml").unwrap().text();
    ed.begin_group("Paint");
    for x in 2..=5 {
        ed.apply(&Edit::SetCellTile {
            x,
            y: 3,
            tile: Some("cs-t4".into()),
            rotation: 1,
        })
        .unwrap();
    }
    ed.end_group();
    let painted = ed.docs().open_mod().file("board.toml").unwrap().text();
    assert_eq!(painted.matches("[[grid.cells]]").count(), 8);
    assert_eq!(ed.history().undo_label(), Some("Paint"));
    ed.undo().unwrap();
    assert_eq!(
        ed.docs().open_mod().file("board.toml").unwrap().text(),
        original
    );
    assert!(!ed.history().can_undo(), "the whole stroke was one step");
    assert!(!ed.is_dirty());
    ed.redo().unwrap();
    assert_eq!(
        ed.docs().open_mod().file("board.toml").unwrap().text(),
        painted
    );
}

// ---------------------------------------------------------------------------------------------
// Graph (Critter Cab)

fn graph(def: &GameDef) -> &farebox::content::def::GraphDef {
    match &def.board {
        BoardDef::Graph(g) => g,
        other => panic!("not a graph: {}", other.kind_name()),
    }
}

fn joined<'g>(
    g: &'g farebox::content::def::GraphDef,
    a: &str,
    b: &str,
) -> Vec<&'g farebox::content::def::EdgeDef> {
    let ix = |id: &str| g.spaces.iter().position(|s| s.id == id);
    let (Some(a), Some(b)) = (ix(a), ix(b)) else {
        return vec![];
    };
    g.edges
        .iter()
        .filter(|e| (e.from == a && e.to == b) || (e.from == b && e.to == a))
        .collect()
}

#[test]
fn graph_edits_reach_the_board() {
    let s = scratch(&["critter-cab"]);
    let before = load(&s, "critter-cab");
    let g0 = graph(&before);
    let at = GraphAt::Board;
    assert_eq!(joined(g0, "bramble-way-1", "bramble-way-2").len(), 1);
    let def = edit_and_load(
        &s,
        "critter-cab",
        &[
            Edit::AddSpace {
                at: at.clone(),
                space: SpaceData {
                    id: "mole-hole".into(),
                    name: "Mole Hole".into(),
                    x: 20.0,
                    y: 20.0,
                    tags: vec!["chance".into()],
                    props: vec![("region".into(), st("forest"))],
                },
            },
            Edit::AddEdge {
                at: at.clone(),
                edge: EdgeData {
                    from: "mole-hole".into(),
                    to: "hootwood-lookout".into(),
                    directed: false,
                    cost: Some(2),
                    tags: vec![],
                },
            },
            Edit::MoveSpace {
                at: at.clone(),
                id: "kite-hill".into(),
                x: 85.5,
                y: 590.0,
            },
            Edit::RenameSpace {
                at: at.clone(),
                id: "kite-hill".into(),
                new_id: "kite-hill-top".into(),
            },
            Edit::SetSpaceName {
                at: at.clone(),
                id: "kite-hill-top".into(),
                name: "Kite Hill Top".into(),
            },
            Edit::SetSpaceTags {
                at: at.clone(),
                id: "kite-hill-top".into(),
                tags: vec!["perch".into()],
            },
            Edit::SetSpaceProp {
                at: at.clone(),
                id: "kite-hill-top".into(),
                key: "windy".into(),
                value: Some(RawValue::Boolean(true)),
            },
            // An edge of a path: it is written on its own with its new cost.
            Edit::SetEdge {
                at: at.clone(),
                from: "bramble-way-1".into(),
                to: "bramble-way-2".into(),
                change: EdgeChange::Cost(Some(3)),
            },
            Edit::SetEdge {
                at: at.clone(),
                from: "toadstool-glade".into(),
                to: "elm-street-1".into(),
                change: EdgeChange::Directed(true),
            },
            // A space in the middle of a path: the path is cut there.
            Edit::DeleteSpace {
                at: at.clone(),
                id: "bramble-way-3".into(),
            },
            Edit::DeleteEdge {
                at: at.clone(),
                from: "fernway-2".into(),
                to: "fernway-1".into(),
            },
        ],
    );
    let g = graph(&def);
    assert_eq!(g.spaces.len(), g0.spaces.len());
    let sp = |id: &str| g.spaces.iter().find(|s| s.id == id).unwrap();
    assert_eq!(sp("mole-hole").name, "Mole Hole");
    assert_eq!(sp("mole-hole").props["region"], Value::Str("forest".into()));
    let k = sp("kite-hill-top");
    assert_eq!((k.x, k.y, k.name.as_str()), (85.5, 590.0, "Kite Hill Top"));
    assert_eq!(k.tags, vec!["perch"]);
    assert_eq!(k.props["windy"], Value::Bool(true));
    assert!(
        g.spaces
            .iter()
            .all(|s| s.id != "kite-hill" && s.id != "bramble-way-3")
    );
    assert_eq!(joined(g, "mole-hole", "hootwood-lookout")[0].cost, 2);
    // kite-hill's roads follow its new id.
    assert_eq!(
        joined(g0, "kite-hill", "hedgerow-2").len(),
        joined(g, "kite-hill-top", "hedgerow-2").len()
    );
    assert_eq!(joined(g, "bramble-way-1", "bramble-way-2")[0].cost, 3);
    // The rest of Bramble Way is still a road.
    assert_eq!(joined(g, "hootwood-lookout", "bramble-way-1").len(), 1);
    assert_eq!(joined(g, "bramble-way-2", "bramble-way-3").len(), 0);
    let glade = joined(g, "toadstool-glade", "elm-street-1");
    assert!(glade[0].directed);
    assert!(joined(g, "fernway-1", "fernway-2").is_empty());
    assert_eq!(joined(g, "fernway-2", "fernway-3").len(), 1);
    let text = read(&s, "critter-cab/board.toml");
    assert!(text.contains(
        "  { id = \"mole-hole\", name = \"Mole Hole\", x = 20.0, y = 20.0, tags = [\"chance\"], props = { region = \"forest\" } },\n]"
    ), "{text}");
}

#[test]
fn consecutive_moves_of_one_space_merge_into_one_step() {
    let s = scratch(&["critter-cab"]);
    let mut ed = open(&s, "critter-cab");
    let original = ed.docs().open_mod().file("board.toml").unwrap().text();
    for x in [100.0, 110.0, 120.0] {
        ed.apply(&Edit::MoveSpace {
            at: GraphAt::Board,
            id: "kite-hill".into(),
            x,
            y: 580.0,
        })
        .unwrap();
    }
    ed.undo().unwrap();
    assert_eq!(
        ed.docs().open_mod().file("board.toml").unwrap().text(),
        original
    );
    assert!(!ed.history().can_undo());
    // After a seal (the drag ended), the next move is a step of its own.
    ed.redo().unwrap();
    ed.seal();
    ed.apply(&Edit::MoveSpace {
        at: GraphAt::Board,
        id: "kite-hill".into(),
        x: 1.0,
        y: 1.0,
    })
    .unwrap();
    ed.undo().unwrap();
    assert!(ed.history().can_undo());
}

// ---------------------------------------------------------------------------------------------
// Sections (Taxi Derby)

fn sections(def: &GameDef) -> &farebox::content::def::SectionsDef {
    match &def.board {
        BoardDef::Sections(g) => g,
        other => panic!("not sections: {}", other.kind_name()),
    }
}

#[test]
fn section_edits_reach_the_board() {
    let s = scratch(&["taxi-derby"]);
    let before = load(&s, "taxi-derby");
    let order0: Vec<String> = sections(&before)
        .sections
        .iter()
        .map(|x| x.id.clone())
        .collect();
    let harbor = GraphAt::Section("harbor".into());
    let def = edit_and_load(
        &s,
        "taxi-derby",
        &[
            Edit::AddSpace {
                at: harbor.clone(),
                space: SpaceData {
                    id: "hb-pier-end".into(),
                    name: "Pier End".into(),
                    x: 1.0,
                    y: 7.5,
                    tags: vec![],
                    props: vec![],
                },
            },
            Edit::AddEdge {
                at: harbor.clone(),
                edge: EdgeData {
                    from: "hb-pier-end".into(),
                    to: "hb-h3-1".into(),
                    directed: false,
                    cost: None,
                    tags: vec!["ferry".into()],
                },
            },
            Edit::MoveSpace {
                at: harbor.clone(),
                id: "hb-h2-2".into(),
                x: 3.5,
                y: 4.0,
            },
            Edit::MoveSection {
                id: order0[0].clone(),
                to: 3,
            },
            Edit::SetSectionsShuffle(false),
            Edit::SetSectionsRotate(false),
            Edit::SetSectionsLayout {
                columns: 4,
                rows: 1,
            },
        ],
    );
    let sd = sections(&def);
    let order: Vec<&str> = sd.sections.iter().map(|x| x.id.as_str()).collect();
    let mut want: Vec<&str> = order0.iter().skip(1).map(String::as_str).collect();
    want.push(order0[0].as_str());
    assert_eq!(order, want);
    assert!(!sd.shuffle && !sd.rotate);
    assert_eq!((sd.columns, sd.rows), (4, 1));
    let hb = sd.sections.iter().find(|x| x.id == "harbor").unwrap();
    let pier = hb
        .graph
        .spaces
        .iter()
        .position(|x| x.id == "hb-pier-end")
        .unwrap();
    assert!(
        hb.graph
            .edges
            .iter()
            .any(|e| e.from == pier && e.tags == vec!["ferry"])
    );
    let moved = hb.graph.spaces.iter().find(|x| x.id == "hb-h2-2").unwrap();
    assert_eq!(moved.x, 3.5);
    // The moved section took its heading comment with it.
    let text = read(&s, "taxi-derby/board.toml");
    let first = text.find("[[sections.pieces]]").unwrap();
    assert!(!text[first..].starts_with(&format!("[[sections.pieces]]\nid = \"{}\"", order0[0])));
}

// ---------------------------------------------------------------------------------------------
// Track (Dicey Curves), tables

#[test]
fn track_piece_edits_reach_the_board() {
    let s = scratch(&["dicey-curves"]);
    let def = edit_and_load(
        &s,
        "dicey-curves",
        &[
            Edit::SetTrackPiece {
                id: "gentle-left".into(),
                change: TrackChange::Lanes(3),
            },
            Edit::SetTrackPiece {
                id: "gentle-left".into(),
                change: TrackChange::Rows(3),
            },
            Edit::SetTrackPiece {
                id: "gentle-left".into(),
                change: TrackChange::Turn(-90),
            },
            Edit::SetTrackPiece {
                id: "gentle-left".into(),
                change: TrackChange::Gates(vec![
                    Gate {
                        lanes: vec![0, 1],
                        size: 4,
                    },
                    Gate {
                        lanes: vec![2],
                        size: 2,
                    },
                ]),
            },
            Edit::SetTrackPiece {
                id: "straight-2-long".into(),
                change: TrackChange::Turn(45),
            },
        ],
    );
    let BoardDef::Track(t) = &def.board else {
        panic!("not a track");
    };
    let p = t.pieces.iter().find(|p| p.id == "gentle-left").unwrap();
    assert_eq!((p.lanes, p.rows, p.turn), (3, 3, -90));
    assert_eq!(p.gates, vec![(vec![0, 1], 4), (vec![2], 2)]);
    let p = t.pieces.iter().find(|p| p.id == "straight-2-long").unwrap();
    assert_eq!(p.turn, 45);
    let text = read(&s, "dicey-curves/board.toml");
    assert!(text.contains("gates = [{ lanes = [0, 1], size = 4 }, { lanes = [2], size = 2 }]"));
}

#[test]
fn table_edits_reach_the_definition() {
    let s = scratch(&["dicey-curves"]);
    let def = edit_and_load(
        &s,
        "dicey-curves",
        &[
            Edit::SetRowCell {
                table: "chip-purchase".into(),
                row: RowRef::Key(i(3)),
                column: "chips".into(),
                value: Some(i(5)),
            },
            Edit::AddRow {
                table: "chip-purchase".into(),
                row: vec![("chips".into(), i(4)), ("combo".into(), i(5))],
            },
            Edit::DuplicateRow {
                table: "chip-purchase".into(),
                row: RowRef::Key(i(2)),
                key: Some(i(6)),
            },
            Edit::DeleteRow {
                table: "finish-depth".into(),
                row: RowRef::Key(st("long")),
            },
        ],
    );
    let t = &def.tables[def.table("chip-purchase").unwrap()];
    let combos: Vec<i64> = t
        .rows
        .iter()
        .map(|r| r["combo"].as_int().unwrap())
        .collect();
    assert_eq!(combos, vec![2, 6, 3, 4, 5]);
    assert_eq!(t.lookup(&Value::Int(3)).unwrap()["chips"], Value::Int(5));
    assert_eq!(t.lookup(&Value::Int(6)).unwrap()["chips"], Value::Int(1));
    let f = &def.tables[def.table("finish-depth").unwrap()];
    assert_eq!(f.rows.len(), 2);
    let text = read(&s, "dicey-curves/tables/chip-purchase.toml");
    // The new row is written like the others: key order and all.
    assert!(text.ends_with("[[rows]]\ncombo = 5\nchips = 4\n"), "{text}");
    // A duplicate key is refused.
    let mut ed = open(&s, "dicey-curves");
    assert!(
        ed.apply(&Edit::AddRow {
            table: "chip-purchase".into(),
            row: vec![("combo".into(), i(5)), ("chips".into(), i(1))],
        })
        .is_err()
    );
    assert!(!ed.is_dirty());
}

// ---------------------------------------------------------------------------------------------
// Decks, tiles, options, constants (Curbside)

#[test]
fn deck_tile_option_and_constant_edits_reach_the_definition() {
    let s = scratch(&["curbside"]);
    let def = edit_and_load(
        &s,
        "curbside",
        &[
            Edit::set_count("road-tiles", "cs-t4", 9),
            Edit::SetCardField {
                deck: "road-tiles".into(),
                card: "cs-t3".into(),
                field: "name".into(),
                value: Some(st("Tee")),
            },
            Edit::AddCard {
                deck: "road-tiles".into(),
                card: vec![
                    ("count".into(), i(2)),
                    ("tile".into(), st("cs-t8")),
                    ("id".into(), st("cs-t8b")),
                    ("name".into(), st("Hairpin bend")),
                ],
            },
            Edit::DuplicateCard {
                deck: "passengers".into(),
                card: "p01".into(),
                new_id: "p01b".into(),
            },
            Edit::DeleteCard {
                deck: "passengers".into(),
                card: "p02".into(),
            },
            Edit::SetTileField {
                tile: "cs-t4".into(),
                field: "move_cost".into(),
                value: Some(i(2)),
            },
            Edit::SetOptionField {
                option: "starting-gas".into(),
                field: "default".into(),
                value: Some(i(15)),
            },
            Edit::SetConstant {
                key: "actions_per_turn".into(),
                value: Some(i(4)),
            },
        ],
    );
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    let card = |id: &str| &d.cards[d.card(id).unwrap()];
    assert_eq!(card("cs-t4").count, 9);
    assert_eq!(card("cs-t3").name, "Tee");
    assert_eq!(card("cs-t8b").count, 2);
    assert_eq!(d.cards.last().unwrap().id, "cs-t8b");
    let p = &def.decks[def.deck("passengers").unwrap()];
    let ids: Vec<&str> = p.cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(&ids[..3], &["p01", "p01b", "p03"]);
    assert_eq!(p.cards[1].name, p.cards[0].name);
    assert_eq!(def.tiles[def.tile("cs-t4").unwrap()].move_cost, 2);
    assert_eq!(def.option("starting-gas").unwrap().default, Value::Int(15));
    assert_eq!(def.constants["actions_per_turn"], Value::Int(4));
    let text = read(&s, "curbside/decks/road-tiles.toml");
    assert!(
        text.ends_with(
            "[[cards]]\nid = \"cs-t8b\"\nname = \"Hairpin bend\"\ntile = \"cs-t8\"\ncount = 2\n"
        ),
        "{text}"
    );
    // The constant keeps its comment.
    assert!(read(&s, "curbside/mod.toml").contains("actions_per_turn = 4      # CS-A0"));
}

#[test]
fn a_bad_edit_gets_the_engines_diagnostic_with_file_and_line() {
    let s = scratch(&["curbside"]);
    let mut ed = open(&s, "curbside");
    ed.apply(&Edit::SetCardField {
        deck: "road-tiles".into(),
        card: "cs-t4".into(),
        field: "tile".into(),
        value: Some(st("cs-t99")),
    })
    .unwrap();
    let diags = ed.validate().unwrap_err();
    let d = diags
        .iter()
        .find(|d| d.message.contains("cs-t99"))
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(
        d.path.ends_with("curbside/decks/road-tiles.toml"),
        "{}",
        d.path
    );
    let text = ed
        .docs()
        .open_mod()
        .file("decks/road-tiles.toml")
        .unwrap()
        .text();
    let line = text.lines().position(|l| l == "tile = \"cs-t99\"").unwrap() + 1;
    assert_eq!(d.line, line);
    assert!(d.col > 0);
    // Nothing was saved: the file on disk still loads.
    load(&s, "curbside");
}

#[test]
fn inline_cards_get_inline_neighbours() {
    let s = scratch(&[]);
    let dir = s.0.join("tiny");
    std::fs::create_dir_all(dir.join("decks")).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        "id = \"tiny\"\nname = \"Tiny\"\nversion = \"1.0.0\"\nengine = \"0.1\"\nplayers = { min = 1, max = 2 }\n\n[content]\ndecks = [\"decks/d.toml\"]\n",
    )
    .unwrap();
    let deck = "id = \"d\"\nname = \"D\"\ncards = [\n  # the first\n  { id = \"a\", name = \"A\" },\n  { id = \"b\", name = \"B\", count = 2 }, # two of these\n  { id = \"c\", name = \"C\" },\n]\n";
    std::fs::write(dir.join("decks/d.toml"), deck).unwrap();
    let mut ed = open(&s, "tiny");
    ed.apply(&Edit::AddCard {
        deck: "d".into(),
        card: vec![("name".into(), st("E")), ("id".into(), st("e"))],
    })
    .unwrap();
    ed.apply(&Edit::DuplicateCard {
        deck: "d".into(),
        card: "a".into(),
        new_id: "a2".into(),
    })
    .unwrap();
    ed.apply(&Edit::DeleteCard {
        deck: "d".into(),
        card: "b".into(),
    })
    .unwrap();
    let text = ed.docs().open_mod().file("decks/d.toml").unwrap().text();
    assert_eq!(
        text,
        "id = \"d\"\nname = \"D\"\ncards = [\n  # the first\n  { id = \"a\", name = \"A\" },\n  { id = \"a2\", name = \"A\" },\n  { id = \"c\", name = \"C\" },\n  { id = \"e\", name = \"E\" },\n]\n"
    );
    ed.save().unwrap();
    let def = load(&s, "tiny");
    let ids: Vec<&str> = def.decks[0].cards.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["a", "a2", "c", "e"]);
    for _ in 0..3 {
        ed.undo().unwrap();
    }
    assert_eq!(
        ed.docs().open_mod().file("decks/d.toml").unwrap().text(),
        deck
    );
}

// ---------------------------------------------------------------------------------------------
// House rules

#[test]
fn a_house_rule_edit_of_a_game_card_lands_in_its_patch_and_reverting_takes_it_out() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let game_files: Vec<(PathBuf, String)> = [
        "decks/road-tiles.toml",
        "decks/passengers.toml",
        "tiles.toml",
        "mod.toml",
    ]
    .iter()
    .map(|r| {
        let p = s.0.join("curbside").join(r);
        let t = std::fs::read_to_string(&p).unwrap();
        (p, t)
    })
    .collect();
    let patch0 = read(&s, "curbside-gas-station/patches/station.toml");
    let manifest0 = read(&s, "curbside-gas-station/mod.toml");
    let def = edit_and_load(
        &s,
        "curbside-gas-station",
        &[
            // A card of a deck the patch already changes...
            Edit::set_count("road-tiles", "cs-t4", 9),
            // ...and one of a deck it does not.
            Edit::SetCardField {
                deck: "passengers".into(),
                card: "p01".into(),
                field: "name".into(),
                value: Some(st("Night nurse")),
            },
        ],
    );
    for (p, t) in &game_files {
        assert_eq!(
            &std::fs::read_to_string(p).unwrap(),
            t,
            "{} was written",
            p.display()
        );
    }
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    assert_eq!(d.cards[d.card("cs-t4").unwrap()].count, 9);
    let p = &def.decks[def.deck("passengers").unwrap()];
    assert_eq!(p.cards[p.card("p01").unwrap()].name, "Night nurse");
    let patch = read(&s, "curbside-gas-station/patches/station.toml");
    assert!(patch.contains(
        "[[decks.cards]]\nid = \"cs-t12\"\nname = \"Pothole\"\ntile = \"cs-t12\"\ncount = 5\n\n[[decks.cards]]\nid = \"cs-t4\"\nname = \"Straightaway\"\ntile = \"cs-t4\"\ncount = 9\n"
    ), "{patch}");
    assert!(patch.contains("[[decks]]\nid = \"passengers\"\n\n[[decks.cards]]\nid = \"p01\"\nname = \"Night nurse\""), "{patch}");
    let cat = open(&s, "curbside-gas-station").catalog();
    let o = &cat.card("road-tiles", "cs-t4").unwrap().origin;
    assert_eq!(
        (o.defined_by.as_str(), o.changed_by.as_str()),
        ("curbside", "curbside-gas-station")
    );
    assert_eq!(o.file, "patches/station.toml");

    // Back to the game's values: the patch entries go, and the file is as it was.
    let mut ed = open(&s, "curbside-gas-station");
    ed.apply(&Edit::set_count("road-tiles", "cs-t4", 8))
        .unwrap();
    ed.apply(&Edit::SetCardField {
        deck: "passengers".into(),
        card: "p01".into(),
        field: "name".into(),
        value: Some(st("Night-shift nurse")),
    })
    .unwrap();
    ed.save().unwrap();
    assert_eq!(
        read(&s, "curbside-gas-station/patches/station.toml"),
        patch0
    );
    assert_eq!(read(&s, "curbside-gas-station/mod.toml"), manifest0);
    load(&s, "curbside-gas-station");
}

#[test]
fn a_house_rule_deletes_adds_and_replaces_through_its_own_files() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let game0 = read(&s, "curbside/tiles.toml");
    let board0 = read(&s, "curbside/board.toml");
    let def = edit_and_load(
        &s,
        "curbside-gas-station",
        &[
            Edit::DeleteCard {
                deck: "road-tiles".into(),
                card: "cs-t5".into(),
            },
            // A card the patch added is deleted from the patch itself.
            Edit::DeleteCard {
                deck: "road-tiles".into(),
                card: "cs-t12".into(),
            },
            Edit::AddCard {
                deck: "starter".into(),
                card: vec![
                    ("id".into(), st("start-map")),
                    ("name".into(), st("City map")),
                    ("tile".into(), st("cs-t11")),
                ],
            },
            Edit::DuplicateCard {
                deck: "road-tiles".into(),
                card: "cs-t1".into(),
                new_id: "cs-t1-spare".into(),
            },
            Edit::SetRowCell {
                table: "destinations".into(),
                row: RowRef::Key(i(2)),
                column: "stars".into(),
                value: Some(i(2)),
            },
            Edit::SetTileField {
                tile: "cs-t4".into(),
                field: "name".into(),
                value: Some(st("Long straight")),
            },
            Edit::SetOptionField {
                option: "passenger-cards".into(),
                field: "default".into(),
                value: Some(i(6)),
            },
            Edit::SetConstant {
                key: "actions_per_turn".into(),
                value: Some(i(2)),
            },
            Edit::SetCellTile {
                x: 2,
                y: 2,
                tile: Some("cs-t2".into()),
                rotation: 0,
            },
        ],
    );
    assert_eq!(read(&s, "curbside/tiles.toml"), game0);
    assert_eq!(read(&s, "curbside/board.toml"), board0);
    let d = &def.decks[def.deck("road-tiles").unwrap()];
    assert!(d.card("cs-t5").is_none() && d.card("cs-t12").is_none());
    assert_eq!(d.cards[d.card("cs-t1-spare").unwrap()].count, 5);
    let starter = &def.decks[def.deck("starter").unwrap()];
    assert_eq!(starter.cards.last().unwrap().id, "start-map");
    let t = &def.tables[def.table("destinations").unwrap()];
    assert_eq!(t.lookup(&Value::Int(2)).unwrap()["stars"], Value::Int(2));
    assert_eq!(t.lookup(&Value::Int(6)).unwrap()["stars"], Value::Int(6));
    assert_eq!(def.tiles[def.tile("cs-t4").unwrap()].name, "Long straight");
    assert_eq!(
        def.option("passenger-cards").unwrap().default,
        Value::Int(6)
    );
    assert_eq!(def.constants["actions_per_turn"], Value::Int(2));
    assert!(
        grid(&def)
            .cells
            .iter()
            .any(|c| (c.x, c.y) == (2, 2) && c.tile.is_some())
    );
    let patch = read(&s, "curbside-gas-station/patches/station.toml");
    // cs-t5 is the game's; cs-t12 the game's too, replaced by the patch: its replacement
    // goes and the card is taken out.
    assert!(
        patch.contains("remove = [\"cs-t10\", \"cs-t5\", \"cs-t12\"]"),
        "{patch}"
    );
    assert!(!patch.contains("id = \"cs-t12\""), "{patch}");
    assert!(patch.contains("[[decks.cards]]\nid = \"cs-t1-spare\"\nname = \"Crossroads\"\ntile = \"cs-t1\"\ncount = 5\n"), "{patch}");
    let manifest = read(&s, "curbside-gas-station/mod.toml");
    assert!(manifest.contains("tiles = [\"tiles.toml\"]"), "{manifest}");
    assert!(manifest.contains("board = \"board.toml\""), "{manifest}");
    assert!(manifest.contains("actions_per_turn = 2"), "{manifest}");
    let cat = open(&s, "curbside-gas-station").catalog();
    let o = &cat.tile("cs-t4").unwrap().origin;
    assert_eq!(
        (
            o.defined_by.as_str(),
            o.changed_by.as_str(),
            o.file.as_str()
        ),
        ("curbside", "curbside-gas-station", "tiles.toml")
    );

    // Back to the game's values: replacements go again.
    let mut ed = open(&s, "curbside-gas-station");
    ed.apply(&Edit::SetTileField {
        tile: "cs-t4".into(),
        field: "name".into(),
        value: Some(st("Straightaway")),
    })
    .unwrap();
    ed.apply(&Edit::SetOptionField {
        option: "passenger-cards".into(),
        field: "default".into(),
        value: Some(i(10)),
    })
    .unwrap();
    ed.apply(&Edit::SetConstant {
        key: "actions_per_turn".into(),
        value: Some(i(3)),
    })
    .unwrap();
    ed.save().unwrap();
    let def = load(&s, "curbside-gas-station");
    let cat = open(&s, "curbside-gas-station").catalog();
    assert_eq!(cat.tile("cs-t4").unwrap().origin.changed_by, "curbside");
    assert_eq!(
        cat.option("passenger-cards").unwrap().origin.changed_by,
        "curbside"
    );
    assert_eq!(
        cat.constant("actions_per_turn").unwrap().origin.changed_by,
        "curbside"
    );
    assert_eq!(def.constants["actions_per_turn"], Value::Int(3));
    assert!(!read(&s, "curbside-gas-station/mod.toml").contains("passenger-cards"));
}

#[test]
fn provenance_names_who_defined_and_who_changed_each_thing() {
    let s = scratch(&["curbside", "curbside-gas-station"]);
    let ed = open(&s, "curbside-gas-station");
    let cat = ed.catalog();
    let o = |e: &Entry| (e.origin.defined_by.clone(), e.origin.changed_by.clone());
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        o(cat.card("road-tiles", "cs-t1").unwrap()),
        pair("curbside", "curbside")
    );
    assert_eq!(
        o(cat.card("road-tiles", "cs-t12").unwrap()),
        pair("curbside", "curbside-gas-station")
    );
    assert!(
        cat.card("road-tiles", "cs-t10").is_none(),
        "the patch takes it out"
    );
    assert_eq!(o(cat.tile("cs-t1").unwrap()), pair("curbside", "curbside"));
    assert_eq!(
        o(cat.option("starting-gas").unwrap()),
        pair("curbside", "curbside-gas-station")
    );
    let t = cat.table("destinations").unwrap();
    let six = t.rows.iter().find(|(k, _)| *k == Some(i(6))).unwrap();
    assert_eq!(o(&six.1), pair("curbside", "curbside-gas-station"));
    assert_eq!(
        o(cat.constant("refuel_gas").unwrap()),
        pair("curbside-gas-station", "curbside-gas-station")
    );
    // The engine's definition agrees with the catalog on what is there.
    let def = ed.validate().unwrap();
    let deck = &def.decks[def.deck("road-tiles").unwrap()];
    let ids: Vec<&str> = deck.cards.iter().map(|c| c.id.as_str()).collect();
    let cat_ids: Vec<&str> = cat
        .deck("road-tiles")
        .unwrap()
        .cards
        .iter()
        .map(|(i, _)| i.as_str())
        .collect();
    assert_eq!(ids, cat_ids);
    // Hooks: the house rule wraps apply and actions, and leaves score alone.
    let hooks = hook_origins(std::sync::Arc::new(def)).unwrap();
    let h = |n: &str| {
        hooks
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, o)| (o.defined_by.as_str(), o.changed_by.as_str()))
    };
    assert_eq!(h("apply"), Some(("curbside", "curbside-gas-station")));
    assert_eq!(h("actions"), Some(("curbside", "curbside-gas-station")));
    assert_eq!(h("score"), Some(("curbside", "curbside")));
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
fn a_house_rule_without_a_patch_file_gets_one() {
    let s = scratch(&["dicey-curves"]);
    let dir = s.0.join("dc-mini");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = "id = \"dc-mini\"\nname = \"Mini\"\nversion = \"1.0.0\"\nengine = \"0.1\"\ndepends = [{ id = \"dicey-curves\", version = \"1.0\" }]\n";
    std::fs::write(dir.join("mod.toml"), manifest).unwrap();
    let mut ed = open(&s, "dc-mini");
    assert!(ed.docs().is_house_rule());
    ed.apply(&Edit::set_count("track", "long-straight", 3))
        .unwrap();
    let report = ed.save().unwrap();
    assert_eq!(report.written.len(), 2, "{:?}", report.written);
    let patch = read(&s, "dc-mini/patches/dc-mini.toml");
    assert!(
        patch.starts_with("#:schema ../../../schemas/patch.schema.json\n[[decks]]\nid = \"track\"\n\n[[decks.cards]]\nid = \"long-straight\"\n"),
        "{patch}"
    );
    assert!(
        read(&s, "dc-mini/mod.toml")
            .ends_with("\n[content]\npatches = [\"patches/dc-mini.toml\"]\n")
    );
    let def = load(&s, "dc-mini");
    let d = &def.decks[def.deck("track").unwrap()];
    assert_eq!(d.cards[d.card("long-straight").unwrap()].count, 3);
    // Undo takes the new file back out of the model; the manifest is as it was.
    ed.undo().unwrap();
    assert!(ed.docs().open_mod().file("patches/dc-mini.toml").is_none());
    assert_eq!(
        ed.docs().open_mod().file("mod.toml").unwrap().text(),
        manifest
    );
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
