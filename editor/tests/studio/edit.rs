//! Editing content: the decks-and-tables spreadsheet, the grid and map editors, house rules
//! made and edited, undo, and leaving unsaved edits.

use super::*;

/// The spreadsheet of a deck: a card's field changed in its cell, undone and made again,
/// saved into the TOML with its comments, and a bad value shown at its row while the last
/// good version keeps playing.
#[test]
fn a_card_field_is_edited_in_the_spreadsheet_saved_and_a_bad_one_is_shown_at_its_row() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    h.get_by_label("Decks & tables").click();
    h.step();
    h.step();
    h.get_by_label_contains("passengers (").click();
    h.step();
    h.step();
    let file = folder.join("decks/passengers.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    // The first passenger's name, typed over in its cell.
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .type_text("Night-shift nurse on call");
    h.step();
    h.step();
    until(&mut h, "the edit checked and live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| {
                d.decks
                    .iter()
                    .flat_map(|x| &x.cards)
                    .any(|c| c.name == "Night-shift nurse on call")
            })
    });
    assert!(h.state().as_ref().unwrap().unsaved());
    // Saved: the change is in the file, and so is every comment that was there.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(
        after.contains("name = \"Night-shift nurse on call\""),
        "{after}"
    );
    for comment in before.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(after.contains(comment), "lost the comment {comment:?}");
    }
    assert!(!h.state().as_ref().unwrap().unsaved());
    // A count that makes no sense: the row says what is wrong, the game keeps its version.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "p02".into(),
                field: "tags".into(),
                value: Some(farebox::content::raw::RawValue::Integer(7)),
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains("line ").is_some(),
        "no problem shown at the row"
    );
    let live = h.state().as_ref().unwrap().project.as_ref().unwrap();
    assert!(live.def.is_some());
    assert!(live.status.contains("last good version"), "{}", live.status);
    // Undo takes the bad edit back, and the content is valid again.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Undo);
    until(&mut h, "valid again", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// The live version's map, for a graph board.
fn live_graph(s: &Studio) -> Option<&farebox::content::def::GraphDef> {
    match &live(s)?.board {
        farebox::content::def::BoardDef::Graph(g) => Some(g),
        _ => None,
    }
}

/// Presses the primary button at `from`, moves to `to` and lets go there.
pub(crate) fn drag(h: &mut H, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    h.hover_at(to);
    h.step();
    h.drop_at(to);
    h.step();
}

/// The preset tile on cell `x`, `y` of the live version's grid, by tile id.
fn live_cell_tile(s: &Studio, x: u32, y: u32) -> Option<String> {
    let def = live(s)?;
    let farebox::content::def::BoardDef::Grid(g) = &def.board else {
        return None;
    };
    let cell = g.cells.iter().find(|c| c.x == x && c.y == y)?;
    let (t, _) = cell.tile?;
    def.tiles.get(t).map(|t| t.id.clone())
}

#[test]
fn a_tile_stroke_is_painted_on_the_grid_and_undone_as_one_step() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // Picking a tile in the palette takes up the Paint tool.
    h.get_by_label("T-junction").click();
    h.step();
    h.step();
    assert_eq!(h.state().as_ref().unwrap().board.tool, Tool::Paint);
    // One stroke over two cells.
    let a = h.get_by_label("3,3").rect().center();
    let b = h.get_by_label("4,3").rect().center();
    drag(&mut h, a, b);
    until(&mut h, "both cells painted and live", |s| {
        live_cell_tile(s, 3, 3).as_deref() == Some("cs-t3")
            && live_cell_tile(s, 4, 3).as_deref() == Some("cs-t3")
    });
    // R turns the tile of the selected cell with the Select tool.
    h.get_by_label("Select").click();
    h.step();
    h.get_by_label("4,3").click();
    h.step();
    h.key_press(egui::Key::R);
    h.step();
    until(&mut h, "the tile turned", |s| {
        live(s).is_some_and(|d| match &d.board {
            farebox::content::def::BoardDef::Grid(g) => g
                .cells
                .iter()
                .any(|c| c.x == 4 && c.y == 3 && c.tile.is_some_and(|t| t.1 == 1)),
            _ => false,
        })
    });
    // Undo the turn, then the stroke: one step takes both cells back.
    for _ in 0..2 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.step();
    }
    until(&mut h, "the stroke undone", |s| {
        live_cell_tile(s, 3, 3).is_none() && live_cell_tile(s, 4, 3).is_none()
    });
    assert!(!h.state().as_ref().unwrap().unsaved());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_space_is_added_to_the_map_and_joined_to_another_by_dragging() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    h.get_by_label("Add space").click();
    h.step();
    // Hootwood Lookout is at (120, 110) on the map and Badger Heights at (1060, 110): the
    // new space goes 80 map units left of Hootwood, where the map is empty.
    let hoot = h.get_by_label("Hootwood Lookout").rect().center();
    let badger = h.get_by_label("Badger Heights").rect().center();
    let per_unit = (badger.x - hoot.x) / 940.0;
    let spot = hoot - egui::vec2(80.0 * per_unit, 0.0);
    drag(&mut h, spot, spot);
    until(&mut h, "the space added", |s| {
        live_graph(s).is_some_and(|g| {
            g.spaces
                .iter()
                .any(|sp| sp.id == "space-1" && (sp.x - 40.0).abs() < 2.0)
        })
    });
    // Connect: a drag from the new space to Hootwood Lookout.
    h.get_by_label("Connect").click();
    h.step();
    let from = h.get_by_label("space-1").rect().center();
    let to = h.get_by_label("Hootwood Lookout").rect().center();
    drag(&mut h, from, to);
    until(&mut h, "the road added", |s| {
        live_graph(s).is_some_and(|g| {
            let at = |id: &str| g.spaces.iter().position(|sp| sp.id == id);
            let (a, b) = (at("space-1"), at("hootwood-lookout"));
            g.edges.iter().any(|e| {
                (Some(e.from), Some(e.to)) == (a, b) || (Some(e.from), Some(e.to)) == (b, a)
            })
        })
    });
    // The road is selected: the inspector names it and makes it one way.
    assert!(h.query_by_label_contains("Road space-1").is_some());
    h.get_by_label_contains("One way").click();
    h.step();
    until(&mut h, "the road one way", |s| {
        live_graph(s).is_some_and(|g| {
            g.edges
                .iter()
                .any(|e| e.directed && g.spaces.get(e.from).is_some_and(|sp| sp.id == "space-1"))
        })
    });
    // Saved: the map file has the space and the road, and its comments.
    let file = folder.join("board.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.contains("id = \"space-1\""), "{after}");
    for comment in before.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(after.contains(comment), "lost the comment {comment:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn editing_a_base_card_with_a_house_rule_open_writes_the_house_rules_patch() {
    let (dir, base) = copy_of("curbside");
    let house = dir.join("curbside-gas-station");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods/curbside-gas-station"),
        &house,
    );
    let base_deck = std::fs::read_to_string(base.join("decks/passengers.toml")).unwrap();
    let mut h = studio(house.display().to_string());
    until(&mut h, "the house rule loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    show_tab(&mut h, "Decks & tables");
    h.get_by_label_contains("passengers (").click();
    h.step();
    h.step();
    // The base game's card says where it comes from.
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.query_all_by_value("Night-shift nurse")
        .next()
        .expect("the name cell")
        .type_text("Night-shift nurse, tired");
    h.step();
    h.step();
    until(&mut h, "the edit live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| {
                d.decks
                    .iter()
                    .flat_map(|x| &x.cards)
                    .any(|c| c.name == "Night-shift nurse, tired")
            })
    });
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    let patch = std::fs::read_to_string(house.join("patches/station.toml")).unwrap();
    assert!(patch.contains("Night-shift nurse, tired"), "{patch}");
    assert_eq!(
        std::fs::read_to_string(base.join("decks/passengers.toml")).unwrap(),
        base_deck,
        "the base game's file was written"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_new_house_rule_is_made_from_the_start_screen_and_opened() {
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-new-{}-{}",
        std::process::id(),
        rand_tag()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut h: H = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            |ui, s: &mut Option<Studio>| {
                s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), None))
                    .frame(ui);
            },
            None,
        );
    for _ in 0..200 {
        h.step();
        if h.query_by_label("A house rule for").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    h.get_by_label("A house rule for").click();
    h.step();
    h.step();
    // The id, then the folder it goes in.
    let field = |h: &H, label: &str| {
        h.query_all_by_label(label)
            .find(|n| {
                egui_kittest::kittest::NodeT::accesskit_node(n).role()
                    == egui::accesskit::Role::TextInput
            })
            .expect("the field")
            .rect()
            .center()
    };
    for (label, text) in [
        ("New mod's id", "late-fares".to_string()),
        ("In folder", dir.display().to_string()),
    ] {
        let at = field(&h, label);
        h.hover_at(at);
        h.drag_at(at);
        h.drop_at(at);
        h.step();
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        h.step();
        h.event(egui::Event::Text(text));
        h.step();
    }
    h.get_by_label("Create and open").click();
    until(&mut h, "the new house rule open and loaded", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| d.id == "late-fares")
    });
    let manifest = std::fs::read_to_string(dir.join("late-fares/mod.toml")).unwrap();
    assert!(manifest.contains("late-fares"), "{manifest}");
    // It builds on a game: the game is one of its layers.
    let def = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .def
        .clone()
        .unwrap();
    assert!(def.layers.len() >= 2, "{:?}", def.layers);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_bad_cell_is_marked_at_its_cell_while_the_last_good_board_stays() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    // A tile id that names no tile, on cell 2,5.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::edit::Edit::SetCellTile {
                x: 2,
                y: 5,
                tile: Some("cs-t99".into()),
                rotation: 0,
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    h.step();
    // The board says it has a problem; the cell's inspector names it.
    assert!(
        h.query_by_label_contains("The edited board has 1 problem")
            .is_some()
    );
    let listed = h.query_all_by_label_contains("cs-t99").count();
    assert!(listed >= 1, "the problem is listed over the board");
    h.get_by_label("2,5").click();
    h.step();
    h.step();
    assert!(
        h.query_all_by_label_contains("cs-t99").count() > listed,
        "the cell's inspector does not name its problem"
    );
    // The last good version still plays: its cell 2,5 has no tile.
    assert!(live_cell_tile(h.state().as_ref().unwrap(), 2, 5).is_none());
    let _ = std::fs::remove_dir_all(dir);
}

/// An unsaved edit of a passenger's name, made as the spreadsheet makes it.
fn edit_a_passenger(h: &mut H) {
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "p02".into(),
                field: "name".into(),
                value: Some(farebox::content::raw::RawValue::String("Renamed".into())),
            },
        ));
    h.step();
    assert!(h.state().as_ref().unwrap().unsaved());
}

/// The last edit's label, if any.
fn last_edit(s: &Studio) -> Option<String> {
    let c = s.project.as_ref()?.content.as_ref()?;
    c.editor.history().undo_label().map(str::to_string)
}

#[test]
fn all_games_with_unsaved_edits_asks_and_cancel_keeps_them_and_discard_drops_them() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Decks & tables");
    edit_a_passenger(&mut h);
    h.get_by_label("All games").click();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("nsaved edits in decks/passengers.toml")
            .is_some(),
        "the question does not name what would be lost"
    );
    assert!(h.state().as_ref().unwrap().project.is_some());
    h.get_by_label("Cancel").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert!(s.project.is_some() && s.unsaved() && !s.asking());
    h.get_by_label("All games").click();
    settle(&mut h);
    h.get_by_label("Discard and go on").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    assert!(s.project.is_none() && !s.asking());
    let text = std::fs::read_to_string(folder.join("decks/passengers.toml")).unwrap();
    assert!(!text.contains("Renamed"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ctrl_z_undoes_the_move_in_play_and_the_edit_in_decks_and_tables() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Decks & tables");
    edit_a_passenger(&mut h);
    let edit = last_edit(h.state().as_ref().unwrap()).expect("the edit in the history");
    show_tab(&mut h, "Play");
    let before = play_one_move(&mut h);
    // The Edit menu names the move Undo takes back here.
    h.get_by_label("Edit •").click();
    settle(&mut h);
    assert!(h.query_by_label_contains("Undo move: ").is_some());
    h.key_press(egui::Key::Escape);
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    until(&mut h, "the move undone", |s| step_of(s) == Some(before));
    let s = h.state().as_ref().unwrap();
    assert_eq!(last_edit(s), Some(edit));
    assert!(s.unsaved());
    // In Decks & tables the same keys undo the edit, and leave the game alone.
    show_tab(&mut h, "Decks & tables");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    until(&mut h, "the edit undone", |s| last_edit(s).is_none());
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(before));
    let _ = std::fs::remove_dir_all(dir);
}

/// Opens the Decks & tables tab on one deck.
fn open_deck(h: &mut H, deck: &str) {
    h.get_by_label("Decks & tables").click();
    settle(h);
    h.get_by_label_contains(&format!("{deck} (")).click();
    settle(h);
}

#[test]
fn the_spreadsheet_holds_still_adds_a_card_in_view_and_commits_numbers_on_enter() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    open_deck(&mut h, "passengers");
    let first_row = |h: &H| {
        h.query_all_by_value("Squirrel Courier")
            .next()
            .expect("the first card's name")
            .rect()
    };
    let header = |h: &H| h.get_by_label("fare").rect();
    let (row0, head0) = (first_row(&h), header(&h));
    // Each column's header stands over its cells.
    let name_head = h.get_by_label("name").rect();
    assert!(
        (name_head.min.x - row0.min.x).abs() < 12.0,
        "the header `name` is at {name_head:?}, its cells at {row0:?}"
    );
    // A problem appears: the grid does not move.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Edit(
            farebox_editor::edit::Edit::SetCardField {
                deck: "passengers".into(),
                card: "otter-swim-team".into(),
                field: "fare".into(),
                value: Some(farebox::content::raw::RawValue::String("lots".into())),
            },
        ));
    until(&mut h, "the problem found", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    settle(&mut h);
    assert!(h.query_by_label_contains("(row 2)").is_some());
    assert_eq!(first_row(&h), row0, "a problem moved the rows");
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Undo);
    until(&mut h, "valid again", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    settle(&mut h);
    // Saved: the message comes in its strip, and the grid does not move.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Save);
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Nothing to save").is_some()
            || h.query_by_label_contains("Saved").is_some()
    );
    assert_eq!(first_row(&h), row0, "a message moved the rows");
    // The rows scroll under the header, which stays.
    for _ in 0..10 {
        h.get_by_label("fare").scroll_down();
        h.step();
    }
    settle(&mut h);
    assert!(
        h.query_all_by_value("Squirrel Courier")
            .next()
            .is_none_or(|n| n.rect().min.y < head0.max.y),
        "the rows did not scroll"
    );
    assert_eq!(header(&h), head0, "the header scrolled away");
    // Add a card: the new row is scrolled into view, its required fields empty (not 0).
    h.get_by_label("Add a card").click();
    settle(&mut h);
    let id_cell = h
        .query_all_by_value("passengers-new-1")
        .next()
        .expect("the new card's id")
        .rect();
    assert!(
        id_cell.min.y > head0.max.y && id_cell.max.y < 900.0,
        "the new row is not in view: {id_cell:?}"
    );
    let same_row: Vec<String> = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .filter(|n| (n.rect().center().y - id_cell.center().y).abs() < 4.0)
        .filter_map(|n| n.value())
        .collect();
    assert!(!same_row.iter().any(|v| v == "0"), "{same_row:?}");
    until(&mut h, "the missing fields reported", |s| {
        s.project.as_ref().is_some_and(|p| {
            p.diagnostics
                .iter()
                .any(|d| d.message.contains("passengers"))
        })
    });
    // A number typed into a cell is written on Enter.
    let fare_cells: Vec<egui::Rect> = h
        .query_all_by_role(egui::accesskit::Role::TextInput)
        .filter(|n| (n.rect().center().y - id_cell.center().y).abs() < 4.0)
        .filter(|n| n.value().as_deref() == Some(""))
        .map(|n| n.rect())
        .collect();
    let fare_x = header(&h).center().x;
    let fare = fare_cells
        .iter()
        .find(|r| r.min.x <= fare_x && fare_x <= r.max.x)
        .copied()
        .expect("the new card's fare cell");
    h.hover_at(fare.center());
    h.event(egui::Event::PointerButton {
        pos: fare.center(),
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.event(egui::Event::PointerButton {
        pos: fare.center(),
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    h.event(egui::Event::Text("3".into()));
    h.step();
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    let fare_of_new = |s: &Studio| {
        let c = s.project.as_ref()?.content.as_ref()?;
        let d = c.catalog.deck("passengers")?;
        let (_, e) = d.cards.iter().find(|(i, _)| i == "passengers-new-1")?;
        e.value.get("fare").and_then(|v| v.as_integer())
    };
    assert_eq!(fare_of_new(h.state().as_ref().unwrap()), Some(3));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn each_deck_keeps_its_own_filter_and_an_empty_result_says_no_matches() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    open_deck(&mut h, "passengers");
    h.get_by_label("Filter").click();
    h.step();
    h.get_by_label("Filter").type_text("zebra");
    settle(&mut h);
    assert!(
        h.query_by_label_contains("No matches for “zebra”")
            .is_some()
    );
    assert!(h.query_all_by_value("Squirrel Courier").next().is_none());
    // Another deck has its own filter, empty.
    h.get_by_label_contains("taxis (").click();
    settle(&mut h);
    assert_eq!(h.get_by_label("Filter").value().as_deref(), Some(""));
    assert!(h.query_by_label_contains("No matches").is_none());
    // Back: the passengers' filter is still there.
    h.get_by_label_contains("passengers (").click();
    settle(&mut h);
    assert_eq!(h.get_by_label("Filter").value().as_deref(), Some("zebra"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_track_piece_is_previewed_alone_on_the_table() {
    // Dicey Curves' start lies many card lengths out on its 32 x 28 table; the piece alone is
    // laid on a small one, where that start would be off the table.
    let mut h = studio("dicey-curves".into());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    h.get_by_label("This piece alone").click();
    h.step();
    let pieces: Vec<(String, String, u32, u32)> =
        match &live(h.state().as_ref().unwrap()).unwrap().board {
            farebox::content::def::BoardDef::Track(t) => t
                .pieces
                .iter()
                .map(|p| (p.id.clone(), p.name.clone(), p.lanes, p.rows))
                .collect(),
            _ => panic!("Dicey Curves has a track"),
        };
    assert!(pieces.len() >= 18, "{pieces:?}");
    for (id, name, lanes, rows) in pieces {
        // The piece as the list in the tools panel picks it.
        h.state_mut().as_mut().unwrap().board.piece = Some(id.clone());
        h.step();
        h.step();
        assert!(
            h.query_by_label_contains("No track laid yet").is_none()
                && h.query_by_label_contains("cannot be laid").is_none(),
            "{id} is not shown alone"
        );
        h.get_by_label(&format!("{name}: {lanes} lanes, {rows} rows"));
    }
}

#[test]
fn a_reference_cell_lists_what_it_may_name_by_the_content_s_names_and_writes_the_id() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    open_deck(&mut h, "road-tiles");
    // The first card's tile cell shows its tile by the tile's name, with the id it holds.
    h.query_all_by_value("Crossroads (cs-t1)")
        .next()
        .expect("the first card's tile cell")
        .click();
    settle(&mut h);
    // Its list names every tile so, a pothole among them.
    assert!(
        h.query_by_label("cs-t12").is_none(),
        "a bare id in the list"
    );
    let pothole: Vec<_> = h.query_all_by_label("Pothole (cs-t12)").collect();
    assert_eq!(pothole.len(), 1, "{pothole:?}");
    pothole[0].click();
    settle(&mut h);
    // Choosing it writes the id.
    until(&mut h, "the card's tile changed", |s| {
        live(s).is_some_and(|d| {
            d.decks.iter().flat_map(|x| &x.cards).any(|c| {
                c.id == "cs-t1" && c.fields.get("tile").and_then(|v| v.as_str()) == Some("cs-t12")
            })
        })
    });
    let _ = std::fs::remove_dir_all(dir);
}

/// A reference to a tile shows the tile as the board draws it, beside its name, in the cell
/// and in every choice of its list.
#[test]
fn a_tile_reference_shows_the_tile_it_names() {
    let mut h = studio("curbside".into());
    until(&mut h, "the mod loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    h.get_by_label("Decks & tables").click();
    h.step();
    h.step();
    h.get_by_label_contains("road-tiles (").click();
    h.step();
    h.step();
    // Each card's cell shows its tile (Curbside's road tiles: one card a tile).
    assert!(h.query_by_label("picture of Crossroads").is_some());
    assert!(h.query_by_label("picture of Bend").is_some());
    let before = h.query_all_by_label("picture of Bend").count();
    // Opening a cell's list shows every tile beside its name.
    h.query_all_by_value("Crossroads (cs-t1)")
        .next()
        .expect("the first card's tile cell")
        .click();
    h.step();
    h.step();
    assert!(h.query_all_by_label("picture of Bend").count() > before);
}

/// A field with a list of choices is picked from them by the words on the card (the file gets
/// the id), and a number between two bounds is dragged or typed within them.
#[test]
fn typed_fields_are_picked_by_their_labels_and_kept_in_their_range() {
    let (_dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    h.get_by_label("Decks & tables").click();
    h.step();
    h.step();
    h.get_by_label_contains("chance (").click();
    h.step();
    h.step();
    let field = |s: &Studio, deck: &str, card: &str, f: &str| {
        live(s).and_then(|d| {
            d.decks
                .iter()
                .find(|x| x.id == deck)?
                .cards
                .iter()
                .find(|c| c.id == card)?
                .fields
                .get(f)
                .cloned()
        })
    };
    // Traffic Jam's effect reads as its label; another label is chosen from the list.
    h.query_all_by_value("skip your next turn")
        .next()
        .expect("the effect shown by its label")
        .click();
    h.step();
    h.step();
    h.get_all_by_label("free moves").last().unwrap().click();
    until(&mut h, "the effect changed", |s| {
        field(s, "chance", "traffic-jam", "effect")
            .is_some_and(|v| v == farebox::value::Value::Str("free-moves".into()))
    });
    // A movement card's moves (1 to 6) is a number picker that knows its range, and cannot
    // be typed past 6.
    h.get_by_label_contains("movement (").click();
    h.step();
    h.step();
    {
        use egui_kittest::kittest::NodeT;
        let node = h
            .query_all_by_value("6")
            .last()
            .expect("Full Throttle's moves");
        let a = node.accesskit_node();
        assert_eq!(
            (a.min_numeric_value(), a.max_numeric_value()),
            (Some(1.0), Some(6.0)),
            "the moves cell picks within 1 to 6"
        );
    }
    let mut node = h
        .query_all_by_value("6")
        .last()
        .expect("Full Throttle's moves");
    node.click();
    h.step();
    node = h.query_all_by_value("6").last().unwrap();
    node.type_text("9");
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
    let moves = field(h.state().as_ref().unwrap(), "movement", "move-6", "moves");
    assert_eq!(
        moves,
        Some(farebox::value::Value::Int(6)),
        "kept within 1 to 6"
    );
}
