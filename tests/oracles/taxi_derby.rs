//! Taxi Derby's rule oracles (`tests/support/taxi_derby_oracles.rs`) and the invariants every
//! game keeps (`tests/support/oracles.rs`), run on every step of seeded games: random players
//! and the Fare Planner, two to five seats, each end-stacks option, and games steered to the
//! rare cases (two stacks cleared at the start, the ticket deck's last ticket, every seat
//! tied at the end, three tied for third). Every oracle must judge at least one step.
//!
//! `taxi_derby_oracles` is the quick run; `taxi_derby_oracles_long` (ignored; run it with
//! `--ignored`) plays ten times the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox_suite::oracles;
use farebox_suite::taxi_derby_oracles;
use farebox_suite::taxi_derby_oracles::plans;

fn run(n: u64) {
    oracles::check_game("taxi-derby", &plans(n), taxi_derby_oracles::oracles());
}

#[test]
fn taxi_derby_oracles() {
    run(1);
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles taxi_derby:: -- --ignored"]
fn taxi_derby_oracles_long() {
    run(10);
}

/// The oracles are no rubber stamp: on Taxi Derby with a rule broken, one fails.
#[test]
fn a_broken_rule_fails_an_oracle() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("taxi-derby").unwrap();
    let rules = src.files.get_mut("rules/taxi-derby.luau").unwrap();
    let broken = rules.replacen(
        "game.add_counter(\"money\", seat, -p.price)",
        "game.add_counter(\"money\", seat, 1 - p.price)",
        1,
    );
    assert_ne!(*rules, broken);
    *rules = broken;
    let src = src.clone();
    let def = std::sync::Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let mut all = oracles::invariants();
    all.extend(taxi_derby_oracles::oracles());
    let caught = oracles::first_catch(&def, &plans(1), &all, 3000).expect("no oracle failed");
    assert!(caught.rules.contains(&"TD-T6"), "{caught}");
}

/// The house rule Learner's Permit: Taxi Derby's oracles (which pay its careful driver's tip)
/// with waving a passenger on and the warnings in place of what it changes
/// (`taxi_derby_house_oracles.rs`), every one judging something.
#[test]
fn taxi_derby_learners_permit_oracles() {
    oracles::check_game(
        "taxi-derby-learners-permit",
        &taxi_derby_oracles::learners_permit_plans(1),
        taxi_derby_oracles::learners_permit_oracles(),
    );
}

/// Breaks of the house rule are caught, naming the Taxi Derby rule each amends: a second wave
/// in a turn, a waved passenger put back on top, and the tip paid only under the limit.
#[test]
fn a_broken_learners_permit_fails_an_oracle() {
    let permit = ("taxi-derby-learners-permit", "rules/permit.luau");
    for (edit, find, replace, rule) in [
        (permit, " or game.get(\"_waved\") then", " then", "TD-P2"),
        (
            permit,
            "game.zone(stack :: string), \"bottom\")",
            "game.zone(stack :: string), \"top\")",
            "TD-P2",
        ),
        (
            ("taxi-derby", "rules/taxi-derby.luau"),
            "drops > 0 and moved <= speed_limit(seat)",
            "drops > 0 and moved < speed_limit(seat)",
            "TD-T5",
        ),
    ] {
        let caught = oracles::catch_break(
            "taxi-derby-learners-permit",
            edit,
            find,
            replace,
            &taxi_derby_oracles::learners_permit_plans(1),
            taxi_derby_oracles::learners_permit_oracles(),
        )
        .unwrap_or_else(|| panic!("no oracle caught `{replace}`"));
        assert!(caught.rules.contains(&rule), "{caught}");
    }
}
