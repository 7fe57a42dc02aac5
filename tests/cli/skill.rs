//! The search bot's analyses through the command line: the skill trace (`sim --skill-trace`)
//! tells a game of pure luck from one of pure skill, and the value of hidden information
//! (`sim --hidden-value`) pits the search bot that sees every secret against the honest one,
//! a bot no command that seats a player will take. The toy games are in `tests/toys/`.

use super::*;

fn toy(id: &str) -> String {
    s(&farebox_suite::root().join("tests/toys").join(id))
}

fn trace(id: &str) -> serde_json::Value {
    let game = toy(id);
    let r = farebox(&[
        "sim",
        &game,
        "--skill-trace",
        "--budgets",
        "0,40",
        "--games",
        "40",
        "--seed",
        "700000",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    serde_json::from_str(&r.out).unwrap_or_else(|e| panic!("{e}: {}", r.out))
}

/// High Roll's choices change nothing, Tiny Nim has no dice: the same budgets on the same
/// seeds say "mostly luck" of the one and "skill pays" of the other, and the text says so.
#[test]
fn the_skill_trace_tells_pure_luck_from_pure_skill() {
    let luck = trace("high-roll");
    let skill = trace("tiny-nim");
    assert_eq!(luck["skill_pays"], false, "{luck}");
    assert_eq!(skill["skill_pays"], true, "{skill}");
    let rate = |v: &serde_json::Value, i: usize| v["skill_trace"][i]["win_rate"].as_f64().unwrap();
    assert_eq!(skill["skill_trace"][0]["agent"], "random", "{skill}");
    assert_eq!(skill["skill_trace"][1]["agent"], "search:40", "{skill}");
    assert!(rate(&skill, 1) > 0.8, "{skill}");
    assert!((rate(&luck, 1) - rate(&luck, 0)).abs() < 0.25, "{luck}");

    let r = text_trace("tiny-nim");
    assert!(
        r.out.contains("budget 0 (random, no search): won "),
        "{}",
        r.out
    );
    assert!(r.out.contains("budget 40 (search:40): won "), "{}", r.out);
    assert!(
        r.out.contains("skill pays: more thinking wins more"),
        "{}",
        r.out
    );
    let r = text_trace("high-roll");
    let game = toy("high-roll");
    assert!(
        r.out
            .contains("mostly luck: more thinking did not win clearly more"),
        "{}",
        r.out
    );

    let r = farebox(&["sim", &game, "--skill-trace", "--budgets", "10"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("--budgets needs at least two budgets"),
        "{}",
        r.err
    );
}

/// In Guess the Card the first seat wins only by naming the second seat's secret card: the
/// search bot that sees it always does, the honest one a third of the time, so the seeing bot
/// wins about 83% of games with seats alternating.
#[test]
fn the_search_bot_that_sees_every_secret_is_measured_against_the_honest_one() {
    let game = toy("guess-the-card");
    let r = farebox(&[
        "sim",
        &game,
        "--hidden-value",
        "--search",
        "search:12:random",
        "--games",
        "60",
        "--seed",
        "700000",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let h = &v["hidden_value"];
    assert_eq!(h["games"], 60, "{v}");
    // Every game the seeing bot guesses in, it wins.
    assert!(h["seeing_wins"].as_u64().unwrap() >= 30, "{v}");
    assert!(h["difference"].as_f64().unwrap() > 0.4, "{v}");
    let r = farebox(&[
        "sim",
        &game,
        "--hidden-value",
        "--search",
        "search:12:random",
        "--games",
        "60",
        "--seed",
        "700000",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("seeing every secret is worth "), "{}", r.out);
    assert!(
        r.out.contains("what is hidden matters in this game"),
        "{}",
        r.out
    );
}

/// The bot that sees every secret takes no seat: `play`, `record`, `sim --bots` and `bench`
/// refuse it by name and say what it is for.
#[test]
fn the_search_bot_that_sees_every_secret_never_takes_a_seat() {
    let out = s(&scratch("sees-all").join("game.replay.json"));
    let says = "never takes a seat in a game: it is only for measuring what hidden information is worth, with `farebox sim MOD --hidden-value`";
    for args in [
        vec![
            "play",
            "wheres-my-ride",
            "--seats",
            "human,search-sees-all:10",
            "--seed",
            "1",
        ],
        vec!["play", "curbside", "--seats", "search-sees-all,human"],
        vec![
            "record",
            "curbside",
            "--bots",
            "search-sees-all:5,random",
            "--out",
            &out,
        ],
        vec![
            "sim",
            "curbside",
            "--bots",
            "search-sees-all:5,random",
            "--games",
            "1",
        ],
        vec![
            "bench",
            "curbside",
            "--search",
            "search-sees-all:5",
            "--games",
            "1",
        ],
    ] {
        let r = farebox(&args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.out, r.err);
        assert!(r.err.contains(says), "{args:?}: {}", r.err);
        assert!(r.out.is_empty(), "{args:?} played: {}", r.out);
    }
    assert!(!Path::new(&out).exists(), "no game was recorded");
}

/// `sim TOY --skill-trace` at budgets 0 and 40, as text, 40 games from seed 700000.
fn text_trace(name: &str) -> super::run::Run {
    let game = toy(name);
    let r = farebox(&[
        "sim",
        &game,
        "--skill-trace",
        "--budgets",
        "0,40",
        "--games",
        "40",
        "--seed",
        "700000",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    r
}
