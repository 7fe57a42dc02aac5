//! Critter Cab's rules: every rule ID of mods/critter-cab/RULES.md is proved by at
//! least one check below, which builds its situation through the script API (`Game::eval`, with
//! the rules' rights) and asserts the rule's effect. Numbers the rulebook gives (three movement
//! cards, the Family taxi's two cards and six seats, the Limousine's two coins, The Bet!'s three
//! moves) and the designed ones of mods/critter-cab/DESIGN.md are written here as those texts
//! state them, never read back from the content under test.
//!
//! Each check is a plain function of the game definition: the `#[test]`s run them on the mod as
//! shipped, and `every_broken_rule_is_caught` runs them on deliberately broken copies of it (the
//! mutants in `critter_cab/mutants.rs`, through `farebox_suite::rule_mutants`) and requires
//! every break to make a check of its rule fail.
//!
//! Each check is declared once, in the `farebox_suite::rule_checks!` block: `#[rules(...)]`
//! above its `fn` names the rule IDs it proves, and the block makes its `#[test]` and its
//! entry in `CHECKS`, the list the mutants run. The block's items are not indented, so they
//! read as the file's other items (rustfmt leaves a macro's body as written).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::sync::Arc;

use farebox::GameDef;
use farebox::game::{Game, Setup};
use farebox::value::Value;
use farebox_suite::rule_kit::{self, act, game_with, has, int, legal, offered, strings, text};
use farebox_suite::rule_mutants;

#[path = "critter_cab/mutants.rs"]
mod critter_cab_mutants;

fn shipped() -> Arc<GameDef> {
    rule_kit::shipped("critter-cab")
}

const PRELUDE: &str = r#"
local function z(id, s) return game.zone(id, s) end
local function sp(id) return assert(game.space(id), id) end
local function cab(s) return game.pieces("cab", s)[1] end
local SHARED = { "passenger-deck", "passenger-discard", "movement-deck", "movement-discard", "chance-deck", "chance-discard", "taxi-supply" }
local PER = { "taxi", "movement-hand", "riding", "delivered", "kept-chance" }
-- A card with this id, from wherever it is, into zone `to` (on top, or `where`). It passes
-- through the unused passenger discard pile, so it may come from `to` itself.
local function fetch(card, to, where)
  local stage = z("passenger-discard")
  local found = game.take_card(stage, card, stage)
  for _, id in SHARED do
    if not found and id ~= "passenger-discard" and game.take_card(z(id), card, stage) then found = true end
  end
  for s = 1, game.seats() do
    for _, id in PER do
      if not found and game.take_card(z(id, s), card, stage) then found = true end
    end
  end
  if not found then error("no card " .. card) end
  game.take_card(stage, card, to, where)
end
local function empty(zone, into) while game.move_card(zone, into) do end end
-- Taxi cards by seat, e.g. taxis({ "limousine", "river-taxi" }).
local function taxis(list)
  for s = 1, game.seats() do empty(z("taxi", s), z("taxi-supply")) end
  for s = 1, game.seats() do fetch(list[s], z("taxi", s)) end
end
local function hand(s, cards) empty(z("movement-hand", s), z("movement-deck")); for _, c in cards do fetch(c, z("movement-hand", s)) end end
local function ride(s, cards)
  empty(z("riding", s), z("passenger-deck"))
  for _, c in cards do fetch(c, z("riding", s)) end
  game.set("_pickup", {})
end
local function keep(s, cards) empty(z("kept-chance", s), z("chance-deck")); for _, c in cards do fetch(c, z("kept-chance", s)) end end
local function put(s, id) game.move_piece(cab(s), sp(id)) end
local function drive_phase() game.set("_phase", "drive"); game.set("_drives_left", 1); game.set("_drove", 0); game.set("_waved", false) end
-- The next cards of a deck, the first listed drawn first.
local function next_cards(deck, cards) for i = #cards, 1, -1 do fetch(cards[i], z(deck), "top") end end
-- No chance card left anywhere to draw (they wait in the unused passenger discard pile).
local function no_chance() empty(z("chance-deck"), z("passenger-discard")); empty(z("chance-discard"), z("passenger-discard")) end
local function ids(zone) return game.cards(zone) end
"#;

fn game_on(def: &Arc<GameDef>, seats: u8, seed: u64) -> Game {
    game_with(def, seats, seed, &[])
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

fn coins(g: &mut Game, seat: u8) -> i64 {
    int(ev(g, &format!("return game.counter('coins', {seat})")))
}

fn cards(g: &mut Game, zone: &str, seat: Option<u8>) -> Vec<String> {
    let z = match seat {
        Some(s) => format!("z('{zone}', {s})"),
        None => format!("z('{zone}')"),
    };
    strings(ev(g, &format!("return ids({z})")))
}

fn count(g: &mut Game, zone: &str, seat: Option<u8>) -> i64 {
    let z = match seat {
        Some(s) => format!("z('{zone}', {s})"),
        None => format!("z('{zone}')"),
    };
    int(ev(g, &format!("return game.count({z})")))
}

fn cab_at(g: &mut Game, seat: u8) -> String {
    text(ev(
        g,
        &format!("local s = game.where_is(cab({seat})) return s and game.space_info(s).id"),
    ))
}

fn phase(g: &mut Game) -> String {
    text(ev(g, "return game.get('_phase')"))
}

fn lua_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    format!("{{ {} }}", quoted.join(", "))
}

/// A two-seat game with seat 1 (Fox) to drive: `taxi` for Fox (the Flying taxi for Rabbit, or
/// the Limousine when Fox flies), its cab on `at`, `riding` aboard, `hand` in hand, no kept
/// chance cards; Rabbit's cab on Lilypad Lido with Lifeguard Otters aboard.
fn drive_game(def: &Arc<GameDef>, taxi: &str, at: &str, riding: &[&str], hand: &[&str]) -> Game {
    let mut g = game_on(def, 2, 7);
    let other = if taxi == "flying-taxi" {
        "limousine"
    } else {
        "flying-taxi"
    };
    ev(
        &mut g,
        &format!(
            "taxis({{ '{taxi}', '{other}' }}) put(1, '{at}') ride(1, {}) hand(1, {}) keep(1, {{}}) keep(2, {{}})
             put(2, 'lilypad-lido') ride(2, {{ 'lifeguard-otters' }}) drive_phase()",
            lua_list(riding),
            lua_list(hand)
        ),
    );
    g
}

/// Space ids where a drive of `card` may end, as offered.
fn drive_ends(g: &mut Game, kind: &str, card: &str) -> BTreeSet<String> {
    let prefix = format!("{kind} {card} ");
    offered(g, &prefix)
        .into_iter()
        .map(|a| a[prefix.len()..].to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Plays the first legal action until the game ends (at most `cap` actions); the seats' turns
/// taken (a drive, or a start) are counted per seat.
fn play_out(g: &mut Game, cap: usize) -> Vec<u32> {
    let mut turns = vec![0u32; g.state().seats as usize];
    let mut last_turn = 0;
    for _ in 0..cap {
        if g.is_over() {
            break;
        }
        let t = int(ev(g, "return game.turn()")) as u32;
        let seat = g.active();
        if t != last_turn {
            turns[seat as usize] += 1;
            last_turn = t;
        }
        let a = legal(g)[0].clone();
        act(g, &a);
    }
    assert!(g.is_over(), "the game did not end in {cap} actions");
    turns
}

// ---- setup ------------------------------------------------------------------------------

farebox_suite::rule_checks! {
#[rules("CC-S1")]
fn s1_players_taxis_and_hands(def: &Arc<GameDef>) {
    // CC-S1: 2-4 players; each has one taxi card (all different), a cab and 3 movement cards.
    assert!(Game::new(def.clone(), Setup::new(1, 1)).is_err());
    assert!(Game::new(def.clone(), Setup::new(5, 1)).is_err());
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let mut g = game_on(def, 4, seed);
        let mut mine = BTreeSet::new();
        for s in 1..=4u8 {
            let t = cards(&mut g, "taxi", Some(s));
            assert_eq!(t.len(), 1, "seed {seed}: one taxi card each");
            mine.insert(t[0].clone());
            if s == 1 {
                seen.insert(t[0].clone());
            }
            assert_eq!(
                count(&mut g, "movement-hand", Some(s)),
                3,
                "three movement cards"
            );
            assert_eq!(cab_at(&mut g, s), "nil", "the cab waits off the board");
            assert_eq!(coins(&mut g, s), 0);
        }
        assert_eq!(mine.len(), 4, "seed {seed}: every driver a different cab");
    }
    assert_eq!(
        seen.len(),
        4,
        "the deal is random: Fox gets every cab over the seeds"
    );
    // Chosen in seat order with the option.
    let mut g = game_with(
        def,
        3,
        1,
        &[("taxi-assignment", Value::Str("choose".into()))],
    );
    assert_eq!(count(&mut g, "taxi", Some(1)), 0);
    let mut choices = offered(&mut g, "taxi ");
    choices.sort();
    assert_eq!(
        choices,
        [
            "taxi family-taxi",
            "taxi flying-taxi",
            "taxi limousine",
            "taxi river-taxi"
        ]
    );
    act(&mut g, "taxi limousine");
    assert_eq!(g.active(), 1, "the next seat chooses");
    assert!(!has(&mut g, "taxi limousine"), "a chosen cab is gone");
    act(&mut g, "taxi river-taxi");
    act(&mut g, "taxi family-taxi");
    assert_eq!(g.active(), 0);
    assert_eq!(cards(&mut g, "taxi", Some(1)), ["limousine"]);
    assert_eq!(cards(&mut g, "taxi", Some(3)), ["family-taxi"]);
    assert!(
        offered(&mut g, "start ").len() == 8,
        "then the first turn begins"
    );
}

#[rules("CC-S2")]
fn s2_three_decks_shuffled_separately(def: &Arc<GameDef>) {
    // CC-S2: the passenger, movement and chance decks are shuffled, each on its own.
    let mut orders: Vec<[Vec<String>; 3]> = vec![];
    for seed in [1, 2, 3] {
        let mut g = game_on(def, 2, seed);
        let o = strings(ev(
            &mut g,
            "local out = {} for _, d in { 'passenger-deck', 'movement-deck', 'chance-deck' } do
               for _, c in game.cards(z(d)) do table.insert(out, d .. ':' .. c) end end return out",
        ));
        let part = |d: &str| -> Vec<String> {
            o.iter()
                .filter(|c| c.starts_with(d))
                .cloned()
                .collect::<Vec<_>>()
        };
        let p = part("passenger-deck");
        let m = part("movement-deck");
        let c = part("chance-deck");
        assert_eq!(p.len(), 48);
        assert_eq!(m.len(), 40 - 6, "two hands of three dealt");
        assert_eq!(c.len(), 24);
        orders.push([p, m, c]);
    }
    for (d, name) in ["passenger", "movement", "chance"].iter().enumerate() {
        let differ = orders.windows(2).any(|w| w[0][d] != w[1][d]);
        assert!(differ, "the {name} deck is shuffled");
    }
    // In file order the passenger deck would start with Squirrel Courier, the chance deck with
    // Traffic Jam!: seeds must not all agree with it.
    let firsts: BTreeSet<String> = orders.iter().map(|o| o[0][0].clone()).collect();
    assert!(firsts.len() > 1, "{firsts:?}");
    let firsts: BTreeSet<String> = orders.iter().map(|o| o[2][0].clone()).collect();
    assert!(firsts.len() > 1, "{firsts:?}");
}

#[rules("CC-S3", "CC-E1")]
fn s3_e1_a_round_limit(def: &Arc<GameDef>) {
    // CC-S3, CC-E1: with the Rounds limit every driver takes exactly that many turns.
    let mut g = game_with(def, 3, 5, &[("turn-limit", Value::Int(4))]);
    ev(&mut g, "no_chance()");
    let turns = play_out(&mut g, 400);
    assert_eq!(turns, [4, 4, 4]);
    assert_eq!(int(ev(&mut g, "return game.counter('rounds')")), 4);
    assert_eq!(
        g.result().unwrap().reason,
        "the last of 4 rounds has been played"
    );
    assert_eq!(
        int(ev(&mut g, "return game.counter('clock')")),
        0,
        "the clock stays still"
    );
}

#[rules("CC-S3", "CC-E1")]
fn s3_e1_the_table_clock(def: &Arc<GameDef>) {
    // CC-S3 (designed): the table clock moves one minute for every turn taken; the game ends
    // with the round in which it reaches the limit, so two drivers get 18 turns each for 35
    // minutes (the 35th minute is Fox's 18th turn; Rabbit still takes theirs, CC-E1).
    let mut g = game_with(
        def,
        2,
        5,
        &[
            ("limit", Value::Str("clock".into())),
            ("clock-minutes", Value::Int(35)),
        ],
    );
    ev(&mut g, "no_chance()");
    let turns = play_out(&mut g, 400);
    assert_eq!(turns, [18, 18]);
    assert_eq!(int(ev(&mut g, "return game.counter('clock')")), 36);
    assert_eq!(
        g.result().unwrap().reason,
        "the table clock has reached 35 minutes"
    );
    // Three drivers: 12 rounds make 36 minutes.
    let mut g = game_with(
        def,
        3,
        5,
        &[
            ("limit", Value::Str("clock".into())),
            ("clock-minutes", Value::Int(35)),
        ],
    );
    ev(&mut g, "no_chance()");
    assert_eq!(play_out(&mut g, 400), [12, 12, 12]);
    // The limit is met exactly: at 36 minutes the 12th round (36 turns) is the last.
    let mut g = game_with(
        def,
        3,
        5,
        &[
            ("limit", Value::Str("clock".into())),
            ("clock-minutes", Value::Int(36)),
        ],
    );
    ev(&mut g, "no_chance()");
    assert_eq!(play_out(&mut g, 400), [12, 12, 12], "36 minutes exactly");
    assert_eq!(int(ev(&mut g, "return game.counter('clock')")), 36);
}

#[rules("CC-S3")]
fn s3_a_turn_sat_out_costs_no_clock_time(def: &Arc<GameDef>) {
    // CC-S3 (designed): a turn sat out adds nothing to the table clock.
    let mut g = game_with(def, 2, 5, &[("limit", Value::Str("clock".into()))]);
    ev(&mut g, "no_chance() taxis({ 'limousine', 'river-taxi' })");
    act(&mut g, "start acorn-square");
    let first = int(ev(&mut g, "return game.counter('clock')"));
    assert_eq!(first, 1);
    ev(&mut g, "game.set_counter('skip-turns', 2, 1)");
    let a = legal(&mut g)
        .into_iter()
        .find(|a| a.starts_with("drive"))
        .unwrap();
    act(&mut g, &a);
    // Rabbit sat out; Fox's second turn has begun.
    assert_eq!(g.active(), 0);
    assert_eq!(int(ev(&mut g, "return game.counter('clock')")), 2);
}

#[rules("CC-S4")]
fn s4_the_board(def: &Arc<GameDef>) {
    // CC-S4: a graph of named spaces; the taxi stands are the spaces tagged `stand` (the
    // first turn offers exactly them), and a drive of 1 follows the road edges.
    let mut g = game_on(def, 2, 1);
    let starts: BTreeSet<String> = offered(&mut g, "start ")
        .into_iter()
        .map(|a| a[6..].to_string())
        .collect();
    assert_eq!(
        starts,
        set(&[
            "acorn-square",
            "badger-heights",
            "beaverbank-mill",
            "foxglove-market",
            "hootwood-lookout",
            "lilypad-lido",
            "otter-wharf",
            "thistledown-station"
        ])
    );
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1"],
    );
    assert_eq!(
        drive_ends(&mut g, "drive", "move-1"),
        set(&[
            "bell-tower",
            "clover-road-1",
            "fernway-3",
            "high-street-1",
            "pebble-crossroads"
        ])
    );
}

// ---- taxis ------------------------------------------------------------------------------

#[rules("CC-X1", "CC-X5")]
fn x1_the_river_taxi_takes_the_river(def: &Arc<GameDef>) {
    // CC-X1: the River taxi may use river and stream lanes (Reed Landing to Heron Pier and to
    // Willow Landing are lanes), and carries 4.
    let mut g = drive_game(
        def,
        "river-taxi",
        "reed-landing",
        &["raccoon-band"],
        &["move-1"],
    );
    assert_eq!(
        drive_ends(&mut g, "drive", "move-1"),
        set(&[
            "heron-pier",
            "high-street-2",
            "minnow-ford",
            "willow-landing"
        ])
    );
    assert_eq!(
        int(ev(
            &mut g,
            "return data.decks.taxis.cards['river-taxi'].capacity"
        )),
        4
    );
}

#[rules("CC-X2", "CC-T2")]
fn x2_family_draws_two_that_fit(def: &Arc<GameDef>) {
    // CC-X2: an empty Family taxi draws two passenger cards and keeps both when they fit in
    // its 6 seats.
    let mut g = game_on(def, 2, 3);
    ev(
        &mut g,
        "taxis({ 'family-taxi', 'limousine' }) next_cards('passenger-deck', { 'squirrel-courier', 'mayor-marmot' })",
    );
    act(&mut g, "start hootwood-lookout");
    let mut r = cards(&mut g, "riding", Some(1));
    r.sort();
    assert_eq!(r, ["mayor-marmot", "squirrel-courier"]);
    assert_eq!(phase(&mut g), "drive");
    assert_eq!(count(&mut g, "passenger-deck", None), 46);
    // 2 + 4 = 6 fits too.
    let mut g = game_on(def, 2, 3);
    ev(
        &mut g,
        "taxis({ 'family-taxi', 'limousine' }) next_cards('passenger-deck', { 'mayor-marmot', 'otter-swim-team' })",
    );
    act(&mut g, "start hootwood-lookout");
    assert_eq!(count(&mut g, "riding", Some(1)), 2, "2 + 4 passengers fit");
    assert_eq!(phase(&mut g), "drive", "no card to give back");
    // Any other taxi draws one.
    let mut g = game_on(def, 2, 3);
    ev(
        &mut g,
        "taxis({ 'limousine', 'family-taxi' }) next_cards('passenger-deck', { 'squirrel-courier', 'mayor-marmot' })",
    );
    act(&mut g, "start hootwood-lookout");
    assert_eq!(cards(&mut g, "riding", Some(1)), ["squirrel-courier"]);
}

#[rules("CC-X2")]
fn x2_family_keeps_one_when_they_overflow(def: &Arc<GameDef>) {
    // CC-X2: 4 + 4 passengers do not fit in 6 seats: the driver keeps one, the other goes back
    // into the passenger deck, which is shuffled.
    let mut tops = BTreeSet::new();
    for seed in 0..6 {
        let mut g = game_on(def, 2, seed);
        ev(
            &mut g,
            "taxis({ 'family-taxi', 'limousine' }) next_cards('passenger-deck', { 'otter-swim-team', 'moth-choir' })",
        );
        act(&mut g, "start hootwood-lookout");
        assert_eq!(phase(&mut g), "family");
        let mut keep = offered(&mut g, "keep ");
        keep.sort();
        assert_eq!(keep, ["keep moth-choir", "keep otter-swim-team"]);
        assert!(offered(&mut g, "drive").is_empty(), "choose before driving");
        act(&mut g, "keep moth-choir");
        assert_eq!(cards(&mut g, "riding", Some(1)), ["moth-choir"]);
        assert_eq!(count(&mut g, "passenger-deck", None), 47);
        let deck = cards(&mut g, "passenger-deck", None);
        assert!(deck.contains(&"otter-swim-team".to_string()));
        tops.insert(deck.last().unwrap().clone());
        assert_eq!(phase(&mut g), "drive");
    }
    assert!(
        tops.len() > 1,
        "the deck is shuffled after the card goes back"
    );
}

#[rules("CC-X2", "CC-T2")]
fn x2_family_takes_no_one_new_until_empty(def: &Arc<GameDef>) {
    // CC-X2: a Family taxi with a passenger still aboard draws nobody at the start of its turn;
    // with one card left in the deck it takes that one (designed).
    let mut g = drive_game(
        def,
        "family-taxi",
        "acorn-square",
        &["squirrel-courier", "raccoon-band"],
        &["move-1", "move-1", "move-1"],
    );
    ev(&mut g, "no_chance() put(2, 'lilypad-lido')");
    // Drive back onto Acorn Square: Squirrel Courier gets out, the band stays.
    ev(&mut g, "put(1, 'fernway-3')");
    act(&mut g, "drive move-1 acorn-square");
    assert_eq!(cards(&mut g, "riding", Some(1)), ["raccoon-band"]);
    // Rabbit's turn, then Fox's: no new passenger.
    let a = offered(&mut g, "drive")[0].clone();
    act(&mut g, &a);
    assert_eq!(g.active(), 0);
    assert_eq!(cards(&mut g, "riding", Some(1)), ["raccoon-band"]);
    // The deck down to one card: an empty Family taxi takes it.
    let mut g = drive_game(def, "family-taxi", "fernway-3", &[], &["move-1"]);
    ev(
        &mut g,
        "no_chance() ride(1, {}) while game.count(z('passenger-deck')) > 1 do game.move_card(z('passenger-deck'), z('passenger-discard')) end
         game.set('_phase', 'start') game.move_piece(cab(1), nil)",
    );
    act(&mut g, "start acorn-square");
    assert_eq!(count(&mut g, "riding", Some(1)), 1);
    assert!(!g.is_over());
}

#[rules("CC-X3")]
fn x3_the_limousine_earns_vip_tips(def: &Arc<GameDef>) {
    // CC-X3: +2 coins for every VIP card the Limousine delivers; nothing extra on other cards
    // or for other taxis.
    for (taxi, card, fare, expect) in [
        ("limousine", "lady-swan", 3, 5),
        ("limousine", "squirrel-courier", 2, 2),
        ("river-taxi", "lady-swan", 3, 3),
    ] {
        let mut g = drive_game(def, taxi, "fernway-3", &[card], &["move-1"]);
        let f = int(ev(
            &mut g,
            &format!("return data.decks.passengers.cards['{card}'].fare"),
        ));
        assert_eq!(f, fare);
        act(&mut g, "drive move-1 acorn-square");
        assert_eq!(coins(&mut g, 1), expect, "{taxi} delivering {card}");
    }
}

#[rules("CC-X4", "CC-X5")]
fn x4_the_flying_taxi_takes_flight_paths(def: &Arc<GameDef>) {
    // CC-X4: the Flying taxi may fly the flight paths (Hootwood Lookout to Clover Road).
    let mut g = drive_game(
        def,
        "flying-taxi",
        "hootwood-lookout",
        &["raccoon-band"],
        &["move-1"],
    );
    assert_eq!(
        drive_ends(&mut g, "drive", "move-1"),
        set(&["bramble-way-1", "clover-road-1", "fernway-1"])
    );
}

#[rules("CC-X5")]
fn x5_shortcuts_belong_to_their_taxis(def: &Arc<GameDef>) {
    // CC-X5: only the River taxi uses river lanes, only the Flying taxi flight paths.
    for (taxi, from, road_only) in [
        (
            "limousine",
            "reed-landing",
            &["high-street-2", "minnow-ford"][..],
        ),
        (
            "family-taxi",
            "reed-landing",
            &["high-street-2", "minnow-ford"],
        ),
        (
            "flying-taxi",
            "reed-landing",
            &["high-street-2", "minnow-ford"],
        ),
        (
            "river-taxi",
            "hootwood-lookout",
            &["bramble-way-1", "fernway-1"],
        ),
        (
            "limousine",
            "hootwood-lookout",
            &["bramble-way-1", "fernway-1"],
        ),
    ] {
        let mut g = drive_game(def, taxi, from, &["raccoon-band"], &["move-1"]);
        assert_eq!(
            drive_ends(&mut g, "drive", "move-1"),
            set(road_only),
            "{taxi} from {from}"
        );
    }
}

// ---- a turn -----------------------------------------------------------------------------

#[rules("CC-T1")]
fn t1_the_first_turn(def: &Arc<GameDef>) {
    // CC-T1: on the first turn the cab goes on a stand of the player's choice, then a
    // passenger card is drawn, then the drive.
    let mut g = game_on(def, 2, 4);
    ev(
        &mut g,
        "taxis({ 'limousine', 'river-taxi' }) next_cards('passenger-deck', { 'raccoon-band' })",
    );
    assert_eq!(phase(&mut g), "start");
    assert!(
        offered(&mut g, "drive").is_empty(),
        "no drive before the cab is placed"
    );
    act(&mut g, "start badger-heights");
    assert_eq!(cab_at(&mut g, 1), "badger-heights");
    assert_eq!(cards(&mut g, "riding", Some(1)), ["raccoon-band"]);
    assert_eq!(g.active(), 0, "still Fox's turn: the drive comes next");
    assert!(!offered(&mut g, "drive").is_empty());
    assert!(
        offered(&mut g, "start").is_empty(),
        "the cab is placed once"
    );
}

#[rules("CC-T2")]
fn t2_an_empty_taxi_draws_at_the_start_of_its_turn(def: &Arc<GameDef>) {
    // CC-T2: a delivery empties the taxi; the next passenger is drawn at the start of the
    // driver's next turn, and a taxi with a passenger aboard draws nobody.
    let mut g = drive_game(
        def,
        "limousine",
        "fernway-3",
        &["squirrel-courier"],
        &["move-1", "move-2"],
    );
    ev(
        &mut g,
        "no_chance() next_cards('passenger-deck', { 'raccoon-band', 'lady-swan' })",
    );
    act(&mut g, "drive move-1 acorn-square");
    assert_eq!(
        count(&mut g, "riding", Some(1)),
        0,
        "empty until the next turn"
    );
    // Rabbit, with a passenger aboard, draws nothing.
    assert_eq!(cards(&mut g, "riding", Some(2)), ["lifeguard-otters"]);
    let deck = count(&mut g, "passenger-deck", None);
    let a = offered(&mut g, "drive move")[0].clone();
    act(&mut g, &a);
    // Fox's turn begins with a new passenger.
    assert_eq!(g.active(), 0);
    let r = cards(&mut g, "riding", Some(1));
    assert_eq!(r, ["raccoon-band"], "one card, from the top");
    assert_eq!(count(&mut g, "passenger-deck", None), deck - 1);
}

#[rules("CC-T3", "CC-T7")]
fn t3_t6_either_destination(def: &Arc<GameDef>) {
    // CC-T3: a passenger card names two stands; either one takes the passengers (Squirrel
    // Courier: Acorn Square or Otter Wharf), and pays the card's fare.
    for (from, to) in [
        ("fernway-3", "acorn-square"),
        ("quay-street-1", "otter-wharf"),
    ] {
        let mut g = drive_game(def, "limousine", from, &["squirrel-courier"], &["move-1"]);
        act(&mut g, &format!("drive move-1 {to}"));
        assert_eq!(cards(&mut g, "delivered", Some(1)), ["squirrel-courier"]);
        assert_eq!(coins(&mut g, 1), 2);
    }
}

#[rules("CC-T4")]
fn t4_play_one_card_move_exactly(def: &Arc<GameDef>) {
    // CC-T4: one of three cards; exactly its number of spaces, turning back allowed; the card
    // is discarded and a new one drawn.
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1", "move-2", "move-3"],
    );
    ev(&mut g, "no_chance()");
    let two = drive_ends(&mut g, "drive", "move-2");
    assert!(two.contains("acorn-square"), "there and back: {two:?}");
    assert!(two.contains("fernway-2") && two.contains("high-street-2"));
    assert!(!two.contains("fernway-1"), "not 3 spaces: {two:?}");
    // Every card in hand is offered, and only those.
    let kinds: BTreeSet<String> = offered(&mut g, "drive ")
        .iter()
        .map(|a| a.split(' ').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(kinds, set(&["move-1", "move-2", "move-3"]));
    let deck = count(&mut g, "movement-deck", None);
    act(&mut g, "drive move-3 elm-street-1");
    assert_eq!(cab_at(&mut g, 1), "elm-street-1");
    assert_eq!(cards(&mut g, "movement-discard", None), ["move-3"]);
    let h = cards(&mut g, "movement-hand", Some(1));
    assert_eq!(h.len(), 3, "a new card drawn");
    assert!(h.contains(&"move-1".to_string()) && h.contains(&"move-2".to_string()));
    assert_eq!(count(&mut g, "movement-deck", None), deck - 1);
    assert_eq!(g.active(), 1, "one card a turn: the turn has passed");
}

#[rules("CC-T5")]
fn t5_every_move_is_used(def: &Arc<GameDef>) {
    // CC-T5: only where the move ends counts: driving 2 through Otter Wharf delivers nobody,
    // and no move stops short without a Handbrake.
    let mut g = drive_game(
        def,
        "limousine",
        "towpath-1",
        &["squirrel-courier"],
        &["move-2"],
    );
    ev(&mut g, "no_chance()");
    assert!(offered(&mut g, "brake").is_empty());
    let ends = drive_ends(&mut g, "drive", "move-2");
    assert!(!ends.contains("otter-wharf"), "{ends:?}");
    act(&mut g, "drive move-2 quay-street-1");
    assert_eq!(cards(&mut g, "riding", Some(1)), ["squirrel-courier"]);
    assert_eq!(coins(&mut g, 1), 0);
}

#[rules("CC-T6", "CC-T3")]
fn t6_already_on_one_stand(def: &Arc<GameDef>) {
    // CC-T6: a card drawn on one of its own stands must go to the other one.
    let mut g = game_on(def, 2, 2);
    ev(
        &mut g,
        "no_chance() taxis({ 'limousine', 'river-taxi' }) next_cards('passenger-deck', { 'squirrel-courier' }) hand(1, { 'move-2' })",
    );
    act(&mut g, "start acorn-square");
    // Two spaces there and back would end on Acorn Square again: no drop-off there.
    assert!(has(&mut g, "drive move-2 acorn-square"));
    act(&mut g, "drive move-2 acorn-square");
    assert_eq!(cards(&mut g, "riding", Some(1)), ["squirrel-courier"]);
    assert_eq!(coins(&mut g, 1), 0);
    // Otter Wharf still takes them.
    ev(
        &mut g,
        "put(1, 'quay-street-1') hand(1, { 'move-1' }) drive_phase() game.set_active(1)",
    );
    act(&mut g, "drive move-1 otter-wharf");
    assert_eq!(coins(&mut g, 1), 2);
}

#[rules("CC-T7")]
fn t7_delivered_cards_are_kept_face_up(def: &Arc<GameDef>) {
    // CC-T7: the delivered card lies face up before the driver (every seat sees it) and pays
    // its fare (Raccoon Band: 5 coins).
    let mut g = drive_game(
        def,
        "river-taxi",
        "sett-road-3",
        &["raccoon-band"],
        &["move-1"],
    );
    act(&mut g, "drive move-1 thistledown-station");
    assert_eq!(coins(&mut g, 1), 5);
    assert_eq!(count(&mut g, "riding", Some(1)), 0);
    let view = g.view(Some(1));
    let delivered = view
        .zones
        .iter()
        .find(|z| z.id == "delivered" && z.owner == Some(0))
        .unwrap();
    assert_eq!(delivered.cards, ["raccoon-band"], "Rabbit sees it");
    // Two at once: both a Family taxi's cards bound for one stand.
    let mut g = drive_game(
        def,
        "family-taxi",
        "fernway-3",
        &["squirrel-courier", "mayor-marmot"],
        &["move-1"],
    );
    act(&mut g, "drive move-1 acorn-square");
    assert_eq!(coins(&mut g, 1), 4);
    assert_eq!(count(&mut g, "delivered", Some(1)), 2);
}

#[rules("CC-T8")]
fn t8_a_chance_space_draws_a_card(def: &Arc<GameDef>) {
    // CC-T8: ending a move on a chance space draws one chance card; passing over one draws
    // nothing.
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1", "move-2"],
    );
    ev(&mut g, "next_cards('chance-deck', { 'acorn-windfall' })");
    act(&mut g, "drive move-2 elm-street-1");
    assert_eq!(coins(&mut g, 1), 0, "Pebble Crossroads passed: no card");
    assert_eq!(count(&mut g, "chance-deck", None), 24);
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1", "move-2"],
    );
    ev(&mut g, "next_cards('chance-deck', { 'acorn-windfall' })");
    act(&mut g, "drive move-1 pebble-crossroads");
    assert_eq!(coins(&mut g, 1), 3, "Acorn Windfall: take 3 coins");
    assert_eq!(count(&mut g, "chance-deck", None), 23);
    assert_eq!(cards(&mut g, "chance-discard", None), ["acorn-windfall"]);
}

/// Fox on Acorn Square with Raccoon Band aboard, `kept` in hand, `next` chance cards on top.
fn chance_game(def: &Arc<GameDef>, kept: &[&str], next: &[&str]) -> Game {
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1", "move-2", "move-3"],
    );
    ev(
        &mut g,
        &format!(
            "keep(1, {}) next_cards('chance-deck', {})",
            lua_list(kept),
            lua_list(next)
        ),
    );
    g
}

#[rules("CC-T8")]
fn t8_money_cards(def: &Arc<GameDef>) {
    // CC-T8 (designed amounts): Coin Under the Seat +2, Acorn Windfall +3, Parking Ticket -2,
    // Thorn in the Tyre -1 (never below 0), Driver of the Week 1 from each rival who has it.
    for (card, start, expect) in [
        ("coin-under-the-seat", 0, 2),
        ("acorn-windfall", 1, 4),
        ("parking-ticket", 5, 3),
        ("parking-ticket", 1, 0),
        ("thorn-in-the-tyre", 4, 3),
    ] {
        let mut g = chance_game(def, &[], &[card]);
        ev(&mut g, &format!("game.set_counter('coins', 1, {start})"));
        act(&mut g, "drive move-1 pebble-crossroads");
        assert_eq!(coins(&mut g, 1), expect, "{card} from {start}");
    }
    let mut g = drive_game(
        def,
        "limousine",
        "acorn-square",
        &["raccoon-band"],
        &["move-1"],
    );
    let mut g3 = game_on(def, 3, 7);
    for g in [&mut g, &mut g3] {
        ev(
            g,
            "taxis({ 'limousine', 'river-taxi', 'family-taxi' }) put(1, 'acorn-square') ride(1, { 'raccoon-band' }) hand(1, { 'move-1' })
             for s = 2, game.seats() do put(s, 'lilypad-lido') ride(s, { 'lifeguard-otters' }) end
             drive_phase() next_cards('chance-deck', { 'driver-of-the-week' })
             game.set_counter('coins', 2, 3) if game.seats() > 2 then game.set_counter('coins', 3, 0) end",
        );
        act(g, "drive move-1 pebble-crossroads");
    }
    assert_eq!((coins(&mut g, 1), coins(&mut g, 2)), (1, 2));
    assert_eq!(
        (coins(&mut g3, 1), coins(&mut g3, 2), coins(&mut g3, 3)),
        (1, 2, 0),
        "a rival with no coins pays nothing"
    );
}

#[rules("CC-T8")]
fn t8_traffic_jam_skips_the_next_turn(def: &Arc<GameDef>) {
    // CC-T8: Traffic Jam! is played at once: the driver sits out their next turn.
    let mut g = chance_game(def, &[], &["traffic-jam"]);
    act(&mut g, "drive move-1 pebble-crossroads");
    ev(&mut g, "no_chance()");
    assert_eq!(int(ev(&mut g, "return game.counter('skip-turns', 1)")), 1);
    assert_eq!(g.active(), 1);
    let a = offered(&mut g, "drive move")[0].clone();
    act(&mut g, &a);
    assert_eq!(g.active(), 1, "Fox sat out: Rabbit again");
    assert_eq!(int(ev(&mut g, "return game.counter('skip-turns', 1)")), 0);
    assert_eq!(cab_at(&mut g, 1), "pebble-crossroads");
    let a = offered(&mut g, "drive move")[0].clone();
    act(&mut g, &a);
    assert_eq!(g.active(), 0, "and then Fox drives again");
}

#[rules("CC-T8")]
fn t8_the_bet(def: &Arc<GameDef>) {
    // CC-T8: The Bet! is kept, then played on a later turn instead of a movement card: exactly
    // 3 moves, no movement card used or drawn.
    let mut g = chance_game(def, &[], &["the-bet"]);
    act(&mut g, "drive move-1 pebble-crossroads");
    assert_eq!(cards(&mut g, "kept-chance", Some(1)), ["the-bet"]);
    // The card is the owner's secret.
    let v = g.view(Some(1));
    let kept = v
        .zones
        .iter()
        .find(|z| z.id == "kept-chance" && z.owner == Some(0))
        .unwrap();
    assert!(kept.cards.is_empty(), "Rabbit cannot see it");
    let mut g = chance_game(def, &["the-bet"], &[]);
    let bets: BTreeSet<String> = offered(&mut g, "bet ")
        .into_iter()
        .map(|a| a["bet the-bet ".len()..].to_string())
        .collect();
    let threes = drive_ends(&mut g, "drive", "move-3");
    assert_eq!(bets, threes, "exactly three spaces");
    let hand = cards(&mut g, "movement-hand", Some(1));
    act(&mut g, "bet the-bet elm-street-1");
    assert_eq!(cab_at(&mut g, 1), "elm-street-1");
    let mut after = cards(&mut g, "movement-hand", Some(1));
    after.sort();
    let mut before = hand.clone();
    before.sort();
    assert_eq!(after, before, "no movement card played");
    assert!(cards(&mut g, "chance-discard", None).contains(&"the-bet".to_string()));
    assert_eq!(g.active(), 1);
}

#[rules("CC-T8")]
fn t8_generous_tipper(def: &Arc<GameDef>) {
    // CC-T8: a kept Generous Tipper pays 2 extra coins on the next delivery, once.
    let mut g = drive_game(
        def,
        "family-taxi",
        "fernway-3",
        &["squirrel-courier", "raccoon-band"],
        &["move-1"],
    );
    ev(&mut g, "keep(1, { 'generous-tipper', 'generous-tipper' })");
    act(&mut g, "drive move-1 acorn-square");
    assert_eq!(coins(&mut g, 1), 4, "2 fare + 2 tip");
    assert_eq!(
        count(&mut g, "kept-chance", Some(1)),
        1,
        "one card a delivery"
    );
}

#[rules("CC-T8")]
fn t8_green_wave(def: &Arc<GameDef>) {
    // CC-T8 (designed): Green Wave is played before the drive: two movement cards one after
    // the other (the second may be left out), then the hand is filled back to 3.
    let mut g = chance_game(def, &["green-wave"], &[]);
    ev(&mut g, "no_chance()");
    assert!(has(&mut g, "wave green-wave"));
    act(&mut g, "wave green-wave");
    assert!(offered(&mut g, "wave").is_empty());
    act(&mut g, "drive move-1 fernway-3");
    assert_eq!(g.active(), 0, "a second drive");
    assert!(has(&mut g, "stop"));
    assert!(
        offered(&mut g, "drive move-1").is_empty(),
        "the card is spent"
    );
    act(&mut g, "drive move-2 fernway-1");
    assert_eq!(cab_at(&mut g, 1), "fernway-1");
    assert_eq!(count(&mut g, "movement-hand", Some(1)), 3);
    assert_eq!(g.active(), 1);
    // Leaving the second drive out ends the turn.
    let mut g = chance_game(def, &["green-wave"], &[]);
    ev(&mut g, "no_chance()");
    act(&mut g, "wave green-wave");
    act(&mut g, "drive move-1 fernway-3");
    act(&mut g, "stop");
    assert_eq!(cab_at(&mut g, 1), "fernway-3");
    assert_eq!(g.active(), 1);
    assert_eq!(count(&mut g, "movement-hand", Some(1)), 3);
    // One Green Wave a turn, even with two in hand.
    let mut g = chance_game(def, &["green-wave", "green-wave"], &[]);
    ev(&mut g, "no_chance()");
    assert_eq!(count(&mut g, "kept-chance", Some(1)), 2);
    act(&mut g, "wave green-wave");
    assert!(
        offered(&mut g, "wave").is_empty(),
        "a second Green Wave in the same turn"
    );
    // Without the card there is no second drive.
    let mut g = chance_game(def, &[], &[]);
    ev(&mut g, "no_chance()");
    assert!(offered(&mut g, "wave").is_empty());
    act(&mut g, "drive move-1 fernway-3");
    assert_eq!(g.active(), 1);
}

#[rules("CC-T8")]
fn t8_fresh_map(def: &Arc<GameDef>) {
    // CC-T8: Fresh Map, before the drive: the movement hand is discarded and 3 new cards drawn.
    let mut g = chance_game(def, &["fresh-map"], &[]);
    ev(
        &mut g,
        "next_cards('movement-deck', { 'move-6', 'move-5', 'move-4' })",
    );
    act(&mut g, "map fresh-map");
    let mut h = cards(&mut g, "movement-hand", Some(1));
    h.sort();
    assert_eq!(h, ["move-4", "move-5", "move-6"]);
    let mut d = cards(&mut g, "movement-discard", None);
    d.sort();
    assert_eq!(d, ["move-1", "move-2", "move-3"]);
    assert_eq!(g.active(), 0, "then the drive");
    assert!(!offered(&mut g, "drive move-6").is_empty());
}

#[rules("CC-T8", "CC-T5")]
fn t8_handbrake(def: &Arc<GameDef>) {
    // CC-T8 (designed): the Handbrake goes with a movement card and stops the cab before its
    // full count; both cards are discarded. Offered only where the card alone cannot end.
    // From Bramble Way 2, three moves cannot end on Hootwood Lookout (two away) nor back on
    // Bramble Way 2; with the Handbrake both can, and the Lookout takes Raccoon Band.
    let mut g = drive_game(
        def,
        "limousine",
        "bramble-way-2",
        &["raccoon-band"],
        &["move-3"],
    );
    ev(&mut g, "no_chance() keep(1, { 'handbrake' })");
    let braked = drive_ends(&mut g, "brake", "move-3 handbrake");
    let full = drive_ends(&mut g, "drive", "move-3");
    assert!(braked.contains("hootwood-lookout"), "{braked:?}");
    assert!(braked.contains("bramble-way-2"), "{braked:?}");
    assert!(braked.is_disjoint(&full));
    act(&mut g, "brake move-3 handbrake hootwood-lookout");
    assert_eq!(cab_at(&mut g, 1), "hootwood-lookout");
    assert_eq!(coins(&mut g, 1), 5, "Raccoon Band dropped off");
    let mut d = cards(&mut g, "movement-discard", None);
    d.sort();
    assert_eq!(d, ["move-3"]);
    assert_eq!(cards(&mut g, "chance-discard", None), ["handbrake"]);
    assert_eq!(g.active(), 1);
}

#[rules("CC-T8", "CC-X2")]
fn t8_wrong_cab(def: &Arc<GameDef>) {
    // CC-T8 (designed): Wrong Cab!, before the drive: a riding card goes back into the deck,
    // the deck is shuffled and another drawn; one that does not fit the seats goes back too.
    let mut g = chance_game(def, &["wrong-cab"], &[]);
    assert_eq!(offered(&mut g, "swap "), ["swap wrong-cab raccoon-band"]);
    act(&mut g, "swap wrong-cab raccoon-band");
    let r = cards(&mut g, "riding", Some(1));
    assert_eq!(r.len(), 1);
    assert_eq!(count(&mut g, "passenger-deck", None), 48 - 2);
    assert!(count(&mut g, "kept-chance", Some(1)) == 0);
    assert_eq!(g.active(), 0, "then the drive");
    // A Family taxi with 2 + 4 aboard sends the 2 back; a 4 drawn for it does not fit.
    let mut seen_back = false;
    let mut seen_fit = false;
    for seed in 0..30 {
        let mut g = game_on(def, 2, seed);
        ev(
            &mut g,
            "taxis({ 'family-taxi', 'limousine' }) put(1, 'acorn-square') ride(1, { 'mayor-marmot', 'raccoon-band' })
             hand(1, { 'move-1' }) keep(1, { 'wrong-cab' }) put(2, 'lilypad-lido') ride(2, { 'lifeguard-otters' }) drive_phase()",
        );
        act(&mut g, "swap wrong-cab mayor-marmot");
        let r = cards(&mut g, "riding", Some(1));
        assert!(r.contains(&"raccoon-band".to_string()));
        let seats = int(ev(
            &mut g,
            "local n = 0 for _, c in ids(z('riding', 1)) do n += data.decks.passengers.cards[c].passengers end return n",
        ));
        assert!(seats <= 6, "seed {seed}: {r:?}");
        let deck = count(&mut g, "passenger-deck", None);
        if r.len() == 1 {
            seen_back = true;
            assert_eq!(deck, 48 - 2 - 1 + 1, "both went back");
        } else {
            seen_fit = true;
        }
    }
    assert!(seen_back && seen_fit);
}

#[rules("CC-T8")]
fn t8_stork_airlift(def: &Arc<GameDef>) {
    // CC-T8 (designed): Stork Airlift lifts the cab at once to a stand that is no destination
    // of its passengers; the driver picks which.
    let mut g = chance_game(def, &[], &["stork-airlift"]);
    act(&mut g, "drive move-1 pebble-crossroads");
    assert_eq!(phase(&mut g), "stork");
    let stands: BTreeSet<String> = offered(&mut g, "stork ")
        .into_iter()
        .map(|a| a[6..].to_string())
        .collect();
    assert_eq!(
        stands,
        set(&[
            "acorn-square",
            "badger-heights",
            "beaverbank-mill",
            "foxglove-market",
            "lilypad-lido",
            "otter-wharf"
        ]),
        "not Hootwood Lookout nor Thistledown Station (Raccoon Band's stands)"
    );
    act(&mut g, "stork otter-wharf");
    assert_eq!(cab_at(&mut g, 1), "otter-wharf");
    assert_eq!(g.active(), 1);
}

#[rules("CC-T8")]
fn t8_roadworks_sign(def: &Arc<GameDef>) {
    // CC-T8 (designed): Roadworks Sign, played before the drive, makes a rival of the
    // driver's choice sit out their next turn.
    let mut g = game_on(def, 3, 7);
    ev(
        &mut g,
        "taxis({ 'limousine', 'river-taxi', 'family-taxi' }) no_chance()
         for s = 1, 3 do put(s, 'lilypad-lido') ride(s, { ({ 'raccoon-band', 'lifeguard-otters', 'moth-choir' })[s] }) end
         keep(1, { 'roadworks-sign' }) drive_phase()",
    );
    let mut r = offered(&mut g, "roadworks ");
    r.sort();
    assert_eq!(
        r,
        ["roadworks roadworks-sign 2", "roadworks roadworks-sign 3"]
    );
    act(&mut g, "roadworks roadworks-sign 3");
    assert_eq!(int(ev(&mut g, "return game.counter('skip-turns', 3)")), 1);
    assert_eq!(g.active(), 0, "then Fox drives");
    for _ in 0..2 {
        let a = offered(&mut g, "drive move")[0].clone();
        act(&mut g, &a);
    }
    assert_eq!(g.active(), 0, "Hedgehog sat out");
}

#[rules("CC-T9")]
fn t9_empty_decks_are_rebuilt_from_their_discards(def: &Arc<GameDef>) {
    // CC-T9: the movement deck, once empty, is rebuilt from the played cards; so is the chance
    // deck.
    let mut g = chance_game(def, &[], &[]);
    ev(
        &mut g,
        "empty(z('movement-deck'), z('movement-discard')) no_chance() fetch('coin-under-the-seat', z('chance-discard'))",
    );
    let discards = count(&mut g, "movement-discard", None);
    let mut unshuffled = cards(&mut g, "movement-discard", None);
    unshuffled.reverse(); // dealt top first, the unshuffled pile would come out reversed
    act(&mut g, "drive move-1 pebble-crossroads");
    // The rebuilt deck is shuffled: its order is neither the pile's nor the pile's reversed.
    let rebuilt = cards(&mut g, "movement-deck", None);
    let n = rebuilt.len();
    assert!(n > 20, "{n}");
    assert_ne!(
        rebuilt[..],
        unshuffled[..n],
        "the rebuilt deck was not shuffled"
    );
    unshuffled.reverse();
    assert_ne!(
        rebuilt[..],
        unshuffled[..n],
        "the rebuilt deck was not shuffled"
    );
    assert_eq!(
        count(&mut g, "movement-hand", Some(1)),
        3,
        "a card was drawn"
    );
    assert_eq!(
        count(&mut g, "movement-deck", None) + count(&mut g, "movement-discard", None),
        discards + 1 - 1
    );
    assert_eq!(
        cards(&mut g, "movement-discard", None),
        ["move-1"],
        "the card just played is not shuffled in: it is discarded after the hand is filled"
    );
    assert_eq!(
        coins(&mut g, 1),
        2,
        "Coin Under the Seat, from the rebuilt chance deck"
    );
    assert_eq!(count(&mut g, "chance-deck", None), 0);
    assert_eq!(
        cards(&mut g, "chance-discard", None),
        ["coin-under-the-seat"]
    );
}

// ---- the end ----------------------------------------------------------------------------

#[rules("CC-E1")]
fn e1_the_passengers_run_out(def: &Arc<GameDef>) {
    // CC-E1: a passenger card must be drawn and none is left: the game ends at once.
    let mut g = drive_game(
        def,
        "limousine",
        "fernway-3",
        &["squirrel-courier"],
        &["move-1"],
    );
    ev(
        &mut g,
        "no_chance() empty(z('passenger-deck'), z('passenger-discard')) ride(2, { 'lifeguard-otters' }) game.set_counter('coins', 2, 9)",
    );
    act(&mut g, "drive move-1 acorn-square");
    assert!(!g.is_over(), "Rabbit still has passengers aboard");
    let a = offered(&mut g, "drive move")[0].clone();
    act(&mut g, &a);
    assert!(g.is_over(), "Fox needs a passenger and none is left");
    let r = g.result().unwrap();
    assert_eq!(r.reason, "the passenger deck has run out");
    assert_eq!(r.places, [2, 1]);
}

#[rules("CC-E2")]
fn e2_most_coins_wins(def: &Arc<GameDef>) {
    // CC-E2: most coins wins; equal coins share a place.
    for (c, places) in [
        ([4, 7, 7], [3, 1, 1]),
        ([9, 2, 5], [1, 3, 2]),
        ([3, 3, 3], [1, 1, 1]),
    ] {
        let mut g = game_with(def, 3, 1, &[("turn-limit", Value::Int(4))]);
        ev(
            &mut g,
            &format!(
                "no_chance() game.set_counter('rounds', 3)
                 for s = 1, 3 do put(s, 'hootwood-lookout') ride(s, {{ ({{ 'raccoon-band', 'lifeguard-otters', 'moth-choir' }})[s] }}) end
                 game.set_counter('coins', 1, {}) game.set_counter('coins', 2, {}) game.set_counter('coins', 3, {}) drive_phase()",
                c[0], c[1], c[2]
            ),
        );
        for _ in 0..3 {
            let a = offered(&mut g, "drive move")
                .into_iter()
                .find(|a| !a.ends_with("lookout") && !a.ends_with("station"))
                .unwrap();
            act(&mut g, &a);
        }
        assert!(g.is_over());
        let r = g.result().unwrap();
        assert_eq!(r.places, places, "coins {c:?}");
        assert_eq!(r.scores, c);
    }
}
}

/// The rule IDs of mods/critter-cab/RULES.md.
pub const RULES: &[&str] = &[
    "CC-S1", "CC-S2", "CC-S3", "CC-S4", "CC-X1", "CC-X2", "CC-X3", "CC-X4", "CC-X5", "CC-T1",
    "CC-T2", "CC-T3", "CC-T4", "CC-T5", "CC-T6", "CC-T7", "CC-T8", "CC-T9", "CC-E1", "CC-E2",
];

#[test]
fn the_rule_list_matches_rules_md() {
    rule_mutants::assert_rules_match_rule_list("critter-cab", "CC-", RULES);
}

#[test]
fn every_broken_rule_is_caught() {
    // The oracles judge one seed of each kind of game (critter_cab_oracles::plans), and stop
    // at their first catch.
    let mut oracles = farebox_suite::oracles::invariants();
    oracles.extend(farebox_suite::critter_cab_oracles::oracles());
    let plans = farebox_suite::critter_cab_oracles::plans(1);
    let catch = |def: &Arc<GameDef>| {
        farebox_suite::oracles::first_catch(def, &plans, &oracles, 3000).map(|c| c.to_string())
    };
    rule_mutants::run_with_oracles(
        "critter-cab",
        RULES,
        CHECKS,
        critter_cab_mutants::MUTANTS,
        Some(rule_mutants::OracleRun {
            catch: &catch,
            required: critter_cab_mutants::FOR_ORACLES,
        }),
    );
}

#[test]
fn no_action_is_listed_twice_and_games_end() {
    // The action list is a set (two copies of a movement card offer one drive), and random
    // games of every size, with either limit and chosen taxis, end without an error.
    let mut rng = farebox::rng::Rng::new(7, 1);
    let mut checked = 0;
    for seed in 0..40u64 {
        let options: &[(&str, Value)] = match seed % 3 {
            0 => &[],
            1 => &[("limit", Value::Str("clock".into()))],
            _ => &[("taxi-assignment", Value::Str("choose".into()))],
        };
        let mut g = game_with(&shipped(), 2 + (seed % 3) as u8, seed, options);
        while !g.is_over() && g.history().len() < 3000 {
            let acts = g.legal_actions().unwrap();
            assert!(!acts.is_empty(), "seed {seed}: nothing to do");
            let mut sorted = acts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), acts.len(), "seed {seed}: {acts:?}");
            checked += 1;
            let a = acts[rng.below(acts.len() as u32) as usize].clone();
            g.apply_legal(&a).unwrap();
        }
        assert!(g.is_over(), "seed {seed}");
    }
    assert!(checked > 1000);
}

#[test]
fn a_passenger_listing_names_only_the_destination_that_applies() {
    // CC-T6: a card taken on one of its own stands goes only to the other one, so every
    // listing of it (the Wrong Cab! label, the cab's load) names that one alone.
    let def = shipped();
    let mut g = chance_game(&def, &["wrong-cab"], &[]);
    ev(
        &mut g,
        "game.set('_pickup', { ['raccoon-band'] = 'hootwood-lookout' })",
    );
    let label = g.describe("swap wrong-cab raccoon-band");
    assert!(label.contains("Thistledown Station"), "{label}");
    assert!(!label.contains("Hootwood Lookout"), "{label}");
    let public = g.describe_public("swap wrong-cab raccoon-band");
    assert!(!public.contains("Hootwood Lookout"), "{public}");
}

#[test]
fn a_drive_that_drops_off_says_it_drives_there() {
    // CC-T5 / CC-T7: a passenger gets out only where a drive ends, so the offer of a drive that
    // ends on the passenger's stand names the drive, for the driver and for the others, and
    // does not read as if the passenger got out before the cab moved.
    let def = shipped();
    let mut g = drive_game(
        &def,
        "river-taxi",
        "sett-road-3",
        &["raccoon-band"],
        &["move-1"],
    );
    let label = g.describe("drive move-1 thistledown-station");
    assert!(
        label.starts_with("Drive and drop off Raccoon Band at Thistledown Station"),
        "{label}"
    );
    let public = g.describe_public("drive move-1 thistledown-station");
    assert!(
        public.starts_with("Drives and drops off Raccoon Band at Thistledown Station"),
        "{public}"
    );
}
