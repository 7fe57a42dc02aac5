//! The `farebox` command line, run in-process through `farebox_editor::run`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox_suite::{GAMES, load, mod_dir};

#[path = "common/run.rs"]
mod run;
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
    // All five games have rules now: none is listed as content only.
    for game in [
        "curbside ",
        "taxi-derby ",
        "critter-cab ",
        "dicey-curves ",
        "wheres-my-ride ",
    ] {
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

#[test]
fn validate_runs_setup_and_finds_rules_that_remember_between_calls() {
    // Curbside's rules with a counter of `describe` calls kept in a top-level local and
    // written into the game: the game depends on how often people's screens ask for labels.
    let dir = scratch("remembers").join("curbside");
    copy_dir(&mod_dir("curbside"), &dir);
    let rules = dir.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap_or_default();
    let at = text
        .rfind("\nreturn {")
        .expect("the rules end with their hooks");
    let changed = format!(
        "{}\nlocal described = 0\nlocal hooks = {}\nlocal describe, apply = hooks.describe, hooks.apply\nhooks.describe = function(g, seat, action) described += 1 return describe(g, seat, action) end\nhooks.apply = function(g, seat, action) game.set(\"_described\", described) return apply(g, seat, action) end\nreturn hooks\n",
        &text[..at],
        &text[at + "\nreturn ".len()..]
    );
    std::fs::write(&rules, changed).unwrap_or_else(|e| panic!("{e}"));
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

/// A small grid game written for these tests, so they can check exact text: a 4 x 2 board
/// with one tile of each kind the board drawing knows (a two-way road, a one-way road, a stop,
/// a dead end, a blocker on an empty cell, a blocker over a road and an empty cell), a named
/// cell ("home"), a taxi carrying a fare, zones of every sort, and actions whose `describe`
/// gives menu paths (`honk` ends the turn, `end` the game).
fn grid_demo(dir: &Path) -> PathBuf {
    let m = dir.join("grid-demo");
    let files = [
        (
            "mod.toml",
            r#"id = "grid-demo"
name = "Grid demo"
version = "1.0.0"
engine = "0.1"
players = { min = 1, max = 2 }
seat_names = ["Yellow", "Red"]
scripts = ["rules/demo.luau"]

[content]
board = "board.toml"
tiles = ["tiles.toml"]
decks = ["decks/chips.toml"]
pieces = "pieces.toml"
"#,
        ),
        (
            "board.toml",
            r#"kind = "grid"

[grid]
width = 4
height = 2

[[grid.cells]]
x = 1
y = 1
id = "home"
tile = "straight"
rotation = 1

[[grid.cells]]
x = 2
y = 1
tile = "oneway"
rotation = 1

[[grid.cells]]
x = 3
y = 1
tile = "stop"

[[grid.cells]]
x = 4
y = 1
tile = "stop"

[[grid.cells]]
x = 1
y = 2
tile = "stub"
rotation = 2
"#,
        ),
        (
            "tiles.toml",
            r#"[[tiles]]
id = "straight"
name = "Straight road"
roads = ["N-S"]

[[tiles]]
id = "oneway"
name = "One-way road"
roads = ["S>N"]

[[tiles]]
id = "stop"
name = "Four-way stop"
roads = ["N-S", "E-W", "N-E", "E-S", "S-W", "W-N"]
move_cost = 2
rotatable = false

[[tiles]]
id = "stub"
name = "Cul-de-sac"
roads = ["S"]

[[tiles]]
id = "rock"
name = "Fallen rock"
blocks = true
rotatable = false

[[tiles]]
id = "cone"
name = "Traffic cone"
blocks = true
rotatable = false
"#,
        ),
        (
            "decks/chips.toml",
            r#"id = "chips"
name = "Chips"

[[cards]]
id = "chip"
name = "Lucky chip"
count = 4
"#,
        ),
        (
            "pieces.toml",
            r#"[[pieces]]
id = "taxi"
name = "Taxi"
per_seat = true

[[pieces]]
id = "passenger"
name = "Passenger"
count = 3

[[counters]]
id = "fuel"
name = "Fuel"
scope = "seat"
initial = 5

[[counters]]
id = "moves"
name = "Moves left"
scope = "global"
initial = 2

[[zones]]
id = "pile"
name = "Chip pile"
visibility = "hidden"
deck = "chips"

[[zones]]
id = "ledger"
name = "Ledger"
visibility = "hidden"
deck = "chips"
shown = false

[[zones]]
id = "lost"
name = "Lost and found"
visibility = "hidden"

[[zones]]
id = "hand"
name = "Pocket"
per_seat = true
visibility = "owner"
"#,
        ),
        (
            "rules/demo.luau",
            r#"return {
  setup = function(g)
    game.move_piece(game.pieces("taxi", 1)[1], game.space("home"))
    local p = game.pieces("passenger")
    game.move_piece(p[1], game.cell(3, 1))
    game.set_prop(p[1], "color", "green")
    game.set_prop(game.pieces("taxi", 1)[1], "carrying", "blue")
    game.set_prop(game.pieces("taxi", 1)[1], "_secret", "hush")
    game.set_blocker(game.cell(2, 2), "rock")
    game.set_blocker(game.cell(4, 1), "cone")
    for s = 1, game.seats() do
      game.move_card(game.zone("pile"), game.zone("hand", s))
    end
  end,
  actions = function(g, seat)
    return { "end", "go e 1", "go e 2", "go s 1", "honk" }
  end,
  apply = function(g, seat, action)
    game.log("chose " .. action)
    if action == "end" then
      local places, scores = {}, {}
      for s = 1, game.seats() do
        places[s] = s
        scores[s] = 0
      end
      game.finish(places, scores, "the demo is over")
    end
    if action == "honk" then game.end_turn() end
  end,
  describe = function(g, seat, action)
    if action == "end" then return "End the demo" end
    if action == "honk" then return { "Honk" } end
    local w = string.split(action, " ")
    local way = if w[2] == "e" then "east" else "south"
    return { "Drive", way, w[3] .. " cells" }
  end,
}
"#,
        ),
    ];
    for (f, text) in files {
        let path = m.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    m
}

/// The lines of `out` after the first line that contains `from`.
fn after<'a>(out: &'a str, from: &str) -> Vec<&'a str> {
    out.lines().skip_while(|l| !l.contains(from)).collect()
}

#[test]
fn play_groups_actions_by_their_menu_paths() {
    let dir = scratch("play-menu");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(
        &["play", &demo, "--seats", "human", "--seed", "1"],
        "2\nb\n2 1 2\n1\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The top level: "Choices", not counted (a game's own counter may be about actions); an
    // action, a group with how many actions it holds, and a group of one folded into a plain
    // line; then the keys in short (no way back at the top).
    let top = [
        "Choices:",
        "  1. End the demo",
        "  2. Drive… (3 choices)",
        "  3. Honk",
        "number to choose · several at once (3 1 2) · ? board · q quit",
    ];
    let lines: Vec<&str> = r.out.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == top[0])
        .unwrap_or_else(|| panic!("no menu in:\n{}", r.out));
    assert_eq!(lines[at..at + 5], top, "{}", r.out);
    assert!(!r.out.contains("Actions ("), "{}", r.out);
    // Opening the group shows its level, under a line with the seat's counters and the
    // global ones (the rest of the screen may have scrolled away): `east` holds two actions,
    // `south` only one, so it is folded; the way back is listed, and the keys.
    let group = [
        "Yellow: Fuel 5 · Moves left: 2",
        "Drive… (3 choices):",
        "  1. east… (2 choices)",
        "  2. south 1 cells",
        "  0. back",
        "number to choose · several at once (3 1 2) · b back · ? board · q quit",
    ];
    let at = lines
        .iter()
        .position(|l| *l == group[1])
        .unwrap_or_else(|| panic!("no group level in:\n{}", r.out));
    // The prompt is on the same line: the input is not echoed here.
    assert_eq!(lines[at - 1], format!("Yellow> {}", group[0]), "{}", r.out);
    assert_eq!(lines[at..at + 5], group[1..], "{}", r.out);
    // `b` goes back to the top level (under the counters again); `2 1 2` goes down two
    // levels and acts at once.
    assert_eq!(
        lines.iter().filter(|l| **l == "Choices:").count(),
        3,
        "shown at the start, after going back and after acting:\n{}",
        r.out
    );
    assert!(
        r.out
            .contains("Yellow> Yellow: Fuel 5 · Moves left: 2\nChoices:\n"),
        "{}",
        r.out
    );
    // The keys are shown under every level, never the long help unless a line went wrong.
    assert_eq!(r.out.matches(" · q quit\n").count(), 4, "{}", r.out);
    assert!(!r.out.contains("Type a number"), "{}", r.out);
    // What the action did is told on the next screen, right above the menu.
    assert!(
        r.out.contains(
            "Since your last choice:\n    * chose go e 2\nYellow: Fuel 5 · Moves left: 2\nChoices:"
        ),
        "{}",
        r.out
    );
    assert!(!r.out.contains("chose go e 1"), "{}", r.out);
    assert!(r.out.contains("  * chose end"), "{}", r.out);
}

#[test]
fn play_shows_the_path_chosen_above_a_level_inside() {
    let dir = scratch("play-path");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(
        &["play", &demo, "--seats", "human", "--seed", "1"],
        "2 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let want = [
        "Yellow> Yellow: Fuel 5 · Moves left: 2",
        "Drive › east… (2 choices):",
        "  1. 1 cells",
        "  2. 2 cells",
        "  0. back",
        "number to choose · b back · ? board · q quit",
        "Yellow> Bye.",
    ];
    let lines: Vec<&str> = r.out.lines().collect();
    assert!(lines.len() >= want.len(), "{}", r.out);
    assert_eq!(lines[lines.len() - want.len()..], want, "{}", r.out);
}

#[test]
fn play_tells_what_happened_so_far_before_the_first_choice() {
    let dir = scratch("play-so-far");
    let demo = s(&grid_demo(&dir));
    // The bot (Yellow) honks first, which ends its turn; Red then honks too.
    let r = farebox_with_input(
        &["play", &demo, "--seats", "random,human", "--seed", "5"],
        // `i`: the news of the second screen, in full (the screen shows its latest lines).
        "3\ni\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains(
            "So far:\n  Yellow: Honk\n      * chose honk\nRed: Fuel 5 · Moves left: 2\nChoices:\n"
        ),
        "{}",
        r.out
    );
    let first = r.out.find("So far:").unwrap();
    let since = r
        .out
        .find("Since your last choice:\n    * chose honk\n")
        .unwrap_or_else(|| panic!("{}", r.out));
    assert!(first < since, "{}", r.out);
    assert_eq!(r.out.matches("So far:").count(), 1, "{}", r.out);
}

#[test]
fn play_refuses_a_line_that_does_not_fit_the_menu() {
    let dir = scratch("play-menu-bad");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(
        &["play", &demo, "--seats", "human", "--seed", "1"],
        "9\n1 1\nb\n2 7\n2 1 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`9` is not one of the choices here: type a number from 1 to 3."),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("1 (End the demo) is an action, not a group"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("You are at the top of the menu already."),
        "{}",
        r.out
    );
    // A line that goes wrong halfway changes nothing: `2 1 1` still starts at the top.
    assert!(
        r.out.contains("`7` is not one of the choices here"),
        "{}",
        r.out
    );
    assert!(r.out.contains("  * chose go e 1"), "{}", r.out);
}

#[test]
fn play_draws_a_grid_board_with_a_legend() {
    let dir = scratch("play-board");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(&["play", &demo, "--seats", "human", "--seed", "1"], "q\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let board: Vec<&str> = after(&r.out, "         1         2         3         4")
        .into_iter()
        .take(10)
        .collect();
    let want = [
        "         1         2         3         4",
        "    ·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·",
        // The taxi (Y) carries the blue fare; the green passenger waits at the stop.
        "    ┆ Y+b     ┆         ┆ pg ┃    ┆▒▒▒▒░▒▒▒▒┆",
        // A road east-west, a one-way road east, a stop sign: joined where they meet. A cone
        // closes the second stop: its name over the road, the road shaded, not joined.
        "  1 ┆━━━━━━━━━━━━→━━━━→━━━━━━■━━━━┆░░ cone ░┆",
        "    ┆         ┆         ┆    ┃    ┆▒▒▒▒░▒▒▒▒┆",
        "    ·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·",
        // A dead end open to the north (not joined: the road above runs east-west), a fallen
        // rock, two empty cells.
        "    ┆    ┃    ┆▒▒▒▒▒▒▒▒▒┆         ┆         ┆",
        "  2 ┆    ×    ┆▒▒ rock ▒┆    ·    ┆    ·    ┆",
        "    ┆         ┆▒▒▒▒▒▒▒▒▒┆         ┆         ┆",
        "    ·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·┄┄┄┄┄┄┄┄┄·",
    ];
    assert_eq!(board, want, "{}", r.out);
    // The legend: the marks used, a line for each kind of blocker, the marks of the pieces
    // on the board (the seat's, the passenger's by kind and color, what the taxi carries),
    // the tiles and the closed cells.
    let legend: Vec<&str> = after(&r.out, "Legend: ").into_iter().take(11).collect();
    let want = [
        "Legend: cells are named x,y (column, row)   ━┃ road",
        "        → one way: drive where the arrow points",
        "        ■ stop sign: 2 moves to drive through",
        "        × dead end: in and back out the same side   · empty cell",
        "        ░ road under a closed cell",
        "        ▒ cone = Traffic cone: closed, nobody drives in",
        "        ▒ rock = Fallen rock: closed, nobody drives in",
        "        Y  Yellow's taxi   p?  passenger (second letter: its color)",
        "        +x  carrying (initial of what it carries)",
        "Tiles on the board: Straight road, One-way road, Four-way stop (2), Cul-de-sac",
        "Closed cells: cone at 4,1, rock at 2,2",
    ];
    assert_eq!(legend, want, "{}", r.out);
    // Pieces: marks, "x,y" places, no bookkeeping properties, no idle pieces.
    assert!(
        r.out
            .contains("  Y+b  Taxi of Yellow at 1,1 (carrying blue)\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("  pg   Passenger at 3,1 (color green)\n"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("off the board"), "{}", r.out);
    assert!(
        !r.out.contains("_secret") && !r.out.contains("hush"),
        "{}",
        r.out
    );
    // A cell is named x,y everywhere, never by the id the board gives it.
    assert!(!r.out.contains("home"), "{}", r.out);
    // Zones by name; the hidden empty one and the one the mod hides are not listed.
    assert!(r.out.contains("  Chip pile: 3 cards\n"), "{}", r.out);
    assert!(
        r.out.contains("  Pocket (yours): Lucky chip\n"),
        "{}",
        r.out
    );
    assert!(
        !r.out.contains("Ledger") && !r.out.contains("Lost and found"),
        "{}",
        r.out
    );
    // Counters: a seat counter by seat, a global one as its value.
    assert!(
        r.out.contains("\n  Fuel: Yellow 5   Moves left: 2\n"),
        "{}",
        r.out
    );
}

#[test]
fn play_shows_other_seats_only_what_they_may_see() {
    let dir = scratch("play-two");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(
        &["play", &demo, "--seats", "human,random", "--seed", "1"],
        "q\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("  Pocket (yours): Lucky chip\n"),
        "{}",
        r.out
    );
    assert!(r.out.contains("  Pocket of Red: 1 card\n"), "{}", r.out);
    assert!(
        r.out
            .contains("\n  Fuel: Yellow 5, Red 5   Moves left: 2\n"),
        "{}",
        r.out
    );
}

#[test]
fn play_says_nobody_is_to_act_once_the_game_is_over() {
    let dir = scratch("play-over");
    let demo = s(&grid_demo(&dir));
    let r = farebox_with_input(
        &["play", &demo, "--seats", "human", "--seed", "1"],
        "3\n1\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let end = after(&r.out, "== Game over");
    assert!(!end.is_empty(), "{}", r.out);
    assert!(end[0].starts_with("== Game over in round 2"), "{}", end[0]);
    assert!(
        end.iter().all(|l| !l.contains("to act")),
        "{}",
        end.join("\n")
    );
    assert!(r.out.contains("Game over: the demo is over"), "{}", r.out);
    assert!(r.out.contains("  1st Yellow, score 0"), "{}", r.out);
}

#[test]
fn play_reports_a_describe_hook_that_returns_no_label() {
    let dir = scratch("play-bad-describe");
    let demo = grid_demo(&dir);
    let rules = demo.join("rules/demo.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(
        &rules,
        text.replace("return { \"Honk\" }", "return { \"Honk\", 3 }"),
    )
    .unwrap();
    let r = farebox_with_input(&["play", &s(&demo), "--seats", "human"], "1\n");
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("rules/demo.luau:")
            && r.err.contains(
                "describe returned a menu path for the action `honk` whose part 2 is a number"
            ),
        "{}",
        r.err
    );
}

#[test]
fn play_shows_a_bundled_grid_game_with_a_legend_and_a_grouped_menu() {
    let args = [
        "play",
        "curbside",
        "--seats",
        "human,dispatcher",
        "--seed",
        "5",
    ];
    // The whole game (`?`): the first screen folds the pieces and the legend away to fit 40
    // lines.
    let r = farebox_with_input(&args, "?\nq\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("you are Yellow"), "{}", r.out);
    assert!(r.out.contains("Legend: "), "{}", r.out);
    assert!(r.out.contains("Taxi of Yellow at 1,1"), "{}", r.out);
    assert!(!r.out.contains("start-"), "cells are x,y:\n{}", r.out);
    // Passengers and destinations are marked with their color, so pairs can be matched.
    assert!(
        ('a'..='z')
            .any(|c| r.out.contains(&format!(" p{c} ")) && r.out.contains(&format!(" d{c} "))),
        "{}",
        r.out
    );
    // The hand is told by card name, and nobody else's.
    assert!(r.out.contains("  Hand (yours): "), "{}", r.out);
    assert!(r.out.contains("  Hand of Red: 5 cards"), "{}", r.out);
    // The legend explains the marks of the pieces on the board: each seat's taxi, and the
    // pieces of no seat by kind with their color.
    let legend = after(&r.out, "Legend: ");
    assert!(
        legend
            .iter()
            .any(|l| l.starts_with("        Y  Yellow's ") && l.contains("   R  Red's ")),
        "{}",
        legend.join("\n")
    );
    assert!(
        legend
            .iter()
            .any(|l| l.contains("?  ") && l.ends_with(" (second letter: its color)")),
        "{}",
        legend.join("\n")
    );
    // A short menu, with at least one group; its number, then 1, goes inside.
    let menu = after(&r.out, "Choices:");
    let entries: Vec<&str> = menu
        .iter()
        .skip(1)
        .take_while(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .copied()
        .collect();
    assert!(
        (2..=12).contains(&entries.len()),
        "a short top level:\n{}",
        menu.join("\n")
    );
    let group = entries
        .iter()
        .find(|l| l.ends_with(" choices)"))
        .unwrap_or_else(|| panic!("no group in:\n{}", menu.join("\n")));
    let number = group.trim_start().split('.').next().unwrap();
    let r = farebox_with_input(&args, &format!("{number}\n0\nq\n"));
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("  0. back"), "{}", r.out);
    assert_eq!(
        r.out.lines().filter(|l| l.ends_with("Choices:")).count(),
        2,
        "at the start and after going back:\n{}",
        r.out
    );
    // The level inside is headed by its path and, just above, the counters of Yellow and
    // the global ones on one line; the keys in short follow the way back.
    let lines: Vec<&str> = r.out.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.contains("… (") && l.ends_with(" choices):"))
        .unwrap_or_else(|| {
            panic!(
                "no level inside:
{}",
                r.out
            )
        });
    let status = lines[head - 1];
    assert!(
        status.starts_with("Yellow> Yellow: ") && status.contains(" · "),
        "{status}"
    );
    let back = lines[head..]
        .iter()
        .position(|l| *l == "  0. back")
        .unwrap_or_else(|| panic!("{}", r.out));
    assert!(lines[head + back + 1].contains(" · b back · "), "{}", r.out);
    // Going back shows the top level, under the counters again.
    assert!(
        r.out
            .contains(&format!("Yellow> {}\nChoices:\n", &status[8..])),
        "{}",
        r.out
    );
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
        // `i` after every screen: the board takes most of 40 lines, so a screen folds away
        // most of the news and Yellow's hand, and `i` shows them.
        "i\n1\ni\n1\ni\n1\ni\n?\n1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(r.out.contains("you are Red"), "{}", r.out);
    // The log is told to Red as far as Red may see it: Yellow's draws are public, what Yellow
    // drew is not (lines told after a bot's action are indented by four).
    assert!(r.out.contains("    * Yellow draws a tile"), "{}", r.out);
    // Before Red's first choice what happened is told "so far", not "since your last choice".
    let so_far = r.out.find("\nSo far:\n  Yellow: ");
    let since = r.out.find("\nSince your last choice:\n");
    assert!(
        so_far.is_some() && since.is_none_or(|at| Some(at) > so_far),
        "{}",
        r.out
    );
    assert!(!r.out.contains("    * You draw"), "{}", r.out);
    let yellow: Vec<&str> = r
        .out
        .lines()
        .filter(|l| l.trim_start().starts_with("Hand of Yellow"))
        .collect();
    assert!(!yellow.is_empty(), "{}", r.out);
    for line in yellow {
        assert!(
            line.ends_with(" cards") || line.ends_with(" card"),
            "{line}"
        );
    }
    // Red's own hand is told card by card: one of the start cards is in it.
    assert!(
        r.out
            .lines()
            .any(|l| l.starts_with("  Hand (yours): ") && l.contains("Re-route")),
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
    // The mod carries its own editor support: the schemas its TOML files point at (relative
    // to themselves, so the folder can move), the Luau stubs luau-lsp is pointed at, and
    // selene's and StyLua's settings.
    for f in [
        "types/farebox.d.luau",
        "types/farebox.yml",
        "selene.toml",
        "stylua.toml",
        ".vscode/settings.json",
    ] {
        assert!(folder.join(f).is_file(), "{f}");
    }
    let settings = std::fs::read_to_string(folder.join(".vscode/settings.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
    let stubs = settings["luau-lsp.types.definitionFiles"]["@farebox"]
        .as_str()
        .unwrap();
    assert!(folder.join(stubs).is_file(), "{stubs}");
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
    for id in [
        "curbside",
        "curbside-gas-station",
        "critter-cab",
        "critter-cab-no-sitting-out",
        "taxi-derby",
        "taxi-derby-learners-permit",
        "wheres-my-ride",
        "wheres-my-ride-show-dont-tell",
        "dicey-curves",
        "dicey-curves-sunday-drive",
    ] {
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
            .contains("\n  stat deliveries: accepted 3.94 (3.69-4.19), now "),
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
