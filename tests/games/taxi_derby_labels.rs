//! Taxi Derby's labels stay short enough to be shown whole: the terminal cuts a label (or a
//! menu path's part) longer than 300 characters and marks the cut with "… (N bytes)". Seeded
//! Fare Planner games, two and four seats, are played to the end; at every step every legal
//! action's label, as each seat and a spectator read it, and every part of the acting seat's
//! menu path, must fit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use farebox::agent::Agent;
use farebox::game::{Game, Setup};

/// The terminal's limit on a label (`MAX_LABEL` in editor/src/cli/cmd_play.rs and cmd_join.rs).
const MAX_LABEL: usize = 300;

/// The first label of a seeded game that would be cut, if any, and how many labels were read.
fn first_too_long(seats: u8, seed: u64) -> (Option<String>, usize) {
    let def = farebox_suite::rule_kit::shipped("taxi-derby");
    let mut g = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
    let mut agents: Vec<Agent> = (0..seats)
        .map(|s| Agent::from_spec("fare-planner", &def, seed, s).unwrap())
        .collect();
    let mut read = 0;
    let mut step = 0;
    while !g.is_over() {
        assert!(
            step < 5000,
            "{seats} seats, seed {seed}: the game did not end"
        );
        let actions = g.legal_actions().unwrap();
        for a in &actions {
            let mut labels: Vec<String> = g.try_describe_path(a).unwrap();
            labels.extend((0..seats).map(|s| g.describe_for(a, Some(s))));
            labels.push(g.describe_for(a, None));
            for l in labels {
                read += 1;
                if l.chars().count() > MAX_LABEL || l.contains(" bytes)") {
                    return (
                        Some(format!(
                            "{seats} seats, seed {seed}, step {step}, `{a}` ({} characters): {l}",
                            l.chars().count()
                        )),
                        read,
                    );
                }
            }
        }
        let i = agents[g.active() as usize]
            .choose(&mut g, &actions)
            .unwrap();
        g.apply_legal(&actions[i]).unwrap();
        step += 1;
    }
    (None, read)
}

#[test]
fn no_label_of_a_seeded_game_is_cut() {
    let mut read = 0;
    for (seats, seeds) in [(2u8, 1..7u64), (4, 1..5)] {
        for seed in seeds {
            let (long, n) = first_too_long(seats, seed);
            if let Some(l) = long {
                panic!("a label the terminal would cut: {l}");
            }
            read += n;
        }
    }
    // The games were really played and read (not over before they began).
    assert!(read > 10_000, "only {read} labels read");
}
