//! Small helpers the rule tests of every game share: the shipped definition (loaded once per
//! process), reading values the rules hand back, and taking actions with a clear panic.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use farebox::GameDef;
use farebox::game::{Game, Setup};
use farebox::value::Value;

/// A bundled mod's definition, loaded once per test process.
pub fn shipped(id: &str) -> Arc<GameDef> {
    static DEFS: OnceLock<Mutex<BTreeMap<String, Arc<GameDef>>>> = OnceLock::new();
    let defs = DEFS.get_or_init(Default::default);
    let mut defs = defs.lock().unwrap_or_else(|e| e.into_inner());
    defs.entry(id.to_string())
        .or_insert_with(|| Arc::new(crate::load(id)))
        .clone()
}

/// A new game of `def` with `seats` seats, `seed`, and the options given (the rest default).
pub fn game_with(def: &Arc<GameDef>, seats: u8, seed: u64, options: &[(&str, Value)]) -> Game {
    let mut setup = Setup::new(seats, seed);
    for (k, v) in options {
        setup = setup.option(k, v.clone());
    }
    Game::new(def.clone(), setup).unwrap_or_else(|e| panic!("{e}"))
}

pub fn int(v: Value) -> i64 {
    v.as_int().unwrap_or_else(|| panic!("not an int: {v:?}"))
}

/// A string, or "nil" for nil.
pub fn text(v: Value) -> String {
    match v {
        Value::Str(s) => s,
        Value::Nil => "nil".into(),
        other => panic!("not a string: {other:?}"),
    }
}

/// A list of strings (nil and the empty table are the empty list).
pub fn strings(v: Value) -> Vec<String> {
    match v {
        Value::List(items) => items
            .into_iter()
            .map(|i| match i {
                Value::Str(s) => s,
                other => panic!("not a string: {other:?}"),
            })
            .collect(),
        Value::Nil => vec![],
        Value::Map(m) if m.is_empty() => vec![],
        other => panic!("not a list: {other:?}"),
    }
}

/// Applies an action; a refusal panics with the reason and the legal actions.
pub fn act(g: &mut Game, action: &str) {
    g.apply(action).unwrap_or_else(|e| {
        let legal = g.legal_actions().unwrap_or_default();
        panic!("{action}: {e}\nlegal: {legal:?}")
    });
}

pub fn legal(g: &mut Game) -> Vec<String> {
    g.legal_actions().unwrap_or_else(|e| panic!("{e}"))
}

pub fn has(g: &mut Game, action: &str) -> bool {
    legal(g).iter().any(|a| a == action)
}

/// The legal actions that start with `prefix`.
pub fn offered(g: &mut Game, prefix: &str) -> Vec<String> {
    legal(g)
        .into_iter()
        .filter(|a| a.starts_with(prefix))
        .collect()
}
