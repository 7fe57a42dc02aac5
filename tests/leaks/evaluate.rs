//! The rules' `evaluate` hook judges a position by what every seat sees. A search bot calls it
//! in games imagined for its seat, and the outcome figures may show it, so a hook that read a
//! hand or a face-down card would judge by what the seat playing cannot know. At many points of
//! seeded games, every seat's evaluation is the same in the real game and in other games each
//! seat could not tell from it (`Game::alternative`: its hidden cards dealt anew, its secrets
//! imagined anew). A copy of Curbside whose `evaluate` reads a hand checks that this finds it.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::game::{Game, Setup};

/// The first point of seeded games of `def` (played by `bot` in every seat) where a seat's
/// evaluation differs in a game some seat could not tell from the real one; and the points
/// checked.
fn first_peek(
    def: &Arc<GameDef>,
    bot: &str,
    seats: u8,
    seeds: std::ops::Range<u64>,
) -> (Option<String>, usize) {
    let mut checked = 0;
    for seed in seeds {
        let mut game = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
        let mut agents: Vec<Agent> = (0..seats)
            .map(|s| Agent::from_spec(bot, def, seed, s).unwrap())
            .collect();
        let mut n = 0u64;
        while !game.is_over() && n < 300 {
            if n.is_multiple_of(5) {
                let real: Vec<Option<f64>> = (0..seats).map(|s| game.evaluate(s)).collect();
                assert!(real.iter().all(Option::is_some), "{} has evaluate", def.id);
                for looking in 0..seats {
                    for k in 1..=2u64 {
                        let mut alt = game.alternative(looking, seed * 131 + n * 7 + k).unwrap();
                        for s in 0..seats {
                            let v = alt.evaluate(s);
                            if v != real[s as usize] {
                                return (
                                    Some(format!(
                                        "{} seed {seed}, after {n} actions: seat {}'s evaluation is {:?} in the real game and {:?} in one seat {} could not tell from it",
                                        def.id,
                                        s + 1,
                                        real[s as usize],
                                        v,
                                        looking + 1
                                    )),
                                    checked,
                                );
                            }
                        }
                    }
                }
                checked += 1;
            }
            let actions = game.legal_actions().unwrap();
            let i = agents[game.active() as usize]
                .choose(&mut game, &actions)
                .unwrap();
            game.apply_legal(&actions[i]).unwrap();
            n += 1;
        }
    }
    (None, checked)
}

#[test]
fn every_bundled_evaluate_reads_only_what_every_seat_sees() {
    // Where's My Ride? games are short: more of them.
    for (id, bot, seats, seeds) in [
        ("curbside", "dispatcher", 3, 1..3),
        ("critter-cab", "cabbie", 3, 1..3),
        ("dicey-curves", "racer", 2, 1..3),
        ("taxi-derby", "fare-planner", 3, 1..3),
        ("wheres-my-ride", "regular", 4, 1..6),
    ] {
        let def = Arc::new(farebox_suite::load(id));
        let (peek, checked) = first_peek(&def, bot, seats, seeds);
        assert_eq!(peek, None);
        assert!(checked > 10, "{id}: {checked} points");
    }
}

#[test]
fn an_evaluate_that_reads_a_hand_is_found() {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("curbside").unwrap();
    let text = src.files.get_mut("rules/curbside.luau").unwrap();
    let find = "\t\tfresh()\n\t\treturn evaluate(seat)";
    assert_eq!(text.matches(find).count(), 1);
    // Adds a little for the first tile in seat 1's hand, which the other seats cannot see.
    *text = text.replacen(
        find,
        "\t\tfresh()\n\t\tlocal peek = game.cards(hand_of(1))[1] or \"\"\n\t\treturn evaluate(seat) * 0.9 + (string.byte(peek, -1) or 0) / 2560",
        1,
    );
    let src = src.clone();
    let def = Arc::new(farebox::content::load_mod(&src, &mods).unwrap());
    let (peek, _) = first_peek(&def, "dispatcher", 3, 1..3);
    let peek = peek.unwrap_or_default();
    assert!(
        peek.contains("in one seat 2 could not tell from it"),
        "{peek}"
    );
}
