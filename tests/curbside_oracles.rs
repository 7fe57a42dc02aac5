//! Curbside's rule oracles (`tests/support/curbside_oracles.rs`) and the invariants every game
//! keeps (`tests/support/oracles.rs`), run on every step of seeded games: random players and
//! the Dispatcher bot, two to four seats, and games steered to the rare cases (a tank run dry
//! with the last gas, the deck's last tile, the last passenger card, a stalled game tied on
//! stars and gas with a tie at second place). Every oracle must judge at least one step.
//!
//! `curbside_oracles` is the quick run; `curbside_oracles_long` (ignored; run it with
//! `--ignored`) plays ten times the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use farebox::game::Game;
use farebox_suite::curbside_oracles;
use farebox_suite::oracles::{self, Plan};
use farebox_suite::rule_kit;

/// The plans of a run with `n` seeds of each kind.
fn plans(n: u64) -> Vec<Plan> {
    let mut out = Vec::new();
    for seed in 0..n {
        out.push(Plan::new(seed, &["random", "random"]));
        out.push(Plan::new(100 + seed, &["dispatcher", "random", "dispatcher"]));
        out.push(Plan::new(200 + seed, &["random", "dispatcher", "random", "random"]));
        out.push(Plan::new(300 + seed, &["dispatcher", "dispatcher"]).option("starting-gas", 4));
        out.push(Plan::new(400 + seed, &["dispatcher", "dispatcher"]).option("passenger-cards", 1));
        out.push(Plan::new(500 + seed, &["random", "random", "random"]).prepare(last_tiles));
    }
    out.push(Plan::new(600, &["random", "random", "random"]).prepare(stalled_tie));
    out
}

/// The deck down to its last two tiles (the rest dealt into the hands, cones left in the
/// deck), so the last tile is drawn and the deck runs empty.
fn last_tiles(g: &mut Game) {
    g.eval(
        r#"
        local deck = game.zone("deck")
        local s = 1
        for _ = 1, 200 do
          if game.count(deck) <= 2 then break end
          local hand = game.zone("hand", s)
          local card = game.move_card(deck, hand)
          if card == "cs-t9" then game.take_card(hand, card, deck, "bottom") end
          s = s % game.seats() + 1
        end
        "#,
    )
    .unwrap();
}

/// No taxi can ever move (a blocker nobody lifts under each), nobody can gain gas (no
/// canteens), and seat 1 carries a fare: the game stalls with every seat tied on stars and
/// gas, seat 1 nearest a drop-off and the others tied for second place.
fn stalled_tie(g: &mut Game) {
    g.eval(
        r#"
        local used = game.zone("used")
        for s = 1, game.seats() do
          game.set_blocker(game.where_is(game.pieces("taxi", s)[1]), "cs-t12")
          local hand = game.zone("hand", s)
          while game.take_card(hand, "start-canteen", used) do end
          while game.take_card(hand, "cs-t10", used) do end
        end
        while game.take_card(game.zone("deck"), "cs-t10", used) do end
        local p = game.pieces("passenger")[1]
        game.move_piece(p, nil)
        game.set_prop(p, "rider", 1)
        "#,
    )
    .unwrap();
}

fn run(n: u64) {
    let def = rule_kit::shipped("curbside");
    let mut all = oracles::invariants();
    all.extend(curbside_oracles::oracles());
    let t = Instant::now();
    let report = oracles::run(&def, &plans(n), &all, 3000, false);
    println!(
        "{} games, {} steps in {:.2} s\n{}",
        report.games,
        report.steps,
        t.elapsed().as_secs_f64(),
        report.table(&all)
    );
    let problems = report.problems(&all);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn curbside_oracles() {
    run(2);
}

#[test]
#[ignore = "the longer run: cargo test --test curbside_oracles -- --ignored"]
fn curbside_oracles_long() {
    run(20);
}

/// The oracles are no rubber stamp: on Curbside with a rule broken, one fails.
#[test]
fn a_broken_rule_fails_an_oracle() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("curbside").unwrap();
    let rules = src.files.get_mut("rules/curbside.luau").unwrap();
    let broken = rules.replacen(
        "game.add_counter(\"gas\", seat, -k)",
        "game.add_counter(\"gas\", seat, -1)",
        1,
    );
    assert_ne!(*rules, broken);
    *rules = broken;
    let src = src.clone();
    let def = std::sync::Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let mut all = oracles::invariants();
    all.extend(curbside_oracles::oracles());
    let caught = oracles::first_catch(&def, &plans(1), &all, 3000).expect("no oracle failed");
    assert_eq!(caught.rule, "CS-A6", "{}", caught.message);
}
