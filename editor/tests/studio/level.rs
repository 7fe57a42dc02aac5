//! The level editor from nothing: a board of every kind added to a new mod, and a deck, a
//! table and a tile set added in Decks & tables, each written as a file an author would
//! write, undone like any edit, saved, and clean by `farebox validate`.

use super::edit::drag;
use super::*;
use farebox::content::def::BoardDef;

/// A new game made as `farebox new` and the start screen's New make it: no board.
fn new_game(id: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-level-{}-{}-{}",
        std::process::id(),
        id,
        rand_tag()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (folder, _) = farebox_editor::scaffold::create(id, None, &dir).unwrap();
    (dir, folder)
}

/// `farebox validate FOLDER`: its exit code and what it wrote.
fn validate(folder: &Path) -> (i32, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "validate".into(),
            folder.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut out,
        &mut err,
    );
    (
        code,
        String::from_utf8_lossy(&out).to_string() + &String::from_utf8_lossy(&err),
    )
}

fn board_kind(s: &Studio) -> Option<&'static str> {
    live(s).map(|d| d.board.kind_name())
}

fn undo(h: &mut H) {
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
}

#[test]
fn a_board_of_every_kind_is_added_to_a_new_game_undone_and_saved_clean() {
    let (dir, folder) = new_game("night-shift");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    assert!(
        h.query_by_label_contains("This game has no board")
            .is_some()
    );
    // Each kind is added, becomes the live board, and is taken back by Ctrl+Z.
    for (choice, kind) in [
        ("Map", "graph"),
        ("Sections city", "sections"),
        ("Track pieces", "track"),
    ] {
        h.get_by_label(choice).click();
        h.step();
        h.get_by_label("Add the board").click();
        h.step();
        until(&mut h, &format!("the {kind} board live"), |s| {
            board_kind(s) == Some(kind)
        });
        assert!(
            h.query_by_label_contains("This game has no board")
                .is_none(),
            "the {kind} board is not shown"
        );
        undo(&mut h);
        until(&mut h, &format!("the {kind} board undone"), |s| {
            board_kind(s) == Some("none")
        });
        until_shown(&mut h, "Add the board");
    }
    // A grid of a chosen size, kept and saved.
    h.get_by_label("Grid").click();
    h.step();
    {
        let b = &mut h.state_mut().as_mut().unwrap().board;
        b.start.width = 5;
        b.start.height = 3;
    }
    h.get_by_label("Add the board").click();
    h.step();
    until(&mut h, "the grid board live", |s| {
        live(s)
            .is_some_and(|d| matches!(&d.board, BoardDef::Grid(g) if g.width == 5 && g.height == 3))
    });
    // The grid editor is shown on it: its far corner cell is there to paint.
    until_shown(&mut h, "5,3");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    let board = std::fs::read_to_string(folder.join("board.toml")).unwrap();
    assert!(
        board.starts_with("#:schema types/board.schema.json\n# The board: a grid of 5 x 3"),
        "{board}"
    );
    let manifest = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    assert!(manifest.contains("board = \"board.toml\""), "{manifest}");
    let (code, said) = validate(&folder);
    assert_eq!(code, 0, "{said}");
    assert!(!said.contains("warning"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_kind_of_new_board_file_validates_clean() {
    use farebox_editor::edit::{Edit, NewBoard};
    for board in [
        NewBoard::Grid {
            width: 64,
            height: 1,
        },
        NewBoard::Map,
        NewBoard::Sections,
        NewBoard::Track,
    ] {
        let (dir, folder) = new_game("fresh-board");
        let resolver = farebox::source::FolderResolver::new(dir.clone());
        let mut ed = farebox_editor::edit::Editor::open(&folder, &resolver).unwrap();
        ed.apply(&Edit::AddBoard(board)).unwrap();
        ed.save().unwrap();
        let (code, said) = validate(&folder);
        assert_eq!(code, 0, "{board:?}: {said}");
        assert!(!said.contains("warning"), "{board:?}: {said}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_deck_a_table_and_a_tile_set_are_added_in_decks_and_tables() {
    let (dir, folder) = new_game("night-shift");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Decks & tables");
    // A deck: its sheet is shown with its first card.
    type_into(&mut h, "Id", "night-fares");
    h.get_by_label("Add the deck").click();
    h.step();
    until(&mut h, "the deck live", |s| {
        live(s).is_some_and(|d| d.decks.iter().any(|k| k.id == "night-fares"))
    });
    assert_eq!(
        h.state().as_ref().unwrap().sheets.sheet,
        Some(farebox_editor::studio::sheets::Sheet::Deck(
            "night-fares".into()
        ))
    );
    // A table, named.
    h.get_by_label("Table").click();
    h.step();
    type_into(&mut h, "Id", "fare-prices");
    type_into(&mut h, "Name", "Fare prices");
    h.get_by_label("Add the table").click();
    h.step();
    until(&mut h, "the table live", |s| {
        live(s).is_some_and(|d| {
            d.tables
                .iter()
                .any(|t| t.id == "fare-prices" && t.name == "Fare prices")
        })
    });
    // A tile set, with its first tile.
    h.get_by_label("Tile set").click();
    h.step();
    type_into(&mut h, "Id", "straight");
    h.get_by_label("Add the tile set").click();
    h.step();
    until(&mut h, "the tile live", |s| {
        live(s).is_some_and(|d| d.tiles.iter().any(|t| t.id == "straight"))
    });
    // An id the mod has already is refused before it is written.
    h.get_by_label("Deck").click();
    h.step();
    type_into(&mut h, "Id", "night-fares");
    assert!(
        h.query_by_label_contains("has a deck `night-fares` already")
            .is_some()
    );
    // Undo (once the field has let the keyboard go) takes the tile set back; the rest is
    // saved and validates clean.
    h.get_by_label("Table").click();
    h.step();
    undo(&mut h);
    until(&mut h, "the tile set undone", |s| {
        live(s).is_some_and(|d| d.tiles.is_empty())
    });
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    let deck = std::fs::read_to_string(folder.join("decks/night-fares.toml")).unwrap();
    assert!(
        deck.starts_with("#:schema ../types/deck.schema.json\n# The deck `night-fares`."),
        "{deck}"
    );
    assert!(folder.join("tables/fare-prices.toml").is_file());
    assert!(!folder.join("tiles.toml").exists());
    let (code, said) = validate(&folder);
    assert_eq!(code, 0, "{said}");
    assert!(!said.contains("warning"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A grid's width and height, or a cell's x and y.
type Xy = (u32, u32);

/// The live grid's size and the place of the cell named `id`.
fn grid_and_cell(s: &Studio, id: &str) -> Option<(Xy, Option<Xy>)> {
    let BoardDef::Grid(g) = &live(s)?.board else {
        return None;
    };
    let cell = g
        .cells
        .iter()
        .find(|c| c.id.as_deref() == Some(id))
        .map(|c| (c.x, c.y));
    Some(((g.width, g.height), cell))
}

#[test]
fn a_grid_grows_and_shrinks_on_every_side_and_its_cells_move_with_the_left_and_top() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // The taxi start in the bottom-left corner (1,6), selected.
    h.get_by_label("1,6").click();
    h.step();
    // The inspector of the cell lays itself out over a frame or two.
    settle(&mut h);
    h.get_by_label("+ column left").click();
    h.step();
    until(&mut h, "a column added on the left", |s| {
        grid_and_cell(s, "start-4") == Some(((7, 6), Some((2, 6))))
    });
    // The selection moved with its cell.
    assert_eq!(
        h.state().as_ref().unwrap().board.selection,
        Some(farebox_editor::studio::board_edit::Selection::Cell(2, 6))
    );
    // A row on top moves every cell down; the new column on the left goes again.
    h.get_by_label("+ row top").click();
    h.step();
    until(&mut h, "a row added at the top", |s| {
        grid_and_cell(s, "start-4") == Some(((7, 7), Some((2, 7))))
            && grid_and_cell(s, "start-1") == Some(((7, 7), Some((2, 2))))
    });
    h.get_by_label("- column left").click();
    h.step();
    until(&mut h, "the left column taken away", |s| {
        grid_and_cell(s, "start-4") == Some(((6, 7), Some((1, 7))))
    });
    assert_eq!(
        h.state().as_ref().unwrap().board.selection,
        Some(farebox_editor::studio::board_edit::Selection::Cell(1, 7))
    );
    // The bottom and the right leave the cells where they are.
    h.get_by_label("+ row bottom").click();
    h.step();
    h.get_by_label("+ column right").click();
    h.step();
    until(
        &mut h,
        "a row and a column added at the bottom and right",
        |s| {
            grid_and_cell(s, "start-4") == Some(((7, 8), Some((1, 7))))
                && grid_and_cell(s, "start-2") == Some(((7, 8), Some((6, 7))))
        },
    );
    // Each was one step: five undos bring the board back as it was.
    for _ in 0..5 {
        undo(&mut h);
    }
    until(&mut h, "every side undone", |s| {
        grid_and_cell(s, "start-4") == Some(((6, 6), Some((1, 6))))
            && grid_and_cell(s, "start-1") == Some(((6, 6), Some((1, 1))))
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_section_and_a_space_are_duplicated_with_new_ids() {
    let (dir, folder) = new_game("night-shift");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    h.get_by_label("Sections city").click();
    h.step();
    h.get_by_label("Add the board").click();
    h.step();
    until(&mut h, "the sections board live", |s| {
        board_kind(s) == Some("sections")
    });
    until(&mut h, "the sections editor", |s| {
        board_kind(s) == Some("sections")
    });
    settle(&mut h);
    // The first section (West) copied: the 2 x 1 layout grows to 3 x 1 in the same step,
    // and the copy's spaces, road and connector have ids of their own.
    h.get_all_by_label("Copy").next().unwrap().click();
    h.step();
    let sections = |s: &Studio| match &live(s)?.board {
        BoardDef::Sections(x) => Some(x.clone()),
        _ => None,
    };
    until(&mut h, "the section copied", |s| {
        sections(s).is_some_and(|x| x.sections.len() == 3 && x.columns == 3)
    });
    let x = sections(h.state().as_ref().unwrap()).unwrap();
    let copy = &x.sections[2];
    assert_eq!(copy.id, "west-2");
    assert_eq!(copy.name, "West (copy)");
    let ids: Vec<&str> = copy.graph.spaces.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["west-2-middle", "west-2-edge"]);
    assert_eq!(copy.graph.edges.len(), 1);
    assert_eq!(copy.connectors.len(), 1);
    // One undo takes back the copy and the layout.
    undo(&mut h);
    until(&mut h, "the copy undone", |s| {
        sections(s).is_some_and(|x| x.sections.len() == 2 && x.columns == 2)
    });
    // A space selected and duplicated with Ctrl+D: beside it, inside its section, selected.
    h.get_by_label("East, middle").click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::D);
    h.step();
    until(&mut h, "the space copied", |s| {
        sections(s).is_some_and(|x| {
            x.sections[1].graph.spaces.iter().any(|sp| {
                sp.id == "east-middle-2"
                    && sp.name == "East, middle"
                    && sp.x == 55.0
                    && sp.y == 55.0
            })
        })
    });
    assert!(h.query_by_label_contains("Space east-middle-2").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

/// A cell as the live grid has it: its tile with its turn, and its name.
type Cell = Option<(Option<(String, u8)>, Option<String>)>;

/// The live grid's cell at `x`, `y`.
fn cell_at(s: &Studio, x: u32, y: u32) -> Cell {
    let def = live(s)?;
    let BoardDef::Grid(g) = &def.board else {
        return None;
    };
    let c = g.cells.iter().find(|c| c.x == x && c.y == y)?;
    let tile = c
        .tile
        .and_then(|(t, r)| def.tiles.get(t).map(|t| (t.id.clone(), r)));
    Some((tile, c.id.clone()))
}

fn tiled(id: &str, rot: u8) -> Cell {
    Some((Some((id.to_string(), rot)), None))
}

fn named(id: &str) -> Cell {
    Some((None, Some(id.to_string())))
}

/// Hovers the cell labelled `label` for a couple of frames (Ctrl+V pastes there).
fn hover_cell(h: &mut H, label: &str) {
    let at = h.get_by_label(label).rect().center();
    h.hover_at(at);
    h.step();
    h.step();
}

fn edit_now(h: &mut H, e: farebox_editor::edit::Edit) {
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(e));
}

#[test]
fn a_rectangle_of_cells_is_copied_pasted_turned_flipped_moved_cut_and_deleted() {
    use farebox_editor::edit::Edit;
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // A T-junction turned once, a straightaway, and a named cell under them.
    for e in [
        Edit::SetCellTile {
            x: 2,
            y: 2,
            tile: Some("cs-t3".into()),
            rotation: 1,
        },
        Edit::SetCellTile {
            x: 3,
            y: 2,
            tile: Some("cs-t4".into()),
            rotation: 0,
        },
        Edit::SetCellLabel {
            x: 2,
            y: 3,
            id: Some("depot".into()),
            tags: vec![],
        },
    ] {
        edit_now(&mut h, e);
    }
    until(&mut h, "the cells set", |s| {
        cell_at(s, 2, 3) == named("depot")
    });
    // A drag from 2,2 to 3,3 with Select marks the rectangle.
    let a = h.get_by_label("2,2").rect().center();
    let b = h.get_by_label("3,3").rect().center();
    drag(&mut h, a, b);
    settle(&mut h);
    assert!(h.query_by_label_contains("Selected: 2 x 2 cells").is_some());
    // Copied and pasted at 4,4: the name is taken, so the copy's is new.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    h.step();
    hover_cell(&mut h, "4,4");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::V);
    h.step();
    until(&mut h, "pasted at 4,4", |s| {
        cell_at(s, 4, 4) == tiled("cs-t3", 1)
            && cell_at(s, 5, 4) == tiled("cs-t4", 0)
            && cell_at(s, 4, 5) == named("depot-2")
            && cell_at(s, 2, 3) == named("depot")
    });
    // R turns the pasted rectangle a quarter turn, each tile with it.
    h.key_press(egui::Key::R);
    h.step();
    until(&mut h, "turned", |s| {
        cell_at(s, 5, 4) == tiled("cs-t3", 2)
            && cell_at(s, 5, 5) == tiled("cs-t4", 1)
            && cell_at(s, 4, 4) == named("depot-2")
            && cell_at(s, 4, 5).is_none()
    });
    // V flips it top to bottom: the T-junction closed to the south is now closed north.
    h.key_press(egui::Key::V);
    h.step();
    until(&mut h, "flipped", |s| {
        cell_at(s, 5, 5) == tiled("cs-t3", 0)
            && cell_at(s, 5, 4) == tiled("cs-t4", 1)
            && cell_at(s, 4, 5) == named("depot-2")
    });
    // Dragged from inside one cell down.
    let a = h.get_by_label("4,4").rect().center();
    let b = h.get_by_label("4,5").rect().center();
    drag(&mut h, a, b);
    until(&mut h, "moved", |s| {
        cell_at(s, 5, 6) == tiled("cs-t3", 0)
            && cell_at(s, 5, 5) == tiled("cs-t4", 1)
            && cell_at(s, 4, 6) == named("depot-2")
            && cell_at(s, 5, 4).is_none()
    });
    // Cut, and pasted at 1,3; then the pasted cells deleted.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::X);
    h.step();
    until(&mut h, "cut", |s| {
        cell_at(s, 5, 6).is_none() && cell_at(s, 4, 6).is_none()
    });
    hover_cell(&mut h, "1,3");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::V);
    h.step();
    until(&mut h, "pasted at 1,3", |s| {
        cell_at(s, 2, 4) == tiled("cs-t3", 0)
            && cell_at(s, 2, 3) == tiled("cs-t4", 1)
            && cell_at(s, 1, 4) == named("depot-2")
    });
    h.key_press(egui::Key::Delete);
    h.step();
    until(&mut h, "deleted", |s| {
        cell_at(s, 2, 4).is_none() && cell_at(s, 1, 4).is_none() && cell_at(s, 2, 3).is_none()
    });
    // Each was one step, named for what it did.
    let label = |h: &H| {
        h.state()
            .as_ref()
            .unwrap()
            .project
            .as_ref()
            .unwrap()
            .content
            .as_ref()
            .unwrap()
            .editor
            .history()
            .undo_label()
            .map(str::to_string)
    };
    assert_eq!(label(&h).as_deref(), Some("Delete 4 cells"));
    undo(&mut h);
    until(&mut h, "the delete undone", |s| {
        cell_at(s, 2, 4) == tiled("cs-t3", 0)
    });
    assert_eq!(label(&h).as_deref(), Some("Paste 4 cells at 1,3"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn fill_covers_the_joined_cells_alike_and_the_eyedropper_takes_up_a_tile() {
    use farebox_editor::edit::Edit;
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // A ring of T-junctions round the four middle cells (the corners, where the taxis
    // start, stay clear of it).
    let ring: Vec<(u32, u32)> = (2..=5)
        .flat_map(|x| (2..=5).map(move |y| (x, y)))
        .filter(|&(x, y)| x == 2 || x == 5 || y == 2 || y == 5)
        .collect();
    for &(x, y) in &ring {
        edit_now(
            &mut h,
            Edit::SetCellTile {
                x,
                y,
                tile: Some("cs-t3".into()),
                rotation: 3,
            },
        );
    }
    until(&mut h, "the ring laid", |s| {
        cell_at(s, 5, 5) == tiled("cs-t3", 3)
    });
    h.get_by_label("Straightaway").click();
    h.step();
    h.get_by_label("Fill").click();
    h.step();
    h.get_by_label("3,4").click();
    h.step();
    until(&mut h, "the middle filled", |s| {
        (3..=4).all(|x| (3..=4).all(|y| cell_at(s, x, y) == tiled("cs-t4", 0)))
    });
    // The ring and what is outside it are as they were; it was one step.
    let s = h.state().as_ref().unwrap();
    assert!(
        ring.iter()
            .all(|&(x, y)| cell_at(s, x, y) == tiled("cs-t3", 3))
    );
    assert!(cell_at(s, 1, 2).is_none());
    undo(&mut h);
    until(&mut h, "the fill undone", |s| {
        cell_at(s, 3, 3).is_none() && cell_at(s, 4, 4).is_none()
    });
    // The eyedropper takes up the wall's tile, turned as it lies, and paints with it.
    h.get_by_label("Pick a tile").click();
    h.step();
    h.get_by_label("2,3").click();
    h.step();
    let b = &h.state().as_ref().unwrap().board;
    assert_eq!(b.brush.as_deref(), Some("cs-t3"));
    assert_eq!(b.rotation, 3);
    assert_eq!(b.tool, Tool::Paint);
    // F1 shows the keys, and again hides them.
    h.key_press(egui::Key::F1);
    settle(&mut h);
    assert!(h.query_by_label("Board editor keys").is_some());
    assert!(
        h.query_by_label_contains("paste at the cell under the pointer")
            .is_some()
    );
    h.key_press(egui::Key::F1);
    settle(&mut h);
    assert!(h.query_by_label("Board editor keys").is_none());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_history_panel_names_each_step_and_goes_back_and_forward_to_one() {
    use farebox_editor::edit::Edit;
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    for (x, tile) in [(2, "cs-t3"), (3, "cs-t4"), (4, "cs-t5")] {
        edit_now(
            &mut h,
            Edit::SetCellTile {
                x,
                y: 2,
                tile: Some(tile.into()),
                rotation: 0,
            },
        );
    }
    until(&mut h, "three tiles laid", |s| {
        cell_at(s, 4, 2) == tiled("cs-t5", 0)
    });
    h.get_by_label("History").click();
    settle(&mut h);
    for step in [
        "0. Before these steps",
        "1. Place cs-t3 at 2,2",
        "2. Place cs-t4 at 3,2",
        "3. Place cs-t5 at 4,2",
    ] {
        assert!(h.query_by_label(step).is_some(), "{step} is not listed");
    }
    // Back to the first step: the two after it are undone, and still listed.
    h.get_by_label("1. Place cs-t3 at 2,2").click();
    h.step();
    until(&mut h, "back at step 1", |s| {
        cell_at(s, 2, 2) == tiled("cs-t3", 0)
            && cell_at(s, 3, 2).is_none()
            && cell_at(s, 4, 2).is_none()
    });
    settle(&mut h);
    assert!(h.query_by_label("3. Place cs-t5 at 4,2").is_some());
    // Forward to the last, then back to before them all.
    h.get_by_label("3. Place cs-t5 at 4,2").click();
    h.step();
    until(&mut h, "forward at step 3", |s| {
        cell_at(s, 4, 2) == tiled("cs-t5", 0)
    });
    settle(&mut h);
    h.get_by_label("0. Before these steps").click();
    h.step();
    until(&mut h, "before every step", |s| cell_at(s, 2, 2).is_none());
    assert!(!h.state().as_ref().unwrap().unsaved());
    let _ = std::fs::remove_dir_all(dir);
}

/// The live board's tile ids at the given cells (None where a cell has none).
fn tiles_at(s: &Studio, cells: &[(u32, u32)]) -> Vec<Option<String>> {
    cells
        .iter()
        .map(|&(x, y)| cell_at(s, x, y).and_then(|c| c.0).map(|t| t.0))
        .collect()
}

#[test]
fn cells_picked_by_ctrl_click_and_the_lasso_are_copied_in_their_shape_and_stamped() {
    use farebox_editor::edit::Edit;
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    for (x, y, tile, rotation) in [
        (2, 2, "cs-t3", 1),
        (3, 2, "cs-t1", 0),
        (3, 3, "cs-t4", 0),
        (5, 4, "cs-t1", 0),
    ] {
        edit_now(
            &mut h,
            Edit::SetCellTile {
                x,
                y,
                tile: Some(tile.into()),
                rotation,
            },
        );
    }
    edit_now(
        &mut h,
        Edit::SetCellLabel {
            x: 5,
            y: 6,
            id: Some("kerb".into()),
            tags: vec![],
        },
    );
    until(&mut h, "the cells set", |s| {
        cell_at(s, 5, 6) == named("kerb")
    });
    settle(&mut h);
    // A click on 2,2, then Ctrl+click on 3,3: two cells, not the rectangle between them.
    h.get_by_label("2,2").click();
    h.step();
    h.get_by_label("3,3")
        .click_modifiers(egui::Modifiers::COMMAND);
    h.step();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Selected: 2 cells, within 2,2 to 3,3")
            .is_some()
    );
    // Pasted at 4,4, the two land at 4,4 and 5,5; 5,4 between them keeps its tile.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    h.step();
    hover_cell(&mut h, "4,4");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::V);
    h.step();
    until(&mut h, "the two cells pasted in their shape", |s| {
        cell_at(s, 4, 4) == tiled("cs-t3", 1)
            && cell_at(s, 5, 5) == tiled("cs-t4", 0)
            && cell_at(s, 5, 4) == tiled("cs-t1", 0)
    });
    // Delete empties the two pasted cells alone.
    h.key_press(egui::Key::Delete);
    h.step();
    until(&mut h, "the pasted cells emptied", |s| {
        tiles_at(s, &[(4, 4), (5, 5), (5, 4)]) == [None, None, Some("cs-t1".into())]
    });
    // The Lasso: a line round 2,2, 3,2 and 2,3 (a corner of three), not 3,3.
    h.get_by_label("Lasso").click();
    h.step();
    let c22 = h.get_by_label("2,2").rect();
    let s = c22.width();
    let o = c22.center();
    let ring = [
        o + egui::vec2(-0.5, -0.5) * s,
        o + egui::vec2(1.6, -0.5) * s,
        o + egui::vec2(-0.5, 1.6) * s,
    ];
    h.hover_at(ring[0]);
    h.step();
    h.drag_at(ring[0]);
    h.step();
    for p in [ring[1], ring[2], ring[0]] {
        h.hover_at(p);
        h.step();
    }
    h.drop_at(ring[0]);
    h.step();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Selected: 3 cells, within 2,2 to 3,3")
            .is_some()
    );
    // Taken up as a stamp, one click at 4,6 lays its two tiles (2,3 has none, and its place
    // is off the board), and the name of the cell under it stays.
    h.get_by_label("Use as stamp").click();
    h.step();
    assert_eq!(h.state().as_ref().unwrap().board.tool, Tool::Paint);
    until_shown(&mut h, "Stamp: 2 x 2 cells, 2 tiles");
    h.get_by_label("4,6").click();
    h.step();
    until(&mut h, "the stamp laid at 4,6", |s| {
        cell_at(s, 4, 6) == tiled("cs-t3", 1)
            && cell_at(s, 5, 6) == Some((Some(("cs-t1".into(), 0)), Some("kerb".into())))
    });
    undo(&mut h);
    until(&mut h, "the stamp undone in one step", |s| {
        cell_at(s, 4, 6).is_none() && cell_at(s, 5, 6) == named("kerb")
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_cell_is_found_by_its_name_and_selected() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    settle(&mut h);
    type_into(&mut h, "Find", "start");
    settle(&mut h);
    assert_eq!(h.query_all_by_label_contains("· start").count(), 4);
    type_into(&mut h, "Find", "start-4");
    settle(&mut h);
    h.get_by_label_contains("start-4 (1,6)").click();
    h.step();
    assert_eq!(
        h.state().as_ref().unwrap().board.selection,
        Some(farebox_editor::studio::board_edit::Selection::Cell(1, 6))
    );
    assert_eq!(h.state().as_ref().unwrap().board.view_center(), (1.0, 6.0));
    let _ = std::fs::remove_dir_all(dir);
}

/// From nothing to a board that is played on: a new game gets a grid in the Board tab, a game
/// of it is started in the Play tab on that grid and a move is taken, and its seeded outcome
/// games are played from the Board tab's Show play and counted cell by cell on it.
#[test]
fn a_new_game_gets_a_grid_is_played_on_it_and_its_outcome_games_are_shown_on_it() {
    let (dir, folder) = new_game("first-light");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    h.state_mut().as_mut().unwrap().outcomes.set_games(8);
    show_tab(&mut h, "Board");
    h.get_by_label("Grid").click();
    h.step();
    {
        let b = &mut h.state_mut().as_mut().unwrap().board;
        b.start.width = 5;
        b.start.height = 3;
    }
    h.get_by_label("Add the board").click();
    h.step();
    until(&mut h, "the grid board live", |s| {
        live(s)
            .is_some_and(|d| matches!(&d.board, BoardDef::Grid(g) if g.width == 5 && g.height == 3))
    });
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    // Played: the game the Play tab starts is one of the new version, on its grid.
    show_tab(&mut h, "Play");
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    let before = snap(&h).step();
    h.key_press(egui::Key::ArrowDown);
    h.step();
    h.key_press(egui::Key::Enter);
    until(&mut h, "the person's move taken", |s| {
        step_of(s).is_some_and(|n| n > before)
    });
    assert!(
        matches!(&snap(&h).def.board, BoardDef::Grid(g) if g.width == 5 && g.height == 3),
        "the game played is not on the new grid"
    );
    // Simulated: Show play runs the seeded games and counts the 15 cells of the new grid.
    show_tab(&mut h, "Board");
    until_shown(&mut h, "Show play");
    h.get_by_label("visited").click();
    settle(&mut h);
    // The overlay offers a run, unless the outcome games of the new version already run.
    if let Some(run) = h
        .query_all_by_label("Run outcomes")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
    {
        run.click();
        h.step();
    }
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    until_shown(&mut h, "Games (of 8) in which a piece stood on it");
    let counted: u64 = super::overlay::legend_counts(&h, "cells")
        .iter()
        .map(|(_, n)| n)
        .sum();
    assert_eq!(counted, 15);
    let _ = std::fs::remove_dir_all(dir);
}
