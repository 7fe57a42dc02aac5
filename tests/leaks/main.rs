//! Hidden information never reaches a seat that may not see it. Every bundled game with rules,
//! and every bundled house rule, is played with bots in every seat; after every action, for every seat, everything that seat
//! is shown — its view (zones, variables, pieces, board, its log lines) and the label it is
//! shown for the action — is searched for the ids, names and texts of the cards hidden from
//! it and the values of the variables hidden from it. A name counts only while nothing the seat
//! may see carries it too (a Straightaway in a rival's hand is no secret while another lies on
//! the board). A deliberately leaky copy of Curbside checks that the search finds a leak. The
//! files beside this one name the games' secrets by meaning (`wheres_my_ride.rs`: the pickup
//! spot by id, name and tags; `taxi_and_critter.rs`: hands, face-down decks, stacks and bag),
//! so that a secret made public is still found.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::Agent;
use farebox::content;
use farebox::game::{Game, Setup};
use farebox::value::Value;
use farebox_suite::secrets::{
    WMR_FACE_DOWN, WMR_HANDS, meant_words, secrets, wmr_answer, wmr_answer_words, wmr_driver,
};

/// Plays seeded games of `def` with `bots` and returns the first leak found, if any.
fn first_leak(def: &Arc<GameDef>, bots: &[&str], seeds: std::ops::Range<u64>) -> Option<String> {
    let seats = bots.len() as u8;
    for seed in seeds {
        let mut g = Game::new(def.clone(), Setup::new(seats, seed)).unwrap();
        let mut agents: Vec<Agent> = bots
            .iter()
            .enumerate()
            .map(|(i, b)| Agent::from_spec(b, def, seed, i as u8).unwrap())
            .collect();
        let mut step = 0;
        while !g.is_over() && step < 600 {
            let actions = g.legal_actions().unwrap();
            let i = agents[g.active() as usize]
                .choose(&mut g, &actions)
                .unwrap();
            let action = actions[i].clone();
            let labels: Vec<String> = (0..seats)
                .map(|s| g.describe_for(&action, Some(s)))
                .collect();
            // What each seat could not see before the action: its label and the lines the
            // action logs may name a card that was in sight before it or after it (a card
            // played from a hand, one everyone saw go to the back of a queue).
            let before: Vec<BTreeSet<String>> = (0..seats).map(|s| secrets(&g, s)).collect();
            let told = g.log().len();
            g.apply_legal(&action).unwrap();
            step += 1;
            for s in 0..seats {
                // The view as it is now, the log lines this action wrote that the seat may
                // read (earlier lines told it what it could see then), and its label.
                let mut view = g.view(Some(s));
                view.log.clear();
                let lines: Vec<&str> = g.log()[told..]
                    .iter()
                    .filter(|e| e.seen.by(Some(s)))
                    .map(|e| e.text.as_ref())
                    .collect();
                let view = serde_json::to_string(&view).unwrap();
                let told_now = format!("{}\n{}", lines.join("\n"), labels[s as usize]);
                let after = secrets(&g, s);
                let found = after
                    .iter()
                    .find(|w| view.contains(w.as_str()))
                    .or_else(|| {
                        after
                            .intersection(&before[s as usize])
                            .find(|w| told_now.contains(w.as_str()))
                    })
                    .cloned();
                let shown = format!("{view}\n{told_now}");
                if let Some(secret) = found {
                    let at = shown.find(&secret).unwrap_or(0);
                    let around: String = shown
                        .chars()
                        .skip(shown[..at].chars().count().saturating_sub(60))
                        .take(120 + secret.chars().count())
                        .collect();
                    return Some(format!(
                        "seed {seed}, action {step} ({action}): seat {} is shown `{secret}`, in: {around}",
                        s + 1
                    ));
                }
            }
        }
    }
    None
}

#[test]
fn no_seat_is_shown_what_is_hidden_from_it() {
    for id in farebox_suite::games()
        .into_iter()
        .chain(farebox_suite::house_rules())
    {
        let def = Arc::new(farebox_suite::load(&id));
        if def.scripts.is_empty() {
            continue; // content only, for now: nothing to play
        }
        let mut bots: Vec<&str> = def.bots.iter().map(|b| b.id.as_str()).collect();
        bots.push("random");
        let seats: Vec<&str> = (0..def.players.1.max(2))
            .map(|i| bots[i as usize % bots.len()])
            .collect();
        assert_eq!(first_leak(&def, &seats, 0..4), None, "{id}");
        assert_eq!(first_leak(&def, &seats[..2], 4..8), None, "{id}");
    }
}

#[test]
fn the_search_finds_a_leak() {
    // Curbside, with a rules line that tells everyone which passenger card comes next.
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("curbside").unwrap();
    let rules = src.files.get_mut("rules/curbside.luau").unwrap();
    let before = rules.clone();
    *rules = rules.replacen(
        "\tif COSTS_ACTION[kind] then",
        "\tlocal next = game.top(zone(\"dispatch\"))\n\tif next then game.log(\"Next fare: \" .. data.decks.passengers.cards[next].name) end\n\tif COSTS_ACTION[kind] then",
        1,
    );
    assert_ne!(*rules, before, "the line to break was not found");
    let src = src.clone();
    let def = Arc::new(content::load_mod(&src, &mods).unwrap());
    let leak = first_leak(&def, &["dispatcher", "random"], 0..1);
    assert!(
        leak.as_deref().is_some_and(|l| l.contains("is shown")),
        "{leak:?}"
    );
}

#[test]
fn the_search_finds_a_house_rule_leak() {
    // Show, Don't Tell, with the Driver's fresh hand announced to the whole table: the house
    // rules are searched as the games are.
    let mut mods = farebox_suite::bundled_in_memory();
    let id = "wheres-my-ride-show-dont-tell";
    let src = mods.0.get_mut(id).unwrap();
    let rules = src.files.get_mut("rules/show-dont-tell.luau").unwrap();
    let before = rules.clone();
    *rules = rules.replacen(
        "table.concat(EMOJIS[token].meanings, \", \") .. \")\", d)",
        "table.concat(EMOJIS[token].meanings, \", \") .. \")\")",
        1,
    );
    assert_ne!(*rules, before, "the line to break was not found");
    let src = src.clone();
    let def = Arc::new(content::load_mod(&src, &mods).unwrap());
    let bots: Vec<&str> = def.bots.iter().map(|b| b.id.as_str()).collect();
    let seats = [bots[0], bots[0], bots[0]];
    let leak = (0..40)
        .step_by(4)
        .find_map(|k| first_leak(&def, &seats, k..k + 4));
    assert!(
        leak.as_deref().is_some_and(|l| l.contains("is shown")),
        "{leak:?}"
    );
}

mod dicey_curves;
mod evaluate;
mod online;
mod peeking_bots;
mod taxi_and_critter;
mod wheres_my_ride;
