//! The board view drawn for every bundled board kind, driven through egui_kittest: the spots a
//! person may act on are widgets found by their names, and clicking one reports it.

use std::cell::RefCell;
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use farebox::content::def::BoardDef;
use farebox::game::{Game, Setup, initial_state, view_of};
use farebox::state::State;

use super::*;

fn load(name: &str) -> GameDef {
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let found = farebox::content::load_mod(
        &farebox::source::FsSource::new(format!("{mods}/{name}")),
        &farebox::source::FolderResolver::new(mods),
    );
    match found {
        Ok(def) => def,
        Err(e) => panic!("{name} does not load: {e:?}"),
    }
}

fn start(def: &GameDef) -> State {
    match initial_state(def, &Setup::new(2, 7)) {
        Ok(s) => s,
        Err(e) => panic!("no initial state: {e}"),
    }
}

/// Shows `board_view::show` for a state and hands back every frame's response.
struct Table<'a> {
    def: &'a GameDef,
    board: &'a Board,
    view: &'a View,
    actionable: &'a [Spot],
}

fn harness<'a>(t: Table<'a>, out: &'a RefCell<Vec<BoardResponse>>, board: bool) -> Harness<'a> {
    let mut camera = Camera::default();
    Harness::builder()
        .with_size(egui::vec2(1100.0, 760.0))
        .build_ui(move |ui| {
            let scene = Scene {
                def: t.def,
                board: t.board,
                view: t.view,
                actionable: t.actionable,
                banner: Some("Content only: this game's rules are not written yet"),
            };
            let r = if board {
                show(ui, &mut camera, &scene)
            } else {
                zones_ui(ui, &scene)
            };
            out.borrow_mut().push(r);
        })
}

fn clicked(out: &RefCell<Vec<BoardResponse>>) -> Option<Spot> {
    out.borrow().iter().find_map(|r| r.clicked)
}

fn space(board: &Board, id: &str) -> u32 {
    match board.graph.find(id) {
        Some(s) => s,
        None => panic!("no space {id}"),
    }
}

#[test]
fn a_grid_cell_is_a_button_named_x_y() {
    let def = Arc::new(load("curbside"));
    let game = match Game::new(def.clone(), Setup::new(2, 7)) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    let view = game.view(Some(0));
    let board = &game.state().board;
    let Some(cell) = board.cell(2, 1) else {
        panic!("no cell 2,1")
    };
    let actionable = [Spot::Space(cell)];
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(t, &out, true);
    h.run();
    h.get_by_label("2,1").hover();
    h.run();
    assert!(
        out.borrow()
            .iter()
            .any(|r| r.hovered == Some(Spot::Space(cell)))
    );
    h.get_by_label("2,1").click();
    h.run();
    assert_eq!(clicked(&out), Some(Spot::Space(cell)));
    // Only actionable cells are buttons.
    assert!(h.query_by_label("3,3").is_none());
}

#[test]
fn a_graph_space_is_found_by_its_name() {
    let def = load("critter-cab");
    let mut state = start(&def);
    let acorn = space(&state.board, "acorn-square");
    // A cab on a stand, so pieces are drawn too.
    if let Some(p) = state.pieces.first_mut() {
        p.at = Some(space(&state.board, "otter-wharf"));
    }
    let view = view_of(&def, &state, &[], Some(0));
    let actionable = [Spot::Space(acorn)];
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(t, &out, true);
    h.run();
    h.get_by_label("Acorn Square").click();
    h.run();
    assert_eq!(clicked(&out), Some(Spot::Space(acorn)));
}

#[test]
fn a_sections_space_is_found_by_its_name() {
    let def = load("taxi-derby");
    let state = start(&def);
    let store = space(&state.board, "hb-h2-4");
    let view = view_of(&def, &state, &[], Some(0));
    let actionable = [Spot::Space(store)];
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(t, &out, true);
    h.run();
    h.get_by_label("Saltair Motor Works ($2)").click();
    h.run();
    assert_eq!(clicked(&out), Some(Spot::Space(store)));
}

#[test]
fn a_laid_track_is_drawn_and_its_spaces_clicked() {
    let def = load("dicey-curves");
    let mut state = start(&def);
    let BoardDef::Track(t) = &def.board else {
        panic!("not a track")
    };
    for id in ["start-grid", "straight-2-long", "gentle-left", "hard-right"] {
        let Some(i) = t.pieces.iter().position(|p| p.id == id) else {
            panic!("no {id}")
        };
        let Some(piece) = t.pieces.get(i) else {
            panic!("no {id}")
        };
        assert!(
            state.board.attach_track(i, piece).is_ok(),
            "{id} does not fit"
        );
    }
    // A car on the grid and one on the curve.
    for (k, at) in [(0, 0), (1, 12)] {
        if let Some(p) = state.pieces.get_mut(k) {
            p.at = Some(at);
        }
    }
    let target = space(&state.board, "t2-l1-r0");
    let view = view_of(&def, &state, &[], Some(0));
    let actionable = [Spot::Space(target)];
    let out = RefCell::new(Vec::new());
    let tb = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(tb, &out, true);
    h.run();
    h.get_by_label("piece 3 lane 2 row 1").click();
    h.run();
    assert_eq!(clicked(&out), Some(Spot::Space(target)));
}

#[test]
fn an_empty_track_table_draws() {
    let def = load("dicey-curves");
    let state = start(&def);
    let view = view_of(&def, &state, &[], Some(0));
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &[],
    };
    let mut h = harness(t, &out, true);
    h.run();
    assert!(h.query_by_label("Fit").is_some());
}

#[test]
fn face_down_cards_keep_their_names_hidden() {
    let def = load("critter-cab");
    let state = start(&def);
    let view = view_of(&def, &state, &[], Some(0));
    let Some(taxis) = view.zones.iter().position(|z| z.id == "taxi-supply") else {
        panic!("no taxi cards")
    };
    let actionable = [Spot::Card {
        zone: taxis,
        index: 0,
    }];
    let first = view
        .zones
        .get(taxis)
        .and_then(|z| {
            z.cards
                .first()
                .map(|c| cards::card_name(&scene_of(&def, &state, &view), z, c))
        })
        .unwrap_or_default();
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(t, &out, false);
    h.run();
    // The public taxi cards are face up, the shuffled passenger deck face down.
    assert!(h.query_by_label("Limousine").is_some());
    let Some(deck) = def.deck("passengers").and_then(|d| def.decks.get(d)) else {
        panic!("no passenger deck")
    };
    for c in &deck.cards {
        assert!(
            h.query_by_label(&c.name).is_none(),
            "{} is shown face up",
            c.name
        );
    }
    assert!(h.query_by_label("48 face down").is_some());
    h.get_by_label(&first).click();
    h.run();
    assert_eq!(
        clicked(&out),
        Some(Spot::Card {
            zone: taxis,
            index: 0
        })
    );
}

fn scene_of<'a>(def: &'a GameDef, state: &'a State, view: &'a View) -> Scene<'a> {
    Scene {
        def,
        board: &state.board,
        view,
        actionable: &[],
        banner: None,
    }
}

#[test]
fn a_game_without_a_board_shows_its_cards() {
    let def = load("wheres-my-ride");
    let mut state = start(&def);
    // Deal three locations face up, as a round does.
    let (Some(from), Some(to)) = (def.zone("location-deck"), def.zone("candidates")) else {
        panic!("no location zones")
    };
    let dealt: Vec<_> = (0..3)
        .filter_map(|_| state.zones.get_mut(from).and_then(|z| z.cards.pop()))
        .collect();
    if let Some(z) = state.zones.get_mut(to) {
        z.cards.extend(dealt);
    }
    let view = view_of(&def, &state, &[], Some(0));
    let Some(shown) = view.zones.get(to).and_then(|z| z.cards.first()).cloned() else {
        panic!("nothing dealt")
    };
    let name = view
        .zones
        .get(to)
        .map(|z| cards::card_name(&scene_of(&def, &state, &view), z, &shown))
        .unwrap_or_default();
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &[],
    };
    let mut h = harness(t, &out, true);
    h.run();
    assert!(h.query_by_label(&name).is_some(), "{name} is not shown");
    assert!(h.query_by_label("27 face down").is_some());
}

#[test]
fn seats_named_after_colours_get_those_colours() {
    let curbside = load("curbside");
    assert_eq!(Some(seat_color(&curbside, 0)), name_color("yellow"));
    assert_eq!(Some(seat_color(&curbside, 3)), name_color("green"));
    // Animal seats get colours of their own, all different.
    let critters = load("critter-cab");
    let colors: Vec<Color32> = (0..4).map(|s| seat_color(&critters, s)).collect();
    for (i, a) in colors.iter().enumerate() {
        assert!(colors.iter().skip(i + 1).all(|b| b != a), "{colors:?}");
    }
}
