//! Curbside's drive labels count stars as a person would say them: "+1 star", "+3 stars".
//! Seeded Dispatcher games are played to the end; at every step every legal action's label,
//! as the acting seat reads it, is read, and a drop-off's reward must agree in number.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox::agent::Agent;
use farebox::game::{Game, Setup};

#[test]
fn a_drop_off_label_says_star_for_one_and_stars_for_more() {
    let def = farebox_suite::rule_kit::shipped("curbside");
    let (mut one, mut more) = (0, 0);
    for seed in 1..=6u64 {
        let mut g = Game::new(def.clone(), Setup::new(2, seed)).unwrap();
        let mut agents: Vec<Agent> = (0..2)
            .map(|s| Agent::from_spec("dispatcher", &def, seed, s).unwrap())
            .collect();
        let mut step = 0;
        while !g.is_over() {
            assert!(step < 5000, "seed {seed}: the game did not end");
            let actions = g.legal_actions().unwrap();
            for a in &actions {
                let l = g.describe(a);
                let Some((_, reward)) = l.split_once("passenger (+") else {
                    continue;
                };
                let (n, rest) = reward.split_once(' ').unwrap();
                let n: i64 = n.parse().unwrap();
                if n == 1 {
                    assert!(rest.starts_with("star,"), "seed {seed}: {l}");
                    one += 1;
                } else {
                    assert!(rest.starts_with("stars,"), "seed {seed}: {l}");
                    more += 1;
                }
            }
            let i = agents[g.active() as usize]
                .choose(&mut g, &actions)
                .unwrap();
            g.apply_legal(&actions[i]).unwrap();
            step += 1;
        }
    }
    // Both forms were really offered.
    assert!(one > 0 && more > 0, "one star {one}, more {more}");
}
