//! Curbside's rules: every rule ID of mods/curbside/RULES.md is proved by at least
//! one check below, which builds its situation through the script API (`Game::eval`, with the
//! rules' rights) and asserts the rule's effect. Numbers the rulebook gives (three actions, a
//! canteen's three gas, the destination board) are written here as the rulebook states them,
//! never read back from the content under test.
//!
//! Each check is a plain function of the game definition: the `#[test]`s run them on the mod
//! as shipped, and `every_broken_rule_is_caught` runs them on deliberately broken copies of it
//! (the mutants in `curbside/mutants.rs`, through `farebox_suite::rule_mutants`) and requires
//! every break to make a check of its rule fail.
//!
//! Each check is declared once, in the `farebox_suite::rule_checks!` block: `#[rules(...)]`
//! above its `fn` names the rule IDs it proves, and the block makes its `#[test]` and its
//! entry in `CHECKS`, the list the mutants run. The block's items are not indented, so they
//! read as the file's other items (rustfmt leaves a macro's body as written).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox::game::{Game, Setup};
use farebox::value::Value;
use farebox_suite::rule_kit::{self, act, has, int, offered, text};
use farebox_suite::rule_mutants;

#[path = "curbside/mutants.rs"]
mod curbside_mutants;

fn shipped() -> Arc<GameDef> {
    rule_kit::shipped("curbside")
}

const PRELUDE: &str = r#"
local function taxi(s) return game.pieces("taxi", s)[1] end
local function at(x, y) return game.cell(x, y) end
local function pass(i) return game.pieces("passenger")[i] end
local function dest(i) return game.prop(pass(i), "_dest") end
local function xy(c) if not c then return "off" end local x, y = game.xy(c) return x .. "," .. y end
-- Every passenger in play on row 5 and its destination on row 6, out of the way.
local function park()
  for i, p in game.pieces("passenger") do
    if game.prop(p, "_active") then
      game.move_piece(p, at(i, 5)); game.set_prop(p, "_from", at(i, 5)); game.move_piece(dest(i), at(i, 6))
    end
  end
end
local function road(x, y, tile, turns)
  if game.tile_at(at(x, y)) then game.remove_tile(at(x, y)) end
  game.place_tile(at(x, y), tile, turns or 0)
end
-- Puts a card with this id into a seat's hand from wherever it is.
local function give(card, seat)
  for _, z in { game.zone("deck"), game.zone("supply"), game.zone("used") } do
    if game.take_card(z, card, game.zone("hand", seat or 1)) then return end
  end
  error("no card " .. card .. " left to give")
end
-- A pothole on every cell but those listed: the dice can only land on those.
local function crowd(keep)
  for c = 1, game.space_count() do
    if not table.find(keep, c) then game.set_blocker(c, "cs-t12") end
  end
end
local function uncrowd() for c = 1, game.space_count() do game.set_blocker(c, nil) end end
-- Takes every copy of a card out of a zone (into the played tiles).
local function purge(zone, card)
  while game.take_card(zone, card, game.zone("used")) do end
end
"#;

fn game_on(def: &Arc<GameDef>, seats: u8, seed: u64) -> Game {
    Game::new(def.clone(), Setup::new(seats, seed)).unwrap_or_else(|e| panic!("{e}"))
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

/// The action that plays the first card of a kind in the acting seat's hand (`canteen`,
/// `pothole`, `reroute`), with `rest` after the card it names: "pothole cs-t12 5,6".
fn card_action(g: &mut Game, kind: &str, rest: &str) -> Option<String> {
    offered(g, &format!("{kind} ")).into_iter().find(|a| {
        let mut w = a.splitn(3, ' ');
        w.next();
        w.next();
        w.next().unwrap_or("") == rest
    })
}

fn play_card(g: &mut Game, kind: &str, rest: &str) {
    let a = card_action(g, kind, rest)
        .unwrap_or_else(|| panic!("no {kind} {rest}: {:?}", offered(g, kind)));
    act(g, &a);
}

/// What follows the card in the offered actions of a kind: "d2" of "reroute cs-t11 d2".
fn card_targets(g: &mut Game, kind: &str) -> Vec<String> {
    offered(g, &format!("{kind} "))
        .iter()
        .map(|a| a.splitn(3, ' ').nth(2).unwrap_or("").to_string())
        .collect()
}

/// A two-seat game with every passenger parked on rows 5 and 6; seat 1 (Yellow) to act, its
/// taxi on the crossroads at 1,1 with 12 gas and three actions.
fn road_game(def: &Arc<GameDef>) -> Game {
    let mut g = game_on(def, 2, 11);
    ev(&mut g, "park()");
    g
}

/// The destination board as the rulebook prints it: trip size -> (stars, gas).
const TRIP: [(i64, i64, i64); 5] = [(2, 1, 2), (3, 2, 3), (4, 3, 4), (5, 4, 5), (6, 5, 6)];

fn trip_for(size: i64) -> (i64, i64) {
    TRIP.iter()
        .find(|t| t.0 == size)
        .map(|t| (t.1, t.2))
        .unwrap_or_else(|| panic!("no trip of size {size}"))
}

/// Every active passenger's (cell, destination cell, stars, gas), as "x,y" names.
fn fares(g: &mut Game) -> Vec<(String, String, i64, i64)> {
    let v = ev(
        g,
        r#"local out = {}
        for i, p in game.pieces("passenger") do
          if game.prop(p, "_active") then
            table.insert(out, { xy(game.where_is(p)), xy(game.where_is(dest(i))), game.prop(p, "stars"), game.prop(p, "gas") })
          end
        end
        return out"#,
    );
    let Value::List(rows) = v else {
        panic!("{v:?}")
    };
    rows.into_iter()
        .map(|r| {
            let Value::List(r) = r else { panic!("{r:?}") };
            let mut it = r.into_iter();
            (
                text(it.next().unwrap()),
                text(it.next().unwrap()),
                int(it.next().unwrap()),
                int(it.next().unwrap()),
            )
        })
        .collect()
}

fn parse_xy(s: &str) -> (i64, i64) {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not a cell: {s}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

/// CS-D1 by the rulebook: the side of the smallest square covering both cells.
fn size_of(a: &str, b: &str) -> i64 {
    let (ax, ay) = parse_xy(a);
    let (bx, by) = parse_xy(b);
    (ax - bx).abs().max((ay - by).abs()) + 1
}

// ---- setup ------------------------------------------------------------------------------

farebox_suite::rule_checks! {
#[rules("CS-S1")]
fn s1_board_dice_and_players(def: &Arc<GameDef>) {
    // CS-S1: 6x6, 2-4 players, and the two dice address every column and row (the white
    // die gives x, the red y): over many setups, markers land in every column and row.
    let g = game_on(def, 2, 1);
    assert_eq!(g.state().board.space_count(), 36);
    assert!(Game::new(def.clone(), Setup::new(1, 1)).is_err());
    assert!(Game::new(def.clone(), Setup::new(5, 1)).is_err());
    assert!(Game::new(def.clone(), Setup::new(4, 1)).is_ok());
    let (mut xs, mut ys) = ([false; 7], [false; 7]);
    for seed in 0..60 {
        let mut g = game_on(def, 2, seed);
        for (p, d, _, _) in fares(&mut g) {
            for c in [p, d] {
                let (x, y) = parse_xy(&c);
                xs[x as usize] = true;
                ys[y as usize] = true;
            }
        }
    }
    assert_eq!(&xs[1..], &[true; 6], "columns hit by the white die");
    assert_eq!(&ys[1..], &[true; 6], "rows hit by the red die");
}

#[rules("CS-S2")]
fn s2_taxis_start_in_corners_on_crossroads(def: &Arc<GameDef>) {
    // CS-S2
    let mut g = game_on(def, 4, 3);
    let v = ev(
        &mut g,
        r#"local out = {} for s = 1, 4 do local c = game.where_is(taxi(s)); out[s] = xy(c) .. " " .. tostring(game.tile_at(c)) end return out"#,
    );
    assert_eq!(
        v,
        Value::List(
            ["1,1 cs-t1", "6,6 cs-t1", "6,1 cs-t1", "1,6 cs-t1"]
                .iter()
                .map(|s| Value::Str(s.to_string()))
                .collect()
        )
    );
    let tiles = int(ev(
        &mut g,
        "local n = 0 for _ in game.tiles() do n += 1 end return n",
    ));
    assert_eq!(tiles, 4, "only the four corner crossroads are laid");
}

#[rules("CS-S3")]
fn s3_gas_from_the_option_and_no_stars(def: &Arc<GameDef>) {
    // CS-S3
    let mut g = game_on(def, 2, 1);
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 12);
    assert_eq!(int(ev(&mut g, "return game.counter('stars', 2)")), 0);
    let mut g = Game::new(
        def.clone(),
        Setup::new(2, 1).option("starting-gas", Value::Int(20)),
    )
    .unwrap();
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 2)")), 20);
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 20);
}

#[rules("CS-S4")]
fn s4_one_more_passenger_than_players(def: &Arc<GameDef>) {
    // CS-S4
    for (seats, seed) in [(2u8, 1u64), (3, 2), (4, 3)] {
        let mut g = game_on(def, seats, seed);
        let f = fares(&mut g);
        assert_eq!(f.len(), seats as usize + 1, "{seats} players");
        assert!(
            f.iter().all(|(p, d, _, _)| p != "off" && d != "off"),
            "{f:?}"
        );
    }
}

#[rules("CS-S5")]
fn s5_passengers_and_destinations_are_rolled_apart(def: &Arc<GameDef>) {
    // CS-S5: never a destination on its own passenger, never a passenger on a taxi (and, as
    // designed, no two markers on one cell).
    for seed in 0..120 {
        let mut g = game_on(def, 4, seed);
        let taxis = ev(
            &mut g,
            "local out = {} for s = 1, 4 do table.insert(out, xy(game.where_is(taxi(s)))) end return out",
        );
        let Value::List(taxis) = taxis else { panic!() };
        let taxis: Vec<String> = taxis.into_iter().map(text).collect();
        let f = fares(&mut g);
        let mut cells = Vec::new();
        for (p, d, _, _) in &f {
            assert_ne!(p, d, "seed {seed}: a destination on its passenger");
            assert!(!taxis.contains(p), "seed {seed}: a passenger on a taxi");
            cells.push(p.clone());
            cells.push(d.clone());
        }
        let n = cells.len();
        cells.sort();
        cells.dedup();
        assert_eq!(
            cells.len(),
            n,
            "seed {seed}: two markers share a cell: {f:?}"
        );
    }
}

#[rules("CS-S6", "CS-D1")]
fn s6_d1_trip_values_from_the_destination_board(def: &Arc<GameDef>) {
    // CS-S6, CS-D1: each trip is priced when placed, from the board as the rulebook gives
    // it, and every seat sees the price.
    let mut sizes = [false; 7];
    for seed in 0..60 {
        let mut g = game_on(def, 2, seed);
        for (p, d, stars, gas) in fares(&mut g) {
            let size = size_of(&p, &d);
            sizes[size as usize] = true;
            assert_eq!((stars, gas), trip_for(size), "seed {seed}: {p} -> {d}");
        }
        let view = g.view(Some(1));
        assert!(
            view.pieces
                .iter()
                .filter(|p| p.kind == "passenger" && p.at.is_some())
                .all(|p| p.props.contains_key("stars") && p.props.contains_key("gas")),
            "seed {seed}: the other seat sees every price"
        );
    }
    assert!(sizes[2..].iter().all(|s| *s), "every size seen: {sizes:?}");
}

#[rules("CS-D1", "CS-S6")]
fn d1_every_trip_size_by_forced_rolls(def: &Arc<GameDef>) {
    // CS-D1: the passenger at 2,2 and its destination forced (by closing every other cell)
    // onto cells that make each trip size, squares and oblongs alike.
    let mut g = road_game(def);
    for (from, to, size) in [
        ((2, 2), (3, 3), 2),
        ((2, 2), (2, 3), 2),
        ((2, 2), (4, 3), 3),
        ((2, 2), (3, 4), 3),
        ((2, 2), (5, 2), 4),
        ((2, 2), (6, 5), 5),
        ((4, 2), (1, 6), 5),
        ((1, 2), (6, 4), 6),
        ((3, 1), (4, 6), 6),
    ] {
        ev(
            &mut g,
            &format!(
                "game.move_piece(pass(1), at({}, {})) game.set_prop(pass(1), '_from', at({}, {}))
                 give('start-reroute') crowd({{ at({}, {}) }})",
                from.0, from.1, from.0, from.1, to.0, to.1
            ),
        );
        let before = int(ev(&mut g, "return game.counter('actions')"));
        play_card(&mut g, "reroute", "d1");
        ev(&mut g, "uncrowd()");
        let f = fares(&mut g);
        assert_eq!(f[0].1, format!("{},{}", to.0, to.1));
        assert_eq!((f[0].2, f[0].3), trip_for(size), "{from:?} -> {to:?}");
        assert_eq!(
            int(ev(&mut g, "return game.counter('actions')")),
            before,
            "a re-route costs no action"
        );
    }
}

#[rules("CS-S7", "CS-T9")]
fn s7_starting_hands(def: &Arc<GameDef>) {
    // CS-S7, CS-T9: three tiles from the deck, a canteen and a re-route; a cone is never
    // kept, so one dealt goes back under the deck (the first cards listed are the bottom)
    // and another tile is dealt in its place.
    let mut cones_dealt = 0;
    for seed in 0..60 {
        let mut g = game_on(def, 4, seed);
        let v = ev(
            &mut g,
            r#"
          local function cone(card) return card == "cs-t9" end
          local out = {}
          for s = 1, 4 do
            local h = game.cards(game.zone("hand", s))
            local cones, from_deck = 0, 0
            for _, c in h do
              if cone(c) then cones += 1 end
              if string.sub(c, 1, 6) ~= "start-" then from_deck += 1 end
            end
            table.insert(out, { cones, from_deck, table.find(h, "start-canteen") ~= nil, table.find(h, "start-reroute") ~= nil, #h })
          end
          local deck = game.cards(game.zone("deck"))
          local bottom = 0
          for i = 1, #deck do if cone(deck[i]) then bottom += 1 else break end end
          return { out, bottom, #deck }"#,
        );
        let Value::List(v) = v else { panic!("{v:?}") };
        assert_eq!(
            v[0],
            Value::List(vec![
                Value::List(vec![
                    0.into(),
                    3.into(),
                    true.into(),
                    true.into(),
                    5.into()
                ]);
                4
            ]),
            "seed {seed}: every hand is three deck tiles, no cone, a canteen and a re-route"
        );
        let bottom = int(v[1].clone());
        cones_dealt += bottom;
        assert_eq!(int(v[2].clone()), 50 - 12, "seed {seed}: 12 tiles dealt");
    }
    // The deck holds 3 cones in 50 cards and at least 12 are dealt: some seeds deal one.
    assert!(
        cones_dealt > 0,
        "no seed dealt a cone; the check shows nothing"
    );
    // A hand is its owner's secret: the owner sees its five cards, every other seat (and a
    // spectator) only how many there are.
    let g = game_on(def, 3, 5);
    for owner in 0..3u8 {
        for viewer in [Some(0u8), Some(1), Some(2), None] {
            let view = g.view(viewer);
            let hand = view
                .zones
                .iter()
                .find(|z| z.id == "hand" && z.owner == Some(owner))
                .expect("a hand per seat");
            assert_eq!(hand.count, 5);
            let shown = if viewer == Some(owner) { 5 } else { 0 };
            assert_eq!(
                hand.cards.len(),
                shown,
                "seat {owner}'s hand as {viewer:?} sees it: {:?}",
                hand.cards
            );
        }
    }
    // The tile deck and the passenger cards are face down to everyone.
    for viewer in [Some(0u8), Some(1), Some(2), None] {
        let view = g.view(viewer);
        for id in ["deck", "dispatch", "supply"] {
            let z = view.zones.iter().find(|z| z.id == id).expect(id);
            assert!(z.count > 0 || id == "supply", "{id} is empty");
            assert!(
                z.cards.is_empty(),
                "{viewer:?} sees the {id}: {:?}",
                z.cards
            );
        }
    }
}

#[rules("CS-S8", "CS-R7")]
fn s8_r7_ten_passenger_cards(def: &Arc<GameDef>) {
    // CS-S8, CS-R7: ten cards; a drop-off takes one into the driver's fares.
    let mut g = road_game(def);
    assert_eq!(
        int(ev(&mut g, "return game.count(game.zone('dispatch'))")),
        10
    );
    ev(
        &mut g,
        r#"road(2, 1, 'cs-t4', 1) game.move_piece(pass(1), nil) game.set_prop(pass(1), "rider", 1)
           game.move_piece(dest(1), at(2, 1))"#,
    );
    act(&mut g, "move E 1");
    let v = ev(
        &mut g,
        "return { game.count(game.zone('dispatch')), game.count(game.zone('fares', 1)), game.count(game.zone('fares', 2)) }",
    );
    assert_eq!(v, Value::List(vec![9.into(), 1.into(), 0.into()]));
}

#[rules("CS-S9")]
fn s9_the_tile_deck(def: &Arc<GameDef>) {
    // CS-S9: 50 tiles, of the twelve kinds, every kind present.
    let deck = &def.decks[def.deck("road-tiles").unwrap()];
    assert_eq!(deck.size(), 50);
    let mut kinds: Vec<String> = deck
        .cards
        .iter()
        .map(|c| match c.fields.get("tile") {
            Some(Value::Str(t)) => t.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    kinds.sort();
    kinds.dedup();
    let mut want: Vec<String> = (1..=12).map(|i| format!("cs-t{i}")).collect();
    want.sort();
    assert_eq!(kinds, want);
    let mut g = game_on(def, 2, 1);
    assert_eq!(
        int(ev(&mut g, "return game.count(game.zone('deck'))")),
        50 - 6
    );
}

// ---- tiles ------------------------------------------------------------------------------

/// (exits, and whether the road leads from side A to side B for each pair given) of a tile
/// laid at 3,3 with `turns`.
fn roads_of(g: &mut Game, tile: &str, turns: u8, pairs: &[(&str, &str)]) -> (String, Vec<bool>) {
    let mut code = format!("road(3, 3, '{tile}', {turns}) local out = {{}}");
    for (a, b) in pairs {
        code.push_str(&format!(
            " table.insert(out, game.passes(at(3, 3), '{a}', '{b}'))"
        ));
    }
    code.push_str(" return { game.exits(at(3, 3)), out }");
    let Value::List(v) = ev(g, &code) else {
        panic!()
    };
    // An empty Luau table comes back as something other than a list.
    let p = match v[1].clone() {
        Value::List(p) => p,
        _ => Vec::new(),
    };
    (
        text(v[0].clone()),
        p.into_iter().map(|b| b == Value::Bool(true)).collect(),
    )
}

const ALL_PAIRS: [(&str, &str); 12] = [
    ("N", "E"),
    ("N", "S"),
    ("N", "W"),
    ("E", "N"),
    ("E", "S"),
    ("E", "W"),
    ("S", "N"),
    ("S", "E"),
    ("S", "W"),
    ("W", "N"),
    ("W", "E"),
    ("W", "S"),
];

#[rules("CS-T1")]
fn t1_crossroads(def: &Arc<GameDef>) {
    // CS-T1: four ways out, every way through.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t1", 0, &ALL_PAIRS);
    assert_eq!(exits, "NESW");
    assert!(pass.iter().all(|p| *p), "{pass:?}");
}

#[rules("CS-T2")]
fn t2_a_stop_sign_takes_two_moves_to_pass(def: &Arc<GameDef>) {
    // CS-T2: every way through like a crossroads, but a drive ends on it: passing it takes
    // a second move action.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t2", 0, &ALL_PAIRS);
    assert_eq!(exits, "NESW");
    assert!(pass.iter().all(|p| *p));
    ev(
        &mut g,
        "road(2, 1, 'cs-t2') road(3, 1, 'cs-t4', 1) road(4, 1, 'cs-t4', 1)",
    );
    assert!(has(&mut g, "move E 1"));
    assert!(
        !has(&mut g, "move E 2"),
        "through the stop sign in one move"
    );
    act(&mut g, "move E 1");
    act(&mut g, "move E 2");
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 12 - 3);
}

#[rules("CS-T3")]
fn t3_t_junction(def: &Arc<GameDef>) {
    // CS-T3: three sides, which three depending on the turn.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t3", 0, &[("W", "E"), ("E", "S"), ("N", "S")]);
    assert_eq!((exits.as_str(), pass), ("ESW", vec![true, true, false]));
    let (exits, _) = roads_of(&mut g, "cs-t3", 1, &[]);
    assert_eq!(exits, "NSW");
}

#[rules("CS-T4")]
fn t4_straight(def: &Arc<GameDef>) {
    // CS-T4
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t4", 0, &[("N", "S"), ("S", "N"), ("N", "E")]);
    assert_eq!((exits.as_str(), pass), ("NS", vec![true, true, false]));
    let (exits, _) = roads_of(&mut g, "cs-t4", 1, &[]);
    assert_eq!(exits, "EW");
}

#[rules("CS-T5", "CS-R5")]
fn t5_one_way_crossing(def: &Arc<GameDef>) {
    // CS-T5, CS-R5: only along the arrows (south and east when unturned).
    let mut g = road_game(def);
    let (exits, pass) = roads_of(
        &mut g,
        "cs-t5",
        0,
        &[("N", "S"), ("S", "N"), ("W", "E"), ("E", "W")],
    );
    assert_eq!(
        (exits.as_str(), pass),
        ("ES", vec![true, false, true, false])
    );
}

#[rules("CS-T6", "CS-R5")]
fn t6_r5_one_way_street(def: &Arc<GameDef>) {
    // CS-T6, CS-R5: an arrow pointing west cannot be entered from the west; turned to
    // point east it can, and the drive goes on along it.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t6", 0, &[("S", "N"), ("N", "S")]);
    assert_eq!((exits.as_str(), pass), ("N", vec![true, false]));
    ev(&mut g, "road(2, 1, 'cs-t6', 3) road(3, 1, 'cs-t4', 1)");
    assert!(!has(&mut g, "move E 1"), "against the arrow");
    ev(&mut g, "road(2, 1, 'cs-t6', 1)");
    assert!(has(&mut g, "move E 2"), "along the arrow");
    // And the taxi may not leave the one-way street backwards.
    act(&mut g, "move E 1");
    assert!(!has(&mut g, "move W 1"));
}

#[rules("CS-T7")]
fn t7_broken_road(def: &Arc<GameDef>) {
    // CS-T7: one open side; in and back out the same way.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(&mut g, "cs-t7", 0, &[("S", "N"), ("S", "S"), ("S", "E")]);
    assert_eq!((exits.as_str(), pass), ("S", vec![false, true, false]));
    ev(&mut g, "road(2, 1, 'cs-t7', 3) road(3, 1, 'cs-t4', 1)");
    assert!(!has(&mut g, "move E 1"), "its open side faces east, away");
    ev(&mut g, "road(2, 1, 'cs-t7', 1)");
    act(&mut g, "move E 1");
    assert!(!has(&mut g, "move E 1"), "a dead end");
    assert!(has(&mut g, "move W 1"), "back the way it came");
}

#[rules("CS-T8")]
fn t8_bend(def: &Arc<GameDef>) {
    // CS-T8: two neighbouring sides.
    let mut g = road_game(def);
    let (exits, pass) = roads_of(
        &mut g,
        "cs-t8",
        0,
        &[("S", "E"), ("E", "S"), ("S", "N"), ("W", "E")],
    );
    assert_eq!(
        (exits.as_str(), pass),
        ("ES", vec![true, true, false, false])
    );
    let (exits, _) = roads_of(&mut g, "cs-t8", 2, &[]);
    assert_eq!(exits, "NW");
}

/// Seat 1 draws a cone with only the listed cells open to it; returns the cell it landed on.
fn draw_cone(g: &mut Game, keep: &str) -> String {
    ev(
        g,
        &format!(
            "local deck = game.zone('deck')
             if not game.take_card(deck, 'cs-t9', deck, 'top') then game.take_card(game.zone('used'), 'cs-t9', deck, 'top') end
             crowd({{ {keep} }})"
        ),
    );
    act(g, "draw");
    text(ev(
        g,
        r#"local found
           for c = 1, 36 do if game.blocker_at(c) == "cs-t9" then found = c end end
           uncrowd() if found then game.set_blocker(found, "cs-t9") end return xy(found)"#,
    ))
}

#[rules("CS-T9")]
fn t9_a_cone_lands_on_a_free_cell(def: &Arc<GameDef>) {
    // CS-T9: the dice re-roll until the cone's cell holds no taxi, passenger, destination or
    // other blocker. With every other cell closed by a pothole, and only the taxis' and the
    // markers' cells and 4,4 open, it can only land on 4,4.
    for seed in 0..12 {
        let mut g = game_on(def, 2, seed);
        ev(&mut g, "park()");
        let keep = "at(1, 1), at(6, 6), at(1, 5), at(1, 6), at(2, 5), at(2, 6), at(3, 5), at(3, 6), at(4, 4)";
        assert_eq!(draw_cone(&mut g, keep), "4,4", "seed {seed}");
    }
}

#[rules("CS-T9")]
fn t9_a_cone_closes_its_cell_until_the_drawers_next_turn(def: &Arc<GameDef>) {
    // CS-T9: it sits on top of a road tile there, nobody may drive onto it, lift it or turn
    // it, and at the start of the drawer's next turn it is lifted, the road tile is still
    // there, and the cone goes to the bottom of the deck.
    let mut g = road_game(def);
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) road(3, 1, 'cs-t4', 1) purge(game.zone('deck'), 'cs-t9')",
    );
    let cell = draw_cone(&mut g, "at(2, 1)");
    assert_eq!(cell, "2,1");
    assert!(!has(&mut g, "move E 1"), "driven onto");
    assert!(!has(&mut g, "remove 2,1"), "lifted");
    act(&mut g, "end");
    // Seat 2's turn: still there.
    assert_eq!(
        ev(&mut g, "return game.blocker_at(at(2, 1))"),
        Value::Str("cs-t9".into())
    );
    act(&mut g, "end");
    let v = ev(
        &mut g,
        "return { game.blocker_at(at(2, 1)) == nil, game.tile_at(at(2, 1)), game.cards(game.zone('deck'))[1] }",
    );
    assert_eq!(
        v,
        Value::List(vec![true.into(), "cs-t4".into(), "cs-t9".into()])
    );
    assert!(has(&mut g, "move E 2"));
}

#[rules("CS-T10")]
fn t10_a_canteen_adds_three_gas(def: &Arc<GameDef>) {
    // CS-T10: kept in hand until played; +3 gas; then it is gone.
    let mut g = road_game(def);
    ev(
        &mut g,
        "purge(game.zone('hand', 1), 'cs-t10') purge(game.zone('hand', 1), 'start-canteen') give('start-canteen')",
    );
    act(&mut g, "end");
    act(&mut g, "end");
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 12, "kept");
    // The action names the card it plays, which the outcome figures count as played.
    act(&mut g, "canteen start-canteen");
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 15);
    assert!(
        offered(&mut g, "canteen").is_empty(),
        "one canteen, used up"
    );
}

/// CS-T11: re-routes passenger 1 (`"p"`) or its destination (`"d"`) again and again: the
/// other piece never moves, the moved one never lands on its partner (with only the two
/// pieces' cells left open, it can only stay), and the trip is priced anew each time.
fn reroute_moves_one_piece(g: &mut Game, which: &str) {
    let target = format!("{which}1");
    let moved = |f: &(String, String, i64, i64)| {
        if which == "p" {
            f.0.clone()
        } else {
            f.1.clone()
        }
    };
    let partner = |f: &(String, String, i64, i64)| {
        if which == "p" {
            f.1.clone()
        } else {
            f.0.clone()
        }
    };
    for _ in 0..6 {
        let before = moved(&fares(g)[0]);
        ev(g, "give('start-reroute') crowd({ at(1, 5), at(1, 6) })");
        play_card(g, "reroute", &target);
        ev(g, "uncrowd()");
        assert_eq!(moved(&fares(g)[0]), before, "rolled onto its partner");
    }
    for _ in 0..8 {
        let before = fares(g)[0].clone();
        ev(g, "give('start-reroute')");
        play_card(g, "reroute", &target);
        let after = fares(g)[0].clone();
        assert_eq!(partner(&after), partner(&before), "its partner moved too");
        assert_eq!((after.2, after.3), trip_for(size_of(&after.0, &after.1)));
    }
}

#[rules("CS-T11")]
fn t11_a_rerouted_passenger_moves_alone(def: &Arc<GameDef>) {
    // CS-T11: a passenger is re-rolled on its own.
    reroute_moves_one_piece(&mut road_game(def), "p");
}

#[rules("CS-T11")]
fn t11_a_rerouted_destination_moves_alone(def: &Arc<GameDef>) {
    // CS-T11: a destination is re-rolled on its own.
    let mut g = road_game(def);
    reroute_moves_one_piece(&mut g, "d");
    // The card is used up; without one, nothing is offered.
    ev(
        &mut g,
        "local h = game.zone('hand', 1) for _, c in game.cards(h) do if c == 'start-reroute' or c == 'cs-t11' then game.take_card(h, c, game.zone('used')) end end",
    );
    assert!(offered(&mut g, "reroute").is_empty());
}

#[rules("CS-T11")]
fn t11_only_for_the_player_whose_turn_it_is(def: &Arc<GameDef>) {
    // CS-T11 (DESIGN.md): the card acts for the player whose turn it is: it may move waiting
    // passengers and their destinations and the destination of the fare that player carries,
    // never the destination of a fare another player carries.
    let mut g = road_game(def);
    ev(
        &mut g,
        r#"game.move_piece(pass(1), nil) game.set_prop(pass(1), "rider", 2)
           game.move_piece(pass(2), nil) game.set_prop(pass(2), "rider", 1)"#,
    );
    assert_eq!(card_targets(&mut g, "reroute"), vec!["d2", "p3", "d3"]);
    for card in ["start-reroute", "cs-t11"] {
        assert!(
            g.apply(&format!("reroute {card} d1")).is_err(),
            "a rival's fare"
        );
    }
    // Seat 2, on its turn, may move the destination of its own fare (1) but not seat 1's (2).
    act(&mut g, "end");
    assert_eq!(card_targets(&mut g, "reroute"), vec!["d1", "p3", "d3"]);
}

#[rules("CS-T12")]
fn t12_a_pothole_goes_on_a_free_cell(def: &Arc<GameDef>) {
    // CS-T12: offered on exactly the cells with no taxi, passenger, destination or blocker.
    let mut g = road_game(def);
    ev(
        &mut g,
        "give('cs-t12') game.set_blocker(at(4, 4), 'cs-t12')",
    );
    let mut offered = card_targets(&mut g, "pothole");
    offered.sort();
    let mut want = Vec::new();
    for y in 1..=6 {
        for x in 1..=6 {
            let taken = matches!((x, y), (1, 1) | (6, 6) | (4, 4)) || (y >= 5 && x <= 3);
            if !taken {
                want.push(format!("{x},{y}"));
            }
        }
    }
    want.sort();
    assert_eq!(offered, want);
}

#[rules("CS-T12")]
fn t12_a_pothole_blocks_until_its_owners_next_turn(def: &Arc<GameDef>) {
    // CS-T12: played on your turn; nobody drives onto it until the start of your next turn.
    let mut g = road_game(def);
    ev(
        &mut g,
        "give('cs-t12') road(5, 6, 'cs-t4', 1) road(4, 6, 'cs-t4', 1)",
    );
    play_card(&mut g, "pothole", "5,6");
    act(&mut g, "end");
    // Seat 2, at 6,6, cannot drive west onto it.
    assert!(!has(&mut g, "move W 1"), "onto the pothole");
    act(&mut g, "end");
    assert_eq!(ev(&mut g, "return game.blocker_at(at(5, 6))"), Value::Nil);
    act(&mut g, "end");
    assert!(has(&mut g, "move W 2"), "lifted");
}

// ---- a turn -----------------------------------------------------------------------------

#[rules("CS-A0")]
fn a0_three_actions_then_the_turn_passes(def: &Arc<GameDef>) {
    // CS-A0: three actions, the same one repeated if you like, then the next player's turn.
    let mut g = road_game(def);
    act(&mut g, "draw");
    act(&mut g, "draw");
    assert_eq!(g.active(), 0);
    act(&mut g, "draw");
    assert_eq!(g.active(), 1, "three actions used");
    assert_eq!(int(ev(&mut g, "return game.counter('actions')")), 3);
}

#[rules("CS-A0")]
fn a0_cards_from_hand_cost_no_action(def: &Arc<GameDef>) {
    // CS-A0 (DESIGN.md): a canteen, a pothole or a re-route is played from hand without
    // spending one of the three actions.
    let mut g = road_game(def);
    ev(&mut g, "give('cs-t12')");
    play_card(&mut g, "canteen", "");
    play_card(&mut g, "pothole", "4,4");
    play_card(&mut g, "reroute", "d1");
    assert_eq!(int(ev(&mut g, "return game.counter('actions')")), 3);
    assert_eq!(g.active(), 0);
}

#[rules("CS-A1")]
fn a1_draw_a_tile(def: &Arc<GameDef>) {
    // CS-A1: the top card to your hand, one action; no draw from an empty deck.
    let mut g = road_game(def);
    ev(
        &mut g,
        "game.take_card(game.zone('deck'), 'cs-t8', game.zone('deck'), 'top')",
    );
    let n = int(ev(&mut g, "return game.count(game.zone('hand', 1))"));
    act(&mut g, "draw");
    let v = ev(
        &mut g,
        "local h = game.cards(game.zone('hand', 1)) return { #h, h[#h], game.counter('actions') }",
    );
    assert_eq!(
        v,
        Value::List(vec![(n + 1).into(), "cs-t8".into(), 2.into()])
    );
    // The last tile of the deck is drawn like any other ...
    ev(
        &mut g,
        "local d = game.zone('deck') while game.count(d) > 1 do game.move_card(d, game.zone('used')) end",
    );
    assert!(
        has(&mut g, "draw"),
        "one tile left in the deck may be drawn"
    );
    act(&mut g, "draw");
    assert_eq!(int(ev(&mut g, "return game.count(game.zone('deck'))")), 0);
    // ... and then there is nothing to draw.
    assert!(!has(&mut g, "draw"));
}

#[rules("CS-A2")]
fn a2_placing_next_to_the_taxi(def: &Arc<GameDef>) {
    // CS-A2: any empty cell beside the taxi takes a tile, any way round, even where the
    // taxi's own tile has no road out towards it; never a cell with a tile or a blocker.
    let mut g = road_game(def);
    ev(&mut g, "give('cs-t4') road(1, 1, 'cs-t7', 1)"); // a dead end open east
    assert!(has(&mut g, "place cs-t4 0 1,2"), "beside the dead end");
    assert!(has(&mut g, "place cs-t4 1 1,2"));
    ev(
        &mut g,
        "road(2, 1, 'cs-t1') game.set_blocker(at(1, 2), 'cs-t12')",
    );
    assert!(!has(&mut g, "place cs-t4 1 2,1"), "on a tile");
    assert!(!has(&mut g, "place cs-t4 0 1,2"), "on a pothole");
    // With the last action, only beside the taxi.
    ev(
        &mut g,
        "game.set_blocker(at(1, 2), nil) game.set_counter('actions', 1)",
    );
    assert!(has(&mut g, "place cs-t4 0 1,2"));
    assert!(!has(&mut g, "place cs-t4 1 3,1"));
}

#[rules("CS-A2")]
fn a2_placing_where_the_taxi_can_then_drive(def: &Arc<GameDef>) {
    // CS-A2: farther away only where the taxi can drive onto the new tile this turn, with
    // the actions left after placing it and the gas in its tank.
    let mut g = road_game(def);
    ev(
        &mut g,
        "give('cs-t4') road(2, 1, 'cs-t4', 1) road(3, 1, 'cs-t4', 1)",
    );
    // Place, then one drive straight through 2,1 and 3,1 onto 4,1.
    assert!(has(&mut g, "place cs-t4 1 4,1"));
    assert!(
        !has(&mut g, "place cs-t4 0 4,1"),
        "turned so the taxi cannot get on"
    );
    assert!(
        !has(&mut g, "place cs-t4 1 5,1"),
        "two cells past the road's end"
    );
    assert!(
        !has(&mut g, "place cs-t4 0 3,2"),
        "beside the road, no way off it"
    );
    // Not enough gas to get there: the drive onto 4,1 needs 3.
    ev(&mut g, "game.set_counter('gas', 1, 2)");
    assert!(!has(&mut g, "place cs-t4 1 4,1"), "too little gas");
    ev(&mut g, "game.set_counter('gas', 1, 3)");
    assert!(has(&mut g, "place cs-t4 1 4,1"));
    // Behind a broken road: 3,1 is a dead end, so 4,1 cannot be reached.
    ev(&mut g, "road(3, 1, 'cs-t7', 3)");
    assert!(!has(&mut g, "place cs-t4 1 4,1"), "behind a dead end");
    // A bend at 3,1 turning south: 3,2 can be reached with a second drive (three actions:
    // place, drive to 3,1, drive onto 3,2), not with two.
    ev(
        &mut g,
        "game.set_counter('gas', 1, 12) road(3, 1, 'cs-t8', 1)",
    );
    assert!(has(&mut g, "place cs-t4 0 3,2"));
    ev(&mut g, "game.set_counter('actions', 2)");
    assert!(
        !has(&mut g, "place cs-t4 0 3,2"),
        "needs two drives after placing"
    );
}

#[rules("CS-A3")]
fn a3_lift_a_tile_beside_the_taxi(def: &Arc<GameDef>) {
    // CS-A3: a road tile beside the taxi, with nothing on it, goes to the bottom of the deck
    // (the first card listed).
    let mut g = road_game(def);
    ev(&mut g, "give('cs-t4') purge(game.zone('deck'), 'cs-t4')");
    act(&mut g, "place cs-t4 1 2,1");
    act(&mut g, "remove 2,1");
    let v = ev(
        &mut g,
        "local d = game.cards(game.zone('deck')) return { game.tile_at(at(2, 1)) == nil, d[1] }",
    );
    assert_eq!(v, Value::List(vec![true.into(), "cs-t4".into()]));
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) road(1, 2, 'cs-t4', 0) road(3, 3, 'cs-t4') game.move_piece(dest(1), at(2, 1))",
    );
    assert!(!has(&mut g, "remove 2,1"), "a destination stands on it");
    assert!(has(&mut g, "remove 1,2"));
    assert!(!has(&mut g, "remove 3,3"), "not beside the taxi");
    ev(&mut g, "game.move_piece(pass(2), at(1, 2))");
    assert!(!has(&mut g, "remove 1,2"), "a passenger waits on it");
}

#[rules("CS-A4", "CS-R2", "CS-R1")]
fn a4_r2_r1_turn_your_own_tile(def: &Arc<GameDef>) {
    // CS-A4, CS-R2, CS-R1: turn the tile under your taxi; a crossroads has nothing to turn;
    // a taxi may share a cell, but then nobody turns that tile.
    let mut g = road_game(def);
    assert!(
        offered(&mut g, "rotate").is_empty(),
        "a crossroads looks the same every way"
    );
    ev(&mut g, "road(1, 1, 'cs-t4', 0)");
    assert!(has(&mut g, "rotate 1"));
    let left = int(ev(&mut g, "return game.counter('actions')"));
    act(&mut g, "rotate 1");
    assert_eq!(
        ev(&mut g, "local _, r = game.tile_at(at(1, 1)) return r"),
        Value::Int(1)
    );
    // A turn of the tile is one of the turn's actions (CS-A0).
    assert_eq!(
        int(ev(&mut g, "return game.counter('actions')")),
        left - 1,
        "a rotation costs one action"
    );
    // Seat 2 drives onto the same cell (CS-R1) ...
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) game.move_piece(taxi(2), at(3, 1)) road(3, 1, 'cs-t4', 1)",
    );
    act(&mut g, "end");
    assert!(has(&mut g, "move W 2"), "onto a cell another taxi holds");
    act(&mut g, "move W 2");
    // ... and now neither may turn it (CS-R2).
    assert!(offered(&mut g, "rotate").is_empty());
    act(&mut g, "end");
    assert!(offered(&mut g, "rotate").is_empty());
}

#[rules("CS-A5", "CS-A6")]
fn a5_a6_a_straight_drive(def: &Arc<GameDef>) {
    // CS-A5, CS-A6: any length in a straight line for one action, a gas per cell entered,
    // stopping anywhere along it; turning takes another action; never longer than the tank.
    let mut g = road_game(def);
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) road(3, 1, 'cs-t4', 1) road(4, 1, 'cs-t8', 1) road(4, 2, 'cs-t4')",
    );
    assert!(has(&mut g, "move E 1") && has(&mut g, "move E 2"));
    assert!(!has(&mut g, "move E 4"), "round the bend in one drive");
    act(&mut g, "move E 3");
    let v = ev(
        &mut g,
        "return { xy(game.where_is(taxi(1))), game.counter('gas', 1), game.counter('actions') }",
    );
    assert_eq!(v, Value::List(vec!["4,1".into(), 9.into(), 2.into()]));
    assert!(!has(&mut g, "move E 1"));
    act(&mut g, "move S 1");
    assert_eq!(int(ev(&mut g, "return game.counter('gas', 1)")), 8);
    // With 2 gas, a drive of 3 is not offered.
    ev(
        &mut g,
        "game.move_piece(taxi(1), at(1, 1)) game.set_counter('gas', 1, 2)",
    );
    assert!(has(&mut g, "move E 2"));
    assert!(!has(&mut g, "move E 3"), "longer than the tank");
}

#[rules("CS-A7", "CS-R4", "CS-R3", "CS-R7")]
fn a7_r4_r3_r7_pick_up_and_drop_off(def: &Arc<GameDef>) {
    // CS-A7: the drive stops where the taxi picks up or drops off, at no extra action.
    // CS-R4: an empty taxi takes the passenger it stops on. CS-R3: one at a time: a loaded
    // taxi drives past, and stops on, a waiting passenger without taking it. CS-R7: the
    // drop-off pays the trip's stars and gas. Then a second pick-up works as the first.
    let mut g = road_game(def);
    ev(
        &mut g,
        r#"for x = 2, 5 do road(x, 1, 'cs-t4', 1) end
      game.move_piece(pass(1), at(2, 1)); game.set_prop(pass(1), "_from", at(2, 1)); game.move_piece(dest(1), at(5, 1))
      game.set_prop(pass(1), "stars", 2); game.set_prop(pass(1), "gas", 3)
      game.move_piece(pass(2), at(3, 1))"#,
    );
    assert!(!has(&mut g, "move E 2"), "past a waiting passenger");
    act(&mut g, "move E 1");
    assert_eq!(
        ev(
            &mut g,
            "return { game.prop(pass(1), 'rider'), game.where_is(pass(1)) == nil, game.counter('actions') }"
        ),
        Value::List(vec![1.into(), true.into(), 2.into()]),
        "picked up, and only the drive cost an action"
    );
    assert!(
        has(&mut g, "move E 2"),
        "a loaded taxi drives past a waiting passenger"
    );
    assert!(!has(&mut g, "move E 4"), "nor past its destination");
    act(&mut g, "move E 1");
    assert_eq!(
        ev(
            &mut g,
            "return { game.prop(pass(1), 'rider'), game.where_is(pass(2)) }"
        ),
        ev(&mut g, "return { 1, at(3, 1) }"),
        "stopping on a waiting passenger with a fare aboard takes nobody"
    );
    act(&mut g, "move E 2");
    let v = ev(
        &mut g,
        "return { game.counter('stars', 1), game.counter('gas', 1), game.count(game.zone('fares', 1)), game.prop(pass(1), 'rider') == nil }",
    );
    assert_eq!(
        v,
        Value::List(vec![2.into(), (12 - 4 + 3).into(), 1.into(), true.into()])
    );
    // A second fare: next turn, back west to the passenger still waiting at 3,1 (the one just
    // delivered is parked out of the way again).
    assert_eq!(g.active(), 1);
    act(&mut g, "end");
    ev(
        &mut g,
        "game.move_piece(pass(1), at(1, 5)) game.move_piece(dest(1), at(1, 6))",
    );
    act(&mut g, "move W 2");
    assert_eq!(
        ev(&mut g, "return game.prop(pass(2), 'rider')"),
        Value::Int(1)
    );
}

#[rules("CS-R6")]
fn r6_a_delivered_passenger_is_rolled_anew(def: &Arc<GameDef>) {
    // CS-R6: after a drop-off the passenger and its destination are rolled again, following
    // CS-S5 (not where a taxi is: the delivering taxi holds the old destination), and priced.
    for seed in 0..10 {
        let mut g = game_on(def, 2, seed);
        ev(
            &mut g,
            r#"park() road(2, 1, 'cs-t4', 1) game.move_piece(pass(1), nil) game.set_prop(pass(1), "rider", 1)
               game.set_prop(pass(1), "_from", at(4, 4)) game.move_piece(dest(1), at(2, 1))"#,
        );
        act(&mut g, "move E 1");
        let f = fares(&mut g);
        let (p, d, stars, gas) = &f[0];
        assert!(
            p != "off" && d != "off",
            "seed {seed}: back on the board: {f:?}"
        );
        assert_ne!(
            d, "2,1",
            "seed {seed}: the destination was not rolled again"
        );
        assert_ne!(p, "2,1", "seed {seed}: a passenger on a taxi");
        assert_ne!(p, d);
        assert_eq!((*stars, *gas), trip_for(size_of(p, d)), "seed {seed}");
        assert_eq!(ev(&mut g, "return game.prop(pass(1), 'rider')"), Value::Nil);
    }
}

#[rules("CS-R7")]
fn r7_the_log_names_the_fare_not_the_total(def: &Arc<GameDef>) {
    // CS-R7: the drop-off line gives what the trip paid, and the total separately.
    let mut g = road_game(def);
    ev(
        &mut g,
        r#"game.set_counter('stars', 1, 4) road(2, 1, 'cs-t4', 1) game.move_piece(pass(1), nil)
           game.set_prop(pass(1), "rider", 1) game.set_prop(pass(1), "stars", 2) game.set_prop(pass(1), "gas", 3)
           game.move_piece(dest(1), at(2, 1))"#,
    );
    act(&mut g, "move E 1");
    let line = &g.log().last().unwrap().text;
    let line = g
        .log()
        .iter()
        .rev()
        .find(|e| e.text.contains("drops off"))
        .map_or(line.clone(), |e| e.text.clone());
    assert!(
        line.contains("+2 stars") && line.contains("+3 gas") && line.contains("6 stars in all"),
        "{line}"
    );
    assert_eq!(int(ev(&mut g, "return game.counter('stars', 1)")), 6);
}

// ---- the end ----------------------------------------------------------------------------

#[rules("CS-E1")]
fn e1_the_last_passenger_card_ends_the_game(def: &Arc<GameDef>) {
    // CS-E1: taking the tenth card ends it, and not before.
    let mut g = road_game(def);
    ev(
        &mut g,
        r#"local d = game.zone("dispatch") while game.count(d) > 2 do game.move_card(d, game.zone("used")) end
      road(2, 1, 'cs-t4', 1) road(3, 1, 'cs-t4', 1) game.move_piece(pass(1), nil); game.set_prop(pass(1), "rider", 1); game.move_piece(dest(1), at(2, 1))
      game.move_piece(pass(2), nil); game.set_prop(pass(2), "rider", 2); game.move_piece(dest(2), at(5, 6)) road(5, 6, 'cs-t4', 1)"#,
    );
    act(&mut g, "move E 1");
    assert!(!g.is_over(), "one card left");
    act(&mut g, "end");
    act(&mut g, "move W 1");
    assert!(g.is_over());
    assert_eq!(
        g.result().unwrap().reason,
        "every passenger card has been taken"
    );
}

#[rules("CS-E1", "CS-E3")]
fn e1_e3_running_dry_ends_the_game_at_a_price(def: &Arc<GameDef>) {
    // CS-E1, CS-E3 (DESIGN.md): a drive that empties the driver's tank ends the game, and
    // costs that driver 3 stars whether or not a fare is aboard; the label warns first.
    for carrying in [false, true] {
        let mut g = road_game(def);
        ev(
            &mut g,
            "road(2, 1, 'cs-t4', 1) game.set_counter('gas', 1, 1) game.set_counter('stars', 1, 5)",
        );
        if carrying {
            ev(
                &mut g,
                "game.move_piece(pass(1), nil) game.set_prop(pass(1), 'rider', 1)",
            );
        }
        let label = g.describe("move E 1");
        assert!(label.contains("empties your tank"), "{label}");
        act(&mut g, "move E 1");
        assert!(g.is_over());
        let r = g.result().unwrap().clone();
        assert!(r.reason.contains("ran out of gas"), "{}", r.reason);
        assert_eq!(r.scores[0], 2, "5 stars - 3 (fare aboard: {carrying})");
    }
}

#[rules("CS-E3")]
fn e3_a_pick_up_with_the_last_gas(def: &Arc<GameDef>) {
    // CS-E3: picking up with the last gas still ends the game at the price, and the log
    // does not claim the taxi was empty; a drop-off with the last gas refuels instead.
    let mut g = road_game(def);
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) game.set_counter('gas', 1, 1) game.set_counter('stars', 1, 5) game.move_piece(pass(1), at(2, 1))",
    );
    act(&mut g, "move E 1");
    assert!(g.is_over());
    assert_eq!(
        ev(&mut g, "return game.prop(pass(1), 'rider')"),
        Value::Int(1)
    );
    assert_eq!(g.result().unwrap().scores[0], 2);
    assert!(
        g.log().iter().all(|e| !e.text.contains("no fare")),
        "{:?}",
        g.log().iter().map(|e| &e.text).collect::<Vec<_>>()
    );
    let mut g = road_game(def);
    ev(
        &mut g,
        "road(2, 1, 'cs-t4', 1) game.set_counter('gas', 1, 1) game.set_counter('stars', 1, 5) game.move_piece(pass(1), nil) game.set_prop(pass(1), 'rider', 1) game.move_piece(dest(1), at(2, 1))",
    );
    assert!(!g.describe("move E 1").contains("empties"));
    act(&mut g, "move E 1");
    assert!(!g.is_over(), "the drop-off refuelled the tank");
}

#[rules("CS-E2")]
fn e2_ties_go_to_gas_then_to_the_closest_drop_off(def: &Arc<GameDef>) {
    // CS-E2: most stars; then more gas; then the taxi closer (in road steps) to its fare's
    // destination; a taxi carrying nobody is farther than any carrying one.
    let end = |g: &mut Game| {
        ev(
            g,
            "local d = game.zone('dispatch') while game.count(d) > 0 do game.move_card(d, game.zone('used')) end",
        );
        act(g, "end"); // any action now ends the game (no passenger cards left)
        g.result().unwrap().places.clone()
    };
    let mut g = road_game(def);
    ev(
        &mut g,
        "game.set_counter('stars', 1, 4) game.set_counter('stars', 2, 3) game.set_counter('gas', 1, 2) game.set_counter('gas', 2, 9)",
    );
    assert_eq!(end(&mut g), vec![1, 2], "more stars, less gas");
    let mut g = road_game(def);
    ev(
        &mut g,
        "game.set_counter('stars', 1, 3) game.set_counter('stars', 2, 3) game.set_counter('gas', 1, 5) game.set_counter('gas', 2, 7)",
    );
    assert_eq!(end(&mut g), vec![2, 1], "equal stars: more gas");
    // Equal stars and gas: both carry; seat 2's destination is 2 road steps away, seat 1's 3.
    let setup = r#"game.set_counter('stars', 1, 3) game.set_counter('stars', 2, 3) game.set_counter('gas', 1, 7) game.set_counter('gas', 2, 7)
        for x = 2, 4 do road(x, 1, 'cs-t4', 1) end road(5, 6, 'cs-t4', 1) road(4, 6, 'cs-t4', 1)
        game.move_piece(pass(1), nil) game.set_prop(pass(1), 'rider', 1) game.move_piece(dest(1), at(4, 1))
        game.move_piece(pass(2), nil) game.set_prop(pass(2), 'rider', 2) game.move_piece(dest(2), at(4, 6))"#;
    let mut g = road_game(def);
    ev(&mut g, setup);
    assert_eq!(end(&mut g), vec![2, 1], "closer to a drop-off");
    // Seat 1 carrying (even with no road to its destination), seat 2 empty: seat 1.
    let mut g = road_game(def);
    ev(&mut g, setup);
    ev(
        &mut g,
        "game.remove_tile(at(3, 1)) game.set_prop(pass(2), 'rider', nil) game.move_piece(pass(2), at(2, 2))",
    );
    assert_eq!(end(&mut g), vec![1, 2], "a fare aboard beats none");
    // Neither carrying: a shared first place.
    let mut g = road_game(def);
    ev(
        &mut g,
        "game.set_counter('stars', 1, 3) game.set_counter('stars', 2, 3) game.set_counter('gas', 1, 7) game.set_counter('gas', 2, 7)",
    );
    assert_eq!(end(&mut g), vec![1, 1], "nothing separates them");
}

#[rules("CS-E1")]
fn e1_a_game_where_no_taxi_moves_for_ten_rounds_ends(def: &Arc<GameDef>) {
    // CS-E1 (designed: stall_rounds in mod.toml)
    let mut g = road_game(def);
    ev(&mut g, "road(2, 1, 'cs-t4', 1) game.set('_still', 19)");
    act(&mut g, "move E 1");
    act(&mut g, "end");
    assert!(!g.is_over());
    assert_eq!(int(ev(&mut g, "return game.get('_still')")), 1);
    ev(&mut g, "game.set('_still', 19)");
    act(&mut g, "end");
    assert!(!g.is_over());
    act(&mut g, "end");
    assert!(g.is_over());
    assert_eq!(
        g.result().unwrap().reason,
        "no taxi has moved for 10 rounds"
    );
}
}

/// The rule IDs of mods/curbside/RULES.md.
pub const RULES: &[&str] = &[
    "CS-S1", "CS-S2", "CS-S3", "CS-S4", "CS-S5", "CS-S6", "CS-S7", "CS-S8", "CS-S9", "CS-T1",
    "CS-T2", "CS-T3", "CS-T4", "CS-T5", "CS-T6", "CS-T7", "CS-T8", "CS-T9", "CS-T10", "CS-T11",
    "CS-T12", "CS-D1", "CS-A0", "CS-A1", "CS-A2", "CS-A3", "CS-A4", "CS-A5", "CS-A6", "CS-A7",
    "CS-R1", "CS-R2", "CS-R3", "CS-R4", "CS-R5", "CS-R6", "CS-R7", "CS-E1", "CS-E2", "CS-E3",
];

#[test]
fn the_rule_list_matches_rules_md() {
    rule_mutants::assert_rules_match_rule_list("curbside", "CS-", RULES);
}

#[test]
fn every_broken_rule_is_caught() {
    // The oracles judge one seed of each kind of game (curbside_oracles::plans).
    let mut oracles = farebox_suite::oracles::invariants();
    oracles.extend(farebox_suite::curbside_oracles::oracles());
    let plans = farebox_suite::curbside_oracles::plans(1);
    let catch = |def: &Arc<GameDef>| {
        farebox_suite::oracles::first_catch(def, &plans, &oracles, 3000).map(|c| c.to_string())
    };
    rule_mutants::run_with_oracles(
        "curbside",
        RULES,
        CHECKS,
        curbside_mutants::MUTANTS,
        Some(rule_mutants::OracleRun {
            catch: &catch,
            required: curbside_mutants::FOR_ORACLES,
        }),
    );
}

#[test]
fn no_action_is_listed_twice() {
    // The action list is a set, and a starting canteen and a canteen from the deck offer one
    // canteen action, not two (naming the first in hand). Checked at every decision of
    // seeded random games.
    let mut rng = farebox::rng::Rng::new(7, 1);
    let mut checked = 0;
    for seed in 0..40 {
        let mut g = game_on(&shipped(), 2 + (seed % 3) as u8, seed);
        while !g.is_over() && g.history().len() < 3000 {
            let acts = g.legal_actions().unwrap();
            let mut sorted = acts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), acts.len(), "seed {seed}: {acts:?}");
            let canteens = acts.iter().filter(|a| a.starts_with("canteen ")).count();
            assert!(canteens <= 1, "seed {seed}: {acts:?}");
            checked += 1;
            let a = acts[rng.below(acts.len() as u32) as usize].clone();
            g.apply_legal(&a).unwrap();
        }
    }
    assert!(checked > 1000);
}
