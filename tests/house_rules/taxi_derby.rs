//! Learner's Permit, the house rule for Taxi Derby: besides its content changes (checked in
//! `content.rs`), it wraps Taxi Derby's hooks. A delivery on a turn within the
//! speed limit earns a tip (Taxi Derby's `careful_tip`, set here), and a taxi at a stop whose passenger needs an
//! upgrade it lacks may wave that passenger on (`after.actions`, `before.apply`,
//! `before.describe`, `after.on_turn_start`). The bots still play it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, OnceLock};

use farebox::GameDef;
use farebox::agent::AgentSpec;
use farebox::batch::Batch;
use farebox::game::{Game, Setup};
use farebox::value::Value;

fn permit() -> Arc<GameDef> {
    static DEF: OnceLock<Arc<GameDef>> = OnceLock::new();
    DEF.get_or_init(|| Arc::new(farebox_suite::load("taxi-derby-learners-permit")))
        .clone()
}

/// The rule tests' Luau helpers (placing taxis, fetching cards, filling zones).
const PRELUDE: &str = include_str!("../rules/taxi_derby/prelude.luau");

fn started() -> Game {
    let mut g = Game::new(
        permit(),
        Setup::new(2, 7).option("first-player", Value::from("first-seat")),
    )
    .unwrap();
    for _ in 0..2 {
        let a = g
            .legal_actions()
            .unwrap()
            .into_iter()
            .find(|a| a.starts_with("start "))
            .unwrap();
        g.apply(&a).unwrap();
    }
    g
}

fn ev(g: &mut Game, code: &str) -> Value {
    g.eval(&format!("{PRELUDE}\n{code}"))
        .unwrap_or_else(|e| panic!("{e}\n{code}"))
}

fn strings(g: &mut Game, code: &str) -> Vec<String> {
    match ev(g, code) {
        Value::List(items) => items
            .into_iter()
            .map(|v| match v {
                Value::Str(s) => s,
                other => panic!("{other:?}"),
            })
            .collect(),
        Value::Map(m) if m.is_empty() => Vec::new(),
        other => panic!("{other:?}"),
    }
}

fn money(g: &mut Game) -> i64 {
    ev(g, "return game.counter('money', 1)").as_int().unwrap()
}

fn has(g: &mut Game, a: &str) -> bool {
    g.legal_actions().unwrap().iter().any(|x| x == a)
}

fn act(g: &mut Game, a: &str) {
    g.apply(a).unwrap_or_else(|e| panic!("{a}: {e}"));
}

fn drive(g: &mut Game, n: usize) {
    for _ in 0..n {
        let a = g
            .legal_actions()
            .unwrap()
            .into_iter()
            .find(|a| a.starts_with("go "))
            .unwrap();
        act(g, &a);
    }
}

#[test]
fn the_house_rule_runs_its_own_script_after_the_games() {
    let def = permit();
    let scripts: Vec<String> = def.scripts.iter().map(|s| s.path.clone()).collect();
    assert_eq!(scripts.len(), 2, "{scripts:?}");
    assert!(scripts[1].ends_with("permit.luau"), "{scripts:?}");
}

/// Leaves the patrol car where it is (the patrol that comes before the turn ends).
fn stay(g: &mut Game) {
    let car = strings(
        g,
        "return { game.space_info(game.where_is(game.pieces('patrol-car')[1])).id }",
    );
    act(g, &format!("patrol {}", car[0]));
}

fn tipped(g: &Game) -> bool {
    g.log().iter().any(|e| e.text.contains(" tip"))
}

#[test]
fn a_careful_delivery_earns_a_tip() {
    // A delivery on a turn that ends within the limit: the fare, and a $1 tip as the turn
    // ends (not at the drop-off, while the turn may still go over the limit).
    let mut g = started();
    ev(
        &mut g,
        "game.set_counter('money', 1, 0) aboard(1, {'dot-pennywhistle'}) put(1, 'hb-h3-2')",
    );
    act(&mut g, "go hb-h3-1");
    act(&mut g, "drop dot-pennywhistle");
    assert_eq!(money(&mut g), 2, "no tip yet: the turn goes on");
    assert!(!tipped(&g));
    act(&mut g, "end");
    stay(&mut g);
    assert_eq!(g.active(), 1);
    assert_eq!(money(&mut g), 2 + 1);
    assert!(g.log().iter().any(|e| e.text.contains("tips $1")));

    // Delivered first, then the turn goes over the limit: no tip.
    let mut g = started();
    ev(
        &mut g,
        "game.set_counter('money', 1, 0) aboard(1, {'dot-pennywhistle'}) put(1, 'hb-h3-2')",
    );
    act(&mut g, "go hb-h3-1");
    act(&mut g, "drop dot-pennywhistle");
    drive(&mut g, 4);
    let before_tickets = strings(&mut g, "return game.cards(z('issued-tickets', 1))").len();
    act(&mut g, "end");
    if has(&mut g, "keep") {
        act(&mut g, "keep");
    }
    let tickets = strings(&mut g, "return game.cards(z('issued-tickets', 1))").len();
    if tickets == before_tickets {
        assert_eq!(money(&mut g), 2, "no tip: the turn ended speeding");
    }
    assert!(!tipped(&g), "no tip after speeding");

    // Overdrive: five spaces are within this taxi's limit, so the delivery tips.
    let mut g = started();
    ev(
        &mut g,
        "game.set_counter('money', 1, 0) upgrades(1, {'turbo', 'turbo'}) aboard(1, {'dot-pennywhistle'})",
    );
    drive(&mut g, 4);
    ev(&mut g, "put(1, 'hb-h3-2')");
    act(&mut g, "go hb-h3-1");
    act(&mut g, "drop dot-pennywhistle");
    act(&mut g, "end");
    stay(&mut g);
    assert_eq!(money(&mut g), 2 + 1, "Overdrive's limit of 5");

    // Two deliveries on one careful turn: the second waits for the patrol car; both tip.
    let mut g = started();
    ev(
        &mut g,
        "game.set_counter('money', 1, 0) aboard(1, {'dot-pennywhistle', 'adaeze-obi'}) put(1, 'hb-h3-2')",
    );
    act(&mut g, "go hb-h3-1");
    act(&mut g, "drop dot-pennywhistle");
    act(&mut g, "go hb-h3-2");
    act(&mut g, "go hb-h3-1");
    ev(&mut g, "aboard(1, {'adaeze-obi', 'silas-grange'})");
    act(&mut g, "drop silas-grange");
    stay(&mut g);
    assert_eq!(money(&mut g), 2 + 3 + 2);
    assert!(
        g.log()
            .iter()
            .any(|e| e.text.contains("2 passengers tip $2"))
    );
    assert_eq!(g.active(), 1);
}

#[test]
fn a_rider_you_cannot_carry_can_be_waved_on_once_a_turn() {
    let mut g = started();
    ev(
        &mut g,
        "upgrades(1, {'turbo'}) wait('stack-1-a', 'mira-castellanos') put(1, 'hb-h1-2')",
    );
    act(&mut g, "go hb-h1-1");
    assert!(has(&mut g, "wave"), "Mira needs a stereo");
    assert!(!has(&mut g, "pickup mira-castellanos"));
    assert_eq!(
        g.describe("wave"),
        "Wave Mira Castellanos on: you lack an upgrade they need (free, once a turn)"
    );
    assert_eq!(
        g.describe_public("wave"),
        "Waves Mira Castellanos on (Learner's Permit)"
    );
    let stack = strings(&mut g, "return game.cards(z('stack-1'))");
    let next = stack.last().unwrap().clone();
    act(&mut g, "wave");
    assert_eq!(
        strings(&mut g, "return game.cards(z('stack-1-a'))"),
        std::slice::from_ref(&next)
    );
    let now = strings(&mut g, "return game.cards(z('stack-1'))");
    assert_eq!(now[0], "mira-castellanos", "to the bottom of the stack");
    assert_eq!(now.len(), stack.len());
    assert_eq!(g.active(), 0, "free: the turn goes on");
    ev(&mut g, "wait('stack-1-a', 'mira-castellanos')");
    assert!(!has(&mut g, "wave"), "once a turn");
    // A rider the taxi can carry is not waved on.
    let mut g = started();
    ev(
        &mut g,
        "upgrades(1, {'stereo'}) wait('stack-1-a', 'mira-castellanos') put(1, 'hb-h1-2')",
    );
    act(&mut g, "go hb-h1-1");
    assert!(!has(&mut g, "wave"));
    // Taxi Derby without the house rule has no such action.
    let base = Arc::new(farebox_suite::load("taxi-derby"));
    let mut g = Game::new(
        base,
        Setup::new(2, 7).option("first-player", Value::from("first-seat")),
    )
    .unwrap();
    for _ in 0..2 {
        let a = g
            .legal_actions()
            .unwrap()
            .into_iter()
            .find(|a| a.starts_with("start "))
            .unwrap();
        g.apply(&a).unwrap();
    }
    ev(
        &mut g,
        "upgrades(1, {'turbo'}) wait('stack-1-a', 'mira-castellanos') put(1, 'hb-h1-2')",
    );
    act(&mut g, "go hb-h1-1");
    assert!(!has(&mut g, "wave"));
}

#[test]
fn a_precinct_card_is_only_a_warning() {
    let mut g = started();
    ev(
        &mut g,
        "move('license-check', z('box')) game.take_card(z('box'), 'license-check', z('ticket-deck'), 'top')",
    );
    drive(&mut g, 5);
    ev(
        &mut g,
        "game.move_piece(game.pieces('patrol-car')[1], game.where_is(taxi(1)))",
    );
    let here = strings(
        &mut g,
        "return { game.space_info(game.where_is(taxi(1))).id }",
    );
    let cash = money(&mut g);
    act(&mut g, "end");
    let now = strings(
        &mut g,
        "return { game.space_info(game.where_is(taxi(1))).id }",
    );
    assert_eq!(now, here, "not sent to the precinct");
    assert_eq!(money(&mut g), cash, "a $0 warning");
    assert_eq!(
        strings(&mut g, "return game.cards(z('issued-tickets', 1))"),
        ["license-check"]
    );
}

#[test]
fn the_bots_still_play_it() {
    let def = permit();
    // The Fare Planner in one seat (taking turns at each), random agents in the others.
    let seats = |i: u64| 2 + (i % 3) as usize;
    let bot_seat = move |i: u64| (i as usize / 3) % seats(i);
    let planner = AgentSpec::parse("fare-planner", &def).unwrap();
    let games = Batch::new(&def, Setup::new(2, 500), &["random".into()], 5000)
        .unwrap()
        .games(60)
        .threads(std::thread::available_parallelism().map_or(2, |n| n.get()))
        .vary(move |i, setup, agents| {
            setup.seats = seats(i) as u8;
            *agents = vec![AgentSpec::Random; seats(i)];
            agents[bot_seat(i)] = planner.clone();
        });
    let mut bot_wins = 0;
    for (i, o) in games.outcomes().iter().enumerate() {
        assert!(o.error.is_none(), "game {i}: {:?}", o.error);
        let r = o.result.as_ref().expect("finished");
        if r.places[bot_seat(i as u64)] == 1 {
            bot_wins += 1;
        }
    }
    assert!(bot_wins >= 55, "the Fare Planner won {bot_wins} of 60");
}

/// The Cleanest Record bonus pays more in Learner's Permit than in Taxi Derby at every rank
/// (mod.toml: "a clean record pays better"), so careful driving is still worth learning.
#[test]
fn a_clean_record_pays_more_at_every_rank() {
    let row = |def: &GameDef| -> Vec<i64> {
        let t = def.table("end-bonus").expect("no end-bonus table");
        let row = def.tables[t]
            .rows
            .iter()
            .find(|r| r.get("category").and_then(Value::as_str) == Some("fewest-tickets"))
            .expect("no Cleanest Record row")
            .clone();
        ["first", "second", "third"]
            .iter()
            .map(|k| row.get(*k).and_then(Value::as_int).unwrap_or(0))
            .collect()
    };
    let (house, game) = (row(&permit()), row(&farebox_suite::load("taxi-derby")));
    for (rank, (h, g)) in house.iter().zip(&game).enumerate() {
        assert!(
            h > g,
            "rank {}: Learner's Permit pays {h}, Taxi Derby {g}",
            rank + 1
        );
    }
}
