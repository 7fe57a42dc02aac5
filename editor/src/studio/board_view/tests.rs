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
    sized_harness(t, out, board, egui::vec2(1100.0, 760.0))
}

fn sized_harness<'a>(
    t: Table<'a>,
    out: &'a RefCell<Vec<BoardResponse>>,
    board: bool,
    size: egui::Vec2,
) -> Harness<'a> {
    let mut camera = Camera::default();
    Harness::builder().with_size(size).build_ui(move |ui| {
        let scene = Scene {
            def: t.def,
            board: t.board,
            view: t.view,
            actionable: t.actionable,
            banner: Some("Content only: this game's rules are not written yet"),
            lit: &[],
            moved: &[],
            offers: &[],
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
    h.get_by_label("Gentle Left (card 3), right lane, row 1 of 2")
        .click();
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
        lit: &[],
        moved: &[],
        offers: &[],
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

/// Every text the last frame painted: what it says, where, how big, and the rect it was
/// clipped to, in painting order.
fn texts(h: &Harness<'_>) -> Vec<(String, Rect, f32, Rect)> {
    fn walk(shape: &egui::Shape, clip: Rect, out: &mut Vec<(String, Rect, f32, Rect)>) {
        match shape {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            egui::Shape::Text(t) => {
                let size = t
                    .galley
                    .job
                    .sections
                    .first()
                    .map_or(0.0, |s| s.format.font_id.size);
                let rect = t.galley.rect.translate(t.pos.to_vec2());
                out.push((t.galley.text().to_string(), rect, size, clip));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

/// The board of a state, fitted in a view the size of the Studio's table beside its side
/// panels (a 1280-point window), in a harness; its painted texts after a few frames.
fn painted(def: &GameDef, state: &State, view: &View) -> Vec<(String, Rect, f32, Rect)> {
    let out = RefCell::new(Vec::new());
    let t = Table {
        def,
        board: &state.board,
        view,
        actionable: &[],
    };
    let mut h = sized_harness(t, &out, true, egui::vec2(620.0, 760.0));
    h.run();
    texts(&h)
}

#[test]
fn a_piece_on_a_plain_road_space_is_drawn_with_its_letter_over_the_names() {
    // Critter Cab's cab on a plain road at Fit zoom, and Taxi Derby's patrol car on one.
    for (game, kind, at, letter) in [
        ("critter-cab", "cab", "fernway-1", "F"),
        ("taxi-derby", "patrol-car", "hb-h2-3", "P"),
    ] {
        let def = load(game);
        let mut state = start(&def);
        let road = space(&state.board, at);
        assert!(
            state.board.graph.spaces[road as usize].tags.is_empty(),
            "{at} is not plain road"
        );
        let Some(k) = def.piece(kind) else {
            panic!("no {kind}")
        };
        let Some(p) = state.pieces.iter_mut().find(|p| p.def as usize == k) else {
            panic!("no {kind} in play")
        };
        p.at = Some(road);
        let view = view_of(&def, &state, &[], Some(0));
        let texts = painted(&def, &state, &view);
        let mark = texts
            .iter()
            .rposition(|(t, _, size, _)| t == letter && *size >= 9.0);
        let Some(mark) = mark else {
            panic!("{game}: the {kind} has no readable letter {letter}")
        };
        // Drawn after (over) every space's name.
        let names: Vec<&str> = state
            .board
            .graph
            .spaces
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        let last_name = texts.iter().rposition(|(t, ..)| {
            t.len() >= 3
                && names
                    .iter()
                    .any(|n| !n.is_empty() && n.starts_with(t.as_str()))
        });
        assert!(
            last_name.is_none_or(|n| n < mark),
            "{game}: a name is drawn over the {kind}"
        );
        assert!(texts[mark].1.width() >= 5.0);
    }
}

#[test]
fn every_space_name_is_written_inside_the_view() {
    for game in ["taxi-derby", "critter-cab"] {
        let def = load(game);
        let state = start(&def);
        let view = view_of(&def, &state, &[], Some(0));
        let names: Vec<&str> = state
            .board
            .graph
            .spaces
            .iter()
            .map(|s| s.name.as_str())
            .filter(|n| !n.is_empty())
            .collect();
        let texts = painted(&def, &state, &view);
        let mut seen = 0;
        for (t, rect, _, clip) in &texts {
            if !names.iter().any(|n| n.starts_with(t.as_str())) || t.len() < 3 {
                continue;
            }
            seen += 1;
            assert!(
                clip.expand(0.5).contains_rect(*rect),
                "{game}: `{t}` at {rect:?} runs out of the view {clip:?}"
            );
        }
        assert!(seen > 5, "{game}: only {seen} names written");
    }
}

#[test]
fn critter_cabs_stands_and_chance_spaces_are_named_at_fit_zoom() {
    let def = load("critter-cab");
    let state = start(&def);
    let view = view_of(&def, &state, &[], Some(0));
    let texts = painted(&def, &state, &view);
    for sp in state
        .board
        .graph
        .spaces
        .iter()
        .filter(|s| s.tags.iter().any(|t| t == "stand" || t == "chance"))
    {
        // The name, or its first word when the whole name has no room.
        let first = sp.name.split_whitespace().next().unwrap_or_default();
        assert!(
            texts
                .iter()
                .any(|(t, ..)| *t == sp.name || (t.as_str() == first)),
            "{} is not named",
            sp.name
        );
    }
}

#[test]
fn cards_read_their_fields_as_people_do_and_identical_ones_stack() {
    let def = load("critter-cab");
    let mut state = start(&def);
    // Three of one movement card and a passenger card in the first seat's hand.
    let (Some(hand), Some(deck)) = (def.zone("movement-hand"), def.zone("movement-deck")) else {
        panic!("no movement zones")
    };
    let hand = state
        .zones
        .iter()
        .position(|z| z.def as usize == hand && z.owner == Some(0))
        .unwrap_or_else(|| panic!("no hand of seat 0"));
    let deck_i = state
        .zones
        .iter()
        .position(|z| z.def as usize == deck)
        .unwrap_or_else(|| panic!("no movement deck"));
    let Some(card) = state.zones[deck_i].cards.first().cloned() else {
        panic!("empty movement deck")
    };
    state.zones[hand].cards = vec![card; 3];
    let view = view_of(&def, &state, &[], Some(0));
    let zi = view
        .zones
        .iter()
        .position(|z| z.id == "movement-hand" && z.owner == Some(0))
        .unwrap_or_else(|| panic!("no hand in the view"));
    let id = view.zones[zi].cards[0].clone();
    let Some((_, c)) = crate::card_brief::find(&def, None, &id) else {
        panic!("no card {id}")
    };
    // Only the second copy is named by an action: the stack is still playable.
    let actionable = [Spot::Card { zone: zi, index: 1 }];
    let out = RefCell::new(Vec::new());
    let t = Table {
        def: &def,
        board: &state.board,
        view: &view,
        actionable: &actionable,
    };
    let mut h = harness(t, &out, false);
    h.run();
    assert_eq!(h.query_all_by_label(&c.name).count(), 1, "copies repeat");
    let texts: Vec<String> = texts(&h).into_iter().map(|t| t.0).collect();
    assert!(texts.iter().any(|t| t == "×3"), "no ×3 on the stack");
    h.get_by_label(&c.name).click();
    h.run();
    assert_eq!(clicked(&out), Some(Spot::Card { zone: zi, index: 1 }));
    // A taxi card face up: its fields read as words, never "name: value".
    assert!(
        texts
            .iter()
            .all(|t| !t.contains(": [") && !t.contains("vip_bonus:")),
        "raw fields shown: {texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("capacity 4")),
        "no readable fields: {texts:?}"
    );
}

#[test]
fn a_seat_s_car_keeps_its_own_colour_and_a_taxi_takes_its_seat_s() {
    // Dicey Curves: in a two-seat race Red drives the Red and the Yellow Racer.
    let def = Arc::new(load("dicey-curves"));
    let game = match Game::new(def.clone(), Setup::new(2, 7)) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    let view = game.view(None);
    let scene = Scene {
        def: &def,
        board: &game.state().board,
        view: &view,
        actionable: &[],
        banner: None,
        lit: &[],
        moved: &[],
        offers: &[],
    };
    let Some(yellow) = view.pieces.iter().find(|p| p.kind == "car-yellow") else {
        panic!("no yellow car")
    };
    assert_eq!(yellow.owner, Some(0), "Red drives the Yellow Racer");
    let own = pieces::kind_color(&def, "car-yellow");
    assert!(own.is_some());
    assert_eq!(Some(pieces::piece_color(&scene, yellow)), own);
    assert_ne!(pieces::piece_color(&scene, yellow), seat_color(&def, 0));
    // Curbside's taxis have no colour of their own: each is its seat's.
    let def = Arc::new(load("curbside"));
    let game = match Game::new(def.clone(), Setup::new(2, 7)) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    let view = game.view(None);
    let scene = Scene {
        def: &def,
        board: &game.state().board,
        view: &view,
        actionable: &[],
        banner: None,
        lit: &[],
        moved: &[],
        offers: &[],
    };
    for p in view.pieces.iter().filter(|p| p.kind == "taxi") {
        let Some(o) = p.owner else {
            panic!("a taxi of no seat")
        };
        assert_eq!(pieces::piece_color(&scene, p), seat_color(&def, o));
    }
}
