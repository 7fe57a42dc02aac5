//! Seeded games never depend on the machine: only the step budget and the memory limit may end
//! a script, and the clock is a safety net no bundled script comes near.
//!
//! Every bundled game is played with its bots twice, seed for seed: once under the default
//! limits, once with the safety net fifty times shorter (as if the clock ran fifty times fast)
//! while other games run on every core. The recordings must be byte for byte the same. The
//! profile of the first run also shows how far each hook and bot is from the step budget.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::{Game, Setup};
use farebox::replay::Recorder;
use farebox::script::{Limits, Profile, SAFETY_TIME};

/// Every bundled mod with rules, found in `mods/`, its first bot and the seat counts played:
/// a game at its fewest seats and at three more (or its most, if fewer), a house rule at one
/// more than its fewest.
fn games() -> Vec<(String, Arc<GameDef>, String, Vec<u8>)> {
    let found = farebox_suite::games().into_iter().map(|id| (id, false));
    let house = farebox_suite::house_rules()
        .into_iter()
        .map(|id| (id, true));
    found
        .chain(house)
        .map(|(id, is_house_rule)| {
            let def = Arc::new(support_load(&id));
            let bot = match def.bots.first() {
                Some(b) => b.id.clone(),
                None => panic!("{id} has no bot of its own to play it in every seat"),
            };
            let (fewest, most) = (def.players.0 as u8, def.players.1 as u8);
            let counts = if is_house_rule {
                vec![(fewest + 1).min(most)]
            } else {
                vec![fewest, (fewest + 3).min(most)]
            };
            (id, def, bot, counts)
        })
        .collect()
}

/// Plays one seeded game with `bot` in every seat under `limits`; the replay as JSON, and the
/// profile of its calls.
fn record(
    def: &Arc<GameDef>,
    bot: &str,
    seats: u8,
    seed: u64,
    limits: Limits,
) -> (String, Profile) {
    let mut game = Game::with_limits(def.clone(), Setup::new(seats, seed), limits)
        .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", def.id));
    game.host().set_profiling(true);
    let mut agents: Vec<Agent> = (0..seats)
        .map(|s| Agent::from_spec(bot, def, seed, s).unwrap())
        .collect();
    let mut rec = Recorder::new(&game);
    let mut n = 0;
    while !game.is_over() && n < 3000 {
        let actions = game
            .legal_actions()
            .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", def.id));
        let seat = game.active();
        let i = agents[seat as usize]
            .choose(&mut game, &actions)
            .unwrap_or_else(|e| panic!("{} seed {seed}, action {n}: {e}", def.id));
        game.apply_legal(&actions[i])
            .unwrap_or_else(|e| panic!("{} seed {seed}, action {n}: {e}", def.id));
        rec.step(seat, &actions[i], &game);
        n += 1;
    }
    let replay = rec.finish(&game);
    (
        serde_json::to_string(&replay).unwrap(),
        game.host().take_profile(),
    )
}

/// A game played: (mod, seats, seed), and its recording and profile.
type Played = ((String, u8, u64), (String, Profile));

/// Every game of `games()` for `seeds`, under `limits`.
fn record_all(seeds: &[u64], limits: Limits) -> Vec<Played> {
    let mut out = vec![];
    for (id, def, bot, counts) in games() {
        for seats in counts {
            for &seed in seeds {
                out.push((
                    (id.to_string(), seats, seed),
                    record(&def, &bot, seats, seed, limits),
                ));
            }
        }
    }
    out
}

fn support_load(id: &str) -> GameDef {
    farebox_suite::load(id)
}

#[test]
fn seeded_games_do_not_depend_on_the_clock_or_the_load() {
    assert!(
        Limits::default().time >= SAFETY_TIME,
        "the clock is only a safety net"
    );
    let seeds = [11, 12];
    let calm = record_all(&seeds, Limits::default());
    let fast_clock = Limits {
        time: SAFETY_TIME / 50,
        ..Limits::default()
    };
    // The same games again with the clock fifty times fast, while two more threads play the
    // same games on the remaining cores.
    let busy: Vec<_> = std::thread::scope(|s| {
        let load: Vec<_> = (0..2)
            .map(|_| s.spawn(|| record_all(&seeds, Limits::default())))
            .collect();
        let fast = record_all(&seeds, fast_clock);
        for l in load {
            let loaded = l.join().unwrap();
            for (a, b) in calm.iter().zip(&loaded) {
                assert_eq!(a.1.0, b.1.0, "{:?} differs under load", a.0);
            }
        }
        fast
    });
    let mut worst = Profile::new();
    for (a, b) in calm.iter().zip(&busy) {
        assert_eq!(a.0, b.0);
        assert_eq!(a.1.0, b.1.0, "{:?} differs with a fast clock", a.0);
        for (hook, stats) in &a.1.1 {
            worst
                .entry(format!("{} {hook}", a.0.0))
                .or_default()
                .merge(stats);
        }
    }
    // No bundled hook or bot uses half its step budget in one call.
    let budget = Limits::default().steps;
    for (name, stats) in &worst {
        println!(
            "{name:<45} worst {:>8} steps {:>8.2} ms",
            stats.max_steps,
            stats.max_nanos as f64 / 1e6
        );
        assert!(
            stats.max_steps < budget / 2,
            "{name} used {} of {budget} steps in one call",
            stats.max_steps
        );
    }
    assert!(
        worst
            .keys()
            .any(|k| k.starts_with("dicey-curves bot racer"))
    );
}
