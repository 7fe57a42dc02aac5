//! Every script error says where: the file and line, the Luau stack from the failing line up
//! to the hook (the mod's own frames), the hook, and the action and seed of the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, GameError, Setup};

/// A probe game whose `apply` runs `body` (lines 4 on) for "go"; the error of the second "go"
/// (action 2) of the game with seed 7.
fn error_of(body: &str) -> farebox::script::ScriptError {
    let script = format!(
        "return {{\n  actions = function(g, seat) return {{ \"go\", \"ok\" }} end,\n  apply = function(g, seat, action) if action == \"ok\" then return end\n{body}\n  end,\n}}\n"
    );
    let mut g = Game::new(Arc::new(support::probe(&script)), Setup::new(1, 7)).unwrap();
    g.apply("ok").unwrap();
    match g.apply("go").unwrap_err() {
        GameError::Script(e) => e,
        other => panic!("{other}"),
    }
}

const NESTED: &str =
    "local function inner(x)\n{line}\nend\nlocal function outer() inner(1) end\nouter()";

fn nested(line: &str) -> farebox::script::ScriptError {
    error_of(&NESTED.replace("{line}", line))
}

#[test]
fn a_raised_error_shows_the_stack_the_action_and_the_seed() {
    let e = nested("error('boom')");
    assert_eq!(e.message, "boom");
    assert_eq!(e.line, 5);
    assert_eq!(
        e.context.trace,
        vec![
            "probe/rules/r.luau:5 in inner",
            "probe/rules/r.luau:7 in outer",
            "probe/rules/r.luau:8 in apply"
        ]
    );
    assert_eq!((e.context.action, e.context.seed), (Some(2), Some(7)));
    let text = e.to_string();
    assert!(
        text.starts_with(
            "probe/rules/r.luau:5: error: boom (mod `probe`, in apply, at action 2 of the game with seed 7)"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n    at probe/rules/r.luau:7 in outer"),
        "{text}"
    );
}

#[test]
fn a_bad_api_call_a_runtime_error_and_a_limit_show_their_stacks_too() {
    for (line, says) in [
        ("game.cell('a')", "argument 1 of `game.cell`"),
        ("local t = nil; return t.x", "attempt to index nil"),
        ("while true do end", "step budget exceeded"),
    ] {
        let e = nested(line);
        assert!(e.message.contains(says), "{line}: {}", e.message);
        assert_eq!(e.context.trace.len(), 3, "{line}: {:?}", e.context.trace);
        assert_eq!(
            e.context.trace[0], "probe/rules/r.luau:5 in inner",
            "{line}"
        );
        assert_eq!(
            e.context.trace[2], "probe/rules/r.luau:8 in apply",
            "{line}"
        );
        assert_eq!(e.context.action, Some(2));
    }
}

#[test]
fn a_deep_recursion_keeps_a_few_frames() {
    let e = error_of("local function down(n) return down(n + 1) + 1 end\ndown(1)");
    assert!(
        !e.context.trace.is_empty() && e.context.trace.len() <= 12,
        "{:?}",
        e.context.trace
    );
}

#[test]
fn setup_errors_say_so_with_the_seed() {
    let script = "return {\n  setup = function(g)\n    error('no table')\n  end,\n}\n";
    let Err(GameError::Script(e)) = Game::new(Arc::new(support::probe(script)), Setup::new(1, 42))
    else {
        panic!("setup failed to fail")
    };
    assert_eq!((e.context.action, e.context.seed), (Some(0), Some(42)));
    assert!(
        e.to_string().contains("setting up the game with seed 42"),
        "{e}"
    );
}
