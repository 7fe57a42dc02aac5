//! Dicey Curves through the command line: a game recorded in two separate processes is byte
//! for byte the same and `farebox replay` verifies it; `farebox test` finds the outcomes
//! accepted in both mods' snapshots/outcomes.json; `farebox play` lets a person line up and
//! race against the bot. Each recording runs in a child process (this test binary started
//! again, running only `child_records_one_game`), so no memory, hash seed or allocation order
//! is shared between the two runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::game_cli::{assert_listed_playable, assert_outcomes_hold, record_in_child};
use crate::run::{farebox, farebox_with_input, s, scratch_in};

/// The full name of `child_records_one_game`, for the child to run it alone.
fn child() -> String {
    farebox_suite::test_name(module_path!(), "child_records_one_game")
}

const OUT_VAR: &str = "FAREBOX_DICEY_CURVES_OUT";

/// In a child process: records one seeded game (three seats, the bot and the random agent,
/// the long race on a small table with the track cleared behind the pack) to the file named
/// by the environment. Does nothing in a normal run.
#[test]
fn child_records_one_game() {
    let Ok(out) = std::env::var(OUT_VAR) else {
        return;
    };
    let r = farebox(&[
        "record",
        "dicey-curves",
        "--seed",
        "1977",
        "--players",
        "3",
        "--bots",
        "racer,random,racer",
        "--option",
        "finish-depth=long",
        "--option",
        "table-size=small",
        "--option",
        "remove-track-behind=true",
        "--out",
        &out,
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn two_processes_record_byte_identical_games_that_replay() {
    let dir = scratch_in("dicey-curves", "record");
    let (fa, fb) = (dir.join("a.json"), dir.join("b.json"));
    let a = record_in_child(&child(), OUT_VAR, &fa);
    let b = record_in_child(&child(), OUT_VAR, &fb);
    assert!(a.len() > 1000, "the replay is suspiciously short");
    assert!(String::from_utf8_lossy(&a).contains("\"steps\""));
    assert!(a == b, "two processes recorded different games");
    let r = farebox(&["replay", &s(&fa)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.starts_with("verified: "), "{}", r.out);
}

#[test]
fn the_accepted_outcomes_still_hold() {
    assert_outcomes_hold(&["dicey-curves", "dicey-curves-sunday-drive"]);
}

#[test]
fn list_shows_both_as_playable() {
    assert_listed_playable(&["dicey-curves", "dicey-curves-sunday-drive"]);
}

#[test]
fn a_person_lines_up_and_races_against_the_bot() {
    // Line up in the front row (the menu lists the grid's spaces back to front; the last one
    // is the front right), the second car at the first space left; then open "Move with…",
    // take its first combo, open the first car and take its first end; then the input runs out.
    let r = farebox_with_input(
        &[
            "play",
            "dicey-curves",
            "--seats",
            "human,racer",
            "--seed",
            "5",
        ],
        "9\n1\n1\n1\n1\n1\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("lines up"), "{}", r.out);
    assert!(r.out.contains("Move with"), "{}", r.out);
    assert!(r.out.contains("* Red moves "), "{}", r.out);
    assert!(r.out.contains("rolls "), "{}", r.out);
    assert!(r.out.contains("dice = "), "{}", r.out);
}

#[test]
fn the_house_rule_plays_in_the_terminal() {
    let r = farebox_with_input(
        &[
            "play",
            "dicey-curves-sunday-drive",
            "--seats",
            "racer,racer,racer",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("Game over: "), "{}", r.out);
    assert!(r.out.contains("wins the race"), "{}", r.out);
}
