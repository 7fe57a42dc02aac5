//! Seeded Dicey Curves outcomes: a transcript of one game and statistics over 1,000 games, as
//! insta snapshots (the bot's margin over the random agent is in tests/games/dicey_curves_bot.rs).
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

/// Wins by the winner's place in the turn order (0 = the starter) over the Pit Bosses' races
/// of seeds 1..=`races`, as `farebox sim dicey-curves --players N --bots racer` plays them.
fn wins_by_turn_order(seats: u8, races: u64) -> Vec<f64> {
    use farebox::batch::Batch;
    use farebox::game::{Game, Setup};
    let def = def("dicey-curves");
    let games = Batch::new(&def, Setup::new(seats, 1), &["racer".to_string()], 5000)
        .unwrap()
        .games(races)
        .threads(outcomes::threads());
    let n = usize::from(seats);
    let mut wins = vec![0u32; n];
    for o in games.outcomes() {
        assert!(o.error.is_none(), "seed {}: {:?}", o.seed, o.error);
        let r = o.result.filter(|_| !o.capped).expect("every race ends");
        // Who started: the setup is the same for the same seed.
        let mut g = Game::new(def.clone(), Setup::new(seats, o.seed)).unwrap();
        let first = g.eval("return game.get('_first_seat')").unwrap();
        let first = match first {
            farebox::value::Value::Int(v) => v as usize - 1,
            other => panic!("_first_seat: {other:?}"),
        };
        for s in r.winners() {
            wins[(s + n - first) % n] += 1;
        }
    }
    wins.iter().map(|&w| f64::from(w) / races as f64).collect()
}

/// DESIGN.md (DC-S6): between two Pit Bosses the seat that starts wins at most 55% of the
/// races. 900 two-seat races (seeds 1-900). With the starter on 1 chip and the second seat on
/// 3 it won 52.3% of them (and 49.1% of seeds 901-1,800); with the general list (2 and 4
/// chips) 55.7%, and with no extra chips 67.2%.
#[test]
fn two_seats_the_starter_wins_at_most_55_percent() {
    let share = wins_by_turn_order(2, 900);
    assert!(
        (0.45..=0.55).contains(&share[0]),
        "wins by place in the turn order: {share:?}"
    );
}

/// DESIGN.md (DC-S6): with four seats every place in the turn order wins within 6 points of a
/// quarter of the races. 300 four-seat races of Pit Bosses (seeds 1-300). Measured 23.3 / 24.0
/// / 23.7 / 29.0% (1, 2, 3 and 4 chips by turn order). With 2, 3, 4 and 4 chips the places won
/// 30.7 / 29.3 / 23.0 / 17.0%; with the rulebook's lining-up order and 2, 2, 3 and 4 chips
/// 32.3 / 22.7 / 30.7 / 14.3%.
#[test]
fn four_seats_win_evenly_by_turn_order() {
    let share = wins_by_turn_order(4, 300);
    let (lo, hi) = share
        .iter()
        .fold((1.0f64, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(
        lo >= 0.19 && hi <= 0.31,
        "wins by place in the turn order: {share:?}"
    );
}
