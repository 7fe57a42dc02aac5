//! Curbside's rule oracles (`tests/support/curbside_oracles.rs`) and the invariants every game
//! keeps (`tests/support/oracles.rs`), run on every step of seeded games: random players and
//! the Dispatcher bot, two to four seats, and games steered to the rare cases (a tank run dry
//! with the last gas, the deck's last tile, the last passenger card, a stalled game tied on
//! stars and gas with a tie at second place). Every oracle must judge at least one step.
//!
//! `curbside_oracles` is the quick run; `curbside_oracles_long` (ignored; run it with
//! `--ignored`) plays ten times the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox_suite::curbside_oracles;
use farebox_suite::curbside_oracles::plans;
use farebox_suite::oracles;
use farebox_suite::rule_kit;

fn run(n: u64) {
    oracles::check_game("curbside", &plans(n), curbside_oracles::oracles());
}

#[test]
fn curbside_oracles() {
    run(2);
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles curbside:: -- --ignored"]
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
    assert!(caught.rules.contains(&"CS-A6"), "{caught}");
}

/// An oracle whose case never comes up fails the run, so no rule passes unseen.
#[test]
fn an_oracle_that_judged_nothing_fails_the_run() {
    let def = rule_kit::shipped("curbside");
    let never = [oracles::Oracle::new("CS-E1", "never judges", |_| {
        oracles::Verdict::Skip
    })];
    let report = oracles::run(&def, &plans(1)[..1], &never, 3000, false);
    let problems = report.problems(&never);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("judged nothing in 1 games: steer games there"),
        "{problems:?}"
    );
}

/// The house rule Gas Station: Curbside's oracles with the fill-up's rules in place of the
/// ones it changes (`curbside_house_oracles.rs`), every one judging something.
#[test]
fn curbside_gas_station_oracles() {
    oracles::check_game(
        "curbside-gas-station",
        &curbside_oracles::gas_station_plans(1),
        curbside_oracles::gas_station_oracles(),
    );
}

/// A break of the house rule's own script is caught, naming the Curbside rule it amends.
#[test]
fn a_broken_gas_station_fails_an_oracle() {
    for (find, replace, rule) in [
        ("C.refuel_gas)", "C.refuel_gas + 1)", "CS-A6"),
        (
            "== C.actions_per_turn and not carrying(seat)",
            "== C.actions_per_turn",
            "CS-A0",
        ),
    ] {
        let caught = oracles::catch_break(
            "curbside-gas-station",
            ("curbside-gas-station", "rules/station.luau"),
            find,
            replace,
            &curbside_oracles::gas_station_plans(1),
            curbside_oracles::gas_station_oracles(),
        )
        .unwrap_or_else(|| panic!("no oracle caught `{replace}`"));
        assert!(caught.rules.contains(&rule), "{caught}");
    }
}
