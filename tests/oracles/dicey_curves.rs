//! Dicey Curves' rule oracles (`tests/support/dicey_curves_oracles.rs`) and the invariants every
//! game keeps (`tests/support/oracles.rs`), run on every step of seeded games: random players
//! and Pit Bosses, two to five seats, one car each and two, a sprint on a small table with the
//! track cleared behind the pack, and games steered to the rare cases (the Finish the deck's
//! last card, ties at first, second and third place, a leftover of five dice). Every oracle
//! must judge at least one step. The same oracles, DC-T14's amended for the pit crew, run on
//! the house rule Sunday Drive.
//!
//! `dicey_curves_oracles` is the quick run; `dicey_curves_oracles_long` (ignored; run it with
//! `--ignored`) plays ten times the seeds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox_suite::dicey_curves_oracles;
use farebox_suite::dicey_curves_oracles::{house_rule_plans, plans};
use farebox_suite::oracles;

fn run(n: u64) {
    oracles::check_game("dicey-curves", &plans(n), dicey_curves_oracles::oracles());
}

#[test]
fn dicey_curves_oracles() {
    run(1);
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles dicey_curves:: -- --ignored"]
fn dicey_curves_oracles_long() {
    run(10);
}

#[test]
fn dicey_curves_sunday_drive_oracles() {
    oracles::check_game(
        "dicey-curves-sunday-drive",
        &house_rule_plans(1),
        dicey_curves_oracles::house_rule_oracles(),
    );
}

/// The oracles are no rubber stamp: on Dicey Curves with a rule broken, one fails.
#[test]
fn a_broken_rule_fails_an_oracle() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("dicey-curves").unwrap();
    let rules = src.files.get_mut("rules/dicey-curves.luau").unwrap();
    let broken = rules.replacen(
        "local n = math.min(chips_for(size), C.chip_cap - chips(seat), game.counter(\"chip-supply\"))",
        "local n = math.min(chips_for(size) + 1, C.chip_cap - chips(seat), game.counter(\"chip-supply\"))",
        1,
    );
    assert_ne!(*rules, broken);
    *rules = broken;
    let src = src.clone();
    let def = std::sync::Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let mut all = oracles::invariants();
    all.extend(dicey_curves_oracles::oracles());
    let caught = oracles::first_catch(&def, &plans(1), &all, 3000).expect("no oracle failed");
    assert!(caught.rules.contains(&"DC-T14"), "{caught}");
}

/// A break of Sunday Drive's own script (the pit crew hands two chips, not one) fails the
/// house rule's amended DC-T14 oracle.
#[test]
fn a_broken_house_rule_fails_an_oracle() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("dicey-curves-sunday-drive").unwrap();
    let rules = src.files.get_mut("rules/sunday.luau").unwrap();
    let broken = rules.replacen(
        "local n = math.min(C.pit_crew_chips, room,",
        "local n = math.min(C.pit_crew_chips + 1, room,",
        1,
    );
    assert_ne!(*rules, broken);
    *rules = broken;
    let src = src.clone();
    let def = std::sync::Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let mut all = oracles::invariants();
    all.extend(dicey_curves_oracles::house_rule_oracles());
    let caught =
        oracles::first_catch(&def, &house_rule_plans(1), &all, 3000).expect("no oracle failed");
    assert!(caught.rules.contains(&"DC-T14"), "{caught}");
}
