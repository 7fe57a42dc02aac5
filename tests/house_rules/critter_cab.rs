//! Critter Cab's house rule No Sitting Out changes the rules through a hook as well as the
//! content: when the passenger deck runs out the round is finished, empty taxis still driving,
//! where Critter Cab ends the game at once (CC-E1). Its patched chance deck plays with Critter
//! Cab's rules, and the bots play it (tests/outcomes/critter_cab.rs holds the Cabbie's margin).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::batch::Batch;
use farebox::game::{Game, Setup};
use farebox::value::Value;

/// A two-seat game of `id` where Fox, on Fernway 3 with a Limousine and Squirrel Courier
/// aboard, is about to drop off the last passenger while the deck is empty; Rabbit (Flying
/// taxi, Lilypad Lido) still carries Lifeguard Otters.
fn last_passenger(id: &str) -> Game {
    let def = Arc::new(farebox_suite::load(id));
    let mut g = Game::new(def, Setup::new(2, 7)).unwrap();
    g.eval(
        r#"
        local function z(i, s) return game.zone(i, s) end
        local function empty(a, b) while game.move_card(a, b) do end end
        for s = 1, 2 do empty(z("taxi", s), z("taxi-supply")) end
        game.take_card(z("taxi-supply"), "limousine", z("taxi", 1))
        game.take_card(z("taxi-supply"), "flying-taxi", z("taxi", 2))
        game.take_card(z("passenger-deck"), "squirrel-courier", z("riding", 1))
        game.take_card(z("passenger-deck"), "lifeguard-otters", z("riding", 2))
        empty(z("passenger-deck"), z("passenger-discard"))
        empty(z("chance-deck"), z("passenger-discard"))
        empty(z("movement-hand", 1), z("movement-deck"))
        game.take_card(z("movement-deck"), "move-1", z("movement-hand", 1))
        game.move_piece(game.pieces("cab", 1)[1], game.space("fernway-3"))
        game.move_piece(game.pieces("cab", 2)[1], game.space("lilypad-lido"))
        game.set("_pickup", {}) game.set("_phase", "drive") game.set("_drives_left", 1) game.set("_drove", 0)
        game.set_counter("coins", 2, 9)
    "#,
    )
    .unwrap();
    g
}

/// Rabbit's first drive that does not end on one of Lifeguard Otters' stands.
fn rabbit_drives(g: &mut Game) {
    let a = g
        .legal_actions()
        .unwrap()
        .into_iter()
        .find(|a| a.starts_with("drive") && !a.ends_with("lilypad-lido") && !a.ends_with("station"))
        .unwrap();
    g.apply(&a).unwrap();
}

#[test]
fn critter_cab_ends_at_once_when_the_passengers_run_out() {
    let mut g = last_passenger("critter-cab");
    g.apply("drive move-1 acorn-square").unwrap();
    rabbit_drives(&mut g);
    assert!(g.is_over());
    assert_eq!(g.result().unwrap().reason, "the passenger deck has run out");
}

#[test]
fn no_sitting_out_finishes_the_round_with_empty_taxis_driving() {
    let mut g = last_passenger("critter-cab-no-sitting-out");
    g.apply("drive move-1 acorn-square").unwrap();
    rabbit_drives(&mut g);
    // Fox has no passenger and none can be drawn: Fox drives on empty.
    assert!(!g.is_over());
    assert_eq!(g.active(), 0);
    let acts = g.legal_actions().unwrap();
    assert!(acts.iter().any(|a| a.starts_with("drive")), "{acts:?}");
    assert!(
        g.log()
            .iter()
            .any(|e| e.text.contains("this round is the last")),
        "told"
    );
    // The empty taxi's turn is marked in the log like any other turn.
    assert!(
        g.log()
            .iter()
            .any(|e| &*e.text == "Fox's turn: no passenger left to draw, so the taxi drives empty"),
        "{:?}",
        g.log().iter().map(|e| e.text.clone()).collect::<Vec<_>>()
    );
    let a = acts
        .iter()
        .find(|a| a.starts_with("drive"))
        .unwrap()
        .clone();
    g.apply(&a).unwrap();
    // Rabbit gets the last turn of the round too; then the game ends.
    assert!(!g.is_over());
    assert_eq!(g.active(), 1);
    rabbit_drives(&mut g);
    assert!(g.is_over());
    let r = g.result().unwrap();
    assert_eq!(r.reason, "the passenger deck ran out and the round is over");
    assert_eq!(r.places, [2, 1]);
}

#[test]
fn no_sitting_out_has_no_turns_to_sit_out() {
    // The patch takes the skip-turns counter out; the rules cope, and Ducks Crossing costs a
    // coin.
    let def = Arc::new(farebox_suite::load("critter-cab-no-sitting-out"));
    let mut g = Game::new(def, Setup::new(2, 3)).unwrap();
    let v = g
        .eval(
            r#"
        local function z(i, s) return game.zone(i, s) end
        game.take_card(z("chance-deck"), "ducks-crossing", z("chance-deck"), "top")
        game.set_counter("coins", 1, 4)
        return data.counters["skip-turns"] == nil
    "#,
        )
        .unwrap();
    assert_eq!(v, Value::Bool(true));
    g.apply("start acorn-square").unwrap();
    while g.active() == 0 && !g.is_over() {
        let acts = g.legal_actions().unwrap();
        let a = acts
            .iter()
            .find(|a| a.ends_with("pebble-crossroads"))
            .or_else(|| acts.iter().find(|a| a.starts_with("keep")))
            .unwrap_or(&acts[0])
            .clone();
        let chance = a.ends_with("pebble-crossroads");
        g.apply(&a).unwrap();
        if chance {
            assert!(
                g.log().iter().any(|e| e.text.contains("Ducks Crossing")),
                "drawn"
            );
            break;
        }
    }
}

#[test]
fn no_sitting_out_games_play_to_the_end_with_bots() {
    let def = Arc::new(farebox_suite::load("critter-cab-no-sitting-out"));
    for (seats, bots) in [(2u8, "cabbie,random"), (4, "cabbie,cabbie,random,cabbie")] {
        for seed in 1..=10 {
            let agents: Vec<String> = bots.split(',').map(String::from).collect();
            let out = Batch::new(&def, Setup::new(seats, seed), &agents, 5_000)
                .unwrap()
                .play_one(0, &mut None, None);
            assert!(out.error.is_none() && out.result.is_some(), "{out:?}");
        }
    }
    // Long games, where the passengers run out: the round is finished.
    let ran_out = (1..=10)
        .filter(|seed| {
            let setup = Setup::new(2, *seed).option("turn-limit", Value::Int(40));
            let out = Batch::new(&def, setup, &["cabbie".to_string()], 5_000)
                .unwrap()
                .play_one(0, &mut None, None);
            out.result.unwrap().reason == "the passenger deck ran out and the round is over"
        })
        .count();
    assert!(
        ran_out >= 5,
        "only {ran_out} of 10 long games ran out of passengers"
    );
}

/// With nobody sitting a turn out, No Sitting Out plays one round fewer by default than
/// Critter Cab (its option), to keep the game about as long at the table.
#[test]
fn the_game_is_a_round_shorter_by_default() {
    let rounds = |id: &str| -> i64 {
        let def = farebox_suite::load(id);
        def.option("turn-limit")
            .and_then(|o| o.default.as_int())
            .expect("no turn-limit option")
    };
    assert_eq!(
        rounds("critter-cab-no-sitting-out"),
        rounds("critter-cab") - 1
    );
}

/// Every chance card that moves coins says how many in its text, in Critter Cab and in No
/// Sitting Out (whose Ducks Crossing costs one coin): what the table reads is what is paid.
#[test]
fn a_chance_card_pays_what_its_text_says() {
    for id in ["critter-cab", "critter-cab-no-sitting-out"] {
        let def = farebox_suite::load(id);
        let d = def.deck("chance").expect("no chance deck");
        for card in &def.decks[d].cards {
            let effect = card
                .fields
                .get("effect")
                .and_then(Value::as_str)
                .unwrap_or("");
            if ![
                "gain-coins",
                "lose-coins",
                "collect-from-each",
                "next-fare-bonus",
            ]
            .contains(&effect)
            {
                continue;
            }
            let amount = card
                .fields
                .get("amount")
                .and_then(Value::as_int)
                .unwrap_or(0);
            let text = &card.text;
            let word = if amount == 1 { "coin" } else { "coins" };
            assert!(
                text.contains(&format!("{amount} {word}"))
                    || text.contains(&format!("{amount} extra {word}")),
                "{id}: {} moves {amount} {word} but says: {text}",
                card.id
            );
        }
    }
}
