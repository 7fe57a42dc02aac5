//! A benchmark of the search bot: plays two-seat games of a bundled mod, the search bot
//! against another agent with the seats alternating, and prints the search bot's win rate and
//! the median and worst time of its decisions (one thread).
//!
//! `cargo run --release -p farebox-engine --example search_bench -- MOD SEARCH OTHER GAMES`
//! e.g. `... -- curbside search:50 random 20`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::agent::Agent;
use farebox::content;
use farebox::game::{Game, Setup};
use farebox::source::{FolderResolver, FsSource};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, search, other, games] = args.as_slice() else {
        eprintln!("usage: search_bench MOD SEARCH OTHER GAMES");
        std::process::exit(2);
    };
    let games: u64 = games.parse().expect("GAMES is a number");
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let src = FsSource::new(format!("{mods}/{id}"));
    let def = Arc::new(content::load_mod(&src, &FolderResolver::new(mods)).unwrap());
    let (mut wins, mut ties, mut unfinished) = (0.0, 0, 0);
    let mut times: Vec<Duration> = Vec::new();
    for seed in 1..=games {
        let me = ((seed - 1) % 2) as u8;
        let mut game = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut agents: Vec<Agent> = (0..2u8)
            .map(|s| {
                let spec = if s == me { search } else { other };
                Agent::from_spec(spec, &def, seed, s).unwrap()
            })
            .collect();
        while !game.is_over() && game.history().len() < 5000 {
            let actions = game.legal_actions().unwrap();
            let seat = game.active();
            let start = Instant::now();
            let i = agents[seat as usize].choose(&mut game, &actions).unwrap();
            if seat == me && actions.len() > 1 {
                times.push(start.elapsed());
            }
            game.apply_legal(&actions[i]).unwrap();
        }
        match game.result() {
            Some(r) => {
                let mine = r.places[me as usize];
                let theirs = r.places[1 - me as usize];
                if r.together.is_some() {
                    wins += if r.together == Some(true) { 1.0 } else { 0.0 };
                } else if mine < theirs {
                    wins += 1.0;
                } else if mine == theirs {
                    wins += 0.5;
                    ties += 1;
                }
            }
            None => unfinished += 1,
        }
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let worst = times.last().copied().unwrap_or_default();
    println!(
        "{id}: {search} vs {other}, {games} games (seats alternating): {search} scored {:.1}% ({wins} points; {ties} ties, {unfinished} unfinished); {} decisions, median {:.1} ms, worst {:.1} ms",
        100.0 * wins / games as f64,
        times.len(),
        ms(median),
        ms(worst),
    );
}
