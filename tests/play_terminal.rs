//! `farebox play` as people see it in the terminal: cards in a few words, a pile that ran out,
//! only what changed after a person's own action, spaces by name, rounds rather than seat
//! turns, and what the other people did while the keyboard was away. Most checks play a small
//! graph-board demo written here; some play the bundled Taxi Derby and Critter Cab.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

#[path = "common/run.rs"]
#[allow(dead_code)]
mod run;
use run::{Run, farebox_with_input, s};

fn scratch(name: &str) -> PathBuf {
    run::scratch_in("play-terminal", name)
}

/// A two-space graph board (Harbour Gate, Old Mill), a deck of riders with a destination and
/// a fare (three cards of one kind, one of another: the same name, different fares), a public
/// queue of riders, a face-down pile of one card, a face-down zone that never holds a card and
/// a hand. Actions, always in this order in the menu: 1 `honk` (ends the turn; its label for
/// the one honking differs from everyone else's), 2 `end` (ends the game), 3 `draw` (the
/// pile's card into the hand), 4 `move` (the taxi to the Old Mill). `extra_pieces` adds to
/// pieces.toml, `extra_setup` to the setup.
fn demo(dir: &Path, extra_pieces: &str, extra_setup: &str) -> String {
    let m = dir.join("ride-demo");
    let pieces = format!(
        r#"[[pieces]]
id = "taxi"
name = "Taxi"
per_seat = true

[[zones]]
id = "supply"
name = "Supply"
visibility = "hidden"
deck = "riders"
shown = false

[[zones]]
id = "queue"
name = "Waiting riders"
visibility = "public"

[[zones]]
id = "pile"
name = "Rider pile"
visibility = "hidden"

[[zones]]
id = "lost"
name = "Lost property"
visibility = "hidden"

[[zones]]
id = "hand"
name = "Hand"
per_seat = true
visibility = "owner"
{extra_pieces}"#
    );
    let rules = format!(
        r#"return {{
  setup = function(g)
    local supply = game.zone("supply")
    game.take_card(supply, "cheap", game.zone("queue"))
    game.take_card(supply, "cheap", game.zone("queue"))
    game.take_card(supply, "rich", game.zone("queue"))
    game.take_card(supply, "cheap", game.zone("pile"))
    local taxi = game.pieces("taxi", 1)[1]
    game.move_piece(taxi, game.space("n1"))
    game.set_prop(taxi, "on", "Harbour Gate by the sea")
    {extra_setup}
  end,
  actions = function(g, seat)
    return {{ "honk", "end", "draw", "move" }}
  end,
  apply = function(g, seat, action)
    if action == "honk" then
      game.log(game.seat_name(seat) .. " honks")
      game.end_turn()
    elseif action == "end" then
      local places, scores = {{}}, {{}}
      for s = 1, game.seats() do
        places[s] = 1
        scores[s] = 0
      end
      game.finish(places, scores, "the demo is over")
    elseif action == "draw" then
      if game.move_card(game.zone("pile"), game.zone("hand", seat)) then
        game.log(game.seat_name(seat) .. " draws a rider")
      end
    elseif action == "move" then
      local taxi = game.pieces("taxi", seat)[1]
      game.move_piece(taxi, game.space("n2"))
      game.set_prop(taxi, "on", nil)
      game.log(game.seat_name(seat) .. " drives")
    end
  end,
  describe = function(g, seat, action)
    if action == "honk" then
      if game.viewer() then return "Honk to hide the plan" end
      return "Honks"
    end
    if action == "end" then return "End the demo" end
    if action == "draw" then return "Draw a rider" end
    return "Drive to the Old Mill"
  end,
}}
"#
    );
    let files = [
        (
            "mod.toml",
            r#"id = "ride-demo"
name = "Ride demo"
version = "1.0.0"
engine = "0.1"
players = { min = 1, max = 3 }
seat_names = ["Yellow", "Red", "Blue"]
scripts = ["rules/demo.luau"]

[content]
board = "board.toml"
decks = ["decks/riders.toml"]
pieces = "pieces.toml"
"#
            .to_string(),
        ),
        (
            "board.toml",
            r#"kind = "graph"

[graph]
spaces = [
  { id = "n1", name = "Harbour Gate", x = 0.0, y = 0.0 },
  { id = "n2", name = "Old Mill", x = 1.0, y = 0.0 },
]

[[graph.edges]]
from = "n1"
to = "n2"
"#
            .to_string(),
        ),
        (
            "decks/riders.toml",
            r#"id = "riders"
name = "Riders"

[fields.destination]
type = "ref"
to = "spaces"
required = true

[fields.fare]
type = "int"
required = true

[[cards]]
id = "cheap"
name = "Rider"
count = 3
destination = "n2"
fare = 3

[[cards]]
id = "rich"
name = "Rider"
count = 1
destination = "n1"
fare = 5
"#
            .to_string(),
        ),
        ("pieces.toml", pieces),
        ("rules/demo.luau", rules),
    ];
    for (f, text) in files {
        let path = m.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    s(&m)
}

fn play(mod_dir: &str, seats: &str, input: &str) -> Run {
    let r = farebox_with_input(&["play", mod_dir, "--seats", seats, "--seed", "1"], input);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    r
}

/// The headings of full screens ("== Round 1 · Yellow's turn (you are Yellow) ==").
fn headings(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("== ")).collect()
}

#[test]
fn cards_are_shown_with_their_fields_and_identical_ones_counted() {
    let dir = scratch("cards");
    let r = play(&demo(&dir, "", ""), "human", "q\n");
    // Two riders of one kind and one of another: by name alone all three would be "Rider".
    assert!(
        r.out.contains(
            "  Waiting riders: Rider (to Old Mill, fare 3) ×2;\n                  Rider (to Harbour Gate, fare 5)\n"
        ),
        "{}",
        r.out
    );
    // Taxi Derby: a waiting passenger shows where they are going.
    let r = farebox_with_input(
        &[
            "play",
            "taxi-derby",
            "--seats",
            "human,fare-planner",
            "--seed",
            "5",
        ],
        "q\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let stops: Vec<&str> = r
        .out
        .lines()
        .filter(|l| l.contains(", stop A: ") || l.contains(", stop B: "))
        .collect();
    assert!(!stops.is_empty(), "{}", r.out);
    for l in stops {
        assert!(l.contains(" (to "), "no destination in: {l}");
    }
}

#[test]
fn an_empty_face_down_pile_is_shown_empty_once_it_ran_out() {
    let dir = scratch("empty-pile");
    // Draw the pile's only card, then look at the whole game again.
    let r = play(&demo(&dir, "", ""), "human", "3\n?\nq\n");
    let (before, after) = r.out.split_once("Yellow> ").unwrap();
    assert!(before.contains("  Rider pile: 1 card\n"), "{}", r.out);
    assert!(after.contains("  Rider pile: empty\n"), "{}", r.out);
    // The hand got the card, in a few words.
    assert!(
        after.contains("  Hand (yours): Rider (to Old Mill, fare 3)\n"),
        "{}",
        r.out
    );
    // A face-down zone that never held a card is not worth a line.
    assert!(!r.out.contains("Lost property"), "{}", r.out);
}

#[test]
fn after_a_persons_own_action_only_what_changed_is_shown() {
    let dir = scratch("changes");
    // Draw (the turn goes on), drive (it still goes on), `?`, honk (the turn passes: with
    // one seat it comes straight back, a new turn), then quit.
    let r = play(&demo(&dir, "", ""), "human", "3\n4\n?\n1\nq\n");
    let heads = headings(&r.out);
    assert_eq!(
        heads,
        [
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            // `?`
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            // The next turn.
            "== Round 2 · Yellow's turn (you are Yellow) ==",
        ],
        "{}",
        r.out
    );
    // After the draw: what happened, the parts that changed (both zones; the counters line
    // and the menu), not the rest (the queue did not change).
    let draw = r.out.split("Yellow> ").nth(1).unwrap();
    assert!(
        draw.starts_with(
            "\nSince your last choice:\n    * Yellow draws a rider\nChanged:\n  Rider pile: empty\n  Hand (yours): Rider (to Old Mill, fare 3)\nChoices:\n"
        ),
        "{draw}"
    );
    assert!(!draw.contains("Waiting riders"), "{draw}");
    // After the drive: the taxi's new place.
    let drive = r.out.split("Yellow> ").nth(2).unwrap();
    assert!(
        drive.contains("Changed:\n  Taxi of Yellow at Old Mill\nChoices:\n"),
        "{drive}"
    );
    assert!(!drive.contains("Rider pile"), "{drive}");
}

#[test]
fn the_status_line_is_repeated_after_an_action_in_the_same_turn() {
    let dir = scratch("status");
    let counter = r#"
[[counters]]
id = "gas"
name = "Gas"
scope = "seat"
initial = 4
"#;
    let r = play(&demo(&dir, counter, ""), "human", "3\nq\n");
    let draw = r.out.split("Yellow> ").nth(1).unwrap();
    assert!(draw.contains("\nYellow: Gas 4\nChoices:\n"), "{draw}");
}

#[test]
fn pieces_stand_on_spaces_named_as_the_board_names_them() {
    let dir = scratch("names");
    let r = play(&demo(&dir, "", ""), "human", "4\n?\nq\n");
    // A property that only says where the piece is stands for the place.
    assert!(
        r.out
            .contains("  Taxi of Yellow at Harbour Gate by the sea\n"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("  Taxi of Yellow at Old Mill\n"),
        "{}",
        r.out
    );
    assert!(
        !r.out.contains(" at n1") && !r.out.contains(" at n2"),
        "{}",
        r.out
    );

    // Taxi Derby's sections board and Critter Cab's graph: no raw space ids.
    let r = farebox_with_input(
        &[
            "play",
            "taxi-derby",
            "--seats",
            "human,fare-planner",
            "--seed",
            "5",
        ],
        // The whole game (`?`) before and after Orange starts: the pieces are folded away
        // on a screen of 40 lines.
        "?\n1\n?\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("  Taxi of Green at Green Depot, front in Midtown\n"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("mt-h3-3"), "{}", r.out);
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "5",
        ],
        "1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    assert!(
        r.out.contains("  Cab figure of Fox at Hootwood Lookout ("),
        "{}",
        r.out
    );
    assert!(!r.out.contains("hootwood-lookout"), "{}", r.out);
}

#[test]
fn the_heading_counts_rounds_not_seat_turns() {
    let dir = scratch("rounds");
    let d = demo(&dir, "", "");
    // Three seats: after each has honked once, the fourth turn (it was "Turn 4") is round 2.
    let r = play(&d, "human,human,human", "\n1\n\n1\n\n1\n\nq\n");
    assert_eq!(
        headings(&r.out),
        [
            "== Round 1 · Yellow's turn (you are Yellow) ==",
            "== Round 1 · Red's turn (you are Red) ==",
            "== Round 1 · Blue's turn (you are Blue) ==",
            "== Round 2 · Yellow's turn (you are Yellow) ==",
        ],
        "{}",
        r.out
    );
    // Critter Cab: the human's second turn is in round 2 (it was "Turn 3").
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "5",
        ],
        "1\n1 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let heads = headings(&r.out);
    assert_eq!(
        heads,
        [
            "== Round 1 · Fox's turn (you are Fox) ==",
            "== Round 2 · Fox's turn (you are Fox) ==",
        ],
        "{}",
        r.out
    );
    // A game's own round counter is read as it is.
    let dir = scratch("round-counter");
    let counter = r#"
[[counters]]
id = "round"
name = "Round"
scope = "global"
initial = 0
"#;
    let r = play(
        &demo(&dir, counter, r#"game.set_counter("round", 7)"#),
        "human",
        "q\n",
    );
    assert!(
        r.out
            .contains("== Round 7 · Yellow's turn (you are Yellow) =="),
        "{}",
        r.out
    );
}

#[test]
fn the_hot_seat_recap_lists_the_other_peoples_actions_by_their_public_labels() {
    let dir = scratch("hot-seat");
    let d = demo(&dir, "", "");
    // Yellow takes the keyboard, draws, drives and honks; Red takes it, honks; Yellow takes it
    // back, honks; Red takes it and quits.
    let r = play(&d, "human,human", "\n3\n4\n1\n\n1\n\n1\n\nq\n");
    let reds: Vec<&str> = r.out.split("Pass to Red and press Enter").skip(1).collect();
    assert_eq!(reds.len(), 2, "{}", r.out);
    // Red's first turn: everything so far, Yellow's actions with what they wrote.
    assert!(
        reds[0].contains(
            "So far:\n  Yellow: Draw a rider\n      * Yellow draws a rider\n  Yellow: Drive to the Old Mill\n      * Yellow drives\n  Yellow: Honks\n      * Yellow honks\n"
        ),
        "{}",
        reds[0]
    );
    // Red's second: only what happened since Red honked.
    assert!(
        reds[1].contains("Since your last turn:\n  Yellow: Honks\n      * Yellow honks\n"),
        "{}",
        reds[1]
    );
    assert!(!reds[1].contains("Yellow: Draw a rider"), "{}", reds[1]);
    // Never Yellow's own label (Red's menu has Red's own, "Honk to hide the plan").
    for red in reds {
        assert!(
            red.lines()
                .filter(|l| l.starts_with("  Yellow: "))
                .all(|l| !l.contains("hide the plan")),
            "{red}"
        );
    }
}

/// The last full screen of `out`: from its last heading.
fn last_screen(out: &str) -> &str {
    let at = out.rfind("\n== ").map_or(0, |i| i + 1);
    &out[at..]
}

/// A map board as the last screen of `out` shows it: its map (the `map_lines` lines above
/// the legend of its marks), and the items of the last list of codes printed (after the
/// legend on the whole game, `?`, or alone, `c`), read as a person reads them: items apart
/// by two spaces or more.
fn map_of(out: &str, map_lines: usize) -> (Vec<String>, Vec<(String, String)>) {
    let screen = last_screen(out);
    let lines: Vec<&str> = screen.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("Legend: "))
        .unwrap_or_else(|| panic!("no legend in:\n{screen}"));
    let top = head - map_lines;
    let map = lines[top..head].iter().map(|l| l.to_string()).collect();
    let at = out
        .rfind("Spaces, by their codes on the map")
        .unwrap_or_else(|| panic!("no list of codes in:\n{out}"));
    let mut items = vec![];
    for l in out[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty() && !l.contains(':') && !l.contains('…'))
    {
        for item in l.split("  ").map(str::trim).filter(|i| !i.is_empty()) {
            let (code, text) = item.split_once(' ').unwrap();
            items.push((code.to_string(), text.to_string()));
        }
    }
    (map, items)
}

/// The codes a legend item stands for: "BW1-3" is BW1, BW2, BW3; "ODF,S" is ODF, ODS; "HL"
/// is HL. With the prefix they share ("BW", "OD", "HL").
fn expand(codes: &str) -> (String, Vec<String>) {
    if let Some((a, b)) = codes.split_once('-') {
        let digits = a.find(|c: char| c.is_ascii_digit()).unwrap();
        let (prefix, from) = a.split_at(digits);
        let (from, to): (u32, u32) = (from.parse().unwrap(), b.parse().unwrap());
        return (
            prefix.to_string(),
            (from..=to).map(|n| format!("{prefix}{n}")).collect(),
        );
    }
    let parts: Vec<&str> = codes.split(',').collect();
    if parts.len() == 1 {
        return (codes.to_string(), vec![codes.to_string()]);
    }
    let tag = parts[1].chars().count();
    let cut = parts[0].chars().count() - tag;
    let prefix: String = parts[0].chars().take(cut).collect();
    let mut all = vec![parts[0].to_string()];
    all.extend(parts[1..].iter().map(|t| format!("{prefix}{t}")));
    (prefix, all)
}

/// The code a person finds for the space named `name` by the legend, if they find one: the
/// item with that very name, or the item of its group ("Bramble Way 1-3" for "Bramble Way 2",
/// "Orange Depot, front/side" for "Orange Depot, front") with what tells the space apart (the
/// number in its name, a last capital letter, or the first letter of what follows the comma).
fn code_for(name: &str, items: &[(String, String)]) -> Option<String> {
    if let Some((c, _)) = items.iter().find(|(_, t)| t == name) {
        return Some(c.clone());
    }
    items.iter().find_map(|(codes, text)| {
        let bare = text.trim_end_matches(|c: char| c.is_ascii_digit() || ", -".contains(c));
        let base = bare.split(", ").next().unwrap();
        let rest = name.strip_prefix(base)?;
        let rest = rest.strip_prefix(", ").or_else(|| rest.strip_prefix(' '))?;
        let digits: String = rest
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let last = rest.split_whitespace().last().unwrap_or("");
        let tag = if !digits.is_empty() {
            digits
        } else if last.len() == 1 && last.chars().all(char::is_uppercase) {
            last.to_string()
        } else {
            rest.chars().next()?.to_uppercase().collect()
        };
        let (prefix, all) = expand(codes);
        let code = format!("{prefix}{tag}");
        all.contains(&code).then_some(code)
    })
}

/// Whether `code` is written on the map as a word of its own (pieces may follow in brackets).
fn on_map(map: &[String], code: &str) -> bool {
    map.iter().any(|l| {
        l.match_indices(code).any(|(i, _)| {
            let before = l[..i].chars().last();
            let after = l[i + code.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// The spaces the last menu's choices lead to: "  4. to Fernway 2 (5 spaces …)" is Fernway 2,
/// "  1. Hootwood Lookout (forest): …" is Hootwood Lookout, "  5. to Rope Walk, 1st block in
/// Harbor (…)" is Rope Walk, 1st block.
fn menu_places(out: &str) -> Vec<String> {
    // The last menu shown.
    let at = ["choices):\n", "Choices:\n"]
        .iter()
        .filter_map(|h| out.rfind(h).map(|i| i + h.len()))
        .max()
        .unwrap_or(0);
    out[at..]
        .lines()
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| {
            let l = l.trim_start();
            let (n, rest) = l.split_once(". ")?;
            n.parse::<u32>().ok().filter(|&n| n > 0)?;
            let rest = rest
                .strip_prefix("to ")
                .or_else(|| rest.strip_prefix("at "))
                .unwrap_or(rest);
            let end = [" in ", " (", ":", ";"]
                .iter()
                .filter_map(|s| rest.find(s))
                .min()
                .unwrap_or(rest.len());
            Some(rest[..end].to_string())
        })
        .collect()
}

#[test]
fn a_graph_board_is_drawn_as_a_map_of_its_spaces_within_the_width() {
    // Critter Cab: the start menu (the taxi stands), then the stand chosen and a drive menu.
    for input in ["?\nq\n", "3\n2 3\n?\nq\n"] {
        let r = farebox_with_input(
            &[
                "play",
                "critter-cab",
                "--seats",
                "human,cabbie",
                "--seed",
                "3",
            ],
            input,
        );
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let screen = last_screen(&r.out);
        let (map, items) = map_of(&r.out, 19);
        for l in map
            .iter()
            .map(String::as_str)
            .chain(screen.lines().filter(|l| l.starts_with("Legend")))
        {
            assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
        }
        // Roads, the river's lanes and the flight paths are drawn.
        let all = map.concat();
        assert!(
            all.contains('─') && all.contains('≈') && all.contains('·'),
            "{screen}"
        );
        // Every space a choice names is on the map under the code the legend gives it.
        let places = menu_places(&r.out);
        assert!(places.len() >= 8, "{screen}");
        for p in places {
            let code =
                code_for(&p, &items).unwrap_or_else(|| panic!("{p} not in the legend:\n{screen}"));
            assert!(
                on_map(&map, &code),
                "{p} ({code}) not on the map:\n{screen}"
            );
        }
    }
    // The cab stands where the view puts it: its mark after its space's code.
    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie",
            "--seed",
            "3",
        ],
        "3\n?\nq\n",
    );
    let screen = last_screen(&r.out);
    let (map, items) = map_of(&r.out, 19);
    assert!(
        screen.contains("  Cab figure of Fox at Acorn Square"),
        "{screen}"
    );
    let code = code_for("Acorn Square", &items).unwrap();
    assert!(map.concat().contains(&format!("{code}[F")), "{screen}");
    // Only Fox's cab is on the board.
    assert_eq!(map.concat().matches('[').count(), 1, "{screen}");
}

#[test]
fn a_sections_city_is_drawn_as_streets_with_its_spaces_and_pieces() {
    // Taxi Derby: the start menu, then a drive menu once the taxi stands at its depot.
    for input in ["?\nq\n", "1\n1\n?\nq\n"] {
        let r = farebox_with_input(
            &[
                "play",
                "taxi-derby",
                "--seats",
                "human,fare-planner",
                "--seed",
                "5",
            ],
            input,
        );
        assert_eq!(r.code, 0, "{}{}", r.out, r.err);
        let screen = last_screen(&r.out);
        let (map, items) = map_of(&r.out, 17);
        for l in &map {
            assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
        }
        // Streets cross at intersections; each section is named.
        assert!(map.concat().contains('┼'), "{screen}");
        for name in ["HARBOR", "MIDTOWN", "HILLSIDE", "OLD QUARTER"] {
            assert!(map.concat().contains(name), "{name} missing:\n{screen}");
        }
        let places = menu_places(&r.out);
        assert!(!places.is_empty(), "{screen}");
        for p in places {
            let code =
                code_for(&p, &items).unwrap_or_else(|| panic!("{p} not in the legend:\n{screen}"));
            assert!(
                on_map(&map, &code),
                "{p} ({code}) not on the map:\n{screen}"
            );
        }
        // The pieces stand where the view puts them: Green's taxi (G) and the patrol car (p).
        for l in screen
            .lines()
            .filter(|l| l.starts_with("  Taxi of Green at ") || l.starts_with("  Patrol Car at "))
        {
            let (who, at) = l.trim_start().split_once(" at ").unwrap();
            let place = at.split(" in ").next().unwrap();
            let code = code_for(place, &items).unwrap();
            let mark = if who.starts_with("Taxi") { "G" } else { "p" };
            assert!(
                map.iter()
                    .any(|m| m.contains(&format!("{code}[")) && m.contains(mark)),
                "{who} not at {code}:\n{screen}"
            );
        }
    }
}

#[test]
fn a_track_is_drawn_card_by_card_with_lanes_gates_and_cars() {
    // Dicey Curves: the line-up menu, then after Red lines up a car in the left lane's back row.
    let r = farebox_with_input(
        &[
            "play",
            "dicey-curves",
            "--seats",
            "human,racer",
            "--seed",
            "3",
        ],
        "1\n?\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = last_screen(&r.out);
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with("1 start"))
        .unwrap_or_else(|| panic!("{screen}"));
    let end = lines.iter().position(|l| l.starts_with("Pieces:")).unwrap();
    let board = &lines[top..end];
    for l in board {
        assert!(l.chars().count() <= 100, "wider than the terminal: {l}");
    }
    // Every laid card is headed by its number and named by it in the legend.
    let cards = screen
        .lines()
        .find(|l| l.starts_with("  The Track: "))
        .unwrap();
    let laid = cards
        .split("; ")
        .map(|c| c.split(" ×").nth(1).map_or(1, |n| n.parse().unwrap()))
        .sum::<usize>();
    assert!(laid >= 2, "{screen}");
    let legend = board.join("\n");
    for n in 1..=laid {
        assert!(
            board
                .iter()
                .any(|l| l.starts_with(&format!("{n} ")) || l.contains(&format!(" {n} "))),
            "card {n} not headed:\n{legend}"
        );
    }
    assert!(legend.contains("Cards: 1 Starting Grid, 2 "), "{legend}");
    // Gates show their dice on the exit edge.
    assert!(legend.contains("gate on the exit"), "{legend}");
    // The car Red lined up, at the back of the left lane of card 1: the first cell of the
    // card's L line holds the red car's mark.
    assert!(
        screen.contains("  Red Racer at Starting Grid (card 1), left lane, 3rd row from the front"),
        "{screen}"
    );
    let left = board.iter().find(|l| l.starts_with("L ")).unwrap();
    assert!(left.starts_with("L cr "), "{left}\n{legend}");
    // What the line-up menu names (card 1, its lanes) is on the strip.
    assert!(
        board.iter().any(|l| l.starts_with("M ")) && board.iter().any(|l| l.starts_with("R ")),
        "{legend}"
    );
}

/// The screens a person saw in `out`, as a terminal of 40 lines shows them: each runs from
/// the first line printed after a prompt (the last heading of it, when a whole screen was
/// drawn) to the next prompt, which takes a line of its own. Leading blank lines are left out.
fn screens<'a>(out: &'a str, prompt: &'a str) -> Vec<Vec<&'a str>> {
    let mut chunks: Vec<&str> = out.split(prompt).collect();
    // What follows the last prompt is the game's goodbye, not a screen.
    chunks.pop();
    chunks
        .into_iter()
        .map(|c| {
            let at = c.rfind("\n== ").map_or(0, |i| i + 1);
            let mut lines: Vec<&str> = c[at..].lines().collect();
            while lines.first().is_some_and(|l| l.trim().is_empty()) {
                lines.remove(0);
            }
            lines.push(prompt);
            lines
        })
        .collect()
}

/// Every screen of each bundled game fits a terminal of 100 x 40 (the issue's size): the
/// whole game when a turn begins, what changed after a person's action, a menu level, with
/// two seats and with four (longer news, more counters). The person takes the first choice
/// of every menu for a while: lining up, driving, drawing, ending turns.
#[test]
fn every_screen_of_each_game_fits_a_terminal_of_100_by_40() {
    let games = [
        ("critter-cab", "cabbie"),
        ("taxi-derby", "fare-planner"),
        ("dicey-curves", "racer"),
        ("curbside", "dispatcher"),
        ("wheres-my-ride", "regular"),
    ];
    for (game, bot) in games {
        for seats in [format!("human,{bot}"), format!("human,{bot},{bot},{bot}")] {
            for seed in ["1", "7"] {
                let input = "1\n".repeat(40) + "q\n";
                let r =
                    farebox_with_input(&["play", game, "--seats", &seats, "--seed", seed], &input);
                assert_eq!(r.code, 0, "{game}: {}{}", r.out, r.err);
                let name = r
                    .out
                    .lines()
                    .find_map(|l| l.strip_prefix("== Round 1 · ")?.split("(you are ").nth(1))
                    .and_then(|n| n.strip_suffix(") =="))
                    .unwrap_or_else(|| panic!("{game}: no heading in\n{}", r.out))
                    .to_string();
                let prompt = format!("{name}> ");
                let all = screens(&r.out, &prompt);
                assert!(
                    all.len() >= 10,
                    "{game} {seats}: {} screens\n{}",
                    all.len(),
                    r.out
                );
                for s in all {
                    assert!(
                        s.len() <= 40,
                        "{game} {seats} seed {seed}: a screen of {} lines:\n{}",
                        s.len(),
                        s.join("\n")
                    );
                    for l in &s {
                        assert!(
                            l.chars().count() <= 100,
                            "{game} {seats} seed {seed}: wider than 100 columns: {l}"
                        );
                    }
                }
            }
        }
    }
}

/// What the screen folds away to fit is a key away: `c` lists the map's codes, `i` the panels
/// left out (Critter Cab's chance deck, Taxi Derby's ranks further down the list).
#[test]
fn what_a_screen_folds_away_is_shown_by_its_key() {
    let r = play("critter-cab", "human,cabbie", "c\ni\nq\n");
    let screen = last_screen(&r.out);
    assert!(
        screen.contains("\nAlso: c the map's codes · i "),
        "{screen}"
    );
    let after = &r.out[r.out.find("Fox> ").unwrap()..];
    assert!(
        after.contains("Spaces, by their codes on the map"),
        "{after}"
    );
    assert!(after.contains("HL Hootwood Lookout"), "{after}");
    assert!(after.contains("  Chance deck: 24 cards"), "{after}");
    // The whole screen did not list them.
    let first = &r.out[..r.out.find("Fox> ").unwrap()];
    assert!(!first.contains("HL Hootwood Lookout"), "{first}");
}

/// A Dicey Curves card laid during a person's turn (the race starts once their last car lines
/// up, and the turn's card goes down) is on the screen at once, not only after `?`.
#[test]
fn a_track_card_laid_in_a_persons_turn_is_shown_at_once() {
    let r = play("dicey-curves", "human,racer", "1\n1\nq\n");
    let laid = r
        .out
        .lines()
        .find_map(|l| l.trim().strip_prefix("* Red lays "))
        .unwrap_or_else(|| panic!("no card laid in Red's turn:\n{}", r.out));
    let n: usize = laid.rsplit(' ').next().unwrap().parse().unwrap();
    let after = &r.out[r
        .out
        .find("Changed:")
        .unwrap_or_else(|| panic!("{}", r.out))..];
    let prompt = after.find("Red> ").unwrap();
    let changed = &after[..prompt];
    // The strip heads the new card by its number.
    let strip = changed
        .lines()
        .find(|l| l.starts_with("1 start"))
        .unwrap_or_else(|| panic!("the track is not shown again:\n{changed}"));
    assert!(strip.contains(&format!(" {n} ")), "{strip}\n{changed}");
}

/// The screen of the round's first turn of `out` (heading `== Round {round} ·`), up to its
/// prompt `prompt`.
fn round_screen<'a>(out: &'a str, round: u32, prompt: &str) -> &'a str {
    let at = out
        .find(&format!("\n== Round {round} · "))
        .unwrap_or_else(|| panic!("no round {round} in\n{out}"));
    let rest = &out[at + 1..];
    &rest[..rest.find(prompt).unwrap_or(rest.len())]
}

/// After three bots' turns the screen keeps enough of what they did to follow it: Curbside's
/// board leaves no lines below it, so the news goes beside the board (it was left out whole);
/// Critter Cab keeps the news's latest six lines (it showed one, under its taxi cards).
#[test]
fn the_bots_turns_are_told_on_the_next_screen() {
    let r = farebox_with_input(
        &[
            "play",
            "curbside",
            "--seats",
            "human,dispatcher,dispatcher,dispatcher",
            "--seed",
            "7",
        ],
        "1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = round_screen(&r.out, 2, "Yellow> ");
    assert!(screen.contains("Since your last choice:"), "{screen}");
    let told = screen
        .lines()
        .filter(|l| ["Red: ", "Blue: ", "Green: "].iter().any(|n| l.contains(n)))
        .count();
    assert!(told >= 5, "{told} lines of the bots' turns:\n{screen}");

    let r = farebox_with_input(
        &[
            "play",
            "critter-cab",
            "--seats",
            "human,cabbie,cabbie,cabbie",
            "--seed",
            "7",
        ],
        "3\n1 1\nq\n",
    );
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let screen = round_screen(&r.out, 2, "Fox> ");
    let news = screen
        .lines()
        .skip_while(|l| !l.starts_with("Since your last choice:"))
        .take_while(|l| !l.starts_with("Fox: Coins"))
        .count();
    assert!(news >= 7, "{news} lines of news:\n{screen}");
}
