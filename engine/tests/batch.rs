//! `Batch`, the one way seeded games are played: the same outcomes on any number of threads
//! and alone, in seed order, stopped when asked, agents refused once before any game, and
//! games that differ by a `vary` hook.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use farebox::agent::{AgentSpec, Outcome};
use farebox::batch::Batch;
use farebox::content::{self, GameDef, NoDependencies};
use farebox::game::Setup;
use farebox::source::FsSource;

fn curbside() -> Arc<GameDef> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods/curbside");
    Arc::new(
        content::load_mod(&FsSource::new(dir), &NoDependencies).unwrap_or_else(|e| panic!("{e}")),
    )
}

fn batch(def: &Arc<GameDef>, games: u64) -> Batch {
    Batch::new(def, Setup::new(3, 40), &["random".to_string()], 3000)
        .unwrap_or_else(|e| panic!("{e}"))
        .games(games)
}

/// What the tests compare of an outcome.
fn key(o: &Outcome) -> (u64, u32, u32, Option<String>, Option<Vec<i64>>) {
    let scores = o.result.as_ref().map(|r| r.scores.clone());
    (o.seed, o.actions, o.turns, o.error.clone(), scores)
}

#[test]
fn the_outcomes_are_the_same_on_any_number_of_threads_and_alone() {
    let def = curbside();
    let one: Vec<_> = batch(&def, 7).outcomes().iter().map(key).collect();
    let three: Vec<_> = batch(&def, 7)
        .threads(3)
        .outcomes()
        .iter()
        .map(key)
        .collect();
    assert_eq!(one, three);
    assert_eq!(
        one.iter().map(|k| k.0).collect::<Vec<_>>(),
        (40..47).collect::<Vec<_>>()
    );
    let b = batch(&def, 7);
    let mut vm = None;
    let alone: Vec<_> = (0..7).map(|i| key(&b.play_one(i, &mut vm, None))).collect();
    assert_eq!(one, alone);
    assert!(
        one.iter().all(|k| k.3.is_none() && k.4.is_some()),
        "{one:?}"
    );
}

#[test]
fn a_stopped_batch_hands_over_the_games_played_before_it_stopped() {
    let def = curbside();
    let (stop, played) = (AtomicBool::new(false), AtomicU64::new(0));
    let done = || {
        if played.fetch_add(1, Ordering::Relaxed) + 1 == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut seeds = Vec::new();
    batch(&def, 20).play(&stop, &done, &mut |o| seeds.push(o.seed));
    assert_eq!(seeds, vec![40, 41, 42]);
}

#[test]
fn an_agent_the_mod_does_not_have_is_refused_before_any_game() {
    let def = curbside();
    let e = Batch::new(
        &def,
        Setup::new(3, 1),
        &["random".into(), "dispatchr".into()],
        100,
    )
    .err()
    .unwrap_or_default();
    assert!(
        e.contains("no agent `dispatchr`") && e.contains("dispatcher"),
        "{e}"
    );
    assert!(Batch::new(&def, Setup::new(3, 1), &["search:0".into()], 100).is_err());
    assert_eq!(
        AgentSpec::parse("search:7:random", &def),
        Ok(AgentSpec::Search {
            playouts: 7,
            policy: farebox::search::Policy::Random,
            paired: false,
        })
    );
}

#[test]
fn vary_changes_each_game_as_asked_and_nothing_else() {
    let def = curbside();
    // Game i with i + 2 seats: the same game as a batch of that many seats plays at that seed.
    let varied = batch(&def, 3).vary(|i, setup, _| setup.seats = 2 + i as u8);
    let out = varied.outcomes();
    for (i, o) in out.iter().enumerate() {
        let alone = Batch::new(
            &def,
            Setup::new(2 + i as u8, 40 + i as u64),
            &["random".into()],
            3000,
        )
        .unwrap_or_else(|e| panic!("{e}"))
        .play_one(0, &mut None, None);
        assert_eq!(key(o), key(&alone));
        let seats = o.result.as_ref().map_or(0, |r| r.scores.len());
        assert_eq!(seats, 2 + i, "game {i}");
    }
}
