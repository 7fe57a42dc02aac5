//! Seeded Dicey Curves outcomes: a transcript of one game and statistics over 1,000 games, as
//! insta snapshots (the bot's margin over the random agent is in tests/dicey_curves_bot.rs).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox_suite::outcomes;

fn def(id: &str) -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load(id))
}

#[test]
fn transcript_of_one_seeded_game() {
    // Two seats, two cars each: the bot against the random agent. The setup's public log
    // first (the opening track), then the lining up and the race.
    let (out, over) =
        outcomes::transcript(&def("dicey-curves"), &["racer", "random"], 2026, 3000, true);
    assert!(over);
    insta::assert_snapshot!(out);
}

#[test]
fn statistics_over_1000_seeded_games() {
    // Three seats (two cars each), the bot in each: how long races are and how even the seats.
    insta::assert_snapshot!(outcomes::statistics(
        &def("dicey-curves"),
        3,
        &["racer"],
        "score"
    ));
}
