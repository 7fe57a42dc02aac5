//! Board edits on the bundled games: a grid's cells and tiles (Curbside), a map's spaces and
//! roads (Critter Cab), a city's sections (Taxi Derby) and a track's pieces (Dicey Curves).

use super::*;

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
fn a_grid_side_taken_away_on_the_left_moves_the_cells_and_forgets_those_on_it() {
    let s = scratch(&["curbside"]);
    let def = edit_and_load(
        &s,
        "curbside",
        &[
            Edit::SetCellTile {
                x: 3,
                y: 4,
                tile: Some("cs-t4".into()),
                rotation: 0,
            },
            Edit::GrowGrid {
                side: GridSide::Left,
                by: -1,
            },
            Edit::GrowGrid {
                side: GridSide::Top,
                by: 2,
            },
        ],
    );
    let g = grid(&def);
    assert_eq!((g.width, g.height), (5, 8));
    let at = |id: &str| {
        g.cells
            .iter()
            .find(|c| c.id.as_deref() == Some(id))
            .map(|c| (c.x, c.y))
    };
    // The two starts on the left column went with it; the others moved left and down.
    assert_eq!(at("start-1"), None);
    assert_eq!(at("start-4"), None);
    assert_eq!(at("start-2"), Some((5, 8)));
    assert_eq!(at("start-3"), Some((5, 3)));
    let t4 = def.tile("cs-t4").unwrap();
    assert!(
        g.cells
            .iter()
            .any(|c| (c.x, c.y) == (2, 6) && c.tile == Some((t4, 0)))
    );
}

#[test]
fn a_duplicated_section_comes_last_with_its_own_space_ids() {
    let s = scratch(&["taxi-derby"]);
    let def = edit_and_load(
        &s,
        "taxi-derby",
        &[
            Edit::DuplicateSection {
                id: "harbor".into(),
                new_id: "harbor-2".into(),
                name: "Harbor (copy)".into(),
            },
            Edit::SetSectionsLayout {
                columns: 5,
                rows: 1,
            },
        ],
    );
    let BoardDef::Sections(x) = &def.board else {
        panic!("not sections");
    };
    let (first, copy) = (&x.sections[0], &x.sections[4]);
    assert_eq!(copy.id, "harbor-2");
    assert_eq!(copy.graph.spaces.len(), first.graph.spaces.len());
    assert_eq!(copy.graph.edges.len(), first.graph.edges.len());
    assert_eq!(copy.connectors.len(), first.connectors.len());
    // Harbor's ids do not start with `harbor-`: the copy's id goes in front.
    assert_eq!(copy.graph.spaces[0].id, "harbor-2-hb-h1-1");
    assert_eq!(copy.graph.spaces[0].name, first.graph.spaces[0].name);
    let text = read(&s, "taxi-derby/board.toml");
    let at = text.find("id = \"harbor-2\"").unwrap();
    // One space a line, as the others are written.
    assert!(
        text[at..].contains("spaces = [\n  { id = \"harbor-2-hb-h1-1\", "),
        "{}",
        &text[at..]
    );
    assert!(
        text[..at].contains("id = \"hb-") && !text[at..].contains("[[sections.pieces]]"),
        "the copy is not the last section"
    );
}

#[test]
fn a_house_rule_of_a_game_without_a_board_gets_a_board_of_its_own() {
    let s = scratch(&["wheres-my-ride", "wheres-my-ride-show-dont-tell"]);
    let def = edit_and_load(
        &s,
        "wheres-my-ride-show-dont-tell",
        &[Edit::AddBoard(NewBoard::Map)],
    );
    let BoardDef::Graph(g) = &def.board else {
        panic!("not a map");
    };
    assert_eq!(g.spaces.len(), 2);
    let manifest = read(&s, "wheres-my-ride-show-dont-tell/mod.toml");
    assert!(manifest.contains("board = \"board.toml\""), "{manifest}");
    // The game's own board file is untouched.
    assert!(read(&s, "wheres-my-ride/board.toml").contains("kind = \"none\""));
}

#[test]
fn a_board_of_kind_none_is_written_over_by_the_board_added() {
    let s = scratch(&["wheres-my-ride"]);
    let mut ed = open(&s, "wheres-my-ride");
    ed.apply(&Edit::AddBoard(NewBoard::Grid {
        width: 3,
        height: 2,
    }))
    .unwrap();
    let def = ed.validate().unwrap();
    assert!(matches!(&def.board, BoardDef::Grid(g) if (g.width, g.height) == (3, 2)));
    let text = ed.docs().open_mod().file("board.toml").unwrap().text();
    assert!(
        text.starts_with("#:schema ../../schemas/board.schema.json\n# The board: a grid of 3 x 2"),
        "{text}"
    );
    // A second board is refused; undo brings back the file as it was.
    assert!(ed.apply(&Edit::AddBoard(NewBoard::Map)).is_err());
    ed.undo().unwrap();
    let back = ed.docs().open_mod().file("board.toml").unwrap().text();
    assert_eq!(back, read(&s, "wheres-my-ride/board.toml"));
}
