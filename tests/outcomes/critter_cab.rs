//! Seeded Critter Cab outcomes: a transcript of one game, statistics over 1,000 games, and the
//! Cabbie bot's margin over the random agent (in Critter Cab and in its house rule No Sitting
//! Out). All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox_suite::outcomes;

fn def(id: &str) -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load(id))
}

#[test]
fn transcript_of_one_seeded_game() {
    // The setup's public log first: the taxis dealt.
    let (out, _) =
        outcomes::transcript(&def("critter-cab"), &["cabbie", "random"], 2026, 400, true);
    insta::assert_snapshot!(out);
}

#[test]
fn statistics_over_1000_seeded_games() {
    // Three seats: the Cabbie in seat 1 against two random drivers, so the figures show both
    // how the game goes and what planning is worth.
    insta::assert_snapshot!(outcomes::statistics(
        &def("critter-cab"),
        3,
        &["cabbie", "random", "random"],
        "coins"
    ));
}

/// (outright wins of the bot, wins of the rival, capped games) over alternating games.
fn margin(id: &str) -> (u32, u32, u32) {
    let m = outcomes::margin(&def(id), "cabbie", "random", 10_000);
    (m.bot_wins, m.rival_wins, m.capped)
}

#[test]
fn the_cabbie_beats_the_random_agent_clearly() {
    let (bot, random, capped) = margin("critter-cab");
    eprintln!("Cabbie: {bot} outright wins, random: {random} wins, {capped} capped, of 500");
    // Games stopped at the cap count against the bot.
    assert!(
        bot >= 475,
        "the Cabbie won only {bot} of 500 games outright ({random} lost, {capped} capped)"
    );
    assert!(random <= 5, "the random agent won {random} games");
}

#[test]
fn the_cabbie_plays_no_sitting_out_as_well() {
    let (bot, random, capped) = margin("critter-cab-no-sitting-out");
    eprintln!(
        "No Sitting Out: Cabbie {bot} outright wins, random {random}, {capped} capped, of 500"
    );
    assert!(bot >= 475, "{bot} wins ({random} lost, {capped} capped)");
}
