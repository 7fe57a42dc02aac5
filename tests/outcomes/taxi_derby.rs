//! Seeded Taxi Derby outcomes: a transcript of one game, statistics over 1,000 games, and the
//! Fare Planner bot's margin over the random agent. All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox_suite::outcomes;

fn def() -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load("taxi-derby"))
}

#[test]
fn transcript_of_one_seeded_game() {
    let (out, over) =
        outcomes::transcript(&def(), &["fare-planner", "fare-planner"], 2026, 2000, false);
    assert!(over, "the game did not end");
    insta::assert_snapshot!(out);
}

#[test]
fn statistics_over_1000_seeded_random_games() {
    insta::assert_snapshot!(outcomes::statistics(&def(), 3, &["random"], "money"));
}

#[test]
fn the_fare_planner_beats_the_random_agent_clearly() {
    // 500 two-seat games, the bot in seat 1 in the even games and seat 2 in the odd ones.
    let m = outcomes::margin(&def(), "fare-planner", "random", 10_000);
    let (bot_wins, random_wins, capped) = (m.bot_wins, m.rival_wins, m.capped);
    let margin = m.score_margin;
    eprintln!(
        "Fare Planner: {bot_wins} outright wins, random: {random_wins} wins, {capped} capped, of 500; mean money margin {}",
        margin / 500
    );
    // Games stopped at the cap count against the bot.
    assert!(
        bot_wins >= 475,
        "the Fare Planner won only {bot_wins} of 500 games outright ({random_wins} lost, {capped} capped)"
    );
    assert!(random_wins <= 5, "the random agent won {random_wins} games");
    assert!(margin / 500 >= 100, "mean margin ${}", margin / 500);
}

#[test]
fn two_fare_planners_take_calculated_risks() {
    // The Fare Planner speeds where a ticket is a fair risk for what the step gains, so games
    // between two of them meet tickets (and with them downgrades, impounds and a Cleanest
    // Record that is not always shared): at least one ticket a game on average.
    use farebox::agent::Agent;
    use farebox::game::{Game, Setup};
    let def = def();
    let games = 60u64;
    let mut tickets = 0;
    let mut ticketed_games = 0;
    for seed in 0..games {
        let mut g = Game::new(def.clone(), Setup::new(2, 500 + seed)).unwrap();
        let mut agents: Vec<Agent> = (0..2u8)
            .map(|s| Agent::from_spec("fare-planner", &def, 500 + seed, s).unwrap())
            .collect();
        while !g.is_over() && g.history().len() < 5000 {
            let acts = g.legal_actions().unwrap();
            let i = agents[usize::from(g.active())]
                .choose(&mut g, &acts)
                .unwrap();
            g.apply_legal(&acts[i]).unwrap();
        }
        assert!(g.is_over(), "seed {seed} did not end");
        let n = g
            .eval("return game.count(game.zone('issued-tickets', 1)) + game.count(game.zone('issued-tickets', 2))")
            .unwrap()
            .as_int()
            .unwrap();
        tickets += n;
        ticketed_games += u64::from(n > 0);
    }
    eprintln!("{tickets} tickets in {games} games; {ticketed_games} games with a ticket");
    assert!(
        tickets >= games as i64,
        "only {tickets} tickets in {games} games between two Fare Planners"
    );
}

/// The search bot's `evaluate` counts each upgrade a seat holds at `upgrade_worth` ($2):
/// without it a bought upgrade looked like its price lost, and the paired root left the Fare
/// Planner's purchases for moves that kept the money and lost the game (DESIGN.md, "The
/// search bot's evaluation"). So a purchase at a $2 store leaves the buyer's evaluation as it
/// was, or raises it when a passenger aboard pays more with the upgrade.
#[test]
fn the_search_evaluation_counts_a_bought_upgrade_at_its_worth() {
    use farebox::agent::Agent;
    use farebox::game::{Game, Setup};
    let def = def();
    let money = def.counter("money").expect("Taxi Derby has money");
    let (mut at_worth, mut buys) = (0, 0);
    for seed in 1..=6u64 {
        let mut game = Game::new(def.clone(), Setup::new(3, seed)).unwrap();
        let mut agents: Vec<Agent> = (0..3)
            .map(|s| Agent::from_spec("fare-planner", &def, seed, s).unwrap())
            .collect();
        let mut n = 0;
        while !game.is_over() && n < 3000 {
            let actions = game.legal_actions().unwrap();
            let seat = game.active();
            let i = agents[usize::from(seat)]
                .choose(&mut game, &actions)
                .unwrap();
            let buy = actions[i].starts_with("buy ");
            let before = (
                game.evaluate(seat).unwrap(),
                game.state().counters[money][usize::from(seat)],
            );
            game.apply_legal(&actions[i]).unwrap();
            if buy {
                let after = (
                    game.evaluate(seat).unwrap(),
                    game.state().counters[money][usize::from(seat)],
                );
                let price = before.1 - after.1;
                buys += 1;
                if price == 2 {
                    at_worth += 1;
                    assert!(
                        after.0 >= before.0,
                        "seed {seed}, action {n}: buying at a $2 store took the evaluation from {} to {}",
                        before.0,
                        after.0
                    );
                }
            }
            n += 1;
        }
    }
    assert!(
        at_worth >= 5 && buys >= at_worth,
        "{at_worth} purchases at $2 stores in {buys}"
    );
}
