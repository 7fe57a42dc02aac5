//! What scripts can read of a mod's own definitions through `data`: counters, zones and
//! options by id (so a base game can cope with a house rule that removed one).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::game::{Game, Setup};
use farebox::value::Value;

#[test]
fn counters_zones_and_options_are_in_data() {
    let def = Arc::new(farebox_suite::load("curbside"));
    let mut g = Game::new(def, Setup::new(2, 1)).unwrap();
    let v = g
        .eval(
            r#"return {
              data.counters.gas.scope, data.counters.gas.min, data.counters.actions.scope,
              data.zones.hand.visibility, tostring(data.zones.hand.per_seat), data.zones.deck.deck,
              data.options["starting-gas"].type, data.options["starting-gas"].default,
              data.options["starting-gas"].max, tostring(data.zones.nowhere == nil),
            }"#,
        )
        .unwrap();
    let want: Vec<Value> = vec![
        "seat".into(),
        Value::Int(0),
        "global".into(),
        "owner".into(),
        "true".into(),
        "road-tiles".into(),
        "int".into(),
        Value::Int(12),
        Value::Int(40),
        "true".into(),
    ];
    assert_eq!(v, Value::List(want));
}

#[test]
fn data_is_read_only() {
    let def = Arc::new(farebox_suite::load("curbside"));
    let mut g = Game::new(def, Setup::new(2, 1)).unwrap();
    assert!(g.eval("data.counters.gas.min = 5").is_err());
    assert!(g.eval("data.zones.extra = {}").is_err());
}
