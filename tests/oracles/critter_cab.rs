//! Critter Cab's rule oracles (`tests/support/critter_cab_oracles.rs`) and the invariants every
//! game keeps (`tests/support/oracles.rs`), run on every step of seeded games: random players
//! and the Cabbie bot, two to four seats, both game limits, chosen taxis, and games steered to
//! the rare cases (every kept chance card in hand with a chance deck about to be rebuilt, the
//! last passenger cards, a Family draw that fills six seats exactly or takes the last card, a
//! Wrong Cab! to play, the round limit and the table clock reached exactly, ties for first,
//! second, third and every place). Every oracle must judge at least one step.
//!
//! `critter_cab_oracles` is the quick run; `critter_cab_oracles_long` (ignored; run it with
//! `--ignored`) plays ten times the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox_suite::critter_cab_oracles;
use farebox_suite::critter_cab_oracles::plans;
use farebox_suite::oracles;

fn run(n: u64) {
    oracles::check_game("critter-cab", &plans(n), critter_cab_oracles::oracles());
}

#[test]
fn critter_cab_oracles() {
    run(2);
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles critter_cab:: -- --ignored"]
fn critter_cab_oracles_long() {
    run(20);
}

/// The oracles are no rubber stamp: on Critter Cab with a rule broken, one fails.
#[test]
fn a_broken_rule_fails_an_oracle() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("critter-cab").unwrap();
    let rules = src.files.get_mut("rules/critter-cab.luau").unwrap();
    let broken = rules.replacen("local gain = p.fare\n", "local gain = p.fare + 1\n", 1);
    assert_ne!(*rules, broken);
    *rules = broken;
    let src = src.clone();
    let def = std::sync::Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let mut all = oracles::invariants();
    all.extend(critter_cab_oracles::oracles());
    let caught = oracles::first_catch(&def, &plans(1), &all, 3000).expect("no oracle failed");
    assert!(caught.rules.contains(&"CC-T7"), "{caught}");
}

/// The house rule No Sitting Out: Critter Cab's oracles with the changed end of the game in
/// place of the ones it replaces (`critter_cab_house_oracles.rs`), every one judging something.
#[test]
fn critter_cab_no_sitting_out_oracles() {
    oracles::check_game(
        "critter-cab-no-sitting-out",
        &critter_cab_oracles::no_sitting_out_plans(1),
        critter_cab_oracles::no_sitting_out_oracles(),
    );
}

/// A break of the house rule's own script is caught, naming the Critter Cab rule it amends:
/// the game ended mid-round, or never at the round's end.
#[test]
fn a_broken_no_sitting_out_fails_an_oracle() {
    for replace in ["and seat == 2 then", "and seat == 99 then"] {
        let caught = oracles::catch_break(
            "critter-cab-no-sitting-out",
            ("critter-cab-no-sitting-out", "rules/no-sitting-out.luau"),
            "and seat == 1 then",
            replace,
            &critter_cab_oracles::no_sitting_out_plans(1),
            critter_cab_oracles::no_sitting_out_oracles(),
        )
        .unwrap_or_else(|| panic!("no oracle caught `{replace}`"));
        assert!(caught.rules.contains(&"CC-E1"), "{caught}");
    }
}
