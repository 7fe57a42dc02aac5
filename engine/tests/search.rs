//! The built-in search bot (`search`, `search:N`): it plays any mod with no code, beats the
//! random agent, makes the same choices for the same seed and budget on any thread, and
//! chooses only by what its seat may see.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::content;
use farebox::game::{Game, Setup};
use farebox::source::{FolderResolver, FsSource};

fn bundled(id: &str) -> Arc<GameDef> {
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let src = FsSource::new(format!("{mods}/{id}"));
    Arc::new(content::load_mod(&src, &FolderResolver::new(mods)).unwrap())
}

const MANIFEST: &str = r#"
id = "twenty-one"
name = "Twenty-One"
version = "1.0.0"
engine = "0.1"
players = { min = 2, max = 2 }
scripts = ["rules/r.luau"]
[content]
pieces = "pieces.toml"
"#;

const PIECES: &str = r#"
[[counters]]
id = "total"
name = "Total"
scope = "global"
"#;

// Seats take turns adding 1, 2 or 3 to a shared total; whoever brings it to 21 wins. The seat
// that leaves the total at 1, 5, 9, 13 or 17 wins whatever the other does, so a player that
// looks ahead beats one that does not.
const RULES: &str = r#"
return {
  actions = function(g, seat)
    local out = {}
    for k = 1, 3 do
      if game.counter("total") + k <= 21 then table.insert(out, "add " .. k) end
    end
    return out
  end,
  apply = function(g, seat, action)
    local t = game.add_counter("total", tonumber(string.split(action, " ")[2]))
    if t == 21 then
      local places = { 2, 2 }
      places[seat] = 1
      game.finish(places, { 0, 0 }, game.seat_name(seat) .. " reached 21")
    else
      game.end_turn()
    end
  end,
}
"#;

fn twenty_one() -> Arc<GameDef> {
    Arc::new(support::mem_mod(
        "twenty-one",
        &[
            ("mod.toml", MANIFEST),
            ("pieces.toml", PIECES),
            ("rules/r.luau", RULES),
        ],
    ))
}

/// Plays a game of `def` with `specs` per seat, at most `cap` actions; the actions taken.
fn play(def: &Arc<GameDef>, seats: u8, seed: u64, specs: &[&str], cap: usize) -> Game {
    let mut game = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
    let mut agents: Vec<Agent> = (0..seats)
        .map(|s| Agent::from_spec(specs[s as usize], def, seed, s).unwrap())
        .collect();
    while !game.is_over() && game.history().len() < cap {
        let actions = game.legal_actions().unwrap();
        let seat = game.active() as usize;
        let i = agents[seat].choose(&mut game, &actions).unwrap();
        game.apply_legal(&actions[i]).unwrap();
    }
    game
}

#[test]
fn search_beats_the_random_agent_from_either_seat() {
    let def = twenty_one();
    let mut wins = 0;
    for seed in 0..20u64 {
        let me = (seed % 2) as usize;
        let mut specs = ["random", "random"];
        specs[me] = "search:60";
        let g = play(&def, 2, seed, &specs, 100);
        wins += usize::from(g.result().unwrap().places[me] == 1);
    }
    assert!(wins >= 18, "search won {wins} of 20 against random");
    // The random agent in the same seats wins about half.
    let mut random = 0;
    for seed in 0..20u64 {
        let g = play(&def, 2, seed, &["random", "random"], 100);
        random += usize::from(g.result().unwrap().places[(seed % 2) as usize] == 1);
    }
    assert!(random <= 14, "random won {random} of 20");
}

#[test]
fn search_finds_the_winning_move() {
    let def = twenty_one();
    // At 18 the seat to act wins with "add 3"; at 14, "add 3" leaves 17, which wins.
    for (total, best) in [(18, "add 3"), (14, "add 3"), (11, "add 2")] {
        let mut g = Game::new(def.clone(), Setup::new(2, 1)).unwrap();
        g.eval(&format!("game.add_counter('total', {total})"))
            .unwrap();
        let actions = g.legal_actions().unwrap();
        let mut bot = Agent::from_spec("search:200", &def, 1, 0).unwrap();
        let i = bot.choose(&mut g, &actions).unwrap();
        assert_eq!(actions[i], best, "at {total}");
    }
}

#[test]
fn search_specs_are_checked() {
    let def = twenty_one();
    for bad in [
        "search:0",
        "search:x",
        "search:5:nobody",
        "search:5:random:7",
    ] {
        assert!(Agent::from_spec(bad, &def, 1, 0).is_err(), "{bad}");
    }
    for good in ["search", "search:5", "search:5:random"] {
        assert!(Agent::from_spec(good, &def, 1, 0).is_ok(), "{good}");
    }
    let e = Agent::from_spec("serach", &def, 1, 0).unwrap_err();
    assert!(e.contains("search"), "{e}");
}

/// The actions a game of Taxi Derby takes with a search bot in seat 1, as many times as asked,
/// on as many threads.
fn taxi_games(threads: usize) -> Vec<Vec<String>> {
    let def = bundled("taxi-derby");
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let def = def.clone();
                s.spawn(move || {
                    let _ = t;
                    play(&def, 2, 5, &["search:4:random", "random"], 30)
                        .history()
                        .to_vec()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn search_decides_the_same_in_every_run_and_on_any_thread() {
    let alone = taxi_games(1);
    let together = taxi_games(2);
    assert_eq!(alone[0].len(), 30);
    assert_eq!(alone[0], together[0]);
    assert_eq!(alone[0], together[1]);
    // Another seed of the agents plays another game: the choices follow the seed.
    let def = bundled("taxi-derby");
    let mut g = Game::new(def.clone(), Setup::new(2, 5)).unwrap();
    let actions = g.legal_actions().unwrap();
    let picks: Vec<usize> = (0..8u64)
        .map(|seed| {
            let mut a = Agent::from_spec("search:3:random", &def, seed, 0).unwrap();
            a.choose(&mut g, &actions).unwrap()
        })
        .collect();
    assert!(
        picks.iter().any(|p| *p != picks[0]),
        "{} actions and the same pick for every seed: {picks:?}",
        actions.len()
    );
}

/// Whether `seat` cannot see everything: a card hidden from it, or a secret.
fn has_secrets(game: &Game, seat: u8) -> bool {
    let s = game.state();
    s.zones
        .iter()
        .any(|z| farebox::game::visible_cards(game.def(), z, Some(seat)) < z.cards.len())
        || s.vars.values().any(|v| !v.seen.by(Some(seat)))
}

/// At points of a random game of `id`, the search bot of the seat to act chooses the same in
/// the real game and in games that differ only in what is hidden from that seat.
fn same_choice_whatever_is_hidden(id: &str, spec: &str, every: usize) -> usize {
    let def = bundled(id);
    let mut checked = 0;
    for seed in 1..3u64 {
        let mut game = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut random: Vec<Agent> = (0..2)
            .map(|s| Agent::from_spec("random", &def, seed, s).unwrap())
            .collect();
        let mut n = 0;
        while !game.is_over() && n < 60 {
            let actions = game.legal_actions().unwrap();
            let seat = game.active();
            if n % every == 0 && actions.len() > 1 && has_secrets(&game, seat) {
                let mut bot = Agent::from_spec(spec, &def, seed, seat).unwrap();
                let real = bot.choose(&mut game, &actions).unwrap();
                for other in 1..=2u64 {
                    let mut alt = game.alternative(seat, seed * 31 + other).unwrap();
                    let alt_actions = alt.legal_actions().unwrap();
                    assert_eq!(alt_actions, actions, "{id}: the seat's actions differ");
                    let mut bot = Agent::from_spec(spec, &def, seed, seat).unwrap();
                    let chosen = bot.choose(&mut alt, &alt_actions).unwrap();
                    assert_eq!(
                        real,
                        chosen,
                        "{id} seed {seed} after {n} actions: seat {} chose by what it may not see",
                        seat + 1
                    );
                }
                checked += 1;
            }
            let i = random[seat as usize].choose(&mut game, &actions).unwrap();
            game.apply_legal(&actions[i]).unwrap();
            n += 1;
        }
    }
    checked
}

#[test]
fn taxi_derby_search_chooses_only_by_what_its_seat_sees() {
    assert!(same_choice_whatever_is_hidden("taxi-derby", "search:6:random", 7) >= 4);
}

#[test]
fn wheres_my_ride_search_chooses_only_by_what_its_seat_sees() {
    assert!(same_choice_whatever_is_hidden("wheres-my-ride", "search:6:random", 3) >= 4);
}
