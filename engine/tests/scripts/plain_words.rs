//! Messages a mod author reads are in plain words: a hook that returns the wrong shape, an API
//! call given the wrong kind of argument, a bot that answers with something else, an error
//! raised with a table. None may show the Luau binding's or Rust's own terms (type names such
//! as `Vec<String>` or `i64`, a value printed as `Table(Ref(0x...))`, an address).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, Setup};

/// Words that mean nothing to a mod author.
const FOREIGN: &[&str] = &[
    "Vec<",
    "Option<",
    "Ref(",
    "0x",
    "i128",
    "u128",
    "i64",
    "u64",
    "i32",
    "u32",
    "u8",
    "usize",
    "f64",
    "String",
    "mlua",
    "Lua string",
    "Lua table",
    "Lua nil",
    "Lua number",
    "LuaValue",
    "Table(",
    "Function(",
    "userdata",
    "error converting",
    "FromLua",
    "callback",
    "stack traceback",
    "bad argument #",
];

fn foreign(message: &str) -> Option<&'static str> {
    FOREIGN.iter().copied().find(|w| message.contains(w))
}

/// A probe game (two pawns, a zone) whose hooks are `hooks` (Luau table fields).
fn game(hooks: &str) -> Result<Game, String> {
    let script = format!("return {{\n{hooks}\n}}\n");
    let pieces = "[[pieces]]\nid = \"pawn\"\nname = \"Pawn\"\ncount = 2\n[[zones]]\nid = \"pile\"\nname = \"Pile\"\nvisibility = \"public\"\n";
    let def = support::probe_with_pieces(&script, pieces);
    Game::new(Arc::new(def), Setup::new(1, 1)).map_err(|e| e.to_string())
}

/// The message a call in `apply` gives (None when it is not a mistake after all).
fn apply_message(body: &str) -> Option<String> {
    let hooks = format!(
        "actions = function(g, seat) return {{ \"go\" }} end,\napply = function(g, seat, action)\n{body}\nend,"
    );
    let mut g = game(&hooks).unwrap();
    g.apply("go").err().map(|e| e.to_string())
}

/// The message the `actions` hook gives when it returns `value`.
fn actions_message(value: &str) -> String {
    let hooks = format!(
        "actions = function(g, seat) return {value} end,\napply = function(g, seat, action) end,"
    );
    let mut g = game(&hooks).unwrap();
    match g.legal_actions() {
        Ok(a) => panic!("actions returning {value} gave {a:?}"),
        Err(e) => e.to_string(),
    }
}

/// The message the `describe` hook gives when it returns `value`.
fn describe_message(value: &str) -> String {
    let hooks = format!(
        "actions = function(g, seat) return {{ \"go\" }} end,\napply = function(g, seat, action) end,\ndescribe = function(g, seat, action) return {value} end,"
    );
    let mut g = game(&hooks).unwrap();
    match g.try_describe_path("go") {
        Ok(p) => panic!("describe returning {value} gave {p:?}"),
        Err(e) => e.to_string(),
    }
}

/// The message a bot whose `choose` returns `value` gives.
fn bot_message(value: &str) -> String {
    let manifest = support::MANIFEST.replace(
        "[content]",
        "[[bots]]\nid = \"b\"\nname = \"B\"\nscript = \"bots/b.luau\"\n[content]",
    );
    let bot = format!("return {{ choose = function(game, seat, actions) return {value} end }}\n");
    let def = Arc::new(support::mem_mod(
        "probe",
        &[
            ("mod.toml", &manifest),
            ("pieces.toml", support::PIECES),
            (
                "rules/r.luau",
                "return {\n  actions = function(g, seat) return { \"a\", \"b\" } end,\n  apply = function(g, seat, action) end,\n}\n",
            ),
            ("bots/b.luau", &bot),
        ],
    ));
    let mut g = Game::new(def, Setup::new(1, 1)).unwrap();
    let actions = g.legal_actions().unwrap();
    let mut rng = farebox::rng::Rng::new(1, 1);
    match g.bot_choose("b", &actions, &mut rng) {
        Ok(i) => panic!("choose returning {value} chose {i}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn wrong_shapes_and_kinds_are_told_in_plain_words() {
    let mut messages: Vec<(String, String)> = vec![];
    for v in [
        "5",
        "\"draw\"",
        "nil",
        "true",
        "{ \"a\", {} }",
        "{ \"a\", true }",
        "{ \"a\", function() end }",
        "{ a = \"x\" }",
        "function() end",
        "{ \"a\", \"\\255\\254\" }",
    ] {
        messages.push((format!("actions returning {v}"), actions_message(v)));
    }
    for v in [
        "5",
        "{}",
        "{ 1 }",
        "nil",
        "{ x = 1 }",
        "\"\"",
        "{ \"a\", {} }",
    ] {
        messages.push((format!("describe returning {v}"), describe_message(v)));
    }
    for v in [
        "{}",
        "\"nope\"",
        "0",
        "1.5",
        "nil",
        "true",
        "function() end",
        "99",
    ] {
        messages.push((format!("choose returning {v}"), bot_message(v)));
    }
    for body in [
        "game.counter({})",
        "game.counter(\"score\", \"x\")",
        "game.counter(\"score\", {})",
        "game.set_counter(\"score\", {})",
        "game.add_counter(\"score\", 1.5)",
        "game.finish({ 1, \"x\" }, { 0 }, \"r\")",
        "game.finish(\"a\", \"b\", \"c\")",
        "game.finish({ 1 }, { 1.5 }, \"r\")",
        "game.finish({ 1 }, { 0 }, {})",
        "game.finish_together({}, 1, \"r\")",
        "game.log({})",
        "game.log(\"x\", \"y\")",
        "game.log(\"x\", 1.5)",
        "game.roll({})",
        "game.roll(1.5)",
        "game.roll(1e300)",
        "game.roll()",
        "game.random(\"a\")",
        "game.move_piece(1, {})",
        "game.move_piece({}, 1)",
        "game.set(\"x\", function() end)",
        "game.set({}, 1)",
        "game.set(\"x\", { [{}] = 1 })",
        "game.set_prop(1, {}, 1)",
        "game.set_prop(1, \"k\", coroutine)",
        "game.set_secret(\"x\", 1, \"seat\")",
        "game.prop(\"one\", \"k\")",
        "game.pieces(nil)",
        "game.pieces(\"pawn\", {})",
        "game.zone({})",
        "game.move_card(1, \"x\")",
        "game.take_card(1, {}, 1)",
        "game.shuffle(nil)",
        "game.space({})",
        "game.cell(\"x\", 1)",
        "game.neighbors(1, \"road\")",
        "game.neighbors(1, { {} })",
        "game.distances(1, { 1, {} })",
        "game.walks(1, 2, 3)",
        "game.start_track(5)",
        "game.set_track_table(\"a\", 1)",
        "game.option({})",
        "game.seat_name(\"one\")",
        "game.set_active(1.5)",
        "error({})",
        "error(nil)",
        "error(setmetatable({}, { __tostring = function() return 'mine' end }))",
        "error(12)",
        "local t = nil; t.x = 1",
        "math.random(\"a\")",
        "string.rep({}, 2)",
        "data.x = 1",
    ] {
        match apply_message(body) {
            Some(m) => messages.push((body.to_string(), m)),
            None => eprintln!("{body}\n    (no error)"),
        }
    }
    for script in [
        "return { [{}] = function() end }",
        "return { [true] = function() end }",
        "return { setup = 5 }",
        "return { before = 5 }",
        "return { before = { [{}] = function() end } }",
        "return { after = { apply = \"x\" } }",
        "return 5",
        "error({})",
    ] {
        let src = farebox::source::MemSource::new("probe")
            .with("mod.toml", support::MANIFEST)
            .with("pieces.toml", support::PIECES)
            .with("rules/r.luau", script);
        let m = match farebox::content::load_mod(&src, &farebox::content::NoDependencies) {
            Err(d) => d.to_string(),
            Ok(def) => match Game::new(Arc::new(def), Setup::new(1, 1)) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("`{script}` loads"),
            },
        };
        messages.push((format!("a script returning {script}"), m));
    }
    let bad: Vec<String> = messages
        .iter()
        .filter_map(|(what, m)| foreign(m).map(|w| format!("{what}: `{w}` in: {m}")))
        .collect();
    for (what, m) in &messages {
        eprintln!("{what}\n    {m}");
    }
    assert!(
        bad.is_empty(),
        "{} messages in foreign words:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
