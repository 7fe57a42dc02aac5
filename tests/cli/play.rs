//! `farebox play`: the terminal game's menus, what it tells before a choice, the boards it
//! draws with their legends, hidden hands, and the end of input or of the game.

use super::*;

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
fn play_names_a_card_s_abilities_as_the_content_names_them() {
    // A taxi's `abilities` and an upgrade token's `ability` name rows of the game's abilities
    // table: the cards read by those rows' names, never by their ids.
    for (game, names, ids) in [
        (
            "critter-cab",
            &[
                "River lanes",
                "Flight paths",
                "VIP tips",
                "Two fares at once",
            ][..],
            &[
                "river-edges",
                "flight-edges",
                "vip-bonus",
                "draws-two",
                "no-top-up",
            ][..],
        ),
        (
            "taxi-derby",
            &["Police Scanner", "Overdrive", "Traffic App", "Velvet Seats"][..],
            &["police-scanner", "overdrive", "traffic-app", "velvet-seats"][..],
        ),
    ] {
        let r = farebox_with_input(
            &["play", game, "--seats", "human,random", "--seed", "3"],
            "q\n",
        );
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        // Each seat's taxi card or first upgrade token, with its abilities by name.
        let cards: String = r
            .out
            .lines()
            .filter(|l| l.contains("(abilit"))
            .collect::<Vec<_>>()
            .join("\n");
        let shown = names.iter().filter(|n| cards.contains(*n)).count();
        assert!(shown >= 2, "{game}: abilities not named in\n{}", r.out);
        for id in ids {
            assert!(!r.out.contains(id), "{game}: `{id}` shown in\n{}", r.out);
        }
    }
}

#[test]
fn play_names_each_dicey_curves_car_by_the_seat_that_drives_it() {
    // Two seats drive two cars each: Red the Red and the Yellow Racer, Blue the Blue and the
    // Green. The pieces' list says whose each car is.
    let r = farebox_with_input(
        &[
            "play",
            "dicey-curves",
            "--seats",
            "human,random",
            "--seed",
            "5",
        ],
        "?\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    for car in [
        "Red Racer of Red",
        "Yellow Racer of Red",
        "Blue Racer of Blue",
        "Green Racer of Blue",
    ] {
        assert!(r.out.contains(car), "no {car} in\n{}", r.out);
    }
}
