//! Seeded Curbside outcomes: a transcript of one game, statistics over 1,000 games, and the
//! Dispatcher bot's margin over the random agent. All are insta snapshots or assertions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox_suite::outcomes;

fn def() -> Arc<farebox::GameDef> {
    Arc::new(farebox_suite::load("curbside"))
}

#[test]
fn transcript_of_one_seeded_game() {
    let (out, _) = outcomes::transcript(&def(), &["dispatcher", "random"], 2026, 400, false);
    insta::assert_snapshot!(out);
}

#[test]
fn statistics_over_1000_seeded_random_games() {
    insta::assert_snapshot!(outcomes::statistics(&def(), 3, &["random"], "stars"));
}

#[test]
fn the_dispatcher_beats_the_random_agent_clearly() {
    let m = outcomes::margin(&def(), "dispatcher", "random", 10_000);
    let (bot_wins, random_wins, capped) = (m.bot_wins, m.rival_wins, m.capped);
    eprintln!(
        "Dispatcher: {bot_wins} outright wins, random: {random_wins} wins, {capped} capped, of 500"
    );
    // Games stopped at the cap count against the bot.
    assert!(
        bot_wins >= 450,
        "the Dispatcher won only {bot_wins} of 500 games outright ({random_wins} lost, {capped} capped)"
    );
    assert!(
        random_wins <= 10,
        "the random agent won {random_wins} games"
    );
}

/// Curbside with one more bot, `id`, whose script is `script`, for a head-to-head game.
fn with_bot(id: &str, script: &str) -> Arc<farebox::GameDef> {
    let mut mods = farebox_suite::bundled_in_memory();
    let src = mods.0.get_mut("curbside").unwrap();
    src.files
        .insert(format!("bots/{id}.luau"), script.to_string());
    let manifest = src.files.get_mut("mod.toml").unwrap();
    let at = manifest.find("[[options]]").unwrap();
    manifest.insert_str(
        at,
        &format!("[[bots]]\nid = \"{id}\"\nname = \"{id}\"\nscript = \"bots/{id}.luau\"\n\n"),
    );
    let src = src.clone();
    Arc::new(farebox::content::load_mod(&src, &mods).unwrap())
}

/// Outright wins of the Dispatcher and of `rival` over 500 games, seats alternating.
fn head_to_head(def: &Arc<farebox::GameDef>, rival: &str, first_seed: u64) -> (u32, u32) {
    let games = outcomes::alternating(def, "dispatcher", rival, first_seed);
    let (mut now, mut before) = (0, 0);
    for (seed, o) in games.outcomes().iter().enumerate() {
        assert!(o.error.is_none(), "{:?}", o.error);
        let me = seed % 2;
        if let Some(r) = &o.result {
            let winners = r.winners();
            if winners == [me] {
                now += 1;
            } else if winners == [1 - me] {
                before += 1;
            }
        }
    }
    (now, before)
}

#[test]
fn the_dispatcher_looking_ahead_does_at_least_as_well_as_before() {
    // The Dispatcher uses game.try to see which drives end the game with it in first place.
    // Against the Dispatcher as it was before it looked ahead (kept beside this test), over
    // 500 seeded games with seats alternating, it must win at least as often.
    let def = with_bot(
        "before",
        include_str!("../rules/curbside/dispatcher_before.luau"),
    );
    let (now, before) = head_to_head(&def, "before", 20_000);
    eprintln!("looking ahead: {now} wins; before: {before} wins; of 500");
    assert!(now >= before, "looking ahead won {now}, before {before}");
}

#[test]
fn the_dispatcher_counting_its_gas_beats_the_one_that_did_not() {
    // The Dispatcher sets off only towards a fare its tank (and the canteens in its hand) can
    // carry to the drop-off. Before, it drove towards the best fare whatever its tank held and
    // stranded itself with 1 gas a cell or two short, where any drive ends the game at a loss
    // (DESIGN.md, "How games end"). Measured on seeds 3,000,001-3,000,300 each way round: 56.7%
    // of 600 games (52.7-60.6%) against 43.7%. Here, 500 games with seats alternating: it won
    // 291 to 207, and must win at least 60 more than the gas-blind one (the gas-blind bot on
    // both sides of these seeds came out 265 to 231: a spread of about 22 games either way).
    let def = with_bot(
        "gas-blind",
        include_str!("../rules/curbside/dispatcher_gas_blind.luau"),
    );
    let (now, blind) = head_to_head(&def, "gas-blind", 40_000);
    eprintln!("counting gas: {now} wins; gas-blind: {blind} wins; of 500");
    assert!(
        now >= blind + 60,
        "counting its gas the Dispatcher won {now} games, the gas-blind one {blind}"
    );
}
