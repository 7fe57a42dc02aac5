//! Dicey Curves' rules: every rule ID of mods/dicey-curves/RULES.md is proved by at
//! least one check below, which builds its situation through the script API (`Game::eval`,
//! with the rules' rights) and asserts the rule's effect. Numbers the rulebook gives (2-8
//! players, two cars each up to four players, 2 chips each from 32, 36 cards, 9 grid spaces,
//! 5 white and 5 green dice, combos of 2 or more, chips 1 / 2 / 3 for 2 / 3 / 4+ dice and at
//! most 4, a 3-dice finish gate, first + 2 x second) and the designed ones of
//! mods/dicey-curves/DESIGN.md (the Finish's depth, the gates of each curve, the last car's
//! place) are written here as those texts state them, never read back from the content under
//! test.
//!
//! Each check is a plain function of the game definition: the `#[test]`s run them on the mod as
//! shipped, and `every_broken_rule_is_caught` runs them on deliberately broken copies of it (the
//! mutants in `dicey_curves/mutants.rs`) and requires every break to make a check of its
//! rule fail.
//!
//! Seats are numbered from 1 here, as the rules number them (`Game::active` counts from 0).
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

#[path = "dicey_curves/mutants.rs"]
mod dicey_curves_mutants;
#[path = "dicey_curves/secrets.rs"]
mod secrets;

fn shipped() -> Arc<GameDef> {
    rule_kit::shipped("dicey-curves")
}

const PRELUDE: &str = r#"
local function z(id) return game.zone(id) end
local function car(c) return game.pieces("car-" .. c)[1] end
local function sp(id) return game.space(id) end
-- The space of track card n (1 = the Start), lane and row counted from 0.
local function at(n, lane, row) return "t" .. (n - 1) .. "-l" .. lane .. "-r" .. row end
local function put(c, id) game.move_piece(car(c), if id then sp(id) else nil) end
local function where(c) local s = game.where_is(car(c)); return if s then game.space_info(s).id else nil end
-- The dice in play: `values`, the last `greens` of them green; nothing spent, nothing moved.
local function dice(values, greens)
  local g, u = {}, {}
  for i = 1, #values do g[i] = i > #values - (greens or 0); u[i] = false end
  game.set("_dice", values); game.set("_green", g); game.set("_used", u)
  game.set("_combo", nil); game.set("_moved", false); game.set("_single", {}); game.set("_control", {})
  game.set("_phase", "move")
end
-- Lays `card` (taken from wherever it is) at the track's end as the rules lay a card; its number.
local function lay(card)
  for _, id in { "track-deck", "set-aside", "off-track", "track" } do
    if id ~= "track" and game.take_card(z(id), card, z("track-deck")) then break end
  end
  local first = game.attach_track(data.decks.track.cards[card].piece, { force = true })
  game.move_card(z("track-deck"), z("track"))
  local laid, f = game.get("_laid"), game.get("_first")
  table.insert(laid, card); table.insert(f, first)
  game.set("_laid", laid); game.set("_first", f)
  return #laid
end
-- Every car back to the Start's two back rows, out of the way.
local function park()
  local i = 0
  for _, c in { "red", "blue", "yellow", "green", "orange", "purple", "black", "white" } do
    if game.where_is(car(c)) then
      put(c, at(1, i % 3, i // 3)); i += 1
    end
  end
end
"#;

/// A game whose cars have lined up (each on the first grid space offered): the first turn
/// has begun.
fn racing(def: &Arc<GameDef>, seats: u8, seed: u64, options: &[(&str, Value)]) -> Game {
    let mut g = game_with(def, seats, seed, options);
    while phase(&mut g) == "grid" {
        let a = offered(&mut g, "place ")[0].clone();
        act(&mut g, &a);
    }
    g
}

fn choice(id: &str) -> Value {
    Value::Str(id.into())
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

fn ints(v: Value) -> Vec<i64> {
    match v {
        Value::List(items) => items.into_iter().map(int).collect(),
        Value::Map(m) if m.is_empty() => vec![],
        Value::Nil => vec![],
        other => panic!("not a list: {other:?}"),
    }
}

fn var(g: &mut Game, name: &str) -> Value {
    ev(g, &format!("return game.get('{name}')"))
}

fn phase(g: &mut Game) -> String {
    text(var(g, "_phase"))
}

/// The seat to act, counted from 1.
fn active(g: &Game) -> i64 {
    g.active() as i64 + 1
}

fn chips(g: &mut Game, seat: i64) -> i64 {
    int(ev(g, &format!("return game.counter('chips', {seat})")))
}

fn supply(g: &mut Game) -> i64 {
    int(ev(g, "return game.counter('chip-supply')"))
}

fn set_chips(g: &mut Game, seat: i64, n: i64) {
    ev(g, &format!("game.set_counter('chips', {seat}, {n})"));
}

fn count(g: &mut Game, zone: &str) -> i64 {
    int(ev(g, &format!("return game.count(z('{zone}'))")))
}

fn laid(g: &mut Game) -> Vec<String> {
    strings(var(g, "_laid"))
}

fn where_car(g: &mut Game, car: &str) -> String {
    text(ev(g, &format!("return where('{car}')")))
}

/// The end spaces offered for `car` by moves of the given kind ("move" or "power").
fn ends(g: &mut Game, kind: &str, car: &str) -> BTreeSet<String> {
    offered(g, &format!("{kind} {car} "))
        .into_iter()
        .map(|a| a.rsplit(' ').next().unwrap().to_string())
        .collect()
}

fn set(items: &[String]) -> BTreeSet<String> {
    items.iter().cloned().collect()
}

fn spaces(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The id of a space of track card `n` (1 = the Start).
fn at(n: i64, lane: i64, row: i64) -> String {
    format!("t{}-l{lane}-r{row}", n - 1)
}

/// Lays cards at the track's end; the number of the first.
fn lay(g: &mut Game, cards: &[&str]) -> i64 {
    let mut first = 0;
    for (i, c) in cards.iter().enumerate() {
        let n = int(ev(g, &format!("return lay('{c}')")));
        if i == 0 {
            first = n;
        }
    }
    first
}

fn put(g: &mut Game, car: &str, space: &str) {
    ev(g, &format!("put('{car}', '{space}')"));
}

fn dice(g: &mut Game, values: &[i64], greens: usize) {
    let list = values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    ev(g, &format!("dice({{ {list} }}, {greens})"));
}

/// The values of the dice in play.
fn values(g: &mut Game) -> Vec<i64> {
    ints(var(g, "_dice"))
}

/// Two players (red and yellow for seat 1, blue and green for seat 2), seat 1 to act, every car
/// parked on the Start, a long straight and another after the track, dice as given.
fn open_road(def: &Arc<GameDef>, dice_values: &[i64]) -> (Game, i64) {
    let mut g = racing(def, 2, 11, &[]);
    ev(&mut g, "park() game.set_active(1)");
    let n = lay(&mut g, &["long-straight", "long-straight"]);
    dice(&mut g, dice_values, 0);
    (g, n)
}

// ---- setup ----------------------------------------------------------------------------------

farebox_suite::rule_checks! {
#[rules("DC-S1")]
fn s1_two_cars_each_up_to_four_players_one_from_five(def: &Arc<GameDef>) {
    for n in 2..=8u8 {
        let mut g = game_with(def, n, 1, &[]);
        let expect = if n <= 4 { 2 } else { 1 };
        for seat in 1..=n {
            let cars = strings(ev(&mut g, &format!("return game.get('_cars')['{seat}']")));
            assert_eq!(cars.len(), expect, "{n} players, seat {seat}: {cars:?}");
        }
    }
    let mut g = game_with(def, 3, 1, &[("cars-per-player", choice("one"))]);
    assert_eq!(
        strings(ev(&mut g, "return game.get('_cars')['1']")).len(),
        1
    );
    // Two each with more than four players would need more than eight cars: one each.
    let mut g = game_with(def, 6, 1, &[("cars-per-player", choice("two"))]);
    assert_eq!(
        strings(ev(&mut g, "return game.get('_cars')['1']")).len(),
        1
    );
    for bad in [1u8, 9] {
        assert!(
            Game::new(def.clone(), Setup::new(bad, 1)).is_err(),
            "{bad} players accepted"
        );
    }
}

#[rules("DC-S2")]
fn s2_two_chips_each_from_a_supply_of_32(def: &Arc<GameDef>) {
    // Two chips each from the supply of 32; DESIGN.md (DC-S6): every seat after the starter,
    // in turn order, takes 2 more (4, the cap), so only the starter holds 2.
    for (n, seed) in [(3u8, 5u64), (5, 3), (8, 3)] {
        let mut g = game_with(def, n, seed, &[]);
        let first = int(var(&mut g, "_first_seat"));
        for seat in 1..=n as i64 {
            let expect = if seat == first { 2 } else { 4 };
            assert_eq!(
                chips(&mut g, seat),
                expect,
                "{n} players, seat {seat} (seat {first} starts)"
            );
        }
        assert_eq!(supply(&mut g), 32 - 2 - 4 * (n as i64 - 1), "{n} players");
    }
    // Two seats have a list of their own: the starter gives a chip back (1), the second seat
    // takes one more (3).
    for seed in [3u64, 4, 5, 6] {
        let mut g = game_with(def, 2, seed, &[]);
        let first = int(var(&mut g, "_first_seat"));
        let second = first % 2 + 1;
        assert_eq!(
            chips(&mut g, first),
            1,
            "2 players, the starter (seat {first})"
        );
        assert_eq!(
            chips(&mut g, second),
            3,
            "2 players, seat {second} moves second"
        );
        assert_eq!(supply(&mut g), 32 - 4, "2 players");
    }
    // Four seats have a list of their own: by turn order 1, 2, 3 and 4 chips (one back, none,
    // 1 and 2 more), with their own lining-up order (see s6).
    for seed in [3u64, 4, 5, 6] {
        let mut g = game_with(def, 4, seed, &[]);
        let first = int(var(&mut g, "_first_seat"));
        for (k, expect) in [1, 2, 3, 4].into_iter().enumerate() {
            let seat = (first - 1 + k as i64) % 4 + 1;
            assert_eq!(
                chips(&mut g, seat),
                expect,
                "4 players, seat {seat} is place {} in turn order (seat {first} starts)",
                k + 1
            );
        }
        assert_eq!(supply(&mut g), 32 - 10, "4 players");
    }
}

#[rules("DC-S3")]
fn s3_thirty_six_track_cards_one_start_one_finish(def: &Arc<GameDef>) {
    let mut g = game_with(def, 2, 5, &[]);
    let all = strings(ev(
        &mut g,
        "local out = {}
         for _, id in { 'track-deck', 'set-aside', 'off-track', 'track' } do
           for _, c in game.cards(z(id)) do table.insert(out, c) end
         end
         return out",
    ));
    assert_eq!(all.len(), 36, "{all:?}");
    assert_eq!(all.iter().filter(|c| *c == "start").count(), 1);
    assert_eq!(all.iter().filter(|c| *c == "finish").count(), 1);
}

/// Cards drawn from the deck down to the Finish at setup: those laid after the first two,
/// those that left the race, and those still above the Finish.
fn finish_depth(g: &mut Game) -> i64 {
    int(ev(
        g,
        "local deck = game.cards(z('track-deck'))
         local above = nil
         for i = #deck, 1, -1 do if deck[i] == 'finish' then above = #deck - i end end
         assert(above, 'the Finish is not in the deck')
         return above + #game.get('_laid') - 2 + game.count(z('off-track'))",
    ))
}

#[rules("DC-S4")]
fn s4_finish_back_in_at_its_depth(def: &Arc<GameDef>) {
    // DESIGN.md: 10 / 16 / 24 cards above the Finish, moved by up to 2 either way.
    for (depth, lo, hi) in [("short", 8, 12), ("middle", 14, 18), ("long", 22, 26)] {
        let mut seen = BTreeSet::new();
        for seed in 0..40 {
            let mut g = game_with(def, 2, seed, &[("finish-depth", choice(depth))]);
            let d = finish_depth(&mut g);
            assert!(
                (lo..=hi).contains(&d),
                "{depth}, seed {seed}: {d} cards above"
            );
            seen.insert(d);
            assert_eq!(count(&mut g, "set-aside"), 0);
        }
        assert!(seen.len() >= 3, "{depth}: always {seen:?}");
    }
    // The deck is shuffled: its order differs between seeds.
    let order = |seed| {
        let mut g = game_with(def, 2, seed, &[]);
        strings(ev(&mut g, "return game.cards(z('track-deck'))"))
    };
    assert_ne!(order(1), order(2));
}

/// DC-S4: the shuffled deck lies face down (see `dicey_curves/secrets.rs`).
#[rules("DC-S4")]
fn s4_the_track_deck_stays_face_down(def: &Arc<GameDef>) {
    secrets::track_deck_stays_face_down(def);
}

#[rules("DC-S5")]
fn s5_start_wide_straight_and_two_cards(def: &Arc<GameDef>) {
    for seed in 0..20 {
        let mut g = game_with(def, 3, seed, &[]);
        let track = laid(&mut g);
        assert_eq!(track.len(), 4, "seed {seed}: {track:?}");
        assert_eq!(track[0], "start");
        assert_eq!(track[1], "wide-straight");
        // One wide straight was taken out for the opening; the deck keeps the other two.
        let wide = strings(ev(&mut g, "return game.cards(z('track-deck'))"))
            .iter()
            .chain(track.iter().skip(2))
            .chain(strings(ev(&mut g, "return game.cards(z('off-track'))")).iter())
            .filter(|c| *c == "wide-straight")
            .count();
        assert_eq!(wide, 2, "seed {seed}");
    }
}

#[rules("DC-S6")]
fn s6_nine_grid_spaces_filled_in_snake_order(def: &Arc<GameDef>) {
    let mut g = game_with(def, 3, 8, &[]);
    assert_eq!(offered(&mut g, "place ").len(), 9);
    let first = int(var(&mut g, "_first_seat"));
    let seat = |i: i64| (first - 1 + i).rem_euclid(3) + 1;
    let expect = [seat(0), seat(1), seat(2), seat(2), seat(1), seat(0)];
    let mut order = vec![];
    let mut taken = vec![];
    while phase(&mut g) == "grid" {
        order.push(active(&g));
        let places = offered(&mut g, "place ");
        assert_eq!(places.len(), 9 - taken.len());
        for t in &taken {
            assert!(!places.contains(t), "{t} offered twice");
        }
        // Front row first (row 2 of the Start), as a racer would.
        let a = places
            .iter()
            .rev()
            .find(|p| p.ends_with("-r2"))
            .unwrap_or(&places[0])
            .clone();
        act(&mut g, &a);
        taken.push(a);
    }
    assert_eq!(order, expect);
    // First cars first: the first to line up drives the first of its cars.
    let first_cars = strings(ev(&mut g, &format!("return game.get('_cars')['{first}']")));
    let front = where_car(&mut g, first_cars[0].trim_start_matches("car-"));
    assert_eq!(format!("place {front}"), taken[0]);
    assert_eq!(active(&g), first, "the first to line up starts the race");
    // DESIGN.md (DC-S6): four seats line up in an order of their own, by place in the turn
    // order: the second, the starter, the fourth, the third, then back the other way; the
    // starter still takes the first turn.
    let mut g = game_with(def, 4, 8, &[]);
    let first = int(var(&mut g, "_first_seat"));
    let place = |k: i64| (first - 1 + k - 1).rem_euclid(4) + 1;
    let expect: Vec<i64> = [2, 1, 4, 3, 3, 4, 1, 2].into_iter().map(place).collect();
    let mut order = vec![];
    while phase(&mut g) == "grid" {
        order.push(active(&g));
        let places = offered(&mut g, "place ");
        act(&mut g, &places[0]);
    }
    assert_eq!(order, expect, "seat {first} starts");
    assert_eq!(active(&g), first, "the starter takes the first turn");
}

// ---- a turn ---------------------------------------------------------------------------------

#[rules("DC-T1", "DC-E1")]
fn t1_a_card_each_turn_and_misfits_leave(def: &Arc<GameDef>) {
    let mut g = racing(def, 2, 4, &[]);
    let before = laid(&mut g);
    let top = text(ev(&mut g, "return game.top(z('track-deck'))"));
    act(&mut g, "done");
    let after = laid(&mut g);
    assert_eq!(after.len(), before.len() + 1, "{after:?}");
    assert_eq!(after.last().unwrap(), &top);
    // A table the track no longer fits on: every card drawn leaves the race, down to the
    // Finish, which is laid all the same (DC-E1).
    let mut g = racing(def, 2, 4, &[]);
    let deck = strings(ev(&mut g, "return game.cards(z('track-deck'))"));
    let above = deck.len() - 1 - deck.iter().position(|c| c == "finish").unwrap();
    let off = count(&mut g, "off-track");
    let n = laid(&mut g).len();
    ev(&mut g, "game.set_track_table(1, 1)");
    act(&mut g, "done");
    assert_eq!(count(&mut g, "off-track"), off + above as i64);
    let track = laid(&mut g);
    assert_eq!(track.len(), n + 1);
    assert_eq!(track.last().unwrap(), "finish");
    // DESIGN.md, DC-T1: a card after which no card of the deck could fit does not fit either.
    // On the small table, turn after turn until the Finish is down, the track's end always
    // has room for some card, and some games discard a card for that reason alone.
    let mut dead_ends = 0;
    for seed in 0..12 {
        let mut g = racing(def, 2, seed, &[("table-size", choice("small"))]);
        ev(&mut g, "park()");
        while !truthy(var(&mut g, "_finish_laid")) {
            let room = ev(
                &mut g,
                "for _, id in { 'straight-2-long', 'straight-2-short', 'straight-3-long', 'straight-3-short',
                   'gentle-left', 'gentle-right', 'banked-left', 'banked-right', 'sweeper-left', 'sweeper-right',
                   'hard-left', 'hard-right', 'hairpin-left', 'hairpin-right', 'off-camber-left', 'off-camber-right',
                   'finish-line' } do
                   if game.track_fits(id) then return true end
                 end
                 return false",
            );
            assert_eq!(
                room,
                Value::Bool(true),
                "seed {seed}: the track ends in a dead end before the Finish: {:?}",
                laid(&mut g)
            );
            act(&mut g, "done");
        }
        dead_ends += g
            .log()
            .iter()
            .filter(|e| e.text.contains("no room to go on"))
            .count();
    }
    assert!(
        dead_ends > 0,
        "no card was ever discarded for leaving no room"
    );
}

fn truthy(v: Value) -> bool {
    !matches!(v, Value::Nil | Value::Bool(false))
}

#[rules("DC-T2")]
fn t2_sixes_explode_into_green_dice(def: &Arc<GameDef>) {
    let (mut with_green, mut turns) = (0, 0);
    let mut faces = [0usize; 5];
    for seed in 0..150 {
        let mut g = racing(def, 2, seed, &[]);
        let v = values(&mut g);
        let greens = ints(ev(
            &mut g,
            "local n = 0 for _, x in game.get('_green') do if x then n += 1 end end return { n }",
        ))[0];
        assert!(v.iter().all(|x| (1..=5).contains(x)), "seed {seed}: {v:?}");
        assert_eq!(v.len() as i64, 5 + greens, "seed {seed}: {v:?}");
        for x in &v {
            faces[*x as usize - 1] += 1;
        }
        assert!(greens <= 5);
        turns += 1;
        if greens > 0 {
            with_green += 1;
        }
    }
    // At least one 6 among five dice: 1 - (5/6)^5 = 60%.
    assert!(
        (70..=110).contains(&with_green),
        "{with_green} of {turns} rolls brought green dice"
    );
    // Every 6 was rolled again: the faces left, 1 to 5, are equally likely.
    let all: usize = faces.iter().sum();
    for (i, f) in faces.iter().enumerate() {
        let share = *f as f64 / all as f64;
        assert!((0.15..0.25).contains(&share), "{}s: {f} of {all}", i + 1);
    }
    // With all five green dice in play, a 6 is only rolled again.
    let (mut g, _) = open_road(def, &[1, 2, 3, 4, 5]);
    dice(&mut g, &[1, 1, 1, 1, 1, 2, 2, 2, 2, 2], 5);
    for _ in 0..15 {
        set_chips(&mut g, 1, 4);
        act(&mut g, "reroll");
        for _ in 0..5 {
            act(&mut g, "pick 1");
        }
        act(&mut g, "roll");
        let v = values(&mut g);
        assert_eq!(v.len(), 10, "{v:?}");
        assert!(v.iter().all(|x| (1..=5).contains(x)), "{v:?}");
        dice(&mut g, &[1, 1, 1, 1, 1, 2, 2, 2, 2, 2], 5);
    }
}

#[rules("DC-T3")]
fn t3_a_chip_adds_a_green_die_or_sets_one(def: &Arc<GameDef>) {
    let (mut g, _) = open_road(def, &[1, 1, 2, 4, 4]);
    // Two chips: one to add a die, one to set one.
    set_chips(&mut g, 1, 2);
    assert_eq!(
        set(&offered(&mut g, "add ")),
        spaces(&["add 1", "add 2", "add 3", "add 4", "add 5"])
    );
    let before = (chips(&mut g, 1), supply(&mut g));
    act(&mut g, "add 3");
    assert_eq!(values(&mut g), vec![1, 1, 2, 4, 4, 3]);
    assert_eq!(
        (chips(&mut g, 1), supply(&mut g)),
        (before.0 - 1, before.1 + 1)
    );
    // All five green dice in play: change one instead.
    dice(&mut g, &[1, 1, 2, 2, 3, 4, 5, 5, 1, 3], 5);
    assert!(offered(&mut g, "add ").is_empty());
    assert!(has(&mut g, "set 4 2"));
    assert!(!has(&mut g, "set 2 4"), "white dice are not changed");
    let before = (chips(&mut g, 1), supply(&mut g));
    act(&mut g, "set 4 2");
    assert_eq!(values(&mut g), vec![1, 1, 2, 2, 3, 2, 5, 5, 1, 3]);
    assert_eq!(
        (chips(&mut g, 1), supply(&mut g)),
        (before.0 - 1, before.1 + 1),
        "changing a green die costs a chip, as adding one does"
    );
    // No chips, nothing to buy.
    set_chips(&mut g, 1, 0);
    assert!(offered(&mut g, "set ").is_empty() && !has(&mut g, "reroll"));
    // Once a car has moved, the dice stay as they are.
    set_chips(&mut g, 1, 3);
    dice(&mut g, &[1, 1, 2, 4, 4], 0);
    let n = int(ev(&mut g, "return #game.get('_laid')"));
    put(&mut g, "red", &at(n, 0, 0));
    act(&mut g, "use 1-1");
    let a = offered(&mut g, "move red ")[0].clone();
    act(&mut g, &a);
    assert!(offered(&mut g, "add ").is_empty() && !has(&mut g, "reroll"));
}

#[rules("DC-T4")]
fn t4_a_chip_rerolls_chosen_dice(def: &Arc<GameDef>) {
    let (mut g, _) = open_road(def, &[1, 1, 2, 3, 4]);
    let mut changed = false;
    for _ in 0..12 {
        dice(&mut g, &[1, 1, 2, 3, 4], 0);
        set_chips(&mut g, 1, 2);
        act(&mut g, "reroll");
        assert!(!has(&mut g, "pick 5"), "there is no 5 to pick");
        act(&mut g, "pick 1");
        act(&mut g, "pick 1");
        assert!(!has(&mut g, "pick 1"), "both 1s picked already");
        act(&mut g, "roll");
        let v = values(&mut g);
        assert_eq!(&v[2..5], &[2, 3, 4], "unpicked dice stay: {v:?}");
        if v[0] != 1 || v[1] != 1 {
            changed = true;
        }
        assert_eq!(chips(&mut g, 1), 1);
        assert_eq!(phase(&mut g), "move");
    }
    assert!(changed, "the picked dice were never rolled again");
    // Backing out costs nothing.
    act(&mut g, "reroll");
    act(&mut g, "cancel");
    assert_eq!(chips(&mut g, 1), 1);
}

fn combos_offered(g: &mut Game) -> BTreeSet<String> {
    offered(g, "use ")
        .into_iter()
        .map(|a| a.trim_start_matches("use ").to_string())
        .collect()
}

#[rules("DC-T5")]
fn t5_combos_are_sets_and_runs(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 1, 2, 4, 5]);
    put(&mut g, "red", &at(n, 0, 0));
    assert_eq!(
        combos_offered(&mut g),
        spaces(&["1-1", "1-2", "4-5", "1", "2", "4", "5"])
    );
    dice(&mut g, &[3, 3, 3, 1, 2], 0);
    assert_eq!(
        combos_offered(&mut g),
        spaces(&["3-3", "3-3-3", "1-2", "1-2-3", "2-3", "1", "2", "3"])
    );
    // Each die once: a pair spent leaves one 3, which makes no pair.
    act(&mut g, "use 3-3");
    let a = offered(&mut g, "move red ")[0].clone();
    act(&mut g, &a);
    assert!(!combos_offered(&mut g).contains("3-3"));
    assert!(combos_offered(&mut g).contains("1-2-3"));
}

#[rules("DC-T6")]
fn t6_moves_go_forward_or_sideways_by_the_combo_size(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[2, 3, 5, 5, 1]);
    put(&mut g, "red", &at(n, 0, 0));
    act(&mut g, "use 2-3");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(n, 0, 2), at(n, 1, 1)])
    );
    act(&mut g, "back");
    // Never into another car's space; a car boxed in by others stops where it is blocked
    // (DESIGN.md, DC-T6): sideways, then blue's car ahead.
    put(&mut g, "blue", &at(n, 1, 1));
    act(&mut g, "use 2-3");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(n, 0, 2), at(n, 1, 0)])
    );
    act(&mut g, &format!("move red {}", at(n, 0, 2)));
    assert_eq!(where_car(&mut g, "red"), at(n, 0, 2));
    // Another combo moves the same car on: three from the end of the straight.
    act(&mut g, "use 5-5");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(n + 1, 0, 1), at(n + 1, 1, 0)])
    );
}

#[rules("DC-T7")]
fn t7_a_single_moves_one_and_ends_that_cars_move(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 3, 3, 5, 5]);
    set_chips(&mut g, 1, 0);
    put(&mut g, "red", &at(n, 0, 0));
    act(&mut g, "use 1");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(n, 0, 1), at(n, 1, 0)])
    );
    act(&mut g, &format!("move red {}", at(n, 0, 1)));
    act(&mut g, "use 3-3");
    assert!(ends(&mut g, "move", "red").is_empty(), "red moves on");
    assert!(!ends(&mut g, "move", "yellow").is_empty(), "per car");
}

#[rules("DC-T8")]
fn t8_gates_stop_cars_and_need_the_exact_combo(def: &Arc<GameDef>) {
    // A Hard Left after the straight: its left (inside) lane needs 4, its right lane 3.
    let (mut g, n) = open_road(def, &[2, 3, 4, 1, 1]);
    let hl = lay(&mut g, &["hard-left", "long-straight"]);
    put(&mut g, "red", &at(n + 1, 1, 2));
    act(&mut g, "use 2-3-4");
    // Three from the straight's end: into the curve, stopping at its gates.
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(hl, 1, 1), at(hl, 0, 1), at(hl, 1, 0)])
    );
    act(&mut g, &format!("move red {}", at(hl, 1, 1)));
    // At the 3-dice gate: a pair does not get across, nor sideways over the line.
    act(&mut g, "use 1-1");
    assert!(ends(&mut g, "move", "red").is_empty());
    act(&mut g, "back");
    dice(&mut g, &[2, 3, 4, 5, 1], 0);
    act(&mut g, "use 1-2-3-4");
    assert!(
        ends(&mut g, "move", "red").is_empty(),
        "four dice at a 3-gate"
    );
    act(&mut g, "back");
    act(&mut g, "use 1-2-3");
    let across = ends(&mut g, "move", "red");
    assert!(!across.is_empty());
    assert!(
        across.iter().all(|s| s.starts_with(&format!("t{}-", hl))),
        "{across:?}"
    );
    // Two gates of the same size side by side are still two gates with a solid line between
    // them: the Wide Sweeper Left's middle and right lanes both have a 2-dice gate.
    let (mut g, _) = open_road(def, &[1, 1, 5, 3, 3]);
    let sw = lay(&mut g, &["sweeper-left", "long-straight"]);
    put(&mut g, "red", &at(sw, 1, 1));
    act(&mut g, "use 5");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[]),
        "a single slides across the line between two 2-dice gates"
    );
    act(&mut g, "back");
    act(&mut g, "use 1-1");
    let across = ends(&mut g, "move", "red");
    assert!(!across.is_empty());
    assert!(
        across.iter().all(|s| s.starts_with(&format!("t{}-", sw))),
        "a pair at a 2-dice gate crosses it and nothing else: {across:?}"
    );
    // A car that reaches a gate with steps left stops there: on the Finish, whose one gate
    // spans every lane, a trio from the left lane stops at the line in the first two lanes.
    let (mut g, _) = open_road(def, &[2, 3, 4, 1, 1]);
    let f = lay(&mut g, &["finish"]);
    put(&mut g, "red", &at(f, 0, 0));
    act(&mut g, "use 2-3-4");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(f, 0, 1), at(f, 1, 1), at(f, 2, 1)])
    );
}

#[rules("DC-T9")]
fn t9_a_chip_keeps_a_car_going_after_a_single(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 3, 3, 5, 5]);
    set_chips(&mut g, 1, 1);
    put(&mut g, "red", &at(n, 0, 0));
    act(&mut g, "use 1");
    act(&mut g, &format!("move red {}", at(n, 0, 1)));
    act(&mut g, "use 3-3");
    assert!(!ends(&mut g, "move", "red").is_empty());
    act(&mut g, &format!("move red {}", at(n, 1, 2)));
    assert_eq!(chips(&mut g, 1), 0);
}

#[rules("DC-T10")]
fn t10_a_chip_takes_control_of_a_rival_car(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 1, 3, 3, 5]);
    set_chips(&mut g, 1, 0);
    put(&mut g, "blue", &at(n, 0, 0));
    act(&mut g, "use 1-1");
    assert!(
        ends(&mut g, "move", "blue").is_empty(),
        "no chip, no control"
    );
    act(&mut g, "back");
    set_chips(&mut g, 1, 1);
    act(&mut g, "use 1-1");
    act(&mut g, &format!("move blue {}", at(n, 0, 2)));
    assert_eq!(chips(&mut g, 1), 0);
    // Once taken, the car is the seat's for the rest of the turn.
    act(&mut g, "use 3-3");
    assert!(!ends(&mut g, "move", "blue").is_empty());
    // Control is bought car by car: blue's chip does not buy green, which costs its own.
    put(&mut g, "green", &at(n, 1, 0));
    assert!(
        ends(&mut g, "move", "green").is_empty(),
        "no chip left, no control of a second rival car"
    );
    act(&mut g, "back");
    set_chips(&mut g, 1, 1);
    act(&mut g, "use 3-3");
    let to = offered(&mut g, "move green ")[0].clone();
    act(&mut g, &to);
    assert_eq!(
        chips(&mut g, 1),
        0,
        "green's control cost a chip of its own"
    );
}

#[rules("DC-T11")]
fn t11_a_chip_jukes_two_cars_side_by_side(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 1, 3, 3, 5]);
    put(&mut g, "red", &at(n, 0, 1));
    put(&mut g, "blue", &at(n, 1, 1));
    set_chips(&mut g, 1, 0);
    assert!(!has(&mut g, "juke red blue"), "a juke costs a chip");
    set_chips(&mut g, 1, 2);
    assert!(has(&mut g, "juke red blue"));
    act(&mut g, "juke red blue");
    assert_eq!(where_car(&mut g, "red"), at(n, 1, 1));
    assert_eq!(where_car(&mut g, "blue"), at(n, 0, 1));
    assert_eq!(chips(&mut g, 1), 1);
    // Not side by side: one row apart in the same lane.
    put(&mut g, "red", &at(n, 0, 1));
    put(&mut g, "blue", &at(n, 0, 2));
    assert!(offered(&mut g, "juke red").is_empty());
}

#[rules("DC-T12")]
fn t12_a_power_move_passes_cars(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 1, 3, 3, 5]);
    put(&mut g, "red", &at(n, 0, 0));
    put(&mut g, "blue", &at(n, 0, 1));
    put(&mut g, "green", &at(n, 1, 0));
    set_chips(&mut g, 1, 1);
    act(&mut g, "use 1-1");
    assert!(ends(&mut g, "move", "red").is_empty(), "boxed in");
    // Through blue, never onto green's space.
    assert_eq!(
        ends(&mut g, "power", "red"),
        set(&[at(n, 0, 2), at(n, 1, 1)])
    );
    act(&mut g, "back");
    // One step ends on blue or green: no power move ends on a car.
    act(&mut g, "use 3");
    assert!(ends(&mut g, "power", "red").is_empty());
    act(&mut g, "back");
    act(&mut g, "use 1-1");
    act(&mut g, &format!("power red {}", at(n, 0, 2)));
    assert_eq!(chips(&mut g, 1), 0);
    assert_eq!(where_car(&mut g, "red"), at(n, 0, 2));
}

#[rules("DC-T13")]
fn t13_moving_is_optional(def: &Arc<GameDef>) {
    let (mut g, _) = open_road(def, &[1, 1, 3, 3, 5]);
    assert!(has(&mut g, "done"));
    act(&mut g, "done");
    assert_eq!(active(&g), 2, "the turn passed without a move");
}

#[rules("DC-T14")]
fn t14_the_best_leftover_combo_buys_chips(def: &Arc<GameDef>) {
    for (dice_values, start, expect) in [
        (vec![2, 2, 2, 5, 1], 1, 3), // a trio: 2 chips
        (vec![1, 3, 5, 3, 5], 1, 2), // pairs only: 1 chip
        (vec![1, 2, 3, 4, 1], 0, 3), // a run of four: 3 chips
        (vec![4, 4, 4, 4, 4], 0, 3), // five of a kind: still 3
        (vec![1, 3, 5, 1, 3], 3, 4), // never more than 4
        (vec![1, 3, 5, 2, 4], 4, 4), // at 4 already
    ] {
        let (mut g, _) = open_road(def, &dice_values);
        set_chips(&mut g, 1, start);
        let s = supply(&mut g);
        act(&mut g, "done");
        assert_eq!(chips(&mut g, 1), expect, "{dice_values:?} from {start}");
        assert_eq!(supply(&mut g), s - (expect - start));
    }
    // Dice spent on moves buy nothing.
    let (mut g, n) = open_road(def, &[2, 2, 2, 5, 1]);
    set_chips(&mut g, 1, 0);
    put(&mut g, "red", &at(n, 0, 0));
    act(&mut g, "use 2-2-2");
    let a = offered(&mut g, "move red ")[0].clone();
    act(&mut g, &a);
    act(&mut g, "done");
    assert_eq!(chips(&mut g, 1), 0);
}

// ---- track geometry -------------------------------------------------------------------------

#[rules("DC-G1")]
fn g1_cards_attach_edge_to_edge_and_turn(def: &Arc<GameDef>) {
    let mut g = racing(def, 2, 6, &[]);
    lay(
        &mut g,
        &["hard-left", "gentle-right", "hairpin-right", "banked-left"],
    );
    let rows = strings(ev(
        &mut g,
        "local out = {}
         local track = game.track()
         for i, p in track do
           local card = game.get('_laid')[i]
           local tags = table.concat(data.decks.track.cards[card].tags, ',')
           local prev = track[i - 1]
           table.insert(out, string.format('%s|%d|%d|%s', tags, p.heading, p.exit_heading, tostring(prev == nil or prev.exit_heading == p.heading)))
         end
         return out",
    ));
    for r in &rows {
        let parts: Vec<&str> = r.split('|').collect();
        let (tags, h, e, joined) = (parts[0], parts[1], parts[2], parts[3]);
        let turn = (e.parse::<i64>().unwrap() - h.parse::<i64>().unwrap()).rem_euclid(360);
        let turn = if turn > 180 { turn - 360 } else { turn };
        let want = if tags.contains("gentle") {
            45
        } else if tags.contains("hard") {
            90
        } else {
            0
        };
        assert_eq!(turn.abs(), want, "{r}");
        if tags.contains("left") {
            assert!(turn < 0, "{r}");
        }
        if tags.contains("right") {
            assert!(turn > 0, "{r}");
        }
        assert_eq!(joined, "true", "each card starts where the last ends: {r}");
    }
    // Edge to edge: every card's entry is the last one's exit.
    let gaps = ev(
        &mut g,
        "local track = game.track()
         local worst = 0
         for i = 2, #track do
           local a, b = track[i - 1], track[i]
           local ex = a.cx + (a.cx - a.x) -- a straight's exit mirrors its entry about the centre
           if a.heading == a.exit_heading then
             worst = math.max(worst, math.abs(ex - b.x) + math.abs(a.cy + (a.cy - a.y) - b.y))
           end
         end
         return worst < 1e-6",
    );
    assert_eq!(gaps, Value::Bool(true), "a gap between cards");
}

#[rules("DC-G2")]
fn g2_lanes_join_two_to_three_and_back(def: &Arc<GameDef>) {
    let (mut g, n) = open_road(def, &[1, 2, 4, 4, 3]);
    let w = lay(&mut g, &["wide-straight", "long-straight"]);
    // 2 -> 3: the left lane goes on in the left or the middle lane.
    put(&mut g, "red", &at(n + 1, 0, 2));
    act(&mut g, "use 1");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(w, 0, 0), at(w, 1, 0), at(n + 1, 1, 2)])
    );
    act(&mut g, "back");
    // 3 -> 2: the middle lane chooses a side.
    put(&mut g, "red", &at(w, 1, 2));
    act(&mut g, "use 2");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(w + 1, 0, 0), at(w + 1, 1, 0), at(w, 0, 2), at(w, 2, 2)])
    );
    act(&mut g, "back");
    // The right lane keeps its side.
    put(&mut g, "red", &at(w, 2, 2));
    act(&mut g, "use 4");
    assert_eq!(
        ends(&mut g, "move", "red"),
        set(&[at(w + 1, 1, 0), at(w, 1, 2)])
    );
}

// ---- end and scoring ------------------------------------------------------------------------

#[rules("DC-E1")]
fn e1_no_track_after_the_finish(def: &Arc<GameDef>) {
    let mut g = racing(def, 2, 9, &[]);
    ev(
        &mut g,
        "while game.top(z('track-deck')) ~= 'finish' do game.move_card(z('track-deck'), z('off-track')) end",
    );
    act(&mut g, "done");
    let track = laid(&mut g);
    assert_eq!(track.last().unwrap(), "finish");
    assert_eq!(var(&mut g, "_finish_laid"), Value::Bool(true));
    let left = count(&mut g, "track-deck");
    assert!(left > 0, "cards below the Finish stay in the deck");
    act(&mut g, "done");
    act(&mut g, "done");
    assert_eq!(laid(&mut g), track, "a card laid after the Finish");
    assert_eq!(count(&mut g, "track-deck"), left);
}

/// Every car of the game at the Finish's line but those given, which wait behind.
fn at_the_line(g: &mut Game) -> i64 {
    let f = lay(g, &["finish"]);
    ev(
        g,
        &format!(
            "local i = 0
             for _, c in {{ 'red', 'blue', 'yellow', 'green', 'orange', 'purple', 'black', 'white' }} do
               if game.where_is(car(c)) then
                 put(c, at({f}, i % 3, if i < 3 then 1 else 0)); i += 1
               end
             end"
        ),
    );
    f
}

#[rules("DC-E2")]
fn e2_three_dice_cross_the_finish_in_order(def: &Arc<GameDef>) {
    // Three seats, so that two cars crossing leaves the race undecided.
    let mut g = racing(def, 3, 11, &[("cars-per-player", choice("one"))]);
    ev(&mut g, "park() game.set_active(1)");
    let f = at_the_line(&mut g);
    put(&mut g, "red", &at(f, 0, 1));
    dice(&mut g, &[3, 3, 3, 1, 2], 0);
    set_chips(&mut g, 1, 4);
    // A pair does not cross (it is not even offered: every car stands at the line, boxed in).
    if has(&mut g, "use 1-2") {
        act(&mut g, "use 1-2");
        assert!(!has(&mut g, "finish red"), "a pair at the 3-dice line");
        act(&mut g, "back");
    }
    act(&mut g, "use 1-2-3");
    assert!(has(&mut g, "finish red"));
    act(&mut g, "finish red");
    assert_eq!(ev(&mut g, "return where('red')"), Value::Nil);
    // Four dice do not cross a 3-dice line.
    dice(&mut g, &[3, 3, 3, 3, 4], 0);
    if has(&mut g, "use 3-3-3-3") {
        act(&mut g, "use 3-3-3-3");
        assert!(offered(&mut g, "finish").is_empty());
        act(&mut g, "back");
    }
    dice(&mut g, &[3, 3, 3, 4, 4], 0);
    act(&mut g, "use 3-3");
    assert!(!has(&mut g, "finish blue"), "a pair at the 3-dice line");
    act(&mut g, "back");
    act(&mut g, "use 3-3-3");
    act(&mut g, "finish blue");
    assert_eq!(
        strings(var(&mut g, "_order")),
        vec![
            "car-red".to_string(),
            "car-blue".to_string(),
            "car-yellow".to_string()
        ]
    );
}

#[rules("DC-E3", "DC-E2")]
fn e3_one_car_each_finishing_order_is_the_result(def: &Arc<GameDef>) {
    let mut g = racing(def, 3, 2, &[("cars-per-player", choice("one"))]);
    ev(&mut g, "park() game.set_active(1)");
    at_the_line(&mut g);
    // Seat 1 (red) sends seat 3's car over first, then seat 2's; its own is the last left.
    dice(&mut g, &[3, 3, 3, 2, 3, 4], 0);
    set_chips(&mut g, 1, 2);
    act(&mut g, "use 3-3-3");
    act(&mut g, "finish yellow");
    assert!(!g.is_over());
    act(&mut g, "use 2-3-4");
    act(&mut g, "finish blue");
    assert!(g.is_over(), "one car left: the race is over");
    let r = g.result().unwrap();
    assert_eq!(r.places, vec![3, 2, 1], "{r:?}");
    assert_eq!(
        strings(var(&mut g, "_order")),
        vec!["car-yellow", "car-blue", "car-red"]
    );
}

#[rules("DC-E4")]
fn e4_two_cars_each_first_plus_twice_second(def: &Arc<GameDef>) {
    // The rulebook's example: Anna 1st and 4th (9), Barry 2nd and 3rd (8): Barry wins. Seat 1
    // drives red and yellow, seat 2 blue and green; seat 1 sends them over in this order.
    // Then 1st + 2nd (5) against 3rd + 4th (3 + 2 x 4 = 11).
    for (order, scores, places) in [
        (["red", "blue", "green", "yellow"], vec![9, 8], vec![2, 1]),
        (["red", "yellow", "blue", "green"], vec![5, 11], vec![1, 2]),
    ] {
        let (mut g, _) = open_road(def, &[3, 3, 3, 3, 3, 3, 3, 3, 3]);
        let f = at_the_line(&mut g);
        for (i, car) in order.iter().enumerate() {
            put(&mut g, car, &at(f, i as i64 % 3, if i < 3 { 1 } else { 0 }));
        }
        set_chips(&mut g, 1, 4);
        for car in &order[..2] {
            act(&mut g, "use 3-3-3");
            act(&mut g, &format!("finish {car}"));
        }
        // Once the cars left are all one seat's, nothing can change: the race is over.
        let settled = order[2..].iter().all(|c| ["blue", "green"].contains(c));
        assert_eq!(g.is_over(), settled, "{order:?}");
        if !settled {
            act(&mut g, "use 3-3-3");
            act(&mut g, &format!("finish {}", order[2]));
        }
        assert!(g.is_over());
        let r = g.result().unwrap();
        assert_eq!(r.scores, scores, "{order:?}: {r:?}");
        assert_eq!(r.places, places, "{order:?}: {r:?}");
    }
    // DESIGN.md, DC-E4: equal scores go to the better second car. Three seats: seat 1 drives
    // red and green, seat 2 blue and orange, seat 3 yellow and purple. Seat 1 takes them over
    // the line so that seat 1 has 1st + 5th = 11, seat 2 3rd + 4th = 11, seat 3 2nd + 6th = 14:
    // seat 2's second car (4th) beats seat 1's (5th).
    let mut g = racing(def, 3, 11, &[]);
    ev(&mut g, "park() game.set_active(1)");
    lay(&mut g, &["long-straight"]);
    let f = at_the_line(&mut g);
    ev(&mut g, "park()");
    for car in ["red", "yellow", "blue", "orange", "green"] {
        put(&mut g, car, &at(f, 1, 1));
        dice(&mut g, &[3, 3, 3], 0);
        set_chips(&mut g, 1, 4);
        act(&mut g, "use 3-3-3");
        act(&mut g, &format!("finish {car}"));
    }
    assert!(g.is_over(), "only seat 3's purple car is left");
    let r = g.result().unwrap();
    assert_eq!(r.scores, vec![11, 11, 14], "{r:?}");
    assert_eq!(
        r.places,
        vec![2, 1, 3],
        "the better second car wins the tie: {r:?}"
    );
}

#[rules("DC-E5")]
fn e5_clearing_the_track_behind_the_last_car(def: &Arc<GameDef>) {
    for on in [true, false] {
        let mut g = racing(def, 2, 12, &[("remove-track-behind", Value::Bool(on))]);
        ev(&mut g, "game.set_active(1)");
        let n = lay(&mut g, &["long-straight", "long-straight"]);
        for (i, car) in ["blue", "yellow", "green"].iter().enumerate() {
            put(&mut g, car, &at(n + 1, (i % 2) as i64, 2 - i as i64 / 2));
        }
        put(&mut g, "red", &at(n, 0, 2));
        dice(&mut g, &[1, 3, 3, 5, 5], 0);
        let off = count(&mut g, "off-track");
        act(&mut g, "use 1");
        act(&mut g, &format!("move red {}", at(n + 1, 0, 0)));
        let removed = ints(ev(
            &mut g,
            "local out = {} for i, p in game.track() do if p.removed then table.insert(out, i) end end return out",
        ));
        if on {
            assert_eq!(removed, (1..=n).collect::<Vec<_>>(), "cleared");
            assert_eq!(count(&mut g, "off-track"), off + n);
        } else {
            assert!(removed.is_empty(), "cleared with the option off");
        }
    }
}
}

// ---- the list -------------------------------------------------------------------------------

/// The rule IDs of mods/dicey-curves/RULES.md.
pub const RULES: &[&str] = &[
    "DC-S1", "DC-S2", "DC-S3", "DC-S4", "DC-S5", "DC-S6", "DC-T1", "DC-T2", "DC-T3", "DC-T4",
    "DC-T5", "DC-T6", "DC-T7", "DC-T8", "DC-T9", "DC-T10", "DC-T11", "DC-T12", "DC-T13", "DC-T14",
    "DC-G1", "DC-G2", "DC-E1", "DC-E2", "DC-E3", "DC-E4", "DC-E5",
];

#[test]
fn the_rule_list_matches_rules_md() {
    rule_mutants::assert_rules_match_rule_list("dicey-curves", "DC-", RULES);
}

#[test]
fn every_broken_rule_is_caught() {
    // The oracles judge one seed of each kind of game (dicey_curves_oracles::plans), stopping
    // at their first catch.
    let mut oracles = farebox_suite::oracles::invariants();
    oracles.extend(farebox_suite::dicey_curves_oracles::oracles());
    let plans = farebox_suite::dicey_curves_oracles::plans(1);
    let catch = |def: &Arc<GameDef>| {
        farebox_suite::oracles::first_catch(def, &plans, &oracles, 3000).map(|c| c.to_string())
    };
    rule_mutants::run_with_oracles(
        "dicey-curves",
        RULES,
        CHECKS,
        dicey_curves_mutants::MUTANTS,
        Some(rule_mutants::OracleRun {
            catch: &catch,
            required: dicey_curves_mutants::FOR_ORACLES,
        }),
    );
}

#[test]
fn no_action_is_listed_twice_and_games_end() {
    // The action list is a set, every action has a label, and random games of every size and
    // option end without an error.
    let def = shipped();
    let mut rng = farebox::rng::Rng::new(7, 1);
    for seed in 0..16u64 {
        let options: Vec<(&str, Value)> = match seed % 4 {
            0 => vec![],
            1 => vec![
                ("remove-track-behind", Value::Bool(true)),
                ("table-size", choice("small")),
            ],
            2 => vec![
                ("finish-depth", choice("short")),
                ("cars-per-player", choice("one")),
            ],
            _ => vec![
                ("finish-depth", choice("long")),
                ("table-size", choice("banquet")),
            ],
        };
        let mut g = game_with(&def, 2 + (seed % 7) as u8, seed, &options);
        while !g.is_over() && g.history().len() < 6000 {
            let acts = legal(&mut g);
            assert!(!acts.is_empty(), "seed {seed}: nothing to do");
            let mut sorted = acts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), acts.len(), "seed {seed}: {acts:?}");
            let a = acts[rng.below(acts.len() as u32) as usize].clone();
            g.apply_legal(&a).unwrap();
        }
        assert!(g.is_over(), "seed {seed}");
    }
}
