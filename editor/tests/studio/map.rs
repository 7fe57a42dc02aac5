//! Several spaces of a map edited at once: picked by Shift+click or a box, moved together
//! (snapped to a grid), aligned and distributed, a property set on all of them, copied and
//! pasted with their roads, and deleted; each change one undo step.

use std::collections::BTreeSet;

use super::edit::drag;
use super::*;
use farebox::content::def::{BoardDef, GraphDef};

fn map(s: &Studio) -> Option<&GraphDef> {
    match &live(s)?.board {
        BoardDef::Graph(g) => Some(g),
        _ => None,
    }
}

/// A live space's position and `region`.
fn space(s: &Studio, id: &str) -> Option<(f64, f64, String)> {
    let sp = map(s)?.spaces.iter().find(|sp| sp.id == id)?;
    let region = sp
        .props
        .get("region")
        .map(|v| v.to_string())
        .unwrap_or_default();
    Some((sp.x, sp.y, region))
}

fn x_of(s: &Studio, id: &str) -> f64 {
    space(s, id).map_or(f64::NAN, |p| p.0)
}

fn undo(h: &mut H) {
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.step();
}

fn shift_click(h: &mut H, label: &str) {
    h.get_by_label(label)
        .click_modifiers(egui::Modifiers::SHIFT);
    h.step();
    h.step();
}

/// Critter Cab's map on screen: the screen point of a map point, from where two spaces in
/// the middle of the map that the tests leave in place are drawn (Pebble Crossroads at 400,
/// 330 and Hazelnut Roundabout at 900, 540).
fn on_screen(h: &H) -> impl Fn(f64, f64) -> egui::Pos2 + use<> {
    let a = h.get_by_label("Pebble Crossroads").rect().center();
    let z = h.get_by_label("Hazelnut Roundabout").rect().center();
    let k = (z - a) / egui::vec2(500.0, 210.0);
    move |x, y| a + egui::vec2((x - 400.0) as f32 * k.x, (y - 330.0) as f32 * k.y)
}

/// What undo would take back.
fn last_step(h: &H) -> Option<String> {
    let c = h.state().as_ref()?.project.as_ref()?.content.as_ref()?;
    c.editor.history().undo_label().map(str::to_string)
}

fn picked(h: &H) -> BTreeSet<String> {
    h.state()
        .as_ref()
        .unwrap()
        .board
        .picked
        .iter()
        .map(|(_, id)| id.clone())
        .collect()
}

#[test]
fn spaces_picked_by_shift_click_are_aligned_distributed_and_given_a_property_at_once() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    settle(&mut h);
    h.get_by_label("Hootwood Lookout").click();
    h.step();
    shift_click(&mut h, "Toadstool Glade");
    shift_click(&mut h, "Acorn Square");
    settle(&mut h);
    assert!(h.query_by_label("3 spaces picked").is_some());
    // Shift+click on a picked space takes it out, and again puts it back.
    shift_click(&mut h, "Acorn Square");
    assert!(h.query_by_label("2 spaces picked").is_some());
    shift_click(&mut h, "Acorn Square");
    settle(&mut h);
    // Aligned on the leftmost (Hootwood Lookout, x 120), then undone in one step.
    h.get_by_label("Align left").click();
    h.step();
    until(&mut h, "the three aligned left", |s| {
        ["hootwood-lookout", "toadstool-glade", "acorn-square"]
            .iter()
            .all(|id| x_of(s, id) == 120.0)
    });
    assert_eq!(last_step(&h).as_deref(), Some("Align 2 spaces"));
    undo(&mut h);
    until(&mut h, "the alignment undone", |s| {
        x_of(s, "toadstool-glade") == 250.0 && x_of(s, "acorn-square") == 300.0
    });
    // Spread evenly across: the middle one (Toadstool Glade) half way from 120 to 300.
    h.get_by_label("Distribute across").click();
    h.step();
    until(&mut h, "the three distributed", |s| {
        x_of(s, "toadstool-glade") == 210.0
    });
    // Their regions differ (forest, forest, town): the field says "mixed"; typing a region
    // sets it on all three as one step.
    let region = h
        .query_all_by_label("region")
        .find(|n| {
            egui_kittest::kittest::NodeT::accesskit_node(n).role()
                == egui::accesskit::Role::TextInput
        })
        .unwrap();
    assert_eq!(
        egui_kittest::kittest::NodeT::accesskit_node(&region).placeholder(),
        Some("mixed")
    );
    type_into(&mut h, "region", "meadow");
    h.key_press(egui::Key::Enter);
    h.step();
    until(&mut h, "the region set on all three", |s| {
        ["hootwood-lookout", "toadstool-glade", "acorn-square"]
            .iter()
            .all(|id| space(s, id).is_some_and(|p| p.2 == "meadow"))
    });
    assert_eq!(
        space(h.state().as_ref().unwrap(), "beaverbank-mill").map(|p| p.2),
        Some("forest".to_string())
    );
    undo(&mut h);
    until(&mut h, "the region undone on all three", |s| {
        space(s, "acorn-square").is_some_and(|p| p.2 == "town")
            && space(s, "hootwood-lookout").is_some_and(|p| p.2 == "forest")
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_box_of_spaces_is_moved_on_the_grid_copied_with_its_roads_pasted_and_deleted() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    settle(&mut h);
    // A box from the empty top-left corner of the map over the forest.
    let at = on_screen(&h);
    drag(&mut h, at(20.0, 10.0), at(265.0, 215.0));
    h.step();
    let inside: BTreeSet<String> = map(h.state().as_ref().unwrap())
        .unwrap()
        .spaces
        .iter()
        .filter(|sp| (20.0..=265.0).contains(&sp.x) && (10.0..=215.0).contains(&sp.y))
        .map(|sp| sp.id.clone())
        .collect();
    assert!(inside.len() >= 3, "{inside:?}");
    assert!(inside.contains("hootwood-lookout") && inside.contains("toadstool-glade"));
    assert_eq!(picked(&h), inside);
    let n = inside.len();
    assert!(h.query_by_label(&format!("{n} spaces picked")).is_some());
    // Snapping on (the map's grid is 50 units): Hootwood Lookout dragged by (33, 17) lands
    // on (150, 150), and every picked space moves as far, in one step.
    h.get_by_label("Snap to grid").click();
    h.step();
    let before: Vec<(String, f64, f64)> = map(h.state().as_ref().unwrap())
        .unwrap()
        .spaces
        .iter()
        .filter(|sp| inside.contains(&sp.id))
        .map(|sp| (sp.id.clone(), sp.x, sp.y))
        .collect();
    let from = h.get_by_label("Hootwood Lookout").rect().center();
    drag(&mut h, from, from + (at(153.0, 127.0) - at(120.0, 110.0)));
    until(&mut h, "the picked spaces moved by (30, 40)", |s| {
        before
            .iter()
            .all(|(id, x, y)| space(s, id).is_some_and(|p| p.0 == x + 30.0 && p.1 == y + 40.0))
    });
    assert_eq!(last_step(&h), Some(format!("Move {n} spaces")));
    // Copied, and pasted with the pointer over the river in the middle of the map.
    let roads_inside = |g: &GraphDef, ids: &BTreeSet<String>| {
        g.edges
            .iter()
            .filter(|e| ids.contains(&g.spaces[e.from].id) && ids.contains(&g.spaces[e.to].id))
            .count()
    };
    let roads = roads_inside(map(h.state().as_ref().unwrap()).unwrap(), &inside);
    assert!(roads >= 2, "{roads}");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    h.step();
    // The note saying what was copied takes a line above the board, which fits again.
    assert!(h.query_by_label_contains("Copied").is_some());
    settle(&mut h);
    let at = on_screen(&h);
    h.hover_at(at(600.0, 250.0));
    h.step();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::V);
    h.step();
    let copies: BTreeSet<String> = inside.iter().map(|id| format!("{id}-2")).collect();
    until(&mut h, "the copies and their roads live", |s| {
        map(s).is_some_and(|g| {
            copies
                .iter()
                .all(|id| g.spaces.iter().any(|sp| sp.id == *id))
                && roads_inside(g, &copies) == roads
        })
    });
    // The copies are picked, and keep their shape: the copy of Hootwood Lookout is as far
    // from the copy of Toadstool Glade as the originals are.
    assert_eq!(picked(&h), copies);
    let s = h.state().as_ref().unwrap();
    let gap = |a: &str, b: &str| {
        let (p, q) = (space(s, a).unwrap(), space(s, b).unwrap());
        (q.0 - p.0, q.1 - p.1)
    };
    assert_eq!(
        gap("hootwood-lookout", "toadstool-glade"),
        gap("hootwood-lookout-2", "toadstool-glade-2")
    );
    let top_left = copies
        .iter()
        .map(|id| space(s, id).unwrap())
        .fold((f64::MAX, f64::MAX), |(x, y), p| (x.min(p.0), y.min(p.1)));
    assert!(
        (top_left.0 - 600.0).abs() <= 2.0 && (top_left.1 - 250.0).abs() <= 2.0,
        "{top_left:?}"
    );
    // Saved as an author writes a space: one line each, beside the others.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.step();
    let file = std::fs::read_to_string(folder.join("board.toml")).unwrap();
    assert!(
        file.contains("{ id = \"hootwood-lookout-2\", name = \"Hootwood Lookout\", x = "),
        "{file}"
    );
    // Delete takes every copy (and their roads) away in one step.
    h.key_press(egui::Key::Delete);
    h.step();
    until(&mut h, "the copies deleted", |s| {
        map(s).is_some_and(|g| !g.spaces.iter().any(|sp| copies.contains(&sp.id)))
    });
    undo(&mut h);
    until(&mut h, "the copies back", |s| {
        map(s).is_some_and(|g| {
            copies
                .iter()
                .all(|id| g.spaces.iter().any(|sp| sp.id == *id))
        })
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_zoomed_in_map_shows_a_minimap_that_moves_the_view_and_a_search_finds_a_space() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    settle(&mut h);
    // The whole map in view: no minimap.
    assert!(h.query_by_label("Minimap").is_none());
    // Zoomed in on the middle, part of the map is out of view and the minimap shows.
    let middle = on_screen(&h)(600.0, 400.0);
    h.hover_at(middle);
    h.step();
    h.event(egui::Event::Zoom(3.0));
    h.step();
    settle(&mut h);
    until_shown(&mut h, "Minimap");
    let board = |h: &H| h.state().as_ref().unwrap().board.view_center();
    let before = board(&h);
    // A click near the minimap's bottom-right corner moves the view to the south-east.
    let map = h.get_by_label("Minimap").rect();
    let at = map.min + map.size() * egui::vec2(0.9, 0.9);
    h.hover_at(at);
    h.step();
    h.drag_at(at);
    h.step();
    h.drop_at(at);
    h.step();
    let after = board(&h);
    assert!(
        after.0 > 950.0 && after.1 > 600.0 && after != before,
        "{before:?} -> {after:?}"
    );
    // The click on the minimap did not drop a selection box or pick anything.
    assert!(picked(&h).is_empty());
    // Find: "hoot" lists Hootwood Lookout; picking it selects it and centres the view on it.
    type_into(&mut h, "Find", "hoot");
    settle(&mut h);
    h.get_by_label("Hootwood Lookout (hootwood-lookout) · stand, perch")
        .click();
    h.step();
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Space hootwood-lookout")
            .is_some()
    );
    assert_eq!(board(&h), (120.0, 110.0));
    // A tag finds every space that carries it.
    type_into(&mut h, "Find", "chance");
    settle(&mut h);
    assert_eq!(h.query_all_by_label_contains(" · chance").count(), 8);
    let _ = std::fs::remove_dir_all(dir);
}

/// A card of Critter Cab's passengers deck: its destinations as the live version has them.
fn destinations(s: &Studio, card: &str) -> Option<String> {
    let d = live(s)?.decks.iter().find(|d| d.id == "passengers")?;
    let c = d.cards.iter().find(|c| c.id == card)?;
    c.fields.get("destinations").map(|v| v.to_string())
}

#[test]
fn a_cards_spaces_are_picked_on_the_board() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    h.get_by_label("Decks & tables").click();
    settle(&mut h);
    h.get_by_label_contains("passengers (").click();
    settle(&mut h);
    assert_eq!(
        destinations(h.state().as_ref().unwrap(), "squirrel-courier").as_deref(),
        Some("[acorn-square, otter-wharf]")
    );
    // The first card's destinations: "Pick" shows the board, asking for two spaces.
    h.get_all_by_label("Pick").next().unwrap().click();
    h.step();
    settle(&mut h);
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Board);
    assert!(
        h.query_by_label_contains(
            "Click 2 spaces on the board for destinations of squirrel-courier"
        )
        .is_some()
    );
    h.get_by_label("Lilypad Lido").click();
    h.step();
    settle(&mut h);
    assert!(h.query_by_label("Picked: lilypad-lido").is_some());
    h.get_by_label("Badger Heights").click();
    h.step();
    // Both picked: the card has them, and Decks & tables is back.
    until(&mut h, "the destinations picked", |s| {
        destinations(s, "squirrel-courier").as_deref() == Some("[lilypad-lido, badger-heights]")
    });
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Data);
    let _ = std::fs::remove_dir_all(dir);
}

/// A space of Taxi Derby's Old Quarter section, in the section's own coordinates.
fn old_quarter(s: &Studio, id: &str) -> Option<(f64, f64)> {
    let BoardDef::Sections(x) = &live(s)?.board else {
        return None;
    };
    let sec = x.sections.iter().find(|sec| sec.id == "old-quarter")?;
    let sp = sec.graph.spaces.iter().find(|sp| sp.id == id)?;
    Some((sp.x, sp.y))
}

#[test]
fn spaces_of_a_section_are_aligned_in_the_sections_own_coordinates() {
    let (dir, folder) = copy_of("taxi-derby");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Board");
    settle(&mut h);
    // The Old Quarter lies at (8, 8) on the board; its spaces are written from its corner.
    assert_eq!(
        old_quarter(h.state().as_ref().unwrap(), "oq-h1-4"),
        Some((7.0, 2.0))
    );
    h.get_by_label("Red Depot, front").click();
    h.step();
    shift_click(&mut h, "Red Depot, side");
    settle(&mut h);
    assert!(h.query_by_label("2 spaces picked").is_some());
    h.get_by_label("Align left").click();
    h.step();
    until(&mut h, "both at the left one's x, in the section", |s| {
        old_quarter(s, "oq-h1-4") == Some((6.0, 2.0))
            && old_quarter(s, "oq-v3-1").is_some_and(|p| p.0 == 6.0)
    });
    let _ = std::fs::remove_dir_all(dir);
}
