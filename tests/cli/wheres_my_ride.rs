//! Where's My Ride? through the command line: a game recorded in two separate processes is byte
//! for byte the same and `farebox replay` verifies it; `farebox test` finds the outcomes
//! accepted in both mods' snapshots/outcomes.json; `farebox play` lets a person drive or ride
//! against the bots and shows each of them only what their seat may know. Each recording runs
//! in a child process (this test binary started again, running only `child_records_one_game`),
//! so no memory, hash seed or allocation order is shared between the two runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::game_cli::{assert_listed_playable, assert_outcomes_hold, record_in_child};
use crate::run::{farebox, farebox_with_input, s, scratch_in};

/// The full name of `child_records_one_game`, for the child to run it alone.
fn child() -> String {
    farebox_suite::test_name(module_path!(), "child_records_one_game")
}

const OUT_VAR: &str = "FAREBOX_WHERES_MY_RIDE_OUT";

/// In a child process: records one seeded game (five seats, bots and the random agent, Triple
/// Text, a Driver drawn at random) to the file named by the environment. Does nothing in a
/// normal run.
#[test]
fn child_records_one_game() {
    let Ok(out) = std::env::var(OUT_VAR) else {
        return;
    };
    let r = farebox(&[
        "record",
        "wheres-my-ride",
        "--seed",
        "4711",
        "--players",
        "5",
        "--bots",
        "regular,random,regular,regular,random",
        "--option",
        "triple-text=true",
        "--option",
        "driver=random",
        "--out",
        &out,
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn two_processes_record_byte_identical_games_that_replay() {
    let dir = scratch_in("wheres-my-ride", "record");
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
    assert_outcomes_hold(&["wheres-my-ride", "wheres-my-ride-show-dont-tell"]);
}

#[test]
fn list_shows_both_as_playable() {
    assert_listed_playable(&["wheres-my-ride", "wheres-my-ride-show-dont-tell"]);
}

/// The pickup spot of a seeded four-seat game, as the rules keep it.
fn pickup_spot(seed: u64) -> String {
    use std::sync::Arc;
    let def = Arc::new(farebox_suite::load("wheres-my-ride"));
    let mut g = farebox::game::Game::new(def, farebox::game::Setup::new(4, seed)).unwrap();
    let v = g
        .eval("return data.decks.locations.cards[game.get('_answer')].name")
        .unwrap();
    v.as_str().unwrap().to_string()
}

#[test]
fn a_person_rides_with_bots_and_is_never_told_the_pickup_spot() {
    // Blair texts first: the menu quotes each text with its hints; the answer is only told
    // when a guess finds it.
    let r = farebox_with_input(
        &[
            "play",
            "wheres-my-ride",
            "--seats",
            "regular,human,regular,regular",
            "--seed",
            "77",
        ],
        "1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("Send… (2 choices)"), "{}", r.out);
    assert!(r.out.contains("(hints at "), "{}", r.out);
    assert!(
        r.out.contains("Blair will speak for the Riders"),
        "{}",
        r.out
    );
    assert!(r.out.contains("Do not guess this round"), "{}", r.out);
    let spot = pickup_spot(77);
    let before_the_end = r.out.split("Right!").next().unwrap();
    assert!(!before_the_end.contains("pickup spot"), "{}", r.out);
    assert!(
        !before_the_end.contains("Your rider is waiting"),
        "{}",
        r.out
    );
    assert!(
        !before_the_end.contains(&format!("waiting at {spot}")),
        "{}",
        r.out
    );
}

#[test]
fn a_person_drives_for_bots_and_sees_how_each_emoji_fits() {
    let spot = pickup_spot(78);
    let r = farebox_with_input(
        &[
            "play",
            "wheres-my-ride",
            "--seats",
            "human,regular,regular,regular",
            "--seed",
            "78",
        ],
        "1\n1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(&format!("Your rider is waiting at {spot}")),
        "{}",
        r.out
    );
    assert!(
        r.out.contains(&format!("pickup spot = {spot}: ")),
        "{}",
        r.out
    );
    // The menu groups placements by emoji, and says how each fits.
    assert!(
        r.out
            .contains("Put 🎯 Bullseye (spot on, a game)… (2 choices)"),
        "{}",
        r.out
    );
    // A menu line longer than the terminal's 100 columns is wrapped: read it whole.
    let flat = r.out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("[{spot}: spot on, the text shares ")),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("Alex puts 🎯 Bullseye (spot on, a game) on"),
        "{}",
        r.out
    );
}

#[test]
fn the_house_rule_plays_in_the_terminal() {
    let r = farebox_with_input(
        &[
            "play",
            "wheres-my-ride-show-dont-tell",
            "--seats",
            "regular,regular,regular",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("Game over: "), "{}", r.out);
    assert!(r.out.contains("together"), "{}", r.out);
}
