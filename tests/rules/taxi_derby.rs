//! Taxi Derby's rules: every rule ID of mods/taxi-derby/RULES.md is proved by at
//! least one check below, which builds its situation through the script API (`Game::eval`,
//! with the rules' rights) and asserts the rule's effect. Numbers the rulebook prints (a speed
//! limit of 4, a 4-sided die, the bonus board) are written here as the rulebook states them,
//! never read back from the content under test; designed numbers (DESIGN.md) likewise.
//!
//! Each check is a plain function of the game definition: the `#[test]`s run them on the mod
//! as shipped, and `every_broken_rule_is_caught` runs them on deliberately broken copies of it
//! (`taxi_derby/mutants.rs`, through `farebox_suite::rule_mutants`) and requires every
//! break to make a check of its rule fail.
//!
//! Each check is declared once, in the `farebox_suite::rule_checks!` block: `#[rules(...)]`
//! above its `fn` names the rule IDs it proves, and the block makes its `#[test]` and its
//! entry in `CHECKS`, the list the mutants run. The block's items are not indented, so they
//! read as the file's other items (rustfmt leaves a macro's body as written).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use farebox::GameDef;
use farebox::game::{Game, Setup};
use farebox::value::Value;
use farebox_suite::rule_kit::{self, act, has, legal};
use farebox_suite::rule_mutants;

#[path = "taxi_derby/mutants.rs"]
mod taxi_derby_mutants;

fn shipped() -> Arc<GameDef> {
    rule_kit::shipped("taxi-derby")
}

/// Luau helpers run before each situation a check builds (shared with the house rule tests).
const PRELUDE: &str = include_str!("taxi_derby/prelude.luau");

// ---- helpers ----------------------------------------------------------------------------

/// A game with the first seat to start (TD-S9's `first-seat`), before the taxis are placed.
fn game_on(def: &Arc<GameDef>, seats: u8, seed: u64) -> Game {
    Game::new(
        def.clone(),
        Setup::new(seats, seed).option("first-player", Value::from("first-seat")),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Every taxi on its first start space; Orange (seat 1) to act, nothing moved yet.
fn started_seed(def: &Arc<GameDef>, seats: u8, seed: u64) -> Game {
    let mut g = game_on(def, seats, seed);
    for _ in 0..seats {
        let a = first_with(&mut g, "start ");
        act(&mut g, &a);
    }
    g
}

fn started(def: &Arc<GameDef>, seats: u8) -> Game {
    started_seed(def, seats, 7)
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

fn num(g: &mut Game, code: &str) -> i64 {
    let v = ev(g, code);
    v.as_int().unwrap_or_else(|| panic!("not an int: {v:?}"))
}

fn string(g: &mut Game, code: &str) -> String {
    match ev(g, code) {
        Value::Str(s) => s,
        other => panic!("not a string: {other:?}"),
    }
}

fn strings(g: &mut Game, code: &str) -> Vec<String> {
    match ev(g, code) {
        Value::List(items) => items
            .into_iter()
            .map(|v| match v {
                Value::Str(s) => s,
                other => panic!("not a string: {other:?}"),
            })
            .collect(),
        Value::Map(m) if m.is_empty() => Vec::new(),
        other => panic!("not a list: {other:?}"),
    }
}

fn acts(g: &mut Game) -> Vec<String> {
    legal(g)
}

fn first_with(g: &mut Game, prefix: &str) -> String {
    acts(g)
        .into_iter()
        .find(|a| a.starts_with(prefix))
        .unwrap_or_else(|| panic!("no action starting {prefix:?}"))
}

fn money(g: &mut Game, seat: u8) -> i64 {
    num(g, &format!("return game.counter('money', {seat})"))
}

fn at(g: &mut Game, seat: u8) -> String {
    string(g, &format!("return id(game.where_is(taxi({seat})))"))
}

fn car_at(g: &mut Game) -> String {
    string(g, "return id(game.where_is(car()))")
}

fn cards(g: &mut Game, zone: &str) -> Vec<String> {
    strings(g, &format!("return game.cards({zone})"))
}

fn moved(g: &mut Game) -> i64 {
    num(g, "return game.counter('moved')")
}

fn phase(g: &mut Game) -> String {
    string(g, "return game.get('_phase')")
}

/// Drives `n` spaces, each time onto the first neighbour offered.
fn drive(g: &mut Game, n: usize) {
    for _ in 0..n {
        let a = first_with(g, "go ");
        act(g, &a);
    }
}

/// Puts `seat`'s taxi on `from` and drives one space to `to`, so an action there is allowed.
fn arrive(g: &mut Game, seat: u8, from: &str, to: &str) {
    ev(g, &format!("put({seat}, '{from}')"));
    act(g, &format!("go {to}"));
}

/// Settles a patrol by leaving the car where it is.
fn stay(g: &mut Game) {
    let a = format!("patrol {}", car_at(g));
    act(g, &a);
}

/// Log lines written since `from`.
fn log_from(g: &Game, from: usize) -> Vec<String> {
    g.log()[from..].iter().map(|e| e.text.to_string()).collect()
}

/// The pursuit roll logged since `from`.
fn roll_logged(g: &Game, from: usize) -> i64 {
    let line = log_from(g, from)
        .into_iter()
        .find(|l| l.contains("rolls the pursuit die: "))
        .unwrap_or_else(|| panic!("no pursuit roll in {:?}", log_from(g, from)));
    line.rsplit(": ").next().unwrap().parse().unwrap()
}

/// Distance between two spaces, by id.
fn distance(g: &mut Game, a: &str, b: &str) -> i64 {
    num(g, &format!("return game.distances(sp('{a}'))[sp('{b}')]"))
}

/// Makes the current turn the game's last (as if TD-E1 had triggered a round ago) and ends
/// it; returns the bonuses paid, as (seat name, bonus name) -> amount.
fn end_now(g: &mut Game) -> BTreeMap<(String, String), i64> {
    ev(
        g,
        "game.set('_final', 1); game.set('_why', 'test'); game.set('_patrolled', true)",
    );
    let from = g.log().len();
    act(g, "end");
    assert!(g.is_over(), "the game should be over");
    let mut out = BTreeMap::new();
    for line in log_from(g, from) {
        if let Some((who, rest)) = line.split_once(" earns $")
            && let Some((amount, bonus)) = rest.split_once(" for ")
        {
            out.insert(
                (who.to_string(), bonus.to_string()),
                amount.parse().unwrap(),
            );
        }
    }
    out
}

fn bonus(paid: &BTreeMap<(String, String), i64>, who: &str, what: &str) -> i64 {
    paid.get(&(who.to_string(), what.to_string()))
        .copied()
        .unwrap_or(0)
}

// ---- setup ------------------------------------------------------------------------------

farebox_suite::rule_checks! {
#[rules("TD-S1")]
fn s1_a_city_of_four_sections(def: &Arc<GameDef>) {
    // TD-S1: 2-5 players; 4 sections of 24 road segments, one connected city, laid out in a
    // random order; no space lies on the city's outer border.
    assert!(Game::new(def.clone(), Setup::new(1, 1)).is_err());
    assert!(Game::new(def.clone(), Setup::new(6, 1)).is_err());
    assert!(Game::new(def.clone(), Setup::new(2, 1)).is_ok());
    let mut quadrants = BTreeSet::new();
    for seed in 0..12 {
        let mut g = game_on(def, 5, seed);
        assert_eq!(g.state().board.space_count(), 96);
        let reach = num(
            &mut g,
            "local n = 0 for _ in game.distances(1) do n += 1 end return n",
        );
        assert_eq!(reach, 96, "one connected city");
        let border = num(
            &mut g,
            r#"local n = 0
            for s = 1, game.space_count() do
              local i = game.space_info(s)
              if i.x <= 0 or i.y <= 0 or i.x >= 16 or i.y >= 16 then n += 1 end
            end return n"#,
        );
        assert_eq!(border, 0, "a space on the outer border");
        quadrants.insert(string(
            &mut g,
            "local i = game.space_info(sp('hb-h1-1')) return math.floor(i.x / 8) .. ',' .. math.floor(i.y / 8)",
        ));
    }
    assert!(quadrants.len() >= 3, "Harbor's place: {quadrants:?}");
}

#[rules("TD-S2")]
fn s2_each_taxi_starts_beside_its_depot(def: &Arc<GameDef>) {
    // TD-S2: each player puts the taxi on one of the two start spaces of its color.
    let mut g = game_on(def, 5, 3);
    for seat in 0..5u8 {
        assert_eq!(g.active(), seat);
        let color = def.seat_names[seat as usize].to_lowercase();
        let offered = acts(&mut g);
        assert_eq!(offered.len(), 2, "{offered:?}");
        for a in &offered {
            let space = a.strip_prefix("start ").expect(a);
            let c = string(
                &mut g,
                &format!(
                    "local i = game.space_info(sp('{space}')) return table.find(i.tags, 'start') and i.props.color or 'none'"
                ),
            );
            assert_eq!(c, color, "{a}");
        }
        let (a, b) = (&offered[0][6..], &offered[1][6..]);
        assert_eq!(distance(&mut g, a, b), 1, "side by side");
        act(&mut g, &offered[1]);
        assert_eq!(at(&mut g, seat + 1), &offered[1][6..]);
    }
    assert_eq!(g.active(), 0, "the first player begins");
    assert!(acts(&mut g).iter().any(|a| a.starts_with("go ")));
}

#[rules("TD-S3")]
fn s3_one_random_upgrade_each_from_44(def: &Arc<GameDef>) {
    // TD-S3: 44 tokens, 11 of each kind; every player starts with one drawn at random.
    let mut kinds = BTreeSet::new();
    for seed in 0..20 {
        let mut g = game_on(def, 3, seed);
        for s in 1..=3 {
            let mine = cards(&mut g, &format!("z('upgrades', {s})"));
            assert_eq!(mine.len(), 1, "seat {s}: {mine:?}");
            kinds.insert(mine[0].clone());
        }
        let all = strings(
            &mut g,
            "local out = {} for _, zn in zones() do for _, c in game.cards(zn) do if data.decks.upgrades.cards[c] then table.insert(out, c) end end end return out",
        );
        assert_eq!(all.len(), 44);
        for k in ["stereo", "turbo", "wifi", "luxury"] {
            assert_eq!(all.iter().filter(|c| *c == k).count(), 11, "{k}");
        }
    }
    assert_eq!(kinds.len(), 4, "random starting tokens: {kinds:?}");
}

const STORES: [&str; 12] = [
    "store-saltair",
    "store-admiral",
    "store-barnacle-bobs",
    "store-midtown-cab",
    "store-discount-dynamo",
    "store-chrome-co",
    "store-hilltop",
    "store-sprocket",
    "store-quarry-road",
    "store-guildhall",
    "store-tinkers-yard",
    "store-velvet-lane",
];

#[rules("TD-S4")]
fn s4_store_stock_by_player_count(def: &Arc<GameDef>) {
    // TD-S4: 2 players 1 token a store, 3-4 players 2, 5 players 3; the rest leave the game.
    for (seats, each) in [(2u8, 1usize), (3, 2), (4, 2), (5, 3)] {
        let mut g = game_on(def, seats, 5);
        for store in STORES {
            assert_eq!(
                cards(&mut g, &format!("z('{store}')")).len(),
                each,
                "{store}"
            );
        }
        assert_eq!(
            cards(&mut g, "z('upgrade-bag')").len(),
            0,
            "the bag is emptied"
        );
        let boxed = num(
            &mut g,
            "local n = 0 for _, c in game.cards(z('box')) do if data.decks.upgrades.cards[c] then n += 1 end end return n",
        );
        assert_eq!(boxed as usize, 44 - seats as usize - 12 * each);
    }
}

#[rules("TD-S5")]
fn s5_five_stacks_of_nine(def: &Arc<GameDef>) {
    // TD-S5: five stacks, bottom to top 1 purple, 2 red, 3 yellow, 3 green (the top two are
    // face up at the stops, TD-S6); the other passengers leave the game.
    let mut seen = BTreeSet::new();
    for seed in 0..4 {
        let mut g = game_on(def, 2, seed);
        for i in 1..=5 {
            let stack = cards(&mut g, &format!("z('stack-{i}')"));
            let mut backs: Vec<String> = Vec::new();
            for c in stack.iter().chain(
                cards(&mut g, &format!("z('stack-{i}-a')"))
                    .iter()
                    .chain(cards(&mut g, &format!("z('stack-{i}-b')")).iter()),
            ) {
                backs.push(string(
                    &mut g,
                    &format!("return data.decks.passengers.cards['{c}'].back"),
                ));
            }
            assert_eq!(
                backs,
                [
                    "purple", "red", "red", "yellow", "yellow", "yellow", "green", "green", "green"
                ],
                "stack {i}"
            );
            seen.insert(stack.join(","));
        }
        assert_eq!(cards(&mut g, "z('passenger-supply')").len(), 0);
        let boxed = num(
            &mut g,
            "local n = 0 for _, c in game.cards(z('box')) do if data.decks.passengers.cards[c] then n += 1 end end return n",
        );
        assert_eq!(boxed, 56 - 45);
    }
    assert_eq!(seen.len(), 20, "every stack differs");
}

#[rules("TD-S6")]
fn s6_two_face_up_at_each_rank(def: &Arc<GameDef>) {
    // TD-S6: each rank's top two passengers are face up on its two stops; the stack stays
    // face down.
    let mut g = game_on(def, 2, 9);
    let view = g.view(Some(1));
    for i in 1..=5 {
        for stop in ["a", "b"] {
            let id = format!("stack-{i}-{stop}");
            let zone = view.zones.iter().find(|z| z.id == id).unwrap();
            assert_eq!((zone.count, zone.cards.len()), (1, 1), "{id} face up");
            let space = string(
                &mut g,
                &format!(
                    "for s = 1, game.space_count() do local i = game.space_info(s) if i.props.zone == '{id}' then return i.props.stack end end return 'none'"
                ),
            );
            assert_eq!(
                space,
                format!("stack-{i}"),
                "the stop of {id} beside its rank"
            );
        }
        let stack = view
            .zones
            .iter()
            .find(|z| z.id == format!("stack-{i}"))
            .unwrap();
        assert_eq!((stack.count, stack.cards.len()), (7, 0), "face down");
    }
}

#[rules("TD-S7")]
fn s7_tickets_shuffled_and_cubes_at_the_start(def: &Arc<GameDef>) {
    // TD-S7: 36 tickets, shuffled, face down; every speeding cube at the start.
    let file_order: Vec<String> = def.decks[def.deck("tickets").unwrap()]
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c.id.clone(), c.count as usize))
        .collect();
    let mut g = game_on(def, 4, 21);
    let deck = cards(&mut g, "z('ticket-deck')");
    assert_eq!(deck.len(), 36);
    assert_ne!(deck, file_order, "shuffled");
    let mut top = deck.clone();
    top.reverse();
    assert_ne!(top, file_order, "shuffled");
    let view = g.view(Some(0));
    let z = view.zones.iter().find(|z| z.id == "ticket-deck").unwrap();
    assert!(z.cards.is_empty(), "face down");
    for s in 1..=4 {
        assert_eq!(
            num(
                &mut g,
                &format!("return game.counter('furthest-turn', {s})")
            ),
            0
        );
    }
}

#[rules("TD-S8")]
fn s8_the_patrol_car_starts_at_the_precinct(def: &Arc<GameDef>) {
    // TD-S8
    let mut g = game_on(def, 2, 4);
    let at = car_at(&mut g);
    let police = string(
        &mut g,
        &format!("return table.find(game.space_info(sp('{at}')).tags, 'police') and 'yes' or 'no'"),
    );
    assert_eq!(police, "yes", "{at}");
}

#[rules("TD-S9")]
fn s9_the_first_player(def: &Arc<GameDef>) {
    // TD-S9: a random first player by default, the first seat by option; play then goes
    // round in seat order.
    let mut firsts = BTreeSet::new();
    for seed in 0..20 {
        let g = Game::new(def.clone(), Setup::new(3, seed)).unwrap();
        firsts.insert(g.active());
    }
    assert_eq!(firsts.len(), 3, "{firsts:?}");
    for seed in 0..5 {
        let mut g = game_on(def, 3, seed);
        assert_eq!(g.active(), 0);
        for _ in 0..3 {
            let a = first_with(&mut g, "start ");
            act(&mut g, &a);
        }
        assert_eq!(g.active(), 0);
        drive(&mut g, 1);
        act(&mut g, "end");
        stay(&mut g);
        assert_eq!(g.active(), 1, "clockwise");
    }
}

// ---- a turn -----------------------------------------------------------------------------

#[rules("TD-T1")]
fn t1_moves_add_up_and_the_fifth_space_is_speeding(def: &Arc<GameDef>) {
    // TD-T1: a taxi drives onto neighbouring segments, as many as it likes; the moves of a
    // turn add up, and the fifth makes it speeding (its one action is then its last).
    let mut g = started(def, 2);
    let here = at(&mut g, 1);
    let mut goes: Vec<String> = acts(&mut g)
        .into_iter()
        .filter_map(|a| a.strip_prefix("go ").map(str::to_string))
        .collect();
    goes.sort();
    let mut neighbours = strings(
        &mut g,
        &format!(
            "local out = {{}} for _, n in game.neighbors(sp('{here}')) do table.insert(out, id(n)) end return out"
        ),
    );
    neighbours.sort();
    assert_eq!(goes, neighbours);
    drive(&mut g, 20);
    assert_eq!(moved(&mut g), 20, "any number of spaces");
    // Designed: taxis share and pass through spaces with other taxis and the patrol car.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "put(1, 'hb-h2-2') put(2, 'hb-h2-3') park('hb-h2-3')",
    );
    act(&mut g, "go hb-h2-3");
    act(&mut g, "go hb-h2-4");
    assert_eq!(at(&mut g, 1), "hb-h2-4");
    for (before, speeding) in [(3, false), (4, true)] {
        let mut g = started(def, 2);
        drive(&mut g, before);
        ev(&mut g, "wait('stack-1-a', 'dot-pennywhistle')");
        arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
        assert_eq!(moved(&mut g), before as i64 + 1);
        let from = g.log().len();
        act(&mut g, "pickup dot-pennywhistle");
        if speeding {
            let told = log_from(&g, from).join("\n");
            assert!(
                told.contains("sped 1 over the limit"),
                "five spaces: {told}"
            );
            assert_eq!(g.active(), 1, "one action after speeding: the turn is over");
        } else {
            assert_eq!(phase(&mut g), "drive", "four spaces: not speeding");
            assert_eq!(cards(&mut g, "z('cab', 1)"), ["dot-pennywhistle"]);
            assert_eq!(g.active(), 0);
        }
    }
}

#[rules("TD-T2")]
fn t2_a_second_action_only_after_an_early_first(def: &Arc<GameDef>) {
    // TD-T2: a first action before speeding leaves a second; a first action after speeding is
    // the only one, and the turn ends with it.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "money(1, 10) upgrades(1, {'wifi'}) stock('store-barnacle-bobs', {'stereo'}) wait('stack-1-a', 'dot-pennywhistle')",
    );
    arrive(&mut g, 1, "hb-v2-2", "hb-v2-1");
    act(&mut g, "buy stereo");
    assert_eq!(phase(&mut g), "drive", "the first of two");
    assert_eq!(g.active(), 0);
    // Far past the limit now, yet the second action is still there.
    drive(&mut g, 6);
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    assert!(has(&mut g, "pickup dot-pennywhistle"), "{:?}", acts(&mut g));

    let mut g = started(def, 2);
    ev(
        &mut g,
        "money(1, 10) upgrades(1, {'wifi'}) stock('store-barnacle-bobs', {'stereo'}) park('hb-h1-1')",
    );
    drive(&mut g, 4);
    arrive(&mut g, 1, "hb-v2-2", "hb-v2-1");
    let from = g.log().len();
    act(&mut g, "buy stereo");
    // The pursuit may end in a choice about a ticket; settle whatever comes.
    settle(&mut g);
    assert_eq!(g.active(), 1, "one action after speeding ends the turn");
    let told = log_from(&g, from).join("\n");
    assert!(told.contains("rolls the pursuit die"), "{told}");
}

/// Settles whatever the patrol car and a ticket ask of the acting player.
fn settle(g: &mut Game) {
    for _ in 0..5 {
        let a = acts(g);
        if a.iter().any(|x| x.starts_with("patrol ")) {
            stay(g);
        } else if a.iter().any(|x| x == "keep") {
            act(g, "keep");
        } else if a.iter().any(|x| x.starts_with("lose ") || x == "impound") {
            act(g, &a[0].clone());
        } else {
            return;
        }
    }
}

#[rules("TD-T3")]
fn t3_drive_before_every_action(def: &Arc<GameDef>) {
    // TD-T3 (designed reading): at least one space since the turn began or since the last
    // action.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "wait('stack-1-a', 'dot-pennywhistle') put(1, 'hb-h1-1')",
    );
    assert!(!has(&mut g, "pickup dot-pennywhistle"), "no move yet");
    act(&mut g, "go hb-h1-2");
    act(&mut g, "go hb-h1-1");
    assert!(has(&mut g, "pickup dot-pennywhistle"));
    act(&mut g, "pickup dot-pennywhistle");
    // A second passenger waits at the same stop after a refill: not without moving again.
    ev(&mut g, "wait('stack-1-a', 'hank-ostrowski')");
    assert!(
        !has(&mut g, "pickup hank-ostrowski"),
        "no move since the last action"
    );
    act(&mut g, "go hb-h1-2");
    act(&mut g, "go hb-h1-1");
    assert!(has(&mut g, "pickup hank-ostrowski"));
}

/// Whether `seat` 1 may pick up `waiting` at stop 1A with `riders` aboard and `kinds` fitted.
fn may_pick_up(def: &Arc<GameDef>, riders: &[&str], kinds: &[&str], waiting: &str) -> bool {
    let mut g = started(def, 2);
    let list = |xs: &[&str]| {
        xs.iter()
            .map(|x| format!("'{x}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    ev(
        &mut g,
        &format!(
            "upgrades(1, {{{}}}) aboard(1, {{{}}}) wait('stack-1-a', '{waiting}')",
            list(kinds),
            list(riders)
        ),
    );
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    has(&mut g, &format!("pickup {waiting}"))
}

#[rules("TD-T4")]
fn t4_pick_up_seats_and_vips(def: &Arc<GameDef>) {
    // TD-T4: two seats; a VIP rides alone.
    assert!(may_pick_up(def, &[], &[], "dot-pennywhistle"));
    assert!(may_pick_up(
        def,
        &["hank-ostrowski"],
        &[],
        "dot-pennywhistle"
    ));
    assert!(
        !may_pick_up(
            def,
            &["hank-ostrowski", "adaeze-obi"],
            &[],
            "dot-pennywhistle"
        ),
        "two seats"
    );
    assert!(
        may_pick_up(def, &[], &[], "percival-finch"),
        "a VIP into an empty taxi"
    );
    assert!(
        !may_pick_up(def, &["hank-ostrowski"], &[], "percival-finch"),
        "a VIP rides alone"
    );
    assert!(
        !may_pick_up(def, &["augustin-roux"], &[], "dot-pennywhistle"),
        "nobody joins a VIP"
    );
    // The passenger moves from the stop into the taxi.
    let mut g = started(def, 2);
    ev(&mut g, "wait('stack-1-a', 'dot-pennywhistle')");
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    act(&mut g, "pickup dot-pennywhistle");
    assert_eq!(cards(&mut g, "z('cab', 1)"), ["dot-pennywhistle"]);
    assert!(cards(&mut g, "z('stack-1-a')").is_empty());
}

#[rules("TD-T5")]
fn t5_drop_off_at_the_destination(def: &Arc<GameDef>) {
    // TD-T5: a passenger gets out at a drop-off space of its destination, pays, and is kept.
    let mut g = started(def, 2);
    ev(&mut g, "aboard(1, {'dot-pennywhistle'})");
    arrive(&mut g, 1, "mt-h1-3", "mt-h1-4");
    assert!(
        !has(&mut g, "drop dot-pennywhistle"),
        "the ballpark is not the ferry"
    );
    let mut g = started(def, 2);
    ev(&mut g, "aboard(1, {'dot-pennywhistle', 'hank-ostrowski'})");
    arrive(&mut g, 1, "hb-h3-2", "hb-h3-1");
    assert!(has(&mut g, "drop dot-pennywhistle"));
    assert!(!has(&mut g, "drop hank-ostrowski"));
    let before = money(&mut g, 1);
    act(&mut g, "drop dot-pennywhistle");
    assert_eq!(money(&mut g, 1), before + 2);
    assert_eq!(cards(&mut g, "z('cab', 1)"), ["hank-ostrowski"]);
    assert_eq!(cards(&mut g, "z('delivered', 1)"), ["dot-pennywhistle"]);
}

#[rules("TD-T6")]
fn t6_buying_upgrades(def: &Arc<GameDef>) {
    // TD-T6: at a store with stock, pay its price; one token per store a turn; never while
    // carrying a passenger.
    let shop = |riders: &str, cash: i64| {
        let mut g = started(def, 2);
        ev(
            &mut g,
            &format!(
                "money(1, {cash}) upgrades(1, {{'stereo'}}) aboard(1, {{{riders}}}) stock('store-saltair', {{'turbo', 'wifi'}})"
            ),
        );
        arrive(&mut g, 1, "hb-h2-3", "hb-h2-4");
        g
    };
    let mut g = shop("", 5);
    assert!(has(&mut g, "buy turbo") && has(&mut g, "buy wifi"));
    act(&mut g, "buy turbo");
    assert_eq!(money(&mut g, 1), 3, "Saltair Motor Works charges $2");
    assert_eq!(cards(&mut g, "z('upgrades', 1)"), ["stereo", "turbo"]);
    assert_eq!(cards(&mut g, "z('store-saltair')"), ["wifi"]);
    act(&mut g, "go hb-h2-3");
    act(&mut g, "go hb-h2-4");
    assert!(!has(&mut g, "buy wifi"), "one token per store per turn");
    // The allowance is per store: another store still sells in the same turn.
    let mut g = shop("", 5);
    ev(&mut g, "stock('store-admiral', {'luxury'})");
    act(&mut g, "buy turbo");
    arrive(&mut g, 1, "hb-h3-2", "hb-h3-3");
    assert!(
        has(&mut g, "buy luxury"),
        "a second store in the same turn: {:?}",
        acts(&mut g)
    );
    let mut g = shop("'dot-pennywhistle'", 5);
    assert!(
        !acts(&mut g).iter().any(|a| a.starts_with("buy")),
        "carrying"
    );
    let mut g = shop("", 1);
    assert!(
        !acts(&mut g).iter().any(|a| a.starts_with("buy")),
        "$1 for a $2 store"
    );
    let mut g = shop("", 2);
    assert!(has(&mut g, "buy turbo"), "exactly the price");
}

#[rules("TD-T7")]
fn t7_the_patrol_car_acts_before_the_final_action(def: &Arc<GameDef>) {
    // TD-T7: before the second action, the patrol car acts first; a turn that ends without a
    // final action gets its patrol at the end (the rulebook's Example 3).
    let mut g = started(def, 2);
    ev(
        &mut g,
        "money(1, 10) upgrades(1, {'wifi'}) stock('store-barnacle-bobs', {'stereo'}) wait('stack-1-a', 'dot-pennywhistle')",
    );
    arrive(&mut g, 1, "hb-v2-2", "hb-v2-1");
    act(&mut g, "buy stereo");
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    act(&mut g, "pickup dot-pennywhistle");
    assert_eq!(phase(&mut g), "patrol");
    assert!(acts(&mut g).iter().all(|a| a.starts_with("patrol ")));
    assert!(cards(&mut g, "z('cab', 1)").is_empty(), "not picked up yet");
    stay(&mut g);
    assert_eq!(
        cards(&mut g, "z('cab', 1)"),
        ["dot-pennywhistle"],
        "then the action"
    );
    assert_eq!(g.active(), 1, "and the turn ends");

    // No action at all: the patrol comes when the turn ends.
    let mut g = started(def, 2);
    drive(&mut g, 3);
    act(&mut g, "end");
    assert_eq!(phase(&mut g), "patrol");
    assert_eq!(g.active(), 0);
    stay(&mut g);
    assert_eq!(g.active(), 1);
    // The final action is chosen first; a fine that leaves too little money for it makes it
    // lapse (designed), and the turn ends.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "money(1, 2) stock('store-saltair', {'turbo'}) top_ticket('honked-at-swans')",
    );
    drive(&mut g, 4);
    arrive(&mut g, 1, "hb-h2-3", "hb-h2-4");
    ev(&mut g, "game.move_piece(car(), game.where_is(taxi(1)))");
    let from = g.log().len();
    act(&mut g, "buy turbo");
    assert_eq!(money(&mut g, 1), 1, "the $1 fine is paid");
    assert_eq!(
        cards(&mut g, "z('store-saltair')"),
        ["turbo"],
        "no purchase"
    );
    assert!(
        log_from(&g, from)
            .iter()
            .any(|l| l.contains("can no longer buy")),
        "{:?}",
        log_from(&g, from)
    );
    assert_eq!(g.active(), 1);
    // One action, then the end: the patrol comes at the end.
    let mut g = started(def, 2);
    ev(&mut g, "wait('stack-1-a', 'dot-pennywhistle')");
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    act(&mut g, "pickup dot-pennywhistle");
    assert_eq!(phase(&mut g), "drive");
    act(&mut g, "end");
    assert_eq!(phase(&mut g), "patrol");
    stay(&mut g);
    assert_eq!(g.active(), 1);
}

#[rules("TD-T8")]
fn t8_seven_spaces_without_a_ticket(def: &Arc<GameDef>) {
    // TD-T8: a ticket-free turn of 7 or more spaces moves the speeding cube (to the turn's
    // distance); a turn with a ticket, or of 6, does not.
    let (mut free, mut caught) = (0, 0);
    for seed in 0..40 {
        let mut g = started_seed(def, 2, seed);
        let n = 7 + (seed % 3) as usize;
        drive(&mut g, n);
        ev(
            &mut g,
            "local s = farthest(game.where_is(taxi(1))) game.move_piece(car(), s)",
        );
        act(&mut g, "end");
        settle(&mut g);
        assert_eq!(g.active(), 1);
        let tickets = cards(&mut g, "z('issued-tickets', 1)").len();
        let cube = num(&mut g, "return game.counter('furthest-turn', 1)");
        if tickets == 0 {
            assert_eq!(cube, n as i64, "seed {seed}");
            free += 1;
        } else {
            assert_eq!(cube, 0, "seed {seed}: ticketed");
            caught += 1;
        }
    }
    assert!(free > 0 && caught > 0, "{free} free, {caught} caught");
    // The cube keeps the best turn: after a 7, a free 8 puts it at 8 (not 15), and a later
    // free 7 leaves it there.
    let mut checked = 0;
    for seed in 0..20 {
        let mut g = started_seed(def, 2, seed);
        ev(&mut g, "game.set_counter('furthest-turn', 1, 7)");
        drive(&mut g, 8);
        ev(
            &mut g,
            "local s = farthest(game.where_is(taxi(1))) game.move_piece(car(), s)",
        );
        act(&mut g, "end");
        settle(&mut g);
        if cards(&mut g, "z('issued-tickets', 1)").is_empty() {
            assert_eq!(
                num(&mut g, "return game.counter('furthest-turn', 1)"),
                8,
                "seed {seed}: the best turn, not the sum"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no free turn of 8");
    let mut g = started(def, 2);
    drive(&mut g, 6);
    ev(
        &mut g,
        "local s = farthest(game.where_is(taxi(1))) game.move_piece(car(), s)",
    );
    act(&mut g, "end");
    settle(&mut g);
    if cards(&mut g, "z('issued-tickets', 1)").is_empty() {
        assert_eq!(num(&mut g, "return game.counter('furthest-turn', 1)"), 0);
    }
}

// ---- the patrol car -----------------------------------------------------------------------

#[rules("TD-C1")]
fn c1_a_patrol_moves_the_car_up_to_four(def: &Arc<GameDef>) {
    // TD-C1: without speeding, the player moves the car up to 4 spaces, anywhere.
    let mut g = started(def, 2);
    drive(&mut g, 2);
    act(&mut g, "end");
    let mut offered: Vec<String> = acts(&mut g)
        .iter()
        .map(|a| a.strip_prefix("patrol ").expect(a).to_string())
        .collect();
    offered.sort();
    let mut within = strings(
        &mut g,
        "local out = {} for s in game.within(game.where_is(car()), 4) do table.insert(out, id(s)) end return out",
    );
    within.sort();
    assert_eq!(offered, within);
    let four = string(
        &mut g,
        "for s, d in game.within(game.where_is(car()), 4) do if d == 4 then return id(s) end end return 'none'",
    );
    act(&mut g, &format!("patrol {four}"));
    assert_eq!(car_at(&mut g), four);
    assert_eq!(g.active(), 1);
}

#[rules("TD-C2")]
fn c2_pursuit_is_the_roll_times_the_spaces_over(def: &Arc<GameDef>) {
    // TD-C2: roll a d4, times the spaces over the limit of 4; the car drives that far along a
    // shortest route toward the speeding taxi.
    let mut faces = BTreeSet::new();
    for seed in 0..30 {
        let mut g = started_seed(def, 2, seed);
        let n = 5 + (seed % 2) as usize;
        drive(&mut g, n);
        ev(
            &mut g,
            "local s = farthest(game.where_is(taxi(1))) game.move_piece(car(), s)",
        );
        let (taxi, start) = (at(&mut g, 1), car_at(&mut g));
        let far = distance(&mut g, &start, &taxi);
        let from = g.log().len();
        act(&mut g, "end");
        let roll = roll_logged(&g, from);
        faces.insert(roll);
        let steps = roll * (n as i64 - 4);
        let now = car_at(&mut g);
        if steps >= far {
            assert_eq!(now, taxi, "seed {seed}: caught");
        } else {
            assert_eq!(distance(&mut g, &start, &now), steps, "seed {seed}");
            assert_eq!(
                distance(&mut g, &now, &taxi),
                far - steps,
                "seed {seed}: toward the taxi"
            );
        }
    }
    assert_eq!(faces, BTreeSet::from([1, 2, 3, 4]));
}

/// Orange drives `n` spaces (seed `seed`) and parks the car `gap` spaces from its taxi (if
/// such a space exists) before ending; whether a ticket came of it, and the roll.
fn chased(def: &Arc<GameDef>, seed: u64, n: usize, gap: Option<i64>) -> (bool, i64) {
    let mut g = started_seed(def, 2, seed);
    ev(&mut g, "money(1, 20)");
    drive(&mut g, n);
    match gap {
        Some(d) => {
            let ok = num(
                &mut g,
                &format!(
                    "for s, d in game.distances(game.where_is(taxi(1))) do if d == {d} then game.move_piece(car(), s) return 1 end end return 0"
                ),
            );
            assert_eq!(ok, 1, "no space {d} away");
        }
        None => {
            ev(
                &mut g,
                "local s = farthest(game.where_is(taxi(1))) game.move_piece(car(), s)",
            );
        }
    }
    let from = g.log().len();
    act(&mut g, "end");
    let roll = roll_logged(&g, from);
    settle(&mut g);
    (!cards(&mut g, "z('issued-tickets', 1)").is_empty(), roll)
}

#[rules("TD-C3")]
fn c3_a_car_that_reaches_the_taxi_gives_a_ticket(def: &Arc<GameDef>) {
    // TD-C3: the car reaching the taxi's space (exactly, or with steps to spare) tickets it;
    // one space short does not.
    for seed in [3, 8] {
        let (_, roll) = chased(def, seed, 5, None);
        let steps = roll; // one over the limit
        assert!(
            chased(def, seed, 5, Some(steps)).0,
            "seed {seed}: exactly {steps}"
        );
        assert!(chased(def, seed, 5, Some(0)).0, "seed {seed}: on the taxi");
        assert!(
            !chased(def, seed, 5, Some(steps + 1)).0,
            "seed {seed}: one short"
        );
    }
    // The ticket is the top of the deck.
    let mut g = started(def, 2);
    ev(&mut g, "money(1, 20) top_ticket('rolling-stop')");
    drive(&mut g, 5);
    ev(&mut g, "game.move_piece(car(), game.where_is(taxi(1)))");
    act(&mut g, "end");
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["rolling-stop"]);
}

// ---- traffic tickets ----------------------------------------------------------------------

/// Orange, set up by `code`, speeds (6 spaces) with the car on its taxi and `ticket` on top
/// of the deck, then ends the turn (or takes `last`, an action at the stop 1A).
fn ticketed(def: &Arc<GameDef>, code: &str, ticket: &str, last: Option<&str>) -> Game {
    let mut g = started(def, 2);
    ev(&mut g, &format!("{code}\ntop_ticket('{ticket}')"));
    drive(&mut g, 5);
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    ev(&mut g, "game.move_piece(car(), game.where_is(taxi(1)))");
    act(&mut g, last.unwrap_or("end"));
    g
}

#[rules("TD-K1")]
fn k1_fines_the_precinct_and_downgrades(def: &Arc<GameDef>) {
    // TD-K1: the ticket is kept; a fine is paid, a precinct card sends the taxi there, a
    // downgrade takes an upgrade (the named kind, or the player's choice).
    let mut g = ticketed(def, "money(1, 5)", "rolling-stop", None);
    assert_eq!(money(&mut g, 1), 3, "a $2 fine");
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["rolling-stop"]);
    assert_eq!(g.active(), 1);

    let mut g = ticketed(
        def,
        "aboard(1, {'dot-pennywhistle'})",
        "license-check",
        None,
    );
    assert_eq!(
        string(
            &mut g,
            "return table.find(game.space_info(game.where_is(taxi(1))).tags, 'police') and 'yes' or 'no'"
        ),
        "yes"
    );
    assert_eq!(
        cards(&mut g, "z('cab', 1)"),
        ["dot-pennywhistle"],
        "passengers stay"
    );
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["license-check"]);
    assert_eq!(g.active(), 1);

    let mut g = ticketed(
        def,
        "upgrades(1, {'stereo', 'turbo'})",
        "exhaust-violation",
        None,
    );
    assert_eq!(
        cards(&mut g, "z('upgrades', 1)"),
        ["stereo"],
        "the turbo goes"
    );
    assert_eq!(g.active(), 1);

    let mut g = ticketed(def, "upgrades(1, {'turbo', 'wifi'})", "parts-seized", None);
    let mut choice = acts(&mut g);
    choice.sort();
    assert_eq!(choice, ["lose turbo", "lose wifi"], "the player's choice");
    act(&mut g, "lose wifi");
    assert_eq!(cards(&mut g, "z('upgrades', 1)"), ["turbo"]);
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["parts-seized"]);
    assert_eq!(g.active(), 1);
}

#[rules("TD-K1")]
fn k1_the_last_ticket_of_the_deck(def: &Arc<GameDef>) {
    // TD-K1: the last card of the ticket deck is issued like any other; only an empty deck
    // waves the taxi on.
    let mut g = ticketed(
        def,
        "money(1, 5) empty(z('ticket-deck'))",
        "rolling-stop",
        None,
    );
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["rolling-stop"]);
    assert_eq!(money(&mut g, 1), 3, "the last card's $2 fine");
    assert_eq!(num(&mut g, "return game.count(z('ticket-deck'))"), 0);
}

#[rules("TD-K2")]
fn k2_a_paid_ticket_keeps_passengers_and_the_last_action(def: &Arc<GameDef>) {
    // TD-K2: after paying, the player goes on to the last action; a downgrade does not unseat
    // a passenger who needs the lost upgrade.
    let mut g = ticketed(
        def,
        "money(1, 5) wait('stack-1-a', 'dot-pennywhistle')",
        "honked-at-swans",
        Some("pickup dot-pennywhistle"),
    );
    assert_eq!(money(&mut g, 1), 4);
    assert_eq!(
        cards(&mut g, "z('cab', 1)"),
        ["dot-pennywhistle"],
        "the last action"
    );
    assert_eq!(g.active(), 1);
    let mut g = ticketed(
        def,
        "upgrades(1, {'stereo', 'turbo'}) aboard(1, {'mira-castellanos'})",
        "noise-complaint",
        None,
    );
    assert_eq!(cards(&mut g, "z('upgrades', 1)"), ["turbo"]);
    assert_eq!(
        cards(&mut g, "z('cab', 1)"),
        ["mira-castellanos"],
        "she stays"
    );
}

#[rules("TD-K3")]
fn k3_impounded_when_the_ticket_cannot_be_paid(def: &Arc<GameDef>) {
    // TD-K3: short of money (or of the upgrade), the taxi is impounded: passengers to the box,
    // the taxi to the precinct, the turn over, nothing paid. Impounding is chosen only to keep
    // the last upgrade.
    let mut g = ticketed(
        def,
        "money(1, 4) aboard(1, {'dot-pennywhistle'})",
        "thirty-over",
        None,
    );
    assert_eq!(money(&mut g, 1), 4, "nothing paid");
    assert!(cards(&mut g, "z('cab', 1)").is_empty());
    assert!(cards(&mut g, "z('box')").contains(&"dot-pennywhistle".to_string()));
    assert_eq!(
        string(
            &mut g,
            "return table.find(game.space_info(game.where_is(taxi(1))).tags, 'police') and 'yes' or 'no'"
        ),
        "yes"
    );
    assert_eq!(cards(&mut g, "z('issued-tickets', 1)"), ["thirty-over"]);
    assert_eq!(g.active(), 1);

    let mut g = ticketed(
        def,
        "upgrades(1, {'turbo', 'wifi'}) aboard(1, {'hank-ostrowski'})",
        "noise-complaint",
        None,
    );
    assert!(
        cards(&mut g, "z('cab', 1)").is_empty(),
        "no stereo to give: impounded"
    );
    assert_eq!(cards(&mut g, "z('upgrades', 1)").len(), 2);
    assert_eq!(g.active(), 1);

    let mut g = ticketed(
        def,
        "upgrades(1, {'stereo'}) aboard(1, {'hank-ostrowski'})",
        "noise-complaint",
        None,
    );
    let mut choice = acts(&mut g);
    choice.sort();
    assert_eq!(choice, ["impound", "lose stereo"], "the last upgrade");
    act(&mut g, "impound");
    assert_eq!(cards(&mut g, "z('upgrades', 1)"), ["stereo"]);
    assert!(cards(&mut g, "z('cab', 1)").is_empty());
    assert_eq!(g.active(), 1);

    let mut g = ticketed(
        def,
        "upgrades(1, {'stereo', 'luxury'})",
        "safety-recall",
        None,
    );
    assert!(!has(&mut g, "impound"), "two upgrades: one must go");

    let mut g = ticketed(
        def,
        "money(1, 5) aboard(1, {'hank-ostrowski'})",
        "thirty-over",
        None,
    );
    assert_eq!(money(&mut g, 1), 0, "exactly enough: paid, no choice");
    assert_eq!(cards(&mut g, "z('cab', 1)"), ["hank-ostrowski"]);
}

// ---- passengers and upgrades -------------------------------------------------------------

#[rules("TD-P1", "TD-B3")]
fn p1_passenger_types_and_vips(def: &Arc<GameDef>) {
    // TD-P1: five types, any of them VIP; the pick-up shows which.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "upgrades(1, {'wifi'}) wait('stack-1-a', 'agent-wren')",
    );
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    let label = g.describe("pickup agent-wren");
    assert!(label.contains("VIP secret agent"), "{label}");
    ev(&mut g, "wait('stack-1-a', 'sticky-lou')");
    let label = g.describe("pickup sticky-lou");
    assert!(label.contains("(criminal,"), "{label}");
    // Types count apart at the end (TD-B3).
    let mut g = started(def, 2);
    ev(
        &mut g,
        "delivered(1, {'sticky-lou'}) delivered(2, {'hank-ostrowski'})",
    );
    let paid = end_now(&mut g);
    assert_eq!(bonus(&paid, "Orange", "Most Criminals"), 6);
    assert_eq!(bonus(&paid, "Orange", "Most Commuters"), 0);
    assert_eq!(bonus(&paid, "Green", "Most Commuters"), 8);
}

#[rules("TD-P2")]
fn p2_required_upgrades(def: &Arc<GameDef>) {
    // TD-P2: every upgrade a passenger requires must be fitted.
    assert!(!may_pick_up(def, &[], &["turbo"], "mira-castellanos"));
    assert!(may_pick_up(def, &[], &["stereo"], "mira-castellanos"));
    assert!(
        !may_pick_up(def, &[], &["stereo"], "beatrix-allard"),
        "stereo + luxury"
    );
    assert!(may_pick_up(
        def,
        &[],
        &["luxury", "stereo"],
        "beatrix-allard"
    ));
}

#[rules("TD-P3")]
fn p3_ticket_limits(def: &Arc<GameDef>) {
    // TD-P3: a taxi with more tickets than the passenger's limit cannot pick it up.
    for (tickets, ok) in [(0, true), (1, true), (2, false)] {
        let mut g = started(def, 2);
        ev(
            &mut g,
            &format!(
                "upgrades(1, {{'wifi'}}) tickets(1, {tickets}) wait('stack-1-a', 'agent-nightjar')"
            ),
        );
        arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
        assert_eq!(
            has(&mut g, "pickup agent-nightjar"),
            ok,
            "{tickets} tickets, limit 1"
        );
    }
}

/// What delivering `card` pays seat 1 with `kinds` fitted and `before` delivered earlier.
fn pays(def: &Arc<GameDef>, card: &str, kinds: &str, before: &str) -> i64 {
    let mut g = started(def, 2);
    ev(
        &mut g,
        &format!(
            "money(1, 0) upgrades(1, {{{kinds}}}) delivered(1, {{{before}}}) aboard(1, {{'{card}'}})"
        ),
    );
    let (from, to) = match string(
        &mut g,
        &format!("return data.decks.passengers.cards['{card}'].destination"),
    )
    .as_str()
    {
        "ferry-terminal" => ("hb-h3-2", "hb-h3-1"),
        "opera-house" => ("mt-h2-2", "mt-h2-1"),
        "university" => ("hs-h1-1", "hs-h1-2"),
        "ballpark" => ("mt-h1-3", "mt-h1-4"),
        other => panic!("no drop-off route for {other}"),
    };
    arrive(&mut g, 1, from, to);
    act(&mut g, &format!("drop {card}"));
    money(&mut g, 1)
}

#[rules("TD-P4")]
fn p4_the_printed_payment(def: &Arc<GameDef>) {
    // TD-P4
    assert_eq!(pays(def, "hank-ostrowski", "", ""), 2);
    assert_eq!(pays(def, "the-holloways", "'luxury'", ""), 5);
}

#[rules("TD-P5")]
fn p5_multipliers(def: &Arc<GameDef>) {
    // TD-P5: $2 x (1 + earlier agents delivered, any agent tile counts).
    assert_eq!(pays(def, "agent-nightjar", "'wifi'", ""), 2);
    assert_eq!(pays(def, "agent-nightjar", "'wifi'", "'agent-calloway'"), 4);
    assert_eq!(
        pays(
            def,
            "agent-nightjar",
            "'wifi'",
            "'agent-calloway', 'agent-wren', 'hank-ostrowski'"
        ),
        6,
        "a commuter does not count"
    );
    assert_eq!(
        pays(def, "madge-quinlan", "'turbo'", "'agent-calloway'"),
        2,
        "criminals count criminals"
    );
}

#[rules("TD-P6")]
fn p6_tiers(def: &Arc<GameDef>) {
    // TD-P6: a second token of a kind adds $1 per delivered passenger needing it, a third $3
    // (designed: instead of the $1); a mat holds three of a kind.
    assert_eq!(pays(def, "mira-castellanos", "'stereo'", ""), 3);
    assert_eq!(pays(def, "mira-castellanos", "'stereo', 'stereo'", ""), 4);
    assert_eq!(
        pays(def, "mira-castellanos", "'stereo', 'stereo', 'stereo'", ""),
        6
    );
    assert_eq!(
        pays(
            def,
            "beatrix-allard",
            "'stereo', 'stereo', 'luxury', 'luxury'",
            ""
        ),
        9,
        "each kind"
    );
    let mut g = started(def, 2);
    ev(
        &mut g,
        "money(1, 9) upgrades(1, {'turbo', 'turbo', 'turbo'}) stock('store-saltair', {'turbo', 'wifi'})",
    );
    arrive(&mut g, 1, "hb-h2-3", "hb-h2-4");
    assert!(
        !has(&mut g, "buy turbo") && has(&mut g, "buy wifi"),
        "three slots"
    );
}

#[rules("TD-P6")]
fn p6_abilities(def: &Arc<GameDef>) {
    // TD-P6 (designed abilities): Police Scanner patrols 6; Overdrive's limit is 5 while no
    // passenger rides; the Traffic App rerolls once; Velvet Seats counts one ticket fewer.
    let mut g = started(def, 2);
    ev(&mut g, "upgrades(1, {'stereo', 'stereo'})");
    drive(&mut g, 1);
    act(&mut g, "end");
    let n = acts(&mut g).len() as i64;
    let six = num(
        &mut g,
        "local n = 0 for _ in game.within(game.where_is(car()), 6) do n += 1 end return n",
    );
    assert_eq!(n, six, "Police Scanner");

    let mut g = started(def, 2);
    ev(
        &mut g,
        "upgrades(1, {'turbo', 'turbo'}) wait('stack-1-a', 'dot-pennywhistle')",
    );
    drive(&mut g, 4);
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    act(&mut g, "pickup dot-pennywhistle");
    assert_eq!(
        phase(&mut g),
        "drive",
        "Overdrive: five spaces are not speeding"
    );
    assert_eq!(g.active(), 0, "Overdrive: a second action is left");

    // With a rider aboard Overdrive does nothing: the fifth space is speeding, so picking up
    // there is the turn's only action.
    let mut g = started(def, 2);
    ev(
        &mut g,
        "upgrades(1, {'turbo', 'turbo'}) aboard(1, {'hank-ostrowski'}) wait('stack-1-a', 'dot-pennywhistle')",
    );
    drive(&mut g, 4);
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    assert_eq!(moved(&mut g), 5);
    let from = g.log().len();
    act(&mut g, "pickup dot-pennywhistle");
    let told = log_from(&g, from).join("\n");
    assert!(
        told.contains("sped 1 over the limit"),
        "Overdrive with a rider aboard: {told}"
    );
    settle(&mut g);
    assert_eq!(g.active(), 1, "Overdrive with a rider aboard: the turn is over");

    // An ability is unlocked "for the rest of the game": a downgrade that takes one of the
    // two Turbo tokens leaves Overdrive's limit of 5 (the +$1 tier follows the tokens).
    let mut g = ticketed(
        def,
        "upgrades(1, {'turbo', 'turbo'}) wait('stack-1-a', 'dot-pennywhistle')",
        "exhaust-violation",
        None,
    );
    assert_eq!(
        cards(&mut g, "z('upgrades', 1)"),
        ["turbo"],
        "one Turbo lost"
    );
    assert_eq!(g.active(), 1);
    act(&mut g, "end");
    settle(&mut g);
    assert_eq!(g.active(), 0, "Orange's next turn");
    drive(&mut g, 4);
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    assert_eq!(moved(&mut g), 5);
    act(&mut g, "pickup dot-pennywhistle");
    assert_eq!(
        phase(&mut g),
        "drive",
        "Overdrive outlasts the lost token: five spaces are not speeding"
    );
    assert_eq!(g.active(), 0, "Overdrive kept: a second action is left");

    let mut g = started(def, 2);
    ev(&mut g, "upgrades(1, {'wifi', 'wifi'}) money(1, 20)");
    drive(&mut g, 6);
    act(&mut g, "end");
    let mut offered = acts(&mut g);
    offered.sort();
    assert_eq!(offered, ["keep", "reroll"], "Traffic App");
    let from = g.log().len();
    act(&mut g, "reroll");
    assert!(log_from(&g, from).iter().any(|l| l.contains("rerolls")));
    assert_ne!(phase(&mut g), "reroll", "once");

    for (kinds, ok) in [("'luxury'", false), ("'luxury', 'luxury'", true)] {
        let mut g = started(def, 2);
        ev(
            &mut g,
            &format!(
                "upgrades(1, {{{kinds}}}) tickets(1, 3) wait('stack-1-a', 'barnaby-whitlock')"
            ),
        );
        arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
        assert_eq!(
            has(&mut g, "pickup barnaby-whitlock"),
            ok,
            "Velvet Seats, {kinds}"
        );
    }
}

#[rules("TD-P7")]
fn p7_stops_refill_after_the_turn(def: &Arc<GameDef>) {
    // TD-P7: an emptied stop takes the top of its stack once the turn is over.
    let mut g = started(def, 2);
    ev(&mut g, "wait('stack-1-a', 'dot-pennywhistle')");
    let top = cards(&mut g, "z('stack-1')").last().unwrap().clone();
    arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
    act(&mut g, "pickup dot-pennywhistle");
    assert!(
        cards(&mut g, "z('stack-1-a')").is_empty(),
        "not during the turn"
    );
    act(&mut g, "end");
    stay(&mut g);
    assert_eq!(cards(&mut g, "z('stack-1-a')"), [top]);
    assert_eq!(cards(&mut g, "z('stack-1')").len(), 6);
}

// ---- end of game --------------------------------------------------------------------------

/// Orange ends a turn after `code`; whether the last round was announced.
fn triggers(def: &Arc<GameDef>, option: Option<i64>, code: &str) -> bool {
    let mut setup = Setup::new(2, 7).option("first-player", Value::from("first-seat"));
    if let Some(n) = option {
        setup = setup.option("end-stacks", Value::Int(n));
    }
    let mut g = Game::new(def.clone(), setup).unwrap();
    for _ in 0..2 {
        let a = first_with(&mut g, "start ");
        act(&mut g, &a);
    }
    ev(&mut g, code);
    drive(&mut g, 1);
    act(&mut g, "end");
    stay(&mut g);
    num(&mut g, "return game.get('_final') or 0") > 0
}

const EMPTY: &str = "local function drain(i) empty(z('stack-' .. i)) end";

#[rules("TD-E1")]
fn e1_empty_stacks_trigger_the_end(def: &Arc<GameDef>) {
    // TD-E1: four empty stacks, or two empty with both their stops empty; 3 or 5 by option.
    let stacks = |n: usize, cleared: usize| {
        let mut code = EMPTY.to_string();
        for i in 1..=n {
            code += &format!(" drain({i})");
        }
        for i in 1..=cleared {
            code += &format!(" empty(z('stack-{i}-a')) empty(z('stack-{i}-b'))");
        }
        code
    };
    assert!(!triggers(def, None, &stacks(3, 1)));
    assert!(triggers(def, None, &stacks(4, 0)));
    assert!(triggers(def, None, &stacks(2, 2)));
    assert!(triggers(def, Some(3), &stacks(3, 0)));
    assert!(!triggers(def, Some(5), &stacks(4, 2)));
    assert!(triggers(def, Some(5), &stacks(5, 0)));
    // Designed: ten rounds with no pick-up, drop-off or purchase start the last round too.
    assert!(triggers(def, None, "game.set('_quiet', 19)"));
    assert!(!triggers(def, None, "game.set('_quiet', 17)"));
}

#[rules("TD-E2")]
fn e2_one_last_round(def: &Arc<GameDef>) {
    // TD-E2: the triggering player finishes the turn, then everyone takes one more, the
    // triggering player last.
    let mut g = started(def, 3);
    ev(
        &mut g,
        &format!("{EMPTY} drain(1) drain(2) drain(3) drain(4)"),
    );
    let mut order = Vec::new();
    for _ in 0..6 {
        if g.is_over() {
            break;
        }
        order.push(g.active());
        drive(&mut g, 1);
        act(&mut g, "end");
        stay(&mut g);
    }
    assert_eq!(order, [0, 1, 2, 0]);
    assert!(g.is_over());
}

#[rules("TD-E3")]
fn e3_most_money_wins(def: &Arc<GameDef>) {
    // TD-E3: after the bonuses, most money wins; designed: a tie goes to fewer tickets.
    let mut g = started(def, 2);
    ev(&mut g, "money(1, 20) money(2, 10)");
    end_now(&mut g);
    let r = g.result().unwrap().clone();
    // Both tie for the most upgrades and the fewest tickets: (7 + 5) / 2 = 6 each, twice.
    assert_eq!(r.scores, [32, 22]);
    assert_eq!(r.places, [1, 2]);
    let mut g = started(def, 2);
    ev(&mut g, "money(1, 12) money(2, 10) tickets(1, 1)");
    end_now(&mut g);
    let r = g.result().unwrap().clone();
    assert_eq!(r.scores, [23, 23]);
    assert_eq!(r.places, [2, 1], "fewer tickets");
}

// ---- end-game bonuses ---------------------------------------------------------------------

#[rules("TD-B1")]
fn b1_most_upgrades(def: &Arc<GameDef>) {
    // TD-B1: 7 / 5 / 3.
    let mut g = started(def, 3);
    ev(
        &mut g,
        "upgrades(1, {'stereo', 'turbo', 'wifi'}) upgrades(2, {'stereo', 'stereo'}) upgrades(3, {'luxury'})",
    );
    let paid = end_now(&mut g);
    assert_eq!(
        [
            bonus(&paid, "Orange", "Best-Equipped Taxi"),
            bonus(&paid, "Green", "Best-Equipped Taxi"),
            bonus(&paid, "Yellow", "Best-Equipped Taxi")
        ],
        [7, 5, 3]
    );
}

#[rules("TD-B2")]
fn b2_fewest_tickets(def: &Arc<GameDef>) {
    // TD-B2: 7 / 5 / 3, and a player with none places too.
    let mut g = started(def, 3);
    ev(&mut g, "tickets(1, 2) tickets(2, 0) tickets(3, 1)");
    let paid = end_now(&mut g);
    assert_eq!(
        [
            bonus(&paid, "Green", "Cleanest Record"),
            bonus(&paid, "Yellow", "Cleanest Record"),
            bonus(&paid, "Orange", "Cleanest Record")
        ],
        [7, 5, 3]
    );
}

#[rules("TD-B3", "TD-B4")]
fn b3_most_of_each_type(def: &Arc<GameDef>) {
    // TD-B3: per type; commuters 8/6/4, criminals 6/4/2, agents 6/4/2, professionals 4/2/1,
    // celebrities 4/2/1 (designed mapping); at least one delivered to place.
    let mut g = started(def, 3);
    ev(
        &mut g,
        "delivered(1, {'hank-ostrowski', 'dot-pennywhistle', 'agent-wren'}) \
         delivered(2, {'adaeze-obi', 'silas-grange', 'dj-tidepool', 'sticky-lou'}) \
         delivered(3, {'harriet-vance', 'ravi-menon', 'augustin-roux', 'fingers-malone', 'madge-quinlan', 'agent-nightjar'})",
    );
    let paid = end_now(&mut g);
    let get = |who: &str, what: &str| bonus(&paid, who, what);
    assert_eq!(
        [
            get("Orange", "Most Commuters"),
            get("Green", "Most Commuters"),
            get("Yellow", "Most Commuters")
        ],
        [8, 6, 0],
        "Yellow delivered no commuter"
    );
    assert_eq!(
        [
            get("Yellow", "Most Criminals"),
            get("Green", "Most Criminals"),
            get("Orange", "Most Criminals")
        ],
        [6, 4, 0]
    );
    assert_eq!(
        [
            get("Yellow", "Most Professionals"),
            get("Green", "Most Professionals")
        ],
        [4, 2]
    );
    assert_eq!(
        [
            get("Orange", "Most Secret Agents"),
            get("Yellow", "Most Secret Agents")
        ],
        [5, 5],
        "a tie for first: (6 + 4) / 2"
    );
    assert_eq!(
        [
            get("Green", "Most Celebrities"),
            get("Yellow", "Most Celebrities")
        ],
        [3, 3],
        "(4 + 2) / 2"
    );
}

#[rules("TD-B4")]
fn b4_ties(def: &Arc<GameDef>) {
    // TD-B4: tied players add the amounts of their places and halve them, rounded up; more
    // than two tied for third: nobody gets third.
    let mut g = started(def, 3);
    ev(
        &mut g,
        "upgrades(1, {'stereo'}) upgrades(2, {'turbo'}) upgrades(3, {'wifi'}) \
         delivered(1, {'harriet-vance', 'ravi-menon'}) delivered(2, {'silas-grange'}) delivered(3, {'lena-marchetti'})",
    );
    let paid = end_now(&mut g);
    for who in ["Orange", "Green", "Yellow"] {
        assert_eq!(
            bonus(&paid, who, "Best-Equipped Taxi"),
            5,
            "(7 + 5 + 3) / 3"
        );
    }
    assert_eq!(bonus(&paid, "Orange", "Most Professionals"), 4);
    for who in ["Green", "Yellow"] {
        assert_eq!(
            bonus(&paid, who, "Most Professionals"),
            2,
            "(2 + 1) / 2 = 1.5, up"
        );
    }
    let mut g = started(def, 5);
    ev(
        &mut g,
        "tickets(1, 0) tickets(2, 1) tickets(3, 2) tickets(4, 2) tickets(5, 2)",
    );
    let paid = end_now(&mut g);
    assert_eq!(bonus(&paid, "Orange", "Cleanest Record"), 7);
    assert_eq!(bonus(&paid, "Green", "Cleanest Record"), 5);
    for who in ["Yellow", "Blue", "Red"] {
        assert_eq!(
            bonus(&paid, who, "Cleanest Record"),
            0,
            "three tied for third"
        );
    }
    let mut g = started(def, 4);
    ev(
        &mut g,
        "tickets(1, 0) tickets(2, 1) tickets(3, 1) tickets(4, 2)",
    );
    let paid = end_now(&mut g);
    assert_eq!(bonus(&paid, "Green", "Cleanest Record"), 4, "(5 + 3) / 2");
    assert_eq!(bonus(&paid, "Yellow", "Cleanest Record"), 4);
    assert_eq!(bonus(&paid, "Blue", "Cleanest Record"), 0, "fourth");
}

#[rules("TD-B5")]
fn b5_furthest_single_turn(def: &Arc<GameDef>) {
    // TD-B5: 10 / 6 / 4; at least 7 spaces to qualify.
    let mut g = started(def, 3);
    ev(
        &mut g,
        "game.set_counter('furthest-turn', 1, 9) game.set_counter('furthest-turn', 2, 7) game.set_counter('furthest-turn', 3, 6)",
    );
    let paid = end_now(&mut g);
    assert_eq!(
        [
            bonus(&paid, "Orange", "Furthest Single Turn"),
            bonus(&paid, "Green", "Furthest Single Turn"),
            bonus(&paid, "Yellow", "Furthest Single Turn")
        ],
        [10, 6, 0]
    );
}
}

/// The rule IDs of mods/taxi-derby/RULES.md.
pub const RULES: &[&str] = &[
    "TD-S1", "TD-S2", "TD-S3", "TD-S4", "TD-S5", "TD-S6", "TD-S7", "TD-S8", "TD-S9", "TD-T1",
    "TD-T2", "TD-T3", "TD-T4", "TD-T5", "TD-T6", "TD-T7", "TD-T8", "TD-C1", "TD-C2", "TD-C3",
    "TD-K1", "TD-K2", "TD-K3", "TD-P1", "TD-P2", "TD-P3", "TD-P4", "TD-P5", "TD-P6", "TD-P7",
    "TD-E1", "TD-E2", "TD-E3", "TD-B1", "TD-B2", "TD-B3", "TD-B4", "TD-B5",
];

#[test]
fn the_rule_list_matches_rules_md() {
    rule_mutants::assert_rules_match_rule_list("taxi-derby", "TD-", RULES);
}

#[test]
fn every_broken_rule_is_caught() {
    // The oracles judge one seed of each kind of game (taxi_derby_oracles::mutation_plans).
    // The leak invariant is left to tests/oracles/taxi_derby.rs: it is most of a run's time here, and
    // no mutant of a rule is a leak.
    let mut oracles: Vec<_> = farebox_suite::oracles::invariants()
        .into_iter()
        .filter(|o| o.name != "nothing hidden from a seat is shown to it")
        .collect();
    oracles.extend(farebox_suite::taxi_derby_oracles::oracles());
    let plans = farebox_suite::taxi_derby_oracles::mutation_plans();
    let catch = |def: &Arc<GameDef>| {
        farebox_suite::oracles::first_catch(def, &plans, &oracles, 3000).map(|c| c.to_string())
    };
    rule_mutants::run_with_oracles(
        "taxi-derby",
        RULES,
        CHECKS,
        taxi_derby_mutants::MUTANTS,
        Some(rule_mutants::OracleRun {
            catch: &catch,
            required: taxi_derby_mutants::FOR_ORACLES,
        }),
    );
}

#[test]
fn no_action_is_listed_twice_and_every_label_reads() {
    // The action list is a set, and every action has a label, at every decision of seeded
    // random games.
    let mut rng = farebox::rng::Rng::new(7, 1);
    let mut checked = 0;
    for seed in 0..12 {
        let mut g = Game::new(shipped(), Setup::new(2 + (seed % 4) as u8, seed)).unwrap();
        while !g.is_over() && g.history().len() < 800 {
            let acts = g.legal_actions().unwrap();
            let mut sorted = acts.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), acts.len(), "seed {seed}: {acts:?}");
            let a = acts[rng.below(acts.len() as u32) as usize].clone();
            let own = g.try_describe_path(&a).unwrap();
            let public = g.try_describe_public(&a).unwrap();
            assert!(!own.is_empty() && !public.is_empty(), "{a}");
            checked += 1;
            g.apply_legal(&a).unwrap();
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn the_chase_and_ticket_choices_are_labelled() {
    let def = shipped();
    let mut g = started(&def, 2);
    ev(&mut g, "upgrades(1, {'wifi', 'wifi'}) money(1, 20)");
    drive(&mut g, 6);
    let end = g.describe("end");
    assert!(
        end.starts_with(
            "End your turn — the patrol car chases you first: 2 over the limit x a d4, from "
        ),
        "{end}"
    );
    // The pursuit note says which rolls catch the taxi (and that the Traffic App may reroll).
    assert!(
        end.contains("catches you") || end.contains("no roll can catch you"),
        "{end}"
    );
    act(&mut g, "end");
    let keep = g.describe("keep");
    assert!(keep.starts_with("Keep the roll of "), "{keep}");
    assert!(keep.contains("toward you"), "{keep}");
    assert!(
        keep.ends_with("and catches you") || keep.ends_with(" short"),
        "{keep}"
    );
    assert_eq!(
        g.describe("reroll"),
        "Roll the pursuit die again (Traffic App); the new roll stands"
    );
    assert_eq!(g.describe_public("reroll"), "Rerolls the pursuit die");

    let mut g = ticketed(&def, "upgrades(1, {'stereo'})", "noise-complaint", None);
    assert_eq!(g.describe("lose stereo"), "Give up a Stereo for the ticket");
    assert!(g.describe("impound").starts_with("Be impounded instead"));
    assert_eq!(g.describe_public("impound"), "Chooses to be impounded");
}

#[test]
fn the_patrol_menu_keeps_one_order() {
    // Every patrol lists "leave the car" first, then the spaces by how far the car goes,
    // nearest first (board order within a distance), so the menu reads the same every turn.
    let def = shipped();
    for (seed, park) in [(7, "oq-v2-2"), (8, "hb-h1-2"), (9, "mt-v2-2")] {
        let mut g = started_seed(&def, 2, seed);
        ev(&mut g, &format!("park('{park}')"));
        drive(&mut g, 1);
        act(&mut g, "end");
        let list = acts(&mut g);
        assert!(list.iter().all(|a| a.starts_with("patrol ")), "{list:?}");
        assert_eq!(
            list[0],
            format!("patrol {park}"),
            "seed {seed}: leave it first"
        );
        let far: Vec<i64> = list
            .iter()
            .map(|a| distance(&mut g, park, &a["patrol ".len()..]))
            .collect();
        assert!(
            far.windows(2).all(|w| w[0] <= w[1]),
            "seed {seed}: by distance: {far:?}"
        );
        let index: Vec<i64> = list
            .iter()
            .map(|a| num(&mut g, &format!("return sp('{}')", &a["patrol ".len()..])))
            .collect();
        for i in 1..list.len() {
            if far[i] == far[i - 1] {
                assert!(
                    index[i - 1] < index[i],
                    "seed {seed}: board order within a distance"
                );
            }
        }
    }
}

#[test]
fn a_ticket_that_cancels_the_last_action_says_so() {
    // A precinct ticket (or an impound) before the chosen last action: the log says that the
    // action does not happen.
    let def = shipped();
    for ticket in ["license-check", "thirty-over"] {
        let mut g = started(&def, 2);
        ev(
            &mut g,
            &format!("money(1, 1) wait('stack-1-a', 'dot-pennywhistle') top_ticket('{ticket}')"),
        );
        drive(&mut g, 5);
        arrive(&mut g, 1, "hb-h1-2", "hb-h1-1");
        ev(&mut g, "game.move_piece(car(), game.where_is(taxi(1)))");
        let from = g.log().len();
        act(&mut g, "pickup dot-pennywhistle");
        assert!(
            cards(&mut g, "z('cab', 1)").is_empty(),
            "{ticket}: no pick-up"
        );
        let log = log_from(&g, from);
        assert!(
            log.iter()
                .any(|l| l.contains("cannot pick up") && l.contains("Dot Pennywhistle")),
            "{ticket}: {log:?}"
        );
        assert_eq!(g.active(), 1, "{ticket}: the turn is over");
    }
}
