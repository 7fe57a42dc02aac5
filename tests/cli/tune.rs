//! `farebox tune` on a deliberately unbalanced copy of each competitive bundled game: the copy
//! gives the seat that moves first a head start (an option, `head-start`, whose default is
//! the extra amount of the game's score counter that seat starts with, added by one more
//! rule script), and the tuner, free to change any option default, must bring
//! `first_mover_win_rate` back to what the game itself gives, a result that holds on a fresh
//! seed range.
//!
//! Curbside runs in CI (random bots, 200 games a candidate); the other three are
//! `#[ignore]`d for time in a debug build. Run them with:
//! `cargo test -p farebox-suite --test cli tune -- --include-ignored`
//! (in release, `--release`, they take a few seconds each).

use std::path::PathBuf;

use super::{copy_dir, farebox, s, scratch};

/// A competitive game and how its copy is unbalanced.
struct Unbalanced {
    game: &'static str,
    /// The seat counter the head start adds to.
    counter: &'static str,
    /// How much the first mover gets.
    head_start: u32,
    players: &'static str,
    /// The agents: random where random play shows the head start clearly.
    bots: &'static str,
    games: &'static str,
}

/// A copy of `u.game` in a scratch folder with the head start written in: an option in its
/// `mod.toml` and a rule script, run after the game's own setup, that adds it.
fn unbalanced_copy(u: &Unbalanced) -> PathBuf {
    let dir = scratch(&format!("tune-{}", u.game)).join(u.game);
    copy_dir(&super::mod_dir(u.game), &dir);
    let manifest = dir.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let script = format!("rules/{}.luau", u.game);
    let scripts = format!("scripts = [\"{script}\"]");
    assert!(
        text.contains(&scripts),
        "{}: no `{scripts}`",
        manifest.display()
    );
    let text = text.replace(
        &scripts,
        &format!("scripts = [\"{script}\", \"rules/head-start.luau\"]"),
    );
    let text = format!(
        "{text}\n# The imbalance under test: the first mover starts ahead.\n[[options]]\nid = \"head-start\"\nlabel = \"Head start\"\ndescription = \"Extra {} for the seat that moves first.\"\ntype = \"int\"\ndefault = {}\nmin = 0\nmax = 100\n",
        u.counter, u.head_start
    );
    std::fs::write(&manifest, text).unwrap();
    std::fs::write(
        dir.join("rules/head-start.luau"),
        format!(
            "--!strict\n-- The first mover's head start (a test's deliberate imbalance).\nreturn {{\n\tafter = {{\n\t\tsetup = function(_g)\n\t\t\tgame.add_counter(\"{}\", game.active(), game.option(\"head-start\"))\n\t\tend,\n\t}},\n}}\n",
            u.counter
        ),
    )
    .unwrap();
    dir
}

/// `first_mover_win_rate` and its interval from `sim --json`.
fn first_mover(game: &str, u: &Unbalanced, seed: &str) -> (f64, [f64; 2]) {
    let r = farebox(&[
        "sim",
        game,
        "--games",
        u.games,
        "--players",
        u.players,
        "--bots",
        u.bots,
        "--seed",
        seed,
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let i = &v["first_mover_win_rate_interval"];
    (
        v["first_mover_win_rate"].as_f64().unwrap(),
        [i[0].as_f64().unwrap(), i[1].as_f64().unwrap()],
    )
}

/// The whole check for one game (see the module).
fn tuner_restores(u: &Unbalanced) {
    let copy = unbalanced_copy(u);
    let copy_s = s(&copy);
    // The target: the game as bundled, rounded to a hundredth, give or take 0.06.
    let (fair, _) = first_mover(u.game, u, "1");
    let goal = (fair * 100.0).round() / 100.0;
    let tol = 0.06;
    let (skewed, [lo, _]) = first_mover(&copy_s, u, "1");
    assert!(
        lo > goal + tol,
        "{}: the head start should put the first mover clearly above {goal}±{tol}: {skewed} (from {lo})",
        u.game
    );
    let target = format!("first_mover_win_rate={goal}±{tol}");
    let r = farebox(&[
        "tune",
        &copy_s,
        "--target",
        &target,
        "--fields",
        "options.*.default",
        "--games",
        u.games,
        "--players",
        u.players,
        "--bots",
        u.bots,
        "--budget",
        "40",
        "--json",
        "--apply",
    ]);
    assert_eq!(r.code, 0, "{}: {}\n{}", u.game, r.err, r.out);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["met"], true, "{}", r.out);
    assert_eq!(v["held"], true, "{}", r.out);
    let changes = v["changes"].as_array().unwrap();
    assert!(
        !changes.is_empty() && changes.len() <= 3,
        "{}: {}",
        u.game,
        r.out
    );
    let after = v["check"]["after"]["value"].as_f64().unwrap();
    assert!(
        (after - goal).abs() < (skewed - goal).abs(),
        "{}: the check's figure {after} is no nearer {goal} than {skewed}",
        u.game
    );
    // The diff names mod.toml lines, and --apply wrote them, comments kept.
    let diff = v["diff"].as_array().unwrap();
    assert!(!diff.is_empty(), "{}", r.out);
    let text = std::fs::read_to_string(copy.join("mod.toml")).unwrap();
    for d in diff {
        let file = d["file"].as_str().unwrap();
        let line = d["line"].as_u64().unwrap() as usize;
        let written = std::fs::read_to_string(copy.join(file)).unwrap();
        assert_eq!(
            written.lines().nth(line - 1),
            d["new"].as_str(),
            "{file}:{line} after --apply"
        );
    }
    assert!(text.contains("# The imbalance under test: the first mover starts ahead."));
    assert_eq!(v["applied"].as_array().map(Vec::len), Some(1), "{}", r.out);
    // A third seed range, never seen by the tuner, agrees.
    let (fresh, [flo, fhi]) = first_mover(&copy_s, u, "5000001");
    assert!(
        flo <= goal + tol && fhi >= goal - tol,
        "{}: after --apply, seeds from 5000001 give {fresh} ({flo} to {fhi}), not {goal}±{tol}",
        u.game
    );
}

#[test]
fn tune_restores_the_first_movers_rate_in_curbside() {
    tuner_restores(&Unbalanced {
        game: "curbside",
        counter: "stars",
        head_start: 1,
        players: "2",
        bots: "random",
        games: "200",
    });
}

#[test]
#[ignore = "minutes in a debug build: run with --include-ignored (see the module)"]
fn tune_restores_the_first_movers_rate_in_taxi_derby() {
    tuner_restores(&Unbalanced {
        game: "taxi-derby",
        counter: "money",
        head_start: 10,
        players: "2",
        bots: "random",
        games: "200",
    });
}

#[test]
#[ignore = "minutes in a debug build: run with --include-ignored (see the module)"]
fn tune_restores_the_first_movers_rate_in_critter_cab() {
    tuner_restores(&Unbalanced {
        game: "critter-cab",
        counter: "coins",
        head_start: 10,
        players: "2",
        bots: "random",
        games: "200",
    });
}

#[test]
#[ignore = "minutes in a debug build: run with --include-ignored (see the module)"]
fn tune_restores_the_first_movers_rate_in_dicey_curves() {
    tuner_restores(&Unbalanced {
        game: "dicey-curves",
        counter: "chips",
        head_start: 6,
        players: "2",
        bots: "racer",
        games: "100",
    });
}

#[test]
fn tune_names_what_exists_when_asked_for_what_does_not() {
    let r = farebox(&[
        "tune",
        "curbside",
        "--target",
        "first_mover_win_rate=0.5±0.03",
        "--fields",
        "options.no-such-option.default",
    ]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err
            .contains("no numeric field matches `options.no-such-option.default`")
            && r.err.contains("options.starting-gas.default"),
        "{}",
        r.err
    );
    let r = farebox(&[
        "tune",
        "curbside",
        "--target",
        "first_movers=0.5±0.03",
        "--fields",
        "options.starting-gas.default",
        "--games",
        "4",
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err.contains("has no figure `first_movers`") && r.err.contains("first_mover_win_rate"),
        "{}",
        r.err
    );
    let r = farebox(&["tune", "curbside", "--list-fields"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("decks.road-tiles.cs-t3.count = "),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("options.starting-gas.default = 12"),
        "{}",
        r.out
    );
}
