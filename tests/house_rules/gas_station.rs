//! The bundled house rules: mods that depend on a game and change it. `curbside-gas-station`
//! is the worked example: an option replaced by id, a patch of Curbside's decks and tables, and
//! hooks that wrap Curbside's rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::batch::Batch;
use farebox::game::{Game, Setup};
use farebox::rng::Rng;
use farebox::value::Value;
use farebox_suite::{Lookup, int, load};

fn station() -> Game {
    Game::new(Arc::new(load("curbside-gas-station")), Setup::new(2, 11))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn gas_station_patches_curbsides_content() {
    let base = load("curbside");
    let hr = load("curbside-gas-station");
    // The draw deck loses its canteens; potholes go from 3 to 5; the rest is Curbside's.
    let tiles = hr.deck_def("road-tiles");
    assert!(tiles.cards.iter().all(|c| c.id != "cs-t10"));
    assert_eq!(
        tiles.cards.iter().find(|c| c.id == "cs-t12").unwrap().count,
        5
    );
    assert_eq!(
        tiles.cards.len() + 1,
        base.deck_def("road-tiles").cards.len()
    );
    // Starting canteens stay.
    assert!(
        hr.deck_def("starter")
            .cards
            .iter()
            .any(|c| c.id == "start-canteen")
    );
    // The longest trip pays one star more; shorter trips are unchanged.
    let stars = |d: &farebox::GameDef, size: i64| {
        let t = d.table_def("destinations");
        let row = t.rows.iter().find(|r| int(&r["size"]) == size).unwrap();
        int(&row["stars"])
    };
    assert_eq!(stars(&hr, 6), stars(&base, 6) + 1);
    assert_eq!(stars(&hr, 3), stars(&base, 3));
    // The option replaced by id.
    assert_eq!(hr.option_def("starting-gas").default, Value::Int(8));
    assert_eq!(base.option_def("starting-gas").default, Value::Int(12));
}

#[test]
fn gas_station_refuel_takes_the_whole_turn() {
    let mut g = station();
    assert_eq!(int(&g.eval("return game.counter('gas', 1)").unwrap()), 8);
    let acts = g.legal_actions().unwrap();
    assert!(acts.contains(&"refuel".to_string()), "{acts:?}");
    // Curbside's own actions are all still there.
    assert!(acts.contains(&"draw".to_string()) && acts.contains(&"end".to_string()));
    assert_eq!(
        g.describe("refuel"),
        "Fill up at the gas station (+4 gas; takes the whole turn)"
    );
    assert_eq!(g.describe("draw"), "Draw a tile", "Curbside labels its own");
    g.apply("refuel").unwrap();
    assert_eq!(int(&g.eval("return game.counter('gas', 1)").unwrap()), 12);
    assert_eq!(g.active(), 1, "the turn passed");
    assert_eq!(
        int(&g.eval("return game.counter('actions')").unwrap()),
        3,
        "Curbside's on_turn_start gave the next seat its actions"
    );
    assert!(
        g.log()
            .iter()
            .any(|e| e.text.contains("fills up at the gas station: 12 gas")),
        "logged"
    );
}

#[test]
fn gas_station_refuel_only_first_and_with_the_meter_off() {
    let mut g = station();
    g.apply("draw").unwrap();
    assert!(
        !g.legal_actions().unwrap().contains(&"refuel".to_string()),
        "not after another action"
    );
    g.apply("end").unwrap();
    g.apply("end").unwrap();
    assert_eq!(g.active(), 0);
    assert!(g.legal_actions().unwrap().contains(&"refuel".to_string()));
    g.eval("game.set_prop(game.pieces('passenger')[1], 'rider', 1)")
        .unwrap();
    assert!(
        !g.legal_actions().unwrap().contains(&"refuel".to_string()),
        "not with a passenger aboard"
    );
    // Without the house rule there is no such action.
    let mut plain = Game::new(Arc::new(load("curbside")), Setup::new(2, 11)).unwrap();
    assert!(
        !plain
            .legal_actions()
            .unwrap()
            .contains(&"refuel".to_string())
    );
    assert!(plain.apply("refuel").is_err(), "illegal in plain Curbside");
}

#[test]
fn gas_station_games_play_to_the_end() {
    let def = Arc::new(load("curbside-gas-station"));
    let mut refuels = 0;
    for seed in 1..=30 {
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut rng = Rng::new(seed, 99);
        for _ in 0..5_000 {
            if g.is_over() {
                break;
            }
            let acts = g
                .legal_actions()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let a = &acts[rng.below(acts.len() as u32) as usize];
            refuels += usize::from(a == "refuel");
            g.apply(a)
                .unwrap_or_else(|e| panic!("seed {seed}, {a}: {e}"));
        }
        assert!(g.is_over(), "seed {seed} did not finish");
    }
    assert!(refuels > 0, "random play never refuelled in 30 games");
    // The simulator runs it like any mod.
    let out = Batch::new(
        &def,
        Setup::new(3, 5),
        &vec!["random".to_string(); 3],
        5_000,
    )
    .unwrap()
    .play_one(0, &mut None, None);
    assert!(out.error.is_none() && out.result.is_some(), "{out:?}");
}
