//! The accepted outcomes of the bundled mods are played by the mods' own bots, and each
//! house rule's differ from its base game's, beyond the 95% intervals, on a figure the house
//! rule is meant to change; where the house rule adds an action, a figure it records shows
//! the bots take it.

use farebox::figures::Stats;
use farebox_editor::accepted::{Accepted, read_snapshot};
use farebox_editor::compare::{Verdict, figures, verdict};
use farebox_suite::{load, mod_dir};

fn snapshot(id: &str) -> Accepted {
    read_snapshot(&mod_dir(id))
        .unwrap_or_else(|f| panic!("{id}: {}", f.message()))
        .unwrap_or_else(|| panic!("{id} has no accepted outcomes"))
}

const BUNDLED: &[&str] = &[
    "curbside",
    "curbside-gas-station",
    "critter-cab",
    "critter-cab-no-sitting-out",
    "dicey-curves",
    "dicey-curves-sunday-drive",
    "taxi-derby",
    "taxi-derby-learners-permit",
    "wheres-my-ride",
    "wheres-my-ride-show-dont-tell",
];

#[test]
fn accepted_outcomes_are_played_by_the_mods_own_bots() {
    for id in BUNDLED {
        let def = load(id);
        let s = snapshot(id);
        for b in &s.settings.bots {
            assert!(
                def.bot(b).is_some(),
                "{id}: its accepted outcomes are played by `{b}`, not one of its own bots"
            );
        }
        // The figures per piece of content are there to compare.
        assert!(
            !s.outcomes.figures.cards.is_empty(),
            "{id}: the accepted outcomes have no figures per card"
        );
        assert!(s.outcomes.figures.first_mover_win_rate.is_some(), "{id}");
    }
}

/// (house rule, its game, the figure it is meant to change, the figure of its own it records
/// when the bots play the action it adds).
const CHANGES: &[(&str, &str, &str, Option<&str>)] = &[
    // Tanks start lower, and a fill-up takes the turn: shorter games.
    (
        "curbside-gas-station",
        "curbside",
        "mean length in turns",
        Some("refuels"),
    ),
    // Nobody sits a turn out, and the game is a round shorter.
    (
        "critter-cab-no-sitting-out",
        "critter-cab",
        "mean length in turns",
        None,
    ),
    // The sprint is the default and there are no hairpins.
    (
        "dicey-curves-sunday-drive",
        "dicey-curves",
        "mean length in turns",
        None,
    ),
    // Three empty stacks end the game instead of four.
    (
        "taxi-derby-learners-permit",
        "taxi-derby",
        "mean length in turns",
        Some("waved_on"),
    ),
    // No verdicts to steer the Riders, one more checkmark to give them time: about as many
    // rides are found (65% of 500 against the game's 70%, within chance), over more rounds.
    // A Driver with nothing true to say draws afresh.
    (
        "wheres-my-ride-show-dont-tell",
        "wheres-my-ride",
        "mean length in turns",
        Some("fresh_hands"),
    ),
];

#[test]
fn each_house_rule_changes_what_it_is_meant_to() {
    for (house, game, figure, own) in CHANGES {
        let (h, g) = (snapshot(house), snapshot(game));
        assert_eq!(
            (h.settings.players, &h.settings.bots),
            (g.settings.players, &g.settings.bots),
            "{house} and {game} are compared with the same seats and bots"
        );
        let def = load(house);
        let figs = figures(&def, &g.outcomes, &h.outcomes);
        let f = figs.iter().find(|f| f.name == *figure).unwrap_or_else(|| {
            let names: Vec<&str> = figs.iter().map(|f| f.name.as_str()).take(20).collect();
            panic!("{house}: no figure `{figure}` among {names:?}")
        });
        assert_eq!(
            verdict(f, h.settings.games.min(g.settings.games)),
            Verdict::Changed,
            "{house} does not change {figure} beyond chance: {}",
            f.describe()
        );
        if let Some(stat) = own {
            let recorded = h.outcomes.figures.stats.get(*stat);
            assert!(
                recorded.is_some_and(|s| s.games > 0 && s.mean > 0.0),
                "{house}: the bots never take the action it adds (no `{stat}` recorded)"
            );
            assert!(
                !g.outcomes.figures.stats.contains_key(*stat),
                "{game} records `{stat}` without the house rule"
            );
        }
    }
}

#[test]
fn old_accepted_outcomes_still_load() {
    // A snapshot as `farebox test --accept` wrote it before the figures per content: no
    // figures, which read as empty, and compare with nothing.
    let old = r#"{"games":2,"finished":2,"capped":0,"errors":0,"error_messages":[],
        "win_rate":[0.5,0.5],"actions_mean":10.0,"actions_sd":1.0,"turns_mean":5.0,
        "turns_sd":0.5,"score_mean":[1.0,1.0],"score_sd":[0.0,0.0],"endings":{"done":2}}"#;
    let s: Stats = serde_json::from_str(old).unwrap();
    assert!(s.figures.cards.is_empty());
    assert!(s.win_rate_interval.is_empty());
}

/// How an outcome run shows a house rule's change.
enum Shows {
    /// The house rule records this figure of its own: the action it adds is taken.
    Taken(&'static str),
    /// Games are shorter, in turns.
    FewerTurns,
    /// This figure of both games is lower with the house rule.
    Lower(&'static str),
    /// Cards the game's players play that the house rule takes out: the figures per card
    /// show some of them played in the game and none with the house rule.
    Gone(&'static [&'static str]),
}

/// (house rule, its game, the search bot that plays both, games of each, how the change
/// shows). The random
/// playout policy knows nothing of either game, so nothing but the search finds the new
/// actions. Taxi Derby plays out with its own bot: a random driver in a city with no limit on
/// how far a taxi goes in a turn plays few turns in a playout's 24 actions. Its eight
/// playouts are the paired root's smallest budget that compares moves: the Fare Planner knows
/// nothing of waving a fare on, so only the comparison finds it.
const BY_SEARCH: &[(&str, &str, &str, u64, Shows)] = &[
    (
        "curbside-gas-station",
        "curbside",
        "search:4:random",
        3,
        Shows::Taken("refuels"),
    ),
    (
        "critter-cab-no-sitting-out",
        "critter-cab",
        "search:4:random",
        3,
        Shows::FewerTurns,
    ),
    (
        "dicey-curves-sunday-drive",
        "dicey-curves",
        "search:2:random",
        3,
        Shows::Lower("track_cards"),
    ),
    (
        "taxi-derby-learners-permit",
        "taxi-derby",
        "search:8",
        2,
        Shows::Taken("waved_on"),
    ),
    (
        "wheres-my-ride-show-dont-tell",
        "wheres-my-ride",
        "search:4:random",
        4,
        // The verdict tokens (thumbs up and down, warmer, colder, ...).
        Shows::Gone(&[
            "emoji-thumbs-up",
            "emoji-bullseye",
            "emoji-thumbs-down",
            "emoji-no-entry",
            "emoji-fire",
            "emoji-snowflake",
            "emoji-turnaround-arrows",
        ]),
    ),
];

/// Plays `games` games of a bundled mod as its accepted outcomes are set up, with `spec` in
/// every seat.
fn run_with(id: &str, spec: &str, games: u64) -> Stats {
    let def = std::sync::Arc::new(load(id));
    let mut settings = snapshot(id).settings;
    settings.games = games;
    settings.bots = vec![spec.to_string()];
    settings.forbid.clear();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let outcomes = farebox_editor::accepted::play_games(&def, &settings, 2, &|| {}, &stop, false)
        .unwrap_or_else(|f| panic!("{id}: {}", f.message()));
    Stats::of(&def, settings.players, &outcomes)
}

#[test]
fn the_search_bot_plays_every_house_rule_and_its_outcomes_show_the_change() {
    for (house, game, spec, games, shows) in BY_SEARCH {
        let (h, g) = (run_with(house, spec, *games), run_with(game, spec, *games));
        for (id, s) in [(house, &h), (game, &g)] {
            assert_eq!(
                (s.finished, s.errors, s.capped),
                (s.games, 0, 0),
                "{id} with {spec}: {:?}",
                s.error_messages
            );
        }
        match shows {
            Shows::Taken(stat) => {
                let taken = h.figures.stats.get(*stat).map_or(0.0, |f| f.mean);
                assert!(
                    taken > 0.0,
                    "{house}: {spec} never takes what `{stat}` counts"
                );
                assert!(
                    !g.figures.stats.contains_key(*stat),
                    "{game} records `{stat}`"
                );
            }
            Shows::FewerTurns => assert!(
                h.turns_mean < g.turns_mean,
                "{house}: {} turns against {game}'s {}",
                h.turns_mean,
                g.turns_mean
            ),
            Shows::Gone(cards) => {
                let played =
                    |s: &Stats, id: &str| s.figures.cards.get(id).map_or(0, |c| c.games_played);
                assert!(
                    cards.iter().any(|c| played(&g, c) > 0),
                    "{game}: {spec} plays none of {cards:?}"
                );
                for c in *cards {
                    assert!(!h.figures.cards.contains_key(*c), "{house} still has {c}");
                }
            }
            Shows::Lower(stat) => {
                let mean = |s: &Stats| s.figures.stats.get(*stat).map(|f| f.mean);
                assert!(
                    mean(&h) < mean(&g) && mean(&h).is_some(),
                    "{house}: `{stat}` {:?} against {game}'s {:?}",
                    mean(&h),
                    mean(&g)
                );
            }
        }
    }
}
