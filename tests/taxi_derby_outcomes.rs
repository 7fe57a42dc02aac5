//! Seeded Taxi Derby outcomes: a transcript of one game, statistics over 1,000 games, and the
//! Fare Planner bot's margin over the random agent. All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write;
use std::sync::Arc;

use farebox::agent::{self, Agent, Match};
use farebox::game::{Game, Setup};

fn def() -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load("taxi-derby"))
}

#[test]
fn transcript_of_one_seeded_game() {
    let def = def();
    let mut game = Game::new(def.clone(), Setup::new(2, 2026)).unwrap();
    let mut agents = [
        Agent::from_spec("fare-planner", &def, 2026, 0).unwrap(),
        Agent::from_spec("fare-planner", &def, 2026, 1).unwrap(),
    ];
    let mut out = String::new();
    let mut n = 0;
    while !game.is_over() && n < 2000 {
        let actions = game.legal_actions().unwrap();
        let seat = game.active();
        let i = agents[seat as usize].choose(&mut game, &actions).unwrap();
        // A transcript is for everyone at the table: public labels and public log lines.
        let label = game.describe_public(&actions[i]);
        let told = game.log().len();
        game.apply_legal(&actions[i]).unwrap();
        writeln!(
            out,
            "{:>3} {:<6} {}",
            n + 1,
            def.seat_name(seat as usize),
            label
        )
        .unwrap();
        for entry in &game.log()[told..] {
            if entry.seen.by(None) {
                writeln!(out, "           * {}", entry.text).unwrap();
            }
        }
        n += 1;
    }
    assert!(game.is_over(), "the game did not end");
    writeln!(out, "result: {:?}", game.result()).unwrap();
    writeln!(out, "final state hash: {}", game.state().hash()).unwrap();
    insta::assert_snapshot!(out);
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
    (m, v.sqrt())
}

#[test]
fn statistics_over_1000_seeded_random_games() {
    let def = def();
    let seats = 3;
    let mut wins = vec![0u32; seats];
    let (mut lengths, mut scores, mut capped) = (Vec::new(), vec![Vec::new(); seats], 0);
    let mut endings = std::collections::BTreeMap::<String, u32>::new();
    let games: Vec<Match> = (0..1000)
        .map(|seed| Match {
            setup: Setup::new(seats as u8, seed),
            agents: vec!["random".into()],
        })
        .collect();
    for o in agent::play_many(&def, &games, 5000, threads(), &|| {}) {
        assert!(o.error.is_none(), "seed {}: {:?}", o.seed, o.error);
        if o.capped {
            capped += 1;
            continue;
        }
        let r = o.result.unwrap();
        *endings.entry(r.reason.clone()).or_default() += 1;
        for s in r.winners() {
            wins[s] += 1;
        }
        lengths.push(o.actions as f64);
        for (list, score) in scores.iter_mut().zip(&r.scores) {
            list.push(*score as f64);
        }
    }
    let (lm, ls) = mean_sd(&lengths);
    let mut out = format!("games: 1000, seats: {seats}, agents: random, capped: {capped}\n");
    writeln!(
        out,
        "win rate per seat: {:?}",
        wins.iter()
            .map(|w| format!("{:.3}", *w as f64 / 1000.0))
            .collect::<Vec<_>>()
    )
    .unwrap();
    writeln!(out, "game length (actions): mean {lm:.1}, sd {ls:.1}").unwrap();
    for (s, sc) in scores.iter().enumerate() {
        let (m, sd) = mean_sd(sc);
        writeln!(out, "seat {} money: mean {m:.2}, sd {sd:.2}", s + 1).unwrap();
    }
    for (reason, count) in &endings {
        writeln!(out, "ended: {count} x {reason}").unwrap();
    }
    insta::assert_snapshot!(out);
}

/// Worker threads for the long simulations (outcomes do not depend on it).
fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

#[test]
fn the_fare_planner_beats_the_random_agent_clearly() {
    // 500 two-seat games, the bot in seat 1 in the even games and seat 2 in the odd ones.
    let def = def();
    let games: Vec<Match> = (0..500u64)
        .map(|i| {
            let mut agents = vec!["random".to_string(), "random".to_string()];
            agents[(i % 2) as usize] = "fare-planner".into();
            Match {
                setup: Setup::new(2, 10_000 + i),
                agents,
            }
        })
        .collect();
    let outcomes = agent::play_many(&def, &games, 5000, threads(), &|| {});
    let (mut bot_wins, mut random_wins, mut capped) = (0, 0, 0);
    let mut margin = 0i64;
    for (i, o) in outcomes.iter().enumerate() {
        assert!(o.error.is_none(), "{:?}", o.error);
        let bot = i % 2;
        match &o.result {
            Some(r) => {
                margin += r.scores[bot] - r.scores[1 - bot];
                if r.places[bot] == 1 && r.places[1 - bot] != 1 {
                    bot_wins += 1;
                } else if r.places[1 - bot] == 1 {
                    random_wins += 1;
                }
            }
            None => capped += 1,
        }
    }
    eprintln!(
        "Fare Planner: {bot_wins} outright wins, random: {random_wins} wins, {capped} capped, of 500; mean money margin {}",
        margin / 500
    );
    // Games stopped at the cap count against the bot.
    assert!(
        bot_wins >= 475,
        "the Fare Planner won only {bot_wins} of 500 games outright ({random_wins} lost, {capped} capped)"
    );
    assert!(random_wins <= 5, "the random agent won {random_wins} games");
    assert!(margin / 500 >= 100, "mean margin ${}", margin / 500);
}
