//! The `farebox` command line, run in-process through `farebox_editor::run`: the terminal game
//! in `play.rs`, `farebox new` in `new.rs`, `farebox test --accept` in `accept.rs`, the other
//! commands here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox_suite::{games, load, mod_dir};

#[path = "../common/game_cli.rs"]
mod game_cli;
#[path = "../common/run.rs"]
mod run;

mod accept;
mod authoring;
mod board_play;
mod critter_cab;
mod determinism;
mod dicey_curves;
mod figures;
mod messages;
mod new;
mod paired;
mod play;
mod playouts;
mod shards;
mod skill;
mod taxi_derby_replay;
mod tune;
mod wheres_my_ride;
use run::{farebox, farebox_with_input, s};

fn scratch(name: &str) -> PathBuf {
    run::scratch_in("cli", name)
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

#[test]
fn list_shows_every_bundled_mod() {
    let r = farebox(&["list"]);
    assert_eq!(r.code, 0, "{}", r.err);
    for id in games() {
        assert!(r.out.contains(&id), "{id} missing from:\n{}", r.out);
    }
    assert!(
        r.out
            .lines()
            .any(|l| l.starts_with("curbside") && l.contains("playable")),
        "{}",
        r.out
    );
    // Every bundled game has rules now: none is listed as content only.
    for game in games() {
        let game = &format!("{game} ");
        assert!(
            r.out
                .lines()
                .any(|l| l.starts_with(game) && l.contains("playable")),
            "{game}: {}",
            r.out
        );
    }
    assert!(!r.out.contains("content only"), "{}", r.out);
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
fn validate_skips_what_is_not_a_mod_folder() {
    let mods = mod_dir("curbside").parent().unwrap().to_path_buf();
    let readme = s(&mods.join("README.md"));
    let empty = scratch("validate-skip");
    let r = farebox(&["validate", &readme, &s(&mod_dir("curbside")), &s(&empty)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains(&format!("{readme}: skipped, a file, not a mod folder\n")),
        "{}",
        r.err
    );
    assert!(
        r.err.contains(&format!(
            "{}: skipped, a folder without a mod.toml\n",
            s(&empty)
        )),
        "{}",
        r.err
    );
    assert!(r.err.contains("curbside: ok"), "{}", r.err);
    // A mod with errors still fails, skipped arguments or not.
    let broken = scratch("validate-skip-broken").join("curbside");
    copy_dir(&mod_dir("curbside"), &broken);
    std::fs::write(broken.join("mod.toml"), "id = 3\n").unwrap();
    let r = farebox(&["validate", &readme, &s(&broken)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    // Nothing validated at all is an error.
    let r = farebox(&["validate", &readme]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(r.err.contains("nothing was validated"), "{}", r.err);
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

/// A copy of Curbside in a scratch folder whose rules' hooks go through `lines` (Luau run with
/// the hooks table in `hooks` and the original hooks in `describe` and `apply`) before they are
/// returned; the folder and the original rules' text.
fn curbside_with_hooks(name: &str, lines: &str) -> (PathBuf, String) {
    let dir = scratch(name).join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap_or_default();
    let at = text
        .rfind("\nreturn {")
        .expect("the rules end with their hooks");
    let changed = format!(
        "{}\nlocal hooks = {}\nlocal describe, apply = hooks.describe, hooks.apply\n{lines}\nreturn hooks\n",
        &text[..at],
        &text[at + "\nreturn ".len()..]
    );
    std::fs::write(&rules, changed).unwrap_or_else(|e| panic!("{e}"));
    (dir, text)
}

#[test]
fn validate_runs_setup_and_finds_rules_that_remember_between_calls() {
    // Curbside's rules with a counter of `describe` calls kept in a top-level local and
    // written into the game: the game depends on how often people's screens ask for labels.
    let (dir, text) = curbside_with_hooks(
        "remembers",
        "local described = 0\nhooks.describe = function(g, seat, action) described += 1 return describe(g, seat, action) end\nhooks.apply = function(g, seat, action) game.set(\"_described\", described) return apply(g, seat, action) end",
    );
    let rules = dir.join("rules/curbside.luau");
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "rules/curbside.luau: error: the rules remember something between hook calls"
        ),
        "{}",
        r.out
    );
    assert!(r.out.contains("describe"), "{}", r.out);
    // A setup that fails is reported with its file and line.
    let failing = text.replacen(
        "\tsetup = function(_g)\n",
        "\tsetup = function(_g)\n\t\terror(\"setup cannot find the board\")\n",
        1,
    );
    assert_ne!(failing, text);
    std::fs::write(&rules, failing).unwrap_or_else(|e| panic!("{e}"));
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("curbside.luau:"), "{}", r.out);
    assert!(r.out.contains("setup cannot find the board"), "{}", r.out);
    assert!(r.out.contains("in setup"), "{}", r.out);
}

#[test]
fn plain_validate_finds_a_label_that_fails_in_play() {
    // The label everyone else is shown for turning the cab fails: not at the first decision,
    // but on the first turn a cab can turn, which the short trial games reach.
    let (dir, _) = curbside_with_hooks(
        "label-fails",
        "hooks.describe = function(g, seat, action)\n  if game.viewer() == nil and string.find(action, \"^rotate\") then error(\"no words for a turn\") end\n  return describe(g, seat, action)\nend",
    );
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "the label everyone else is shown (describe read as a spectator) for `rotate"
        ),
        "{}",
        r.out
    );
    assert!(r.out.contains("rules/curbside.luau:"), "{}", r.out);
    assert!(r.out.contains("no words for a turn"), "{}", r.out);
    assert!(r.out.contains("(found in a trial game: "), "{}", r.out);
    assert!(r.err.contains("curbside: 1 error"), "{}", r.err);
}

#[test]
fn validate_deep_plays_the_longer_games_farebox_test_checks() {
    // Problems that show only after 100 actions: the short games of a plain `validate` stop
    // before them; --deep plays far enough, as `farebox test` does before its outcomes.
    let count = "hooks.apply = function(g, seat, action)\n  game.set(\"_applied\", (game.get(\"_applied\") or 0) + 1)\n  return apply(g, seat, action)\nend\nlocal function late() return (game.get(\"_applied\") or 0) >= 100 end";
    let (dir, _) = curbside_with_hooks(
        "deep-label",
        &format!(
            "{count}\nhooks.describe = function(g, seat, action)\n  if late() and game.viewer() == nil then error(\"no words this late\") end\n  return describe(g, seat, action)\nend"
        ),
    );
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.err.contains("curbside: ok"), "{}", r.err);
    let r = farebox(&["validate", "--deep", &s(&dir)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("no words this late"), "{}", r.out);
    assert!(r.out.contains("(found in a trial game: "), "{}", r.out);

    // A top-level local counting describe calls that changes the game only late.
    let (dir, _) = curbside_with_hooks(
        "deep-remembers",
        &format!(
            "{count}\nlocal described = 0\nhooks.describe = function(g, seat, action) described += 1 return describe(g, seat, action) end\nlocal counted = hooks.apply\nhooks.apply = function(g, seat, action)\n  if late() then game.set(\"_described\", described) end\n  return counted(g, seat, action)\nend"
        ),
    );
    let r = farebox(&["validate", &s(&dir)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let line = "rules/curbside.luau: error: the rules remember something between hook calls";
    for args in [&["validate", "--deep", &s(&dir)][..], &["test", &s(&dir)]] {
        let r = farebox(args);
        assert_eq!(r.code, 1, "{args:?}: {}{}", r.out, r.err);
        assert!(r.out.contains(line), "{args:?}: {}", r.out);
        assert!(r.out.contains("describe"), "{args:?}: {}", r.out);
    }
}

#[test]
fn bench_validate_times_each_part_of_every_bundled_mod() {
    let r = farebox(&["bench", "--validate", "--iterations", "1"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let mut lines = r.out.lines();
    let first = lines.next().unwrap_or_default();
    assert!(
        first.starts_with("farebox validate of each bundled mod: milliseconds"),
        "{first}"
    );
    let header = lines.next().unwrap_or_default();
    for part in ["load", "vm", "trials", "replays", "total"] {
        assert!(header.contains(part), "{header}");
    }
    for id in games() {
        let id = id.as_str();
        assert!(
            r.out
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{id} "))),
            "{id} missing from:\n{}",
            r.out
        );
    }
    // --deep is for --validate only.
    let r = farebox(&["bench", "curbside", "--deep"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
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
fn every_subcommand_has_help() {
    for cmd in [
        "studio",
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
    let r = farebox(&["studio", "--help"]);
    assert_eq!(r.code, 0);
    assert!(r.out.contains("Open Farebox Studio"), "{}", r.out);
    let r = farebox(&["studio", "no-such-game"]);
    assert_eq!(
        r.code, 2,
        "a mod that is not there fails before a window opens"
    );
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
        "ties",
        "tie_rate",
        "tie_rate_interval",
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
fn test_passes_for_every_bundled_mod_with_rules() {
    for id in games().into_iter().chain(farebox_suite::house_rules()) {
        let id = id.as_str();
        let r = farebox(&["test", id]);
        assert_eq!(r.code, 0, "{id}: {}{}", r.out, r.err);
        assert!(
            r.out.contains("outcomes match the accepted ones"),
            "{}",
            r.out
        );
    }
    let r = farebox(&["test", &s(&content_only_copy("test-content-only"))]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("has no rule scripts yet"), "{}", r.err);
}

/// A copy of Where's My Ride? in a scratch folder with its rule scripts and bot taken out: the
/// game's content, loading as it does, with nothing to play it.
fn content_only_copy(name: &str) -> PathBuf {
    let to = scratch(name).join("wheres-my-ride");
    copy_dir(&mod_dir("wheres-my-ride"), &to);
    let manifest = std::fs::read_to_string(to.join("mod.toml")).unwrap();
    let mut kept = Vec::new();
    let mut in_bots = false;
    for line in manifest.lines() {
        in_bots = (in_bots || line == "[[bots]]") && !line.is_empty();
        if !in_bots && !line.starts_with("scripts = ") {
            kept.push(line);
        }
    }
    assert!(
        kept.len() < manifest.lines().count() - 4,
        "nothing taken out"
    );
    std::fs::write(to.join("mod.toml"), kept.join("\n") + "\n").unwrap();
    std::fs::remove_dir_all(to.join("rules")).unwrap();
    std::fs::remove_dir_all(to.join("bots")).unwrap();
    let r = farebox(&["validate", &s(&to)]);
    assert_eq!(r.code, 0, "the copy loads: {}{}", r.out, r.err);
    to
}

#[test]
fn commands_that_play_refuse_a_mod_without_rules_up_front() {
    let out = scratch("content-only").join("never-written.json");
    let out = out.to_str().unwrap();
    let content = s(&content_only_copy("content-only-game"));
    for args in [
        &["play", &content][..],
        &["sim", &content, "--games", "3"],
        &["record", &content, "--out", out],
        &["bench", &content, "--games", "3"],
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
        r.out
            .contains("outcomes changed from the accepted ones beyond their 95% intervals"),
        "{}",
        r.out
    );
    // Each changed figure with its interval on both sides.
    assert!(
        r.out
            .contains("\n  stat refuels: accepted 5.17 (4.75-5.58), now "),
        "{}",
        r.out
    );
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
    // Accepted by the mod's own bot when none is named.
    assert!(r.out.contains("bots dispatcher)"), "{}", r.out);
    // Without a snapshot there is nothing to compare with.
    std::fs::remove_file(copy.join("snapshots/outcomes.json")).unwrap();
    let r = farebox(&["test", &s(&copy)]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no accepted outcomes yet"), "{}", r.err);
}

#[test]
fn replay_gives_the_game_as_one_seat_saw_it() {
    let dir = scratch("replay-seat");
    let file = dir.join("game.json");
    let r = farebox(&[
        "record",
        "curbside",
        "--seed",
        "7",
        "--out",
        &file.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let r = farebox(&["replay", &file.to_string_lossy(), "--seat", "2"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    assert_eq!(lines[0], "Curbside 1.0.0, as Red saw it", "{}", r.out);
    // Red's own actions in Red's words, Yellow's told of Yellow.
    assert!(r.out.contains(" Red    End your turn"), "{}", r.out);
    assert!(
        r.out.contains(" Yellow Ends the turn") || r.out.contains(" Yellow Draws"),
        "{}",
        r.out
    );
    // A private line ("You draw ...") only ever follows one of Red's own actions.
    let mut last_actor = "";
    let mut private = 0;
    for l in &lines[1..] {
        if let Some(rest) = l.trim_start().strip_prefix("* ") {
            if rest.starts_with("You draw") {
                assert_eq!(last_actor, "Red", "{}", r.out);
                private += 1;
            }
        } else if let Some(actor) = l.split_whitespace().nth(1) {
            last_actor = actor;
        }
    }
    assert!(private > 0, "Red drew nothing in this game: {}", r.out);
    assert!(!r.out.contains("seed"), "{}", r.out);
    // Yellow's transcript holds Yellow's private lines, not Red's.
    let out = dir.join("yellow.txt");
    let r = farebox(&[
        "replay",
        &file.to_string_lossy(),
        "--seat",
        "1",
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.starts_with("Curbside 1.0.0, as Yellow saw it\n"),
        "{text}"
    );
    assert!(
        text.contains(" Yellow End your turn") || text.contains(" Yellow Draw a tile"),
        "{text}"
    );
    // A seat the game does not have is refused.
    let r = farebox(&["replay", &file.to_string_lossy(), "--seat", "3"]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.contains("no seat 3"), "{}", r.out);
}

#[test]
fn sim_gives_figures_per_card_and_forbids_what_it_is_told() {
    let r = farebox(&[
        "sim",
        "critter-cab",
        "--games",
        "30",
        "--bots",
        "cabbie",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let one: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    for key in [
        "first_mover_win_rate",
        "turns_spread",
        "lead_changes_mean",
        "stats",
    ] {
        assert!(!one[key].is_null(), "no {key}: {}", r.out);
    }
    let cards = one["cards"].as_object().expect("a cards object");
    let (id, card) = cards
        .iter()
        .find(|(_, c)| c["games_played"].as_u64() > Some(0))
        .expect("a card played");
    for key in [
        "games_held",
        "win_rate_held",
        "games_played",
        "win_rate_played",
    ] {
        assert!(card.get(key).is_some(), "{id} has no {key}");
    }
    assert!(one["stats"]["winning_margin"]["games"].as_u64() == Some(30));
    // The same figures on two threads.
    let r2 = farebox(&[
        "sim",
        "critter-cab",
        "--games",
        "30",
        "--bots",
        "cabbie",
        "--json",
        "--threads",
        "2",
    ]);
    let two: serde_json::Value = serde_json::from_str(&r2.out).unwrap();
    for key in [
        "cards",
        "pieces",
        "options",
        "stats",
        "first_mover_win_rate",
        "win_rate",
    ] {
        assert_eq!(one[key], two[key], "{key} differs between 1 and 2 threads");
    }
    // Forbidding the card the bots played: nobody plays it any more.
    let r = farebox(&[
        "sim",
        "critter-cab",
        "--games",
        "30",
        "--bots",
        "cabbie",
        "--json",
        "--forbid",
        id,
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let without: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let played = without["cards"][id.as_str()]["games_played"]
        .as_u64()
        .unwrap_or(0);
    assert_eq!(played, 0, "{id} was still played");
    // An id the mod does not have is refused, with the nearest names.
    let r = farebox(&["sim", "critter-cab", "--games", "3", "--forbid", "move-66"]);
    assert_eq!(r.code, 2, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("--forbid move-66") && r.err.contains("did you mean"),
        "{}",
        r.err
    );
}

#[test]
fn sim_counts_each_card_once_and_as_played_when_an_action_plays_it() {
    // Curbside's road-tile cards share their ids with the tiles they show, and a canteen, a
    // pothole or a re-route is played by an action of its own: each card is one row of the
    // figures (never again as a tile), and the cards played from hand count as played.
    let r = farebox(&["sim", "curbside", "--games", "30", "--json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let one: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let cards = one["cards"].as_object().expect("a cards object");
    let tiles = one["tiles"].as_object().expect("a tiles object");
    for id in tiles.keys() {
        assert!(
            !cards.contains_key(id),
            "{id} is a card and a tile: {}",
            r.out
        );
    }
    let played = |id: &str| cards[id]["games_played"].as_u64().unwrap_or(0);
    assert!(played("cs-t4") > 0, "{}", r.out);
    assert!(
        played("start-canteen") + played("cs-t10") > 0,
        "no canteen played: {}",
        r.out
    );
    assert!(
        played("start-reroute") + played("cs-t11") > 0,
        "no re-route played: {}",
        r.out
    );
    assert!(played("cs-t12") > 0, "no pothole played: {}", r.out);
}
