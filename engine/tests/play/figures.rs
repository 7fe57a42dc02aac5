//! `game.stat` (rules only, bounded, never in a view, rolled back with a failed action) and
//! the outcome figures: the same on any number of threads, restricted play, and the seed and
//! action of games that fail or reach the cap.

use crate::support;

use farebox::agent::{Checks, Forbid, Labels};
use farebox::batch::Batch;
use farebox::figures::Tally;
use farebox::game::{Game, Setup};
use std::sync::Arc;

/// A two-seat dice race: roll or pass; first to 20 wins; records `rolls`.
const RACE: &str = r#"
return {
    setup = function(game) end,
    actions = function(game, seat)
        return { "roll", "pass", "card-a", "card-b" }
    end,
    apply = function(game, seat, action)
        if action == "roll" then
            game.add_counter("pts", seat, game.roll(6))
            game.stat("rolls", (game.stat("rolls") or 0) + 1)
        elseif action == "card-a" then
            game.add_counter("pts", seat, 3)
        elseif action == "boom" then
            error("boom")
        end
        if game.counter("pts", seat) >= 20 then
            local places = {}
            for s = 1, game.seats() do places[s] = if s == seat then 1 else 2 end
            game.finish(places, { game.counter("pts", 1), game.counter("pts", 2) }, "race won")
            return
        end
        game.end_turn()
    end,
}
"#;

const PIECES: &str = r#"
[[counters]]
id = "pts"
name = "Points"
scope = "seat"
score = true

[[zones]]
id = "hand"
name = "Hand"
per_seat = true
visibility = "owner"
deck = "cards"

[[zones]]
id = "pile"
name = "Pile"
visibility = "hidden"
deck = "cards"
"#;

const DECK: &str = r#"
id = "cards"
name = "Cards"
[[cards]]
id = "card-a"
name = "Card A"
[[cards]]
id = "card-b"
name = "Card B"
"#;

fn race() -> Arc<farebox::GameDef> {
    let manifest = support::MANIFEST.replace(
        "pieces = \"pieces.toml\"",
        "pieces = \"pieces.toml\"\ndecks = [\"decks/cards.toml\"]",
    );
    let pieces = format!("{}\n{PIECES}", support::PIECES);
    Arc::new(support::mem_mod(
        "probe",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", &pieces),
            ("decks/cards.toml", DECK),
            ("rules/r.luau", RACE),
        ],
    ))
}

fn figures(threads: usize, forbid: &Forbid) -> (farebox::figures::Figures, u32) {
    let def = race();
    let outcomes = Batch::new(&def, Setup::new(2, 100), &["random".into()], 2000)
        .unwrap_or_else(|e| panic!("{e}"))
        .games(120)
        .threads(threads)
        .checks(Checks {
            labels: Labels::Never,
            profile: false,
            figures: true,
        })
        .forbid(forbid.clone())
        .outcomes();
    let mut t = Tally::new(&def, 2);
    let mut forced = 0;
    for o in &outcomes {
        assert!(o.error.is_none(), "{:?}", o.error);
        forced += o.forced;
        t.add(o);
    }
    (t.stats().figures, forced)
}

#[test]
fn figures_are_the_same_on_any_number_of_threads() {
    let (one, _) = figures(1, &Forbid::NONE);
    let (three, _) = figures(3, &Forbid::NONE);
    assert_eq!(one, three);
    // And they say something: both cards were played, the first mover is known, the game's
    // own figure and the lead on the score counter were followed.
    assert!(one.cards.get("card-a").is_some_and(|c| c.games_played > 0));
    assert!(one.cards["card-a"].win_rate_played.is_some());
    assert_eq!(one.first_mover_games, 120);
    assert!(one.stats["rolls"].games > 0 && one.stats["rolls"].mean > 0.0);
    assert_eq!(one.score_counter.as_deref(), Some("pts"));
    assert!(one.lead_changes_mean.is_some());
    assert!(one.winner_took_lead_at.is_some());
    let [lo, hi] = one.first_mover_win_rate_interval.unwrap();
    assert!(lo <= one.first_mover_win_rate.unwrap() && one.first_mover_win_rate.unwrap() <= hi);
}

#[test]
fn forbidden_actions_are_never_chosen() {
    let (figs, forced) = figures(
        2,
        &Forbid {
            ids: vec!["card-a".into()],
            seat: None,
        },
    );
    assert!(figs.cards.get("card-a").is_none_or(|c| c.games_played == 0));
    assert_eq!(forced, 0);
    // Forbidden to seat 2 only: seat 1 still plays it.
    let (figs, _) = figures(
        2,
        &Forbid {
            ids: vec!["card-a".into()],
            seat: Some(1),
        },
    );
    let a = &figs.cards["card-a"];
    assert!(a.games_played > 0 && a.seats_played == a.games_played);
}

#[test]
fn when_everything_is_forbidden_the_bot_chooses_among_all() {
    let (_, forced) = figures(
        1,
        &Forbid {
            ids: ["roll", "pass", "card-a", "card-b"]
                .map(String::from)
                .to_vec(),
            seat: None,
        },
    );
    assert!(forced > 0);
}

#[test]
fn failing_and_capped_games_keep_their_action() {
    let def = race();
    let capped = Batch::new(&def, Setup::new(2, 5), &["random".into()], 3)
        .unwrap()
        .play_one(0, &mut None, None);
    assert!(capped.capped);
    assert_eq!(capped.stopped_at, Some(3));
    // A bot that names an action the rules reject at once.
    let bad = support::mem_mod(
        "probe",
        &[
            ("mod.toml", support::MANIFEST),
            ("pieces.toml", support::PIECES),
            (
                "rules/r.luau",
                "return { actions = function() return {\"boom\"} end, apply = function() error(\"boom\") end }",
            ),
        ],
    );
    let o = Batch::new(&Arc::new(bad), Setup::new(1, 9), &["random".into()], 10)
        .unwrap()
        .play_one(0, &mut None, None);
    assert!(o.error.as_deref().is_some_and(|e| e.contains("boom")));
    assert_eq!((o.seed, o.stopped_at), (9, Some(1)));
}

#[test]
fn game_stat_is_for_the_rules_and_bounded() {
    let def = Arc::new(support::probe(
        "return { actions = function(game) return {\"go\"} end, apply = function(game) end, describe = function(game) game.stat(\"x\", 1) return \"go\" end }",
    ));
    let mut g = Game::new(def, Setup::new(1, 1)).unwrap();
    assert_eq!(
        g.eval("game.stat(\"a-b_1\", 2.5) return game.stat(\"a-b_1\")")
            .unwrap(),
        farebox::Value::Num(2.5)
    );
    let err = |g: &mut Game, code: &str| g.eval(code).unwrap_err().to_string();
    assert!(err(&mut g, "game.stat(\"\", 1)").contains("1 to 64"));
    assert!(err(&mut g, &format!("game.stat(\"{}\", 1)", "x".repeat(65))).contains("1 to 64"));
    assert!(err(&mut g, "game.stat(\"a b\", 1)").contains("letters, digits"));
    assert!(err(&mut g, "game.stat(\"x\", 0/0)").contains("finite"));
    assert!(err(&mut g, "game.stat(\"x\", \"7\")").contains("must be a number"));
    assert!(err(&mut g, "game.stat(string.rep(\"y\", 1000000), 1)").contains("1 to 64"));
    let many = g
        .eval("for i = 1, 40 do game.stat(\"s\" .. i, i) end")
        .unwrap_err()
        .to_string();
    assert!(many.contains("at most 32"), "{many}");
    // describe reads as a seat: it may not record figures, nor read them.
    assert!(
        g.try_describe_path("go")
            .unwrap_err()
            .to_string()
            .contains("rules only")
    );
    // No view shows a figure.
    let view = serde_json::to_string(&g.view(Some(0))).unwrap();
    assert!(!view.contains("a-b_1"), "{view}");
}

#[test]
fn a_failed_action_takes_its_figures_back() {
    let def = Arc::new(support::probe(
        "return { actions = function(game) return {\"ok\", \"bad\"} end, apply = function(game, seat, a) game.stat(\"n\", (game.stat(\"n\") or 0) + 1) if a == \"bad\" then error(\"no\") end end }",
    ));
    let mut g = Game::new(def, Setup::new(1, 1)).unwrap();
    g.apply("ok").unwrap();
    assert!(g.apply("bad").is_err());
    assert_eq!(g.state().stats.get("n"), Some(&1.0));
}

/// A game that lines up before it starts: seat 2 picks a place first (`set_active`, no turn
/// ends), then seat 1 starts the race (its turn ends), seat 2 moves, and seat 1 wins. The first mover is the seat that
/// started (seat 1, whose action ends the first turn), not the one that lined up first.
const LINE_UP: &str = r#"
return {
    setup = function(game) game.set_active(2) end,
    actions = function(game, seat)
        if game.get("lined") == nil then return { "line-up" } end
        return { "go" }
    end,
    apply = function(game, seat, action)
        if action == "line-up" then
            game.set("lined", true)
            game.set_active(1)
            return
        end
        if seat == 1 then
            game.end_turn()
            return
        end
        game.finish({ 1, 2 }, { 1, 0 }, "the starter wins")
    end,
}
"#;

#[test]
fn the_first_mover_is_the_seat_that_starts_not_the_one_that_lines_up_first() {
    let def = Arc::new(support::probe(LINE_UP));
    let outcomes = Batch::new(&def, Setup::new(2, 1), &["random".into()], 100)
        .unwrap_or_else(|e| panic!("{e}"))
        .games(10)
        .checks(Checks {
            labels: Labels::Never,
            profile: false,
            figures: true,
        })
        .outcomes();
    let mut t = Tally::new(&def, 2);
    for o in &outcomes {
        assert!(o.error.is_none(), "{:?}", o.error);
        t.add(o);
    }
    let f = t.stats().figures;
    assert_eq!(f.first_mover_games, 10);
    assert_eq!(f.first_mover_win_rate, Some(1.0), "seat 2 lined up first");
}
