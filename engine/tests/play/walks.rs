//! `game.walks`, `game.within` and `game.distances`: moves of exactly k steps (and at most k)
//! on a graph board, over the edge tags a piece may use, avoiding given spaces, never entering
//! a space twice; on a board whose edges cost more than 1, a move of k spends k in cost.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox::value::Value;

const MANIFEST: &str = r#"
id = "walker"
name = "Walker"
version = "1.0.0"
engine = "0.1"
players = { min = 1, max = 1 }
scripts = ["rules/r.luau"]
[content]
board = "board.toml"
"#;

// a - b - c - d in a line, a square b - e - f - c beside it, and a river edge a ~ d.
//
//   a --- b --- c --- d
//         |     |
//         e --- f
const BOARD: &str = r#"
kind = "graph"
[graph]
spaces = [
  { id = "a", x = 0.0, y = 0.0 }, { id = "b", x = 1.0, y = 0.0 }, { id = "c", x = 2.0, y = 0.0 },
  { id = "d", x = 3.0, y = 0.0 }, { id = "e", x = 1.0, y = 1.0 }, { id = "f", x = 2.0, y = 1.0 },
]
[[graph.paths]]
spaces = ["a", "b", "c", "d"]
[[graph.paths]]
spaces = ["b", "e", "f", "c"]
[[graph.edges]]
from = "a"
to = "d"
tags = ["river"]
"#;

const RULES: &str = r#"
return { actions = function() return { "wait" } end, apply = function() end }
"#;

fn game() -> Game {
    walker(BOARD)
}

/// The walker mod on `board`.
fn walker(board: &str) -> Game {
    let def = support::mem_mod(
        "walker",
        &[
            ("mod.toml", MANIFEST),
            ("board.toml", board),
            ("rules/r.luau", RULES),
        ],
    );
    Game::new(Arc::new(def), Setup::new(1, 1)).unwrap()
}

/// Space ids a call returns (the keys of its table), sorted.
fn ids(g: &mut Game, call: &str) -> String {
    let code = format!(
        r#"local sp = function(id) return game.space(id) end
           local out = {{}}
           for s in {call} do table.insert(out, game.space_info(s).id) end
           table.sort(out) return table.concat(out, " ")"#
    );
    match g.eval(&code).unwrap() {
        Value::Str(s) => s,
        v => panic!("{v:?}"),
    }
}

#[test]
fn exactly_k_steps_without_revisiting() {
    let mut g = game();
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 0)"), "a");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 1)"), "b");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 2)"), "c e");
    // a-b-c-d, a-b-e-f, a-b-c-f: never back through b.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 3)"), "d f");
    // a-b-e-f-c, a-b-c-f-e.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 4)"), "c e");
    // a-b-e-f-c-d.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 5)"), "d");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 6)"), "");
}

#[test]
fn tags_open_edges_and_avoided_spaces_close_them() {
    let mut g = game();
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 1, {'river'})"), "b d");
    assert_eq!(
        ids(&mut g, "game.walks(sp('a'), 3, nil, { [sp('c')] = true })"),
        "f"
    );
    assert_eq!(
        ids(&mut g, "game.within(sp('a'), 2, nil, { [sp('b')] = true })"),
        "a"
    );
}

#[test]
fn within_k_steps_gives_the_fewest() {
    let mut g = game();
    let v = g
        .eval(
            r#"local w = game.within(game.space("a"), 2)
               local out = {}
               for _, id in { "a", "b", "c", "d", "e", "f" } do out[#out + 1] = tostring(w[game.space(id)]) end
               return table.concat(out, " ")"#,
        )
        .unwrap();
    assert_eq!(v, Value::Str("0 1 2 nil 2 nil".into()));
}

#[test]
fn bad_steps_are_refused_in_plain_words() {
    let mut g = game();
    let e = g
        .eval("return game.walks(game.space('a'), -1)")
        .unwrap_err();
    assert!(
        e.to_string().contains("steps must be from 0 to 1000000"),
        "{e}"
    );
    let e = g
        .eval("return game.within(game.space('a'), 1000001)")
        .unwrap_err();
    assert!(
        e.to_string().contains("steps must be from 0 to 1000000"),
        "{e}"
    );
}

#[test]
fn a_walk_that_branches_too_much_is_refused_quickly() {
    // Twelve spaces, each joined to every other: 11! walks of 11 steps.
    let mut board = String::from("kind = \"graph\"\n[graph]\nspaces = [\n");
    for i in 0..12 {
        board.push_str(&format!("  {{ id = \"s{i}\", x = {i}.0, y = 0.0 }},\n"));
    }
    board.push_str("]\n");
    for i in 0..12 {
        for j in i + 1..12 {
            board.push_str(&format!(
                "[[graph.edges]]\nfrom = \"s{i}\"\nto = \"s{j}\"\n"
            ));
        }
    }
    let mut g = walker(&board);
    let e = g
        .eval("return game.walks(game.space('s0'), 11)")
        .unwrap_err();
    assert!(e.to_string().contains("branch too much"), "{e}");
    // Short moves on the same board are fine.
    assert_eq!(
        ids(&mut g, "game.walks(sp('s0'), 2)").split(' ').count(),
        11
    );
}

// The same kind of board with costs: a road a =3= b, a ferry a ~1~ b (tagged), a one-way
// shortcut c -> a costing 2, and the rest costing 1.
//
//   a ==3== b --- c
//   |             |
//   d --- e ----- f
const COSTED: &str = r#"
kind = "graph"
[graph]
spaces = [
  { id = "a", x = 0.0, y = 0.0 }, { id = "b", x = 2.0, y = 0.0 }, { id = "c", x = 3.0, y = 0.0 },
  { id = "d", x = 0.0, y = 1.0 }, { id = "e", x = 1.0, y = 1.0 }, { id = "f", x = 3.0, y = 1.0 },
]
edges = [
  { from = "a", to = "b", cost = 3 },
  { from = "a", to = "b", cost = 1, tags = ["ferry"] },
  { from = "c", to = "a", cost = 2, directed = true },
]
[[graph.paths]]
spaces = ["b", "c"]
[[graph.paths]]
spaces = ["a", "d", "e", "f", "c"]
"#;

/// What a call's table maps each of a..f to, in that order ("nil" where it has nothing).
fn by_space(g: &mut Game, call: &str) -> String {
    let code = format!(
        r#"local sp = function(id) return game.space(id) end
           local t = {call}
           local out = {{}}
           for _, id in {{ "a", "b", "c", "d", "e", "f" }} do out[#out + 1] = tostring(t[sp(id)]) end
           return table.concat(out, " ")"#
    );
    match g.eval(&code).unwrap() {
        Value::Str(s) => s,
        v => panic!("{v:?}"),
    }
}

#[test]
fn a_move_of_k_spends_k_in_edge_costs() {
    let mut g = walker(COSTED);
    // a-b costs 3, so one step of cost reaches only d.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 1)"), "d");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 2)"), "e");
    // a=b, a-d-e-f.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 3)"), "b f");
    // a=b-c, a-d-e-f-c.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 4)"), "c");
    // a-d-e-f-c-b, a=b-c-f.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 5)"), "b f");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 6)"), "e");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 7)"), "d");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 8)"), "");
    // The ferry joins a and b for 1: either edge may be taken.
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 1, {'ferry'})"), "b d");
    assert_eq!(ids(&mut g, "game.walks(sp('a'), 3, {'ferry'})"), "b f");
    assert_eq!(
        ids(&mut g, "game.walks(sp('a'), 5, nil, { [sp('c')] = true })"),
        ""
    );
}

#[test]
fn within_k_is_a_total_cost_of_at_most_k() {
    let mut g = walker(COSTED);
    assert_eq!(by_space(&mut g, "game.within(sp('a'), 3)"), "0 3 nil 1 2 3");
    assert_eq!(
        by_space(&mut g, "game.within(sp('a'), 4, nil, { [sp('d')] = true })"),
        "0 3 4 nil nil nil"
    );
    assert_eq!(
        by_space(&mut g, "game.within(sp('a'), 2, {'ferry'})"),
        "0 1 2 1 2 nil"
    );
}

#[test]
fn distances_are_the_cheapest_total_cost() {
    let mut g = walker(COSTED);
    assert_eq!(by_space(&mut g, "game.distances(sp('a'))"), "0 3 4 1 2 3");
    assert_eq!(
        by_space(&mut g, "game.distances(sp('a'), {'ferry'})"),
        "0 1 2 1 2 3"
    );
    // The one-way shortcut counts from c only.
    assert_eq!(by_space(&mut g, "game.distances(sp('c'))"), "2 1 0 3 2 1");
}

#[test]
fn the_largest_costs_add_up_without_overflowing() {
    // A chain of 5,000 spaces, each road costing the most a road may cost.
    let n = 5_000;
    let mut board = String::from("kind = \"graph\"\n[graph]\nspaces = [\n");
    for i in 0..n {
        board.push_str(&format!("  {{ id = \"s{i}\", x = {i}.0, y = 0.0 }},\n"));
    }
    board.push_str("]\n[[graph.paths]]\ncost = 1000000\nspaces = [");
    for i in 0..n {
        board.push_str(&format!("\"s{i}\", "));
    }
    board.push_str("]\n");
    let mut g = walker(&board);
    let v = g
        .eval(&format!(
            "return game.distances(game.space('s0'))[game.space('s{}')]",
            n - 1
        ))
        .unwrap();
    assert_eq!(v.as_int(), Some(4_999_000_000), "{v:?}");
    let v = g
        .eval("local n = 0 for _ in game.within(game.space('s0'), 1000000) do n += 1 end return n")
        .unwrap();
    assert_eq!(v.as_int(), Some(2));
}
