//! Where's My Ride?'s rule oracles (`tests/support/wheres_my_ride_oracles.rs`) and the
//! invariants every game keeps (`tests/support/oracles.rs`), run on every step of seeded games:
//! random players and the App Regular, two, three, four and eight seats, every difficulty,
//! Triple Text at three and four seats, two players with and without their texting, a Driver
//! drawn at random, and games steered to the rare cases (the text deck's last card, a deck
//! holding exactly one round's draws, the emoji bag's last token, the fourth broken star on
//! the first or the second tile of a miss, one place left). The house rule Show, Don't Tell
//! runs the same oracles, with those of the rules it changes replaced, over the same games and
//! games whose Driver holds nothing true of the pickup spot. Every oracle must judge at least
//! one step.
//!
//! `wheres_my_ride_oracles` is the quick run; `wheres_my_ride_oracles_long` (ignored; run it
//! with `--ignored`) plays five times the seeds (the leak invariant, which reads every
//! seat's view at every step, takes most of its time).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox_suite::oracles;
use farebox_suite::wheres_my_ride_oracles::{
    self as wmr, house_rule_oracles, house_rule_plans, plans,
};

#[test]
fn wheres_my_ride_oracles() {
    oracles::check_game("wheres-my-ride", &plans(1), wmr::oracles());
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles wheres_my_ride:: -- --ignored"]
fn wheres_my_ride_oracles_long() {
    oracles::check_game("wheres-my-ride", &plans(5), wmr::oracles());
}

#[test]
fn wheres_my_ride_show_dont_tell_oracles() {
    oracles::check_game(
        "wheres-my-ride-show-dont-tell",
        &house_rule_plans(1),
        house_rule_oracles(),
    );
}

#[test]
#[ignore = "the longer run: cargo test -p farebox-suite --test oracles wheres_my_ride:: -- --ignored"]
fn wheres_my_ride_show_dont_tell_oracles_long() {
    oracles::check_game(
        "wheres-my-ride-show-dont-tell",
        &house_rule_plans(5),
        house_rule_oracles(),
    );
}

/// `mod_id` with `find` replaced by `replace` in its `file`.
fn broken(mod_id: &str, file: &str, find: &str, replace: &str) -> Arc<GameDef> {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut(mod_id).unwrap();
    let text = src.files.get_mut(file).unwrap();
    let changed = text.replacen(find, replace, 1);
    assert_ne!(*text, changed);
    *text = changed;
    let src = src.clone();
    Arc::new(farebox::content::load_mod(&src, &mods).unwrap())
}

/// The oracles are no rubber stamp: on Where's My Ride? with a rule broken, one fails.
#[test]
fn a_broken_rule_fails_an_oracle() {
    // A miss turns one tile, like waiting.
    let def = broken(
        "wheres-my-ride",
        "rules/wheres-my-ride.luau",
        "turn_tiles(C.tiles_revealed_wrong_guess)",
        "turn_tiles(C.tiles_revealed_no_guess)",
    );
    let mut all = oracles::invariants();
    all.extend(wmr::oracles());
    let caught = oracles::first_catch(&def, &plans(1), &all, 3000).expect("no oracle failed");
    assert!(caught.rules.contains(&"WR-R7"), "{caught}");
}

/// A break of the house rule's own script is caught by an oracle of the rule it amends.
#[test]
fn a_broken_house_rule_fails_an_oracle() {
    let mods = [
        // A fresh hand drawn whatever the Driver holds.
        (
            "if holds_something_true(hand, game.get(\"_answer\")) or game.count(hand) == 0",
            "if game.count(hand) == 0",
            "WR-R5",
        ),
        // Done without placing offered to a Driver who holds something true.
        (
            "if not holds_something_true(game.zone(\"driver-emojis\", seat), answer) then",
            "if true then",
            "WR-R4",
        ),
    ];
    for (find, replace, rule) in mods {
        let def = broken(
            "wheres-my-ride-show-dont-tell",
            "rules/show-dont-tell.luau",
            find,
            replace,
        );
        let mut all = oracles::invariants();
        all.extend(house_rule_oracles());
        let caught =
            oracles::first_catch(&def, &house_rule_plans(1), &all, 3000).expect("no oracle failed");
        assert!(caught.rules.contains(&rule), "{replace}: {caught}");
    }
}

/// The game's own oracles are not the house rule's: run on Show, Don't Tell, the game's WR-R4
/// and WR-R5 oracles fail where the house rule changes those rules.
#[test]
fn the_games_oracles_fail_where_the_house_rule_changes_the_rules() {
    let def = farebox_suite::rule_kit::shipped("wheres-my-ride-show-dont-tell");
    let mut all = oracles::invariants();
    all.extend(wmr::oracles());
    let caught =
        oracles::first_catch(&def, &house_rule_plans(1), &all, 3000).expect("no oracle failed");
    assert!(
        caught.rules.iter().any(|r| *r == "WR-R4" || *r == "WR-R5"),
        "{caught}"
    );
}
