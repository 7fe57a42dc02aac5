//! The hottest reads of the `game` API answer through raw C functions in their plain case
//! (`engine/src/script/api/raw.rs`) and hand every other case to the registered function, so
//! answers and errors are what they were.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::content::{self, GameDef, NoDependencies};
use farebox::game::{Game, Setup};
use farebox::script::api::raw_answers;
use farebox::source::FsSource;
use farebox::value::Value;

use crate::support::probe_with_pieces;

fn curbside() -> Arc<GameDef> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods/curbside");
    Arc::new(
        content::load_mod(&FsSource::new(dir), &NoDependencies).unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Runs `code` on the console; the value and how many calls the C functions answered.
fn eval(g: &mut Game, code: &str) -> (Result<Value, String>, u64) {
    let before = raw_answers();
    let r = g.eval(code).map_err(|e| e.to_string());
    (r, raw_answers() - before)
}

#[test]
fn plain_reads_are_answered_by_the_c_functions_with_the_state_s_values() {
    let mut g = Game::new(curbside(), Setup::new(2, 5)).unwrap();
    let taxi = 1 + g
        .state()
        .pieces
        .iter()
        .position(|p| g.def().pieces[p.def as usize].id == "taxi")
        .unwrap();
    let at = g.state().pieces[taxi - 1].at.unwrap() as i64 + 1;
    let cases: Vec<(String, Value)> = vec![
        (format!("return game.where_is({taxi})"), Value::Int(at)),
        (format!("return game.where_is({taxi}.0)"), Value::Int(at)),
        ("return game.seats()".into(), Value::Int(2)),
        ("return game.is_over()".into(), Value::Bool(false)),
        (
            "return game.counter('gas', 1)".into(),
            Value::Int(
                g.eval("return game.counter('gas', 1)")
                    .unwrap()
                    .as_int()
                    .unwrap(),
            ),
        ),
        (
            format!("return game.prop({taxi}, 'no such key')"),
            Value::Nil,
        ),
    ];
    for (code, want) in cases {
        let (got, answered) = eval(&mut g, &code);
        assert_eq!(got, Ok(want), "{code}");
        assert_eq!(answered, 1, "{code} was not answered by its C function");
    }
    // A number set by the rules, read back as a property; and a count of cards.
    g.eval(&format!("game.set_prop({taxi}, 'n', 7)")).unwrap();
    assert_eq!(
        eval(&mut g, &format!("return game.prop({taxi}, 'n')")),
        (Ok(Value::Int(7)), 1)
    );
    let (deck, _) = eval(&mut g, "return game.count(game.zone('deck'))");
    assert!(deck.unwrap().as_int().unwrap() > 0);
}

#[test]
fn a_ray_from_the_c_function_is_the_registered_function_s_ray() {
    let mut g = Game::new(curbside(), Setup::new(2, 5)).unwrap();
    // Every cell, side and length, with and without a stop table: the C function's list
    // (answered by it) against the registered function's (a length given as a string is
    // not the plain case, so it goes there).
    let code = |max: &str, stop: &str| {
        format!(
            "local out = {{}} for c = 1, game.space_count() do for _, d in {{'N', 'E', 'S', 'W'}} do \
             table.insert(out, table.concat(game.ray(c, d, {max}{stop}), ',')) end end \
             return table.concat(out, ';')"
        )
    };
    let stop = ", (function() local t = {} for c = 1, game.space_count(), 3 do t[c] = true end return t end)()";
    for (max, stop) in [("4", ""), ("9", stop), ("0", stop)] {
        let (fast, answered) = eval(&mut g, &code(max, stop));
        let (slow, fell_back) = eval(&mut g, &code(&format!("'{max}'"), stop));
        assert_eq!(fast, slow, "max {max}");
        assert!(answered >= 64, "{answered} rays answered by the C function");
        assert_eq!(fell_back, 0);
    }
    let (e, answered) = eval(&mut g, "return game.ray(1, 'up', 3)");
    assert!(e.unwrap_err().contains("`up` is not a side"));
    assert_eq!(answered, 0);
    let (e, _) = eval(&mut g, "return game.ray(1, 'N', 3, 5)");
    assert!(e.is_err(), "a stop that is not a table");
}

#[test]
fn every_other_case_goes_to_the_registered_function_with_its_own_answer_or_error() {
    let mut g = Game::new(curbside(), Setup::new(2, 5)).unwrap();
    // Answers the C functions do not make: strings, tables, numbers given as strings.
    g.eval("game.set_prop(1, 's', 'text') game.set_prop(1, 't', {1, 2})")
        .unwrap();
    assert_eq!(
        eval(&mut g, "return game.prop(1, 's')"),
        (Ok(Value::Str("text".into())), 0)
    );
    let (t, answered) = eval(&mut g, "return #game.prop(1, 't')");
    assert_eq!((t, answered), (Ok(Value::Int(2)), 0));
    let (gas, answered) = eval(&mut g, "return game.counter('gas', '1')");
    assert_eq!(answered, 0);
    assert_eq!(
        gas,
        g.eval("return game.counter('gas', 1)")
            .map_err(|e| e.to_string())
    );
    // Errors are the registered function's, with the line of the script.
    for (code, words) in [
        ("return game.where_is(999)", "999 is not a piece handle"),
        (
            "return game.where_is(1.5)",
            "must be a whole number, not a fraction",
        ),
        ("return game.where_is()", "must be a whole number, not nil"),
        ("return game.counter('nope')", "no counter `nope`"),
        ("return game.counter('gas')", "belongs to each seat"),
        ("return game.counter('gas', 9)", "there is no seat 9"),
        ("return game.count(0)", "0 is not a zone handle"),
        ("return game.prop(999, 'x')", "999 is not a piece handle"),
    ] {
        let (got, answered) = eval(&mut g, code);
        let e = got.unwrap_err();
        assert!(e.contains(words), "{code}: {e}");
        assert_eq!(answered, 0, "{code}");
    }
    // Outside a hook the game is not available, as before.
    let def = probe_with_pieces(
        "local early = pcall(game.seats)\nreturn { setup = function(g) game.set('early', early) end }",
        "",
    );
    let g = Game::new(Arc::new(def), Setup::new(1, 1)).unwrap();
    assert_eq!(
        g.state().vars.get("early").map(|v| v.value.clone()),
        Some(Value::Bool(false))
    );
}
