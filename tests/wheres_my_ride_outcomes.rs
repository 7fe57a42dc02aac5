//! Seeded Where's My Ride? outcomes: a transcript of one game, statistics over 1,000 games,
//! and how much better the App Regular bots do than Riders who choose at random (WR-B1), in the
//! game and in its house rule Show, Don't Tell. All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::agent::{self, Match};
use farebox::game::Setup;
use farebox::value::Value;
use farebox_suite::outcomes;

fn def(id: &str) -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load(id))
}

#[test]
fn transcript_of_one_seeded_game() {
    // Four bots; the setup's public log first (who drives, who rides). A round of waiting, a
    // wrong guess, and the ride found at three stars. The table hears the texts as they are
    // turned up and the emojis as they are placed, never the answer until it is guessed.
    let (out, over) =
        outcomes::transcript(&def("wheres-my-ride"), &["regular"; 4], 2041, 400, true);
    assert!(over);
    insta::assert_snapshot!(out);
}

#[test]
fn statistics_over_1000_seeded_games() {
    // Four seats, the bot in each. Everyone's figures are the same: the table wins or loses
    // together, scored with the stars left.
    insta::assert_snapshot!(outcomes::statistics(
        &def("wheres-my-ride"),
        4,
        &["regular"],
        "stars"
    ));
}

/// Games the Riders won of 500 seeded games (seeds from 5,000 on), with the App Regular
/// driving and `riders` in every other seat.
fn riders_win(id: &str, seats: u8, riders: &str, options: &[(&str, Value)]) -> u32 {
    let def = def(id);
    let games: Vec<Match> = (0..500u64)
        .map(|i| {
            let mut setup = Setup::new(seats, 5000 + i);
            for (k, v) in options {
                setup = setup.option(k, v.clone());
            }
            let mut agents = vec![riders.to_string(); seats as usize];
            agents[0] = "regular".into();
            Match { setup, agents }
        })
        .collect();
    let mut won = 0;
    for o in agent::play_many(&def, &games, 5000, outcomes::threads(), &|| {}) {
        assert!(o.error.is_none(), "seed {}: {:?}", o.seed, o.error);
        let r = o
            .result
            .unwrap_or_else(|| panic!("seed {} did not end", o.seed));
        assert!(r.together.is_some(), "{r:?}");
        won += u32::from(r.together == Some(true));
    }
    won
}

/// (bot Riders' wins, random Riders' wins) of 500, the App Regular driving both times.
fn margin(id: &str, seats: u8, options: &[(&str, Value)]) -> (u32, u32) {
    let bots = riders_win(id, seats, "regular", options);
    let random = riders_win(id, seats, "random", options);
    eprintln!(
        "{id}, {seats} seats {options:?}: bot Riders won {bots} of 500, random Riders {random}"
    );
    (bots, random)
}

#[test]
fn the_bots_find_their_ride_far_more_often_than_random_riders() {
    // WR-B1: the Rider bots read the Driver bot's emojis; random Riders send any text and
    // guess any place (or wait) at random.
    for (seats, options) in [
        (4u8, vec![]),
        (2, vec![]),
        (6, vec![("triple-text", Value::Bool(true))]),
        (5, vec![("difficulty", Value::Str("harder".into()))]),
    ] {
        let (bots, random) = margin("wheres-my-ride", seats, &options);
        assert!(
            bots >= 400,
            "{seats} seats {options:?}: the bots won only {bots} of 500"
        );
        assert!(
            bots >= random + 150,
            "{seats} seats {options:?}: bots {bots}, random Riders {random}, of 500"
        );
    }
}

#[test]
fn the_bots_play_show_dont_tell_as_well() {
    let (bots, random) = margin("wheres-my-ride-show-dont-tell", 4, &[]);
    assert!(bots >= 425, "the bots won only {bots} of 500");
    assert!(
        bots >= random + 150,
        "bots {bots}, random Riders {random}, of 500"
    );
}
