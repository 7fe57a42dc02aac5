//! `farebox play` as people see it in the terminal: cards in a few words, a pile that ran out,
//! only what changed after a person's own action, spaces by name, rounds rather than seat
//! turns, and what the other people did while the keyboard was away. Most checks play a small
//! graph-board demo written here; some play the bundled Taxi Derby and Critter Cab. The checks
//! are grouped: the panels (`panels.rs`), the boards (`boards.rs`), and screens that fit a
//! terminal (`fit.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

#[path = "../common/run.rs"]
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

mod boards;
mod fit;
mod online;
mod panels;
