//! The Luau sandbox and its limits: unreachable libraries, step budget, memory limit, and
//! atomic apply (the state is exactly as before any script failure).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use farebox::content::{self, NoDependencies};
use farebox::game::{Game, GameError, Setup};
use farebox::value::Value;

fn game_with(script: &str) -> Result<Game, GameError> {
    Game::new(Arc::new(support::probe(script)), Setup::new(1, 7))
}

const RULES: &str = r#"
return {
  setup = function(g)
    game.set("io", type(io)); game.set("os", type(os)); game.set("require", type(require))
    game.set("loadstring", type(loadstring)); game.set("load", type(load))
    game.set("getfenv", type(getfenv)); game.set("setfenv", type(setfenv))
    game.set("debug", type(debug)); game.set("collectgarbage", type(collectgarbage))
    game.set("print", type(print)); game.set("coroutine", type(coroutine))
    game.set("seeded", math.random(1000000))
    game.set("randomseed", pcall(math.randomseed, 1))
    game.set("global_write", pcall(function() string.upper = nil end))
  end,
  actions = function(g, seat) return { "ok", "loop", "bomb", "error", "bad-set" } end,
  apply = function(g, seat, action)
    game.add_counter("score", 1)
    game.log("applied " .. action)
    if action == "loop" then while true do end
    elseif action == "bomb" then local t = {} while true do table.insert(t, string.rep("x", 65536) .. #t) end
    elseif action == "error" then error("boom")
    elseif action == "bad-set" then game.set("f", function() end)
    end
  end,
}
"#;

fn var(g: &Game, name: &str) -> Value {
    g.view(Some(0))
        .vars
        .get(name)
        .cloned()
        .unwrap_or(Value::Nil)
}

#[test]
fn dangerous_globals_are_unreachable() {
    let g = game_with(RULES).unwrap_or_else(|e| panic!("{e}"));
    for name in [
        "io",
        "os",
        "require",
        "loadstring",
        "load",
        "getfenv",
        "setfenv",
        "debug",
        "collectgarbage",
        "coroutine",
    ] {
        assert_eq!(
            var(&g, name),
            Value::Str("nil".into()),
            "{name} is reachable"
        );
    }
    // `print` is there, and writes only to the debug channel (see engine/tests/scripts/debug_print.rs).
    assert_eq!(var(&g, "print"), Value::Str("function".into()));
    // math.randomseed refuses; the shared libraries are read-only.
    assert_eq!(var(&g, "randomseed"), Value::Bool(false));
    assert_eq!(var(&g, "global_write"), Value::Bool(false));
}

#[test]
fn math_random_is_the_seeded_engine_generator() {
    let a = var(&game_with(RULES).unwrap(), "seeded");
    let b = var(&game_with(RULES).unwrap(), "seeded");
    assert_eq!(a, b, "same seed, same math.random");
    assert!(a.as_int().is_some());
}

fn failing_apply_leaves_state_untouched(action: &str, expect: &str) {
    let mut g = game_with(RULES).unwrap();
    g.apply("ok").unwrap();
    let (hash, log, history) = (g.state().hash(), g.log().len(), g.history().len());
    let t = Instant::now();
    let err = g.apply(action).unwrap_err();
    assert!(
        t.elapsed() < Duration::from_secs(1),
        "{action} took {:?}",
        t.elapsed()
    );
    let msg = err.to_string();
    assert!(msg.contains(expect), "{action}: {msg}");
    assert!(msg.contains("probe/rules/r.luau"), "names the file: {msg}");
    assert!(msg.contains("in apply"), "names the hook: {msg}");
    assert_eq!(g.state().hash(), hash, "{action} changed the state");
    assert_eq!(g.log().len(), log);
    assert_eq!(g.history().len(), history);
    // The game goes on after the failure.
    g.apply("ok").unwrap();
}

#[test]
fn an_endless_loop_in_a_hook_is_stopped_and_rolled_back() {
    failing_apply_leaves_state_untouched("loop", "exceeded");
}

#[test]
fn a_memory_bomb_in_a_hook_is_stopped_and_rolled_back() {
    failing_apply_leaves_state_untouched("bomb", "memory limit");
}

#[test]
fn a_script_error_names_file_line_and_hook_and_rolls_back() {
    failing_apply_leaves_state_untouched("error", "boom");
    let mut g = game_with(RULES).unwrap();
    let e = g.apply("error").unwrap_err().to_string();
    assert!(e.contains("r.luau:19:"), "line of the error: {e}");
}

#[test]
fn functions_cannot_be_stored_in_the_state() {
    failing_apply_leaves_state_untouched("bad-set", "cannot hold");
}

#[test]
fn endless_loop_and_memory_bomb_at_load_time_end_quickly() {
    for (script, expect) in [
        ("while true do end return {}", "exceeded"),
        (
            "local t = {} while true do table.insert(t, string.rep('x', 65536) .. #t) end",
            "memory limit",
        ),
    ] {
        let t = Instant::now();
        let e = game_with(script)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "took {:?}",
            t.elapsed()
        );
        assert!(e.contains(expect) && e.contains("in load"), "{e}");
    }
}

#[test]
fn illegal_actions_are_refused() {
    let mut g = game_with(RULES).unwrap();
    assert!(matches!(g.apply("fly"), Err(GameError::Illegal(_))));
}

#[test]
fn a_script_file_holding_bytecode_is_never_run_as_bytecode() {
    // Precompiled Luau bytecode skips the compiler's checks and can break the VM's memory
    // safety, so mod files are only ever read as source text. Real bytecode is not UTF-8, and
    // a mod file that is not UTF-8 text is refused when it is read.
    let bytecode = mlua::chunk::Compiler::new()
        .compile("return { setup = function() game.set('ran', true) end }")
        .unwrap();
    let dir = std::env::temp_dir().join(format!("farebox-bytecode-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("mod.toml"), support::MANIFEST).unwrap();
    std::fs::write(dir.join("pieces.toml"), support::PIECES).unwrap();
    std::fs::write(dir.join("rules/r.luau"), &bytecode).unwrap();
    let Err(err) = content::load_mod(&farebox::source::FsSource::new(&dir), &NoDependencies) else {
        panic!("a bytecode file must not load");
    };
    let err = err.to_string();
    assert!(err.contains("rules/r.luau"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);

    // Text that merely starts like bytecode (a version byte) is parsed as text, and fails as
    // text: the VM never treats a mod file as compiled code.
    let err = game_with("\u{6}return {}")
        .err()
        .expect("must not load")
        .to_string();
    assert!(
        err.contains("rules/r.luau") && err.contains("in load"),
        "{err}"
    );
    assert!(!err.to_lowercase().contains("bytecode"), "{err}");
}

#[test]
fn an_action_listed_twice_is_reported_with_the_hooks_line() {
    let script = "return {\n  setup = function(g) end,\n  actions = function(g, seat)\n    return { \"a\", \"b\", \"a\" }\n  end,\n  apply = function(g, seat, action) end,\n}\n";
    let mut g = game_with(script).unwrap();
    let e = g.legal_actions().unwrap_err().to_string();
    assert!(e.contains("r.luau:3:"), "the hook's line: {e}");
    assert!(e.contains("`a` is listed twice"), "{e}");
    assert!(e.contains("in actions"), "{e}");
    // Long lists are checked too.
    let long = "return { setup = function(g) end, apply = function(g, s, a) end,\n  actions = function(g, seat) local t = {} for i = 1, 40 do t[i] = tostring(i) end t[41] = \"17\" return t end }\n";
    let mut g = game_with(long).unwrap();
    let e = g.legal_actions().unwrap_err().to_string();
    assert!(e.contains("`17` is listed twice"), "{e}");
    // A list of 100,000 actions is checked in one pass (it once took seconds per action, pair
    // by pair): all distinct passes, one repeated at the very end is named.
    let huge = |last: &str| {
        format!(
            "return {{ setup = function(g) end, apply = function(g, s, a) end,\n  actions = function(g, seat) local t = table.create(100000) for i = 1, 99999 do t[i] = tostring(i) end t[100000] = \"{last}\" return t end }}\n"
        )
    };
    let mut g = game_with(&huge("x")).unwrap();
    assert_eq!(g.legal_actions().unwrap().len(), 100_000);
    let mut g = game_with(&huge("5")).unwrap();
    let e = g.legal_actions().unwrap_err().to_string();
    assert!(e.contains("`5` is listed twice"), "{e}");
}

#[test]
fn an_argument_of_the_wrong_kind_is_named_in_plain_words() {
    const ARGS: &str = r#"
return {
  actions = function(g, seat) return { "nil", "fraction", "text", "two-calls", "string-id" } end,
  apply = function(g, seat, action)
    if action == "nil" then local c = game.cell(nil, 1)
    elseif action == "fraction" then local c = game.cell(1, 2.5)
    elseif action == "text" then game.add_counter("score", {})
    elseif action == "two-calls" then local a, b = game.seats(), game.cell(1, "x")
    elseif action == "string-id" then local o = game.option(nil)
    end
  end,
}
"#;
    let mut g = game_with(ARGS).unwrap();
    for (action, line, expect) in [
        (
            "nil",
            5,
            "argument 1 of `game.cell` must be a whole number, not nil",
        ),
        (
            "fraction",
            6,
            "argument 2 of `game.cell` must be a whole number, not a fraction or a number out of range",
        ),
        (
            "two-calls",
            8,
            "argument 2 of the `game` function called here must be a whole number, not a string",
        ),
        (
            "string-id",
            9,
            "argument 1 of `game.option` must be a string, not nil",
        ),
    ] {
        let e = g.apply(action).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "probe/rules/r.luau:{line}: error: {expect} (mod `probe`, in apply, at action"
            )),
            "{action}: {e}"
        );
    }
    let e = g.apply("text").unwrap_err().to_string();
    assert!(
        e.contains(
            "r.luau:7: error: game.add_counter's amount must be a whole number, not a table"
        ),
        "{e}"
    );
}

#[test]
fn rules_read_track_pieces_with_their_gates_tags_and_props() {
    use farebox::content::{self, NoDependencies};
    use farebox::source::MemSource;
    let src = MemSource::new("track")
        .with(
            "mod.toml",
            &support::MANIFEST.replace("[content]\n", "[content]\nboard = \"board.toml\"\n"),
        )
        .with("pieces.toml", support::PIECES)
        .with(
            "board.toml",
            r#"kind = "track"
[track]
table_width = 20.0
table_height = 12.0
[[track.pieces]]
id = "grid"
role = "start"
lanes = 3
rows = 3
[[track.pieces]]
id = "chicane"
name = "Chicane"
lanes = 2
rows = 2
turn = -45
gates = [{ lanes = [0, 1], size = 4 }]
tags = ["curve", "tricky"]
props = { grip = 2 }
"#,
        )
        .with(
            "rules/r.luau",
            r#"
return {
  setup = function(g)
    local c = data.track_pieces.chicane
    game.set("read", table.concat({
      c.name, c.role, c.lanes, c.rows, c.turn, c.gates[1].size, #c.gates[1].lanes,
      table.concat(c.tags, "+"), c.props.grip, data.track_pieces.grid.role,
    }, " "))
  end,
  actions = function(g, seat) return { "end", "shrink", "lay", "bad-table" } end,
  apply = function(g, seat, action)
    if action == "shrink" then game.set_track_table(0.5, 0.5)
    elseif action == "bad-table" then game.set_track_table(0, 5)
    elseif action == "lay" then
      local first, why = game.attach_track("grid")
      game.set("laid", first or why)
    end
  end,
}
"#,
        );
    let def = Arc::new(content::load_mod(&src, &NoDependencies).unwrap_or_else(|e| panic!("{e}")));
    let g = Game::new(def.clone(), Setup::new(1, 1)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        var(&g, "read"),
        Value::Str("Chicane normal 2 2 -45 4 2 curve+tricky 2 start".into())
    );
    // The play area can be set by the rules: on the 20 x 12 table the start grid fits, on a
    // half-card-length one it does not.
    let mut roomy = Game::new(def.clone(), Setup::new(1, 1)).unwrap();
    roomy.apply("lay").unwrap();
    assert_eq!(var(&roomy, "laid"), Value::Int(1));
    let mut cramped = Game::new(def, Setup::new(1, 1)).unwrap();
    cramped.apply("shrink").unwrap();
    cramped.apply("lay").unwrap();
    assert_eq!(var(&cramped, "laid"), Value::Str("off-table".into()));
    let e = cramped.apply("bad-table").unwrap_err().to_string();
    assert!(
        e.contains("the table must have a positive width and height, not 0 x 5"),
        "{e}"
    );
}

#[test]
fn the_rules_give_a_piece_to_a_seat_and_every_view_names_its_owner() {
    let script = r#"
return {
  setup = function(g)
    game.set_owner(game.pieces("car")[2], 2)
  end,
  actions = function(g, seat) return { "pass" } end,
  apply = function(g, seat, action) game.end_turn() end,
}"#;
    let pieces = "[[pieces]]\nid = \"car\"\nname = \"Car\"\ncount = 2\n";
    let def = Arc::new(support::probe_with_pieces(script, pieces));
    let mut g = Game::new(def, Setup::new(2, 7)).unwrap_or_else(|e| panic!("{e}"));
    let owners =
        |g: &Game| -> Vec<Option<u8>> { g.view(None).pieces.iter().map(|p| p.owner).collect() };
    assert_eq!(owners(&g), vec![None, Some(1)]);
    assert_eq!(
        g.eval("return game.owner(game.pieces('car')[2])").unwrap(),
        Value::Int(2)
    );
    assert_eq!(
        g.eval("return #game.pieces('car', 2)").unwrap(),
        Value::Int(1)
    );
    g.eval("game.set_owner(game.pieces('car')[2], nil)")
        .unwrap();
    assert_eq!(owners(&g), vec![None, None]);
    let e = g
        .eval("game.set_owner(game.pieces('car')[1], 3)")
        .unwrap_err()
        .to_string();
    assert!(e.contains("there is no seat 3"), "{e}");
    // Only the rules change the game.
    let e = g
        .inspect("game.set_owner(game.pieces('car')[1], 1)")
        .unwrap_err()
        .to_string();
    assert!(e.contains("game.set_owner changes the game"), "{e}");
    assert_eq!(owners(&g), vec![None, None]);
}
