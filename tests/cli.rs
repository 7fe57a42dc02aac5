//! The `farebox` command line, run in-process through `farebox_editor::run`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox_suite::{GAMES, load, mod_dir};

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn farebox_with_input(args: &[&str], input: &str) -> Run {
    let mut all = vec!["farebox".to_string()];
    all.extend(args.iter().map(|s| s.to_string()));
    let mut stdin = input.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = farebox_editor::run(all, &mut stdin, &mut out, &mut err);
    Run {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

fn farebox(args: &[&str]) -> Run {
    farebox_with_input(args, "")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("farebox-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for e in std::fs::read_dir(from)
        .unwrap_or_else(|e| panic!("{}: {e}", from.display()))
        .flatten()
    {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name()))
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        }
    }
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn list_shows_every_bundled_mod() {
    let r = farebox(&["list"]);
    assert_eq!(r.code, 0, "{}", r.err);
    for id in GAMES {
        assert!(r.out.contains(id), "{id} missing from:\n{}", r.out);
    }
    assert!(
        r.out
            .lines()
            .any(|l| l.starts_with("curbside") && l.contains("playable")),
        "{}",
        r.out
    );
    assert!(r.out.contains("content only"), "{}", r.out);
    assert!(
        r.out
            .lines()
            .any(|l| l.starts_with("curbside-gas-station") && l.ends_with("builds on curbside")),
        "a house rule says what it builds on:\n{}",
        r.out
    );
}

#[test]
fn validate_a_good_mod() {
    let r = farebox(&["validate", &s(&mod_dir("curbside"))]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.err.contains(": ok"), "{}", r.err);
    let r = farebox(&["validate", "curbside", "taxi-derby"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn validate_reports_a_typo_with_its_position() {
    let dir = scratch("typo").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let toml = dir.join("mod.toml");
    let text = std::fs::read_to_string(&toml).unwrap_or_default();
    assert!(text.contains("\nplayers = "));
    std::fs::write(&toml, text.replace("\nplayers = ", "\nplayres = "))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let line = r
        .out
        .lines()
        .find(|l| l.contains("mod.toml:"))
        .unwrap_or_else(|| panic!("no mod.toml diagnostic in:\n{}", r.out));
    let rest = &line[line.find("mod.toml:").unwrap_or(0) + "mod.toml:".len()..];
    let parts: Vec<&str> = rest.splitn(3, ':').collect();
    assert!(
        parts.len() == 3 && parts[0].parse::<usize>().is_ok() && parts[1].parse::<usize>().is_ok(),
        "{line}"
    );
    assert!(parts[2].starts_with(" error:"), "{line}");
    assert!(r.err.contains("error"), "{}", r.err);
}

#[test]
fn unknown_mods_get_a_suggestion_and_exit_2() {
    let r = farebox(&["validate", "curbsid"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err
            .contains("error: no mod `curbsid`; did you mean `curbside`?"),
        "{}",
        r.err
    );
}

#[test]
fn sim_prints_json() {
    let r = farebox(&[
        "sim",
        "curbside",
        "--games",
        "20",
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value =
        serde_json::from_str(r.out.trim()).unwrap_or_else(|e| panic!("{e}: {}", r.out));
    assert_eq!(v["games"], 20);
    assert_eq!(v["players"], 2);
    assert_eq!(
        v["finished"].as_u64().unwrap_or(0)
            + v["capped"].as_u64().unwrap_or(0)
            + v["errors"].as_u64().unwrap_or(0),
        20
    );
    for key in [
        "actions_mean",
        "actions_sd",
        "turns_mean",
        "turns_sd",
        "seconds",
        "games_per_second",
        "seed",
    ] {
        assert!(v[key].is_number(), "{key} in {v}");
    }
    for key in ["win_rate", "score_mean", "score_sd", "bots"] {
        assert!(v[key].is_array(), "{key} in {v}");
    }
    assert_eq!(v["win_rate"].as_array().map(Vec::len), Some(2));
    // Seeded runs repeat, whatever the thread count.
    let again = farebox(&[
        "sim",
        "curbside",
        "--games",
        "20",
        "--json",
        "--threads",
        "1",
    ]);
    let w: serde_json::Value = serde_json::from_str(again.out.trim()).unwrap_or_default();
    assert_eq!(v["actions_mean"], w["actions_mean"]);
    assert_eq!(v["win_rate"], w["win_rate"]);
}

#[test]
fn record_then_replay_verifies_and_tampering_fails() {
    let dir = scratch("replay");
    let file = dir.join("game.json");
    let r = farebox(&["record", "curbside", "--seed", "4", "--out", &s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(!dir.join("game.json.tmp").exists());
    let r = farebox(&["replay", &s(&file)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.starts_with("verified: "), "{}", r.out);

    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let steps = v["steps"]
        .as_array_mut()
        .unwrap_or_else(|| panic!("no steps"));
    assert!(steps.len() > 3);
    steps[2]["action"] = serde_json::Value::String("teleport to the moon".into());
    let bad = dir.join("tampered.json");
    std::fs::write(&bad, v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let r = farebox(&["replay", &s(&bad), "--mod", "curbside"]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("replay does not verify: action 3"),
        "{}",
        r.out
    );
}

#[test]
fn play_shows_numbered_actions() {
    let r = farebox_with_input(
        &["play", "curbside", "--seats", "human,random", "--seed", "3"],
        "2\n1\n1\n1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("Actions:"), "{}", r.out);
    assert!(r.out.contains("   1. "), "{}", r.out);
    assert!(r.out.contains("you are Yellow"), "{}", r.out);
    // Pieces show their properties (which destination is whose), bookkeeping stays out.
    assert!(r.out.contains("passenger (color yellow, gas "), "{}", r.out);
    assert!(
        r.out.contains("destination (color yellow) at "),
        "{}",
        r.out
    );
    assert!(
        !r.out.contains("_laid") && !r.out.contains("_active"),
        "{}",
        r.out
    );
    // Cards go by their names; the log tells the player what happened, their draw included.
    assert!(r.out.contains("Gas canteen, Re-route"), "{}", r.out);
    assert!(r.out.contains("  * Yellow draws a tile"), "{}", r.out);
    assert!(r.out.contains("  * You draw "), "{}", r.out);
    // The board draws each road's shape: the corner crossroads is open on all sides.
    assert!(r.out.contains("┼t1/0[Y]"), "{}", r.out);
    // Passengers and destinations are marked with their color, so pairs can be matched.
    assert!(
        r.out.contains("[py]") && r.out.contains("[dy]"),
        "{}",
        r.out
    );
    assert!(r.out.contains("Bye."), "{}", r.out);
}

#[test]
fn play_quits_cleanly_at_end_of_input() {
    let r = farebox_with_input(
        &["play", "curbside", "--seats", "human,human", "--seed", "3"],
        "\n1\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("Pass to Yellow and press Enter"),
        "{}",
        r.out
    );
}

#[test]
fn play_keeps_the_other_hand_hidden() {
    let seed = 11;
    // What seat 1 may not see: seat 0's hand.
    let def = Arc::new(load("curbside"));
    let game = Game::new(def, Setup::new(2, seed)).unwrap_or_else(|e| panic!("{e}"));
    let mine = game.view(Some(0));
    let theirs = game.view(Some(1));
    let hand = |v: &farebox::game::View| {
        v.zones
            .iter()
            .find(|z| z.id == "hand" && z.owner == Some(0))
            .cloned()
    };
    let (Some(hidden_from_1), Some(seen_by_0)) = (hand(&theirs), hand(&mine)) else {
        panic!("no hand zone")
    };
    assert!(hidden_from_1.cards.is_empty() && !seen_by_0.cards.is_empty());

    let r = farebox_with_input(
        &[
            "play",
            "curbside",
            "--seats",
            "random,human",
            "--seed",
            &seed.to_string(),
        ],
        "1\n1\n1\n?\n1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("you are Red"), "{}", r.out);
    // The log is told to Red as far as Red may see it: Yellow's draws are public, what Yellow
    // drew is not (lines told after a bot's action are indented by four).
    assert!(r.out.contains("    * Yellow draws a tile"), "{}", r.out);
    assert!(!r.out.contains("    * You draw"), "{}", r.out);
    for line in r
        .out
        .lines()
        .filter(|l| l.trim_start().starts_with("hand of Yellow"))
    {
        assert!(
            line.ends_with("(hidden)") || line.ends_with(" 0 cards"),
            "{line}"
        );
    }
    assert!(
        r.out
            .lines()
            .any(|l| l.trim_start().starts_with("hand of Red")
                && l.contains("Gas canteen")
                && l.contains("Re-route")),
        "{}",
        r.out
    );
}

#[test]
fn every_subcommand_has_help() {
    for cmd in [
        "list",
        "validate",
        "play",
        "sim",
        "record",
        "replay",
        "schema",
        "bench",
        "bench-load",
    ] {
        let r = farebox(&[cmd, "--help"]);
        assert_eq!(r.code, 0, "{cmd}: {}", r.err);
        assert!(r.out.contains("Usage: farebox"), "{cmd}: {}", r.out);
    }
    let r = farebox(&["--help"]);
    assert_eq!(r.code, 0);
    let r = farebox(&[]);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("Studio is not built yet"), "{}", r.out);
    let r = farebox(&["sim", "curbside", "--gmaes", "3"]);
    assert_eq!(r.code, 2);
}

#[test]
fn sim_help_documents_the_json_keys() {
    let r = farebox(&["sim", "--help"]);
    for key in [
        "games",
        "finished",
        "capped",
        "errors",
        "win_rate",
        "actions_mean",
        "actions_sd",
        "turns_mean",
        "turns_sd",
        "score_mean",
        "score_sd",
        "seconds",
        "games_per_second",
        "seed",
        "players",
        "bots",
    ] {
        assert!(r.out.contains(key), "{key} not documented");
    }
}

#[test]
fn new_makes_a_game_that_validates_and_plays() {
    let dir = scratch("new-game");
    let r = farebox(&["new", "night-shift", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let folder = dir.join("night-shift");
    for f in ["mod.toml", "pieces.toml", "rules/night-shift.luau"] {
        assert!(folder.join(f).is_file(), "{f}\n{}", r.out);
    }
    assert!(
        r.err.contains("farebox validate"),
        "says what to do next: {}",
        r.err
    );
    // The TOML files point at the repository's schemas, relative to themselves.
    let manifest = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    let line = manifest.lines().next().unwrap();
    let rel = line.strip_prefix("#:schema ").expect(line);
    assert!(!Path::new(rel).is_absolute(), "{rel}");
    assert!(
        folder.join(rel).is_file(),
        "{rel} from {}",
        folder.display()
    );
    assert_eq!(farebox(&["validate", &s(&folder)]).code, 0);
    let r = farebox(&["sim", &s(&folder), "--games", "50", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["finished"], 50, "{}", r.out);
    assert_eq!(v["errors"], 0, "{}", r.out);
    // Its action labels come from its describe hook.
    let r = farebox_with_input(&["play", &s(&folder), "--seats", "human,random"], "q\n");
    assert!(r.out.contains("Keep driving"), "{}", r.out);
}

#[test]
fn new_from_a_game_makes_a_house_rule_that_changes_nothing_yet() {
    let dir = scratch("new-house-rule");
    let r = farebox(&["new", "siesta", "--from", "curbside", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.err);
    let folder = dir.join("siesta");
    let manifest = std::fs::read_to_string(folder.join("mod.toml")).unwrap();
    assert!(manifest.contains(r#"depends = [{ id = "curbside", version = "1.0" }]"#));
    assert!(folder.join("patches/siesta.toml").is_file());
    assert!(folder.join("rules/siesta.luau").is_file());
    assert_eq!(farebox(&["validate", &s(&folder)]).code, 0);
    // Same seed, same game as Curbside itself: nothing is changed until the author says so.
    let a = farebox(&[
        "record",
        &s(&folder),
        "--seed",
        "4",
        "--out",
        &s(&dir.join("a.json")),
    ]);
    let b = farebox(&[
        "record",
        "curbside",
        "--seed",
        "4",
        "--out",
        &s(&dir.join("b.json")),
    ]);
    assert_eq!((a.code, b.code), (0, 0), "{}{}", a.err, b.err);
    let actions = |f: &str| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap();
        v["actions"].clone()
    };
    assert_eq!(actions("a.json"), actions("b.json"));
    // The commented examples use Curbside's real ids: uncommented, they load.
    let patch = std::fs::read_to_string(folder.join("patches/siesta.toml")).unwrap();
    let live: String = patch
        .lines()
        .map(|l| {
            let example = [
                "# [[decks",
                "# id ",
                "# remove ",
                "# name ",
                "# tile ",
                "# count ",
            ];
            if example.iter().any(|e| l.starts_with(e)) {
                l.trim_start_matches("# ").to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(folder.join("patches/siesta.toml"), live).unwrap();
    let r = farebox(&["validate", &s(&folder)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
}

#[test]
fn new_refuses_bad_names_existing_folders_and_unknown_games() {
    let dir = scratch("new-refusals");
    let r = farebox(&["new", "Night Shift", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("cannot be a mod id"), "{}", r.err);
    std::fs::create_dir_all(dir.join("taken")).unwrap();
    std::fs::write(dir.join("taken/notes.txt"), "mine").unwrap();
    let r = farebox(&["new", "taken", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("already exists"), "{}", r.err);
    assert_eq!(
        std::fs::read_to_string(dir.join("taken/notes.txt")).unwrap(),
        "mine",
        "nothing overwritten"
    );
    let r = farebox(&["new", "extra", "--from", "curbsde", "--dir", &s(&dir)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("did you mean `curbside`"), "{}", r.err);
    assert!(!dir.join("extra").exists(), "nothing written");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left.len(), 1, "no temporary folders left: {left:?}");
}

#[test]
fn test_passes_for_every_bundled_mod_with_rules() {
    for id in ["curbside", "curbside-gas-station"] {
        let r = farebox(&["test", id]);
        assert_eq!(r.code, 0, "{id}: {}{}", r.out, r.err);
        assert!(
            r.out.contains("outcomes match the accepted ones"),
            "{}",
            r.out
        );
    }
    let r = farebox(&["test", "taxi-derby"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("has no rule scripts yet"), "{}", r.err);
}

#[test]
fn commands_that_play_refuse_a_mod_without_rules_up_front() {
    let out = scratch("content-only").join("never-written.json");
    let out = out.to_str().unwrap();
    for args in [
        &["play", "taxi-derby-learners-permit"][..],
        &["sim", "taxi-derby-learners-permit", "--games", "3"],
        &["record", "dicey-curves", "--out", out],
        &["bench", "critter-cab", "--games", "3"],
    ] {
        let r = farebox_with_input(args, "1\n");
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.out, r.err);
        assert!(
            r.err
                .contains("has no rule scripts yet, so it cannot be played")
                && r.err.contains("`farebox validate "),
            "{args:?}: {}",
            r.err
        );
        // Nothing was played: no game summary, no agent complaint.
        assert!(!r.out.contains("games "), "{args:?}: {}", r.out);
        assert!(!r.err.contains("agent"), "{args:?}: {}", r.err);
    }
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn test_shows_what_a_change_does_and_accept_records_it() {
    let dir = scratch("test-outcomes");
    let copy = dir.join("curbside-gas-station");
    copy_dir(&mod_dir("curbside-gas-station"), &copy);
    // A bigger fill-up changes how games go.
    let manifest = std::fs::read_to_string(copy.join("mod.toml")).unwrap();
    let changed = manifest.replace("refuel_gas = 4", "refuel_gas = 9");
    assert_ne!(manifest, changed);
    std::fs::write(copy.join("mod.toml"), changed).unwrap();
    let r = farebox(&["test", &s(&copy)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("outcomes differ from the accepted ones"),
        "{}",
        r.out
    );
    assert!(r.out.contains("\n  actions_mean: accepted "), "{}", r.out);
    assert!(r.err.contains("--accept"), "says how to accept: {}", r.err);
    // Settings belong to --accept; a test replays the snapshot's own.
    assert_eq!(farebox(&["test", &s(&copy), "--games", "5"]).code, 2);
    let r = farebox(&[
        "test",
        &s(&copy),
        "--accept",
        "--games",
        "40",
        "--seed",
        "7",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let r = farebox(&["test", &s(&copy)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("40 games (seeds 7..46"), "{}", r.out);
    // Without a snapshot there is nothing to compare with.
    std::fs::remove_file(copy.join("snapshots/outcomes.json")).unwrap();
    let r = farebox(&["test", &s(&copy)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no accepted outcomes yet"), "{}", r.err);
}
