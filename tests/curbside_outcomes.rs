//! Seeded Curbside outcomes: a transcript of one game, statistics over 1,000 games, and the
//! Dispatcher bot's margin over the random agent. All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write;
use std::sync::Arc;

use farebox::agent::{self, Agent};
use farebox::game::{Game, Setup};

fn def() -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load("curbside"))
}

#[test]
fn transcript_of_one_seeded_game() {
    let def = def();
    let mut game = Game::new(def.clone(), Setup::new(2, 2026)).unwrap();
    let mut agents = [
        Agent::from_spec("dispatcher", &def, 2026, 0).unwrap(),
        Agent::from_spec("random", &def, 2026, 1).unwrap(),
    ];
    let mut out = String::new();
    let mut n = 0;
    while !game.is_over() && n < 400 {
        let actions = game.legal_actions().unwrap();
        let seat = game.active();
        let i = agents[seat as usize].choose(&mut game, &actions).unwrap();
        let label = game.describe(&actions[i]);
        game.apply_legal(&actions[i]).unwrap();
        writeln!(
            out,
            "{:>3} {:<6} {}",
            n + 1,
            def.seat_name(seat as usize),
            label
        )
        .unwrap();
        n += 1;
    }
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
    for seed in 0..1000 {
        let o = agent::play(
            &def,
            Setup::new(seats as u8, seed),
            &["random".into()],
            5000,
        );
        assert!(o.error.is_none(), "seed {seed}: {:?}", o.error);
        if o.capped {
            capped += 1;
            continue;
        }
        let r = o.result.unwrap();
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
        writeln!(out, "seat {} stars: mean {m:.2}, sd {sd:.2}", s + 1).unwrap();
    }
    insta::assert_snapshot!(out);
}

#[test]
#[ignore = "the Dispatcher does not yet finish most games against the random agent (games hit the action cap); see the issue notes"]
fn the_dispatcher_beats_the_random_agent_clearly() {
    let def = def();
    let games = 500;
    let mut bot_wins = 0;
    for seed in 0..games {
        // Alternate seats so that neither side keeps the first move.
        let bot_seat = (seed % 2) as usize;
        let mut agents = vec!["random".to_string(), "random".to_string()];
        agents[bot_seat] = "dispatcher".into();
        let o = agent::play(&def, Setup::new(2, 10_000 + seed), &agents, 5000);
        assert!(o.error.is_none(), "{:?}", o.error);
        if let Some(r) = o.result
            && r.places[bot_seat] == 1
            && r.places[1 - bot_seat] != 1
        {
            bot_wins += 1;
        }
    }
    let rate = bot_wins as f64 / games as f64;
    eprintln!("dispatcher outright wins: {bot_wins}/{games}");
    assert!(
        rate >= 0.75,
        "the Dispatcher won only {bot_wins} of {games} games outright"
    );
}
