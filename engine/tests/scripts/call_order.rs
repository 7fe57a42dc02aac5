//! Rules that remember something between hook calls are found, by replaying seeded games with
//! extra calls of each hook, and named by hook and file; rules that only cache what the
//! content fixes are not.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::call_order::{Extra, check};

/// A probe game of a few actions: "a", "b" and "c" add to a counter until it passes 12.
fn rules(state_line: &str, describe: &str, apply_extra: &str) -> String {
    format!(
        r#"{state_line}
return {{
  actions = function(g, seat) return {{ "a", "b", "c" }} end,
  describe = function(g, seat, action)
    {describe}
    return "do " .. action
  end,
  apply = function(g, seat, action)
    {apply_extra}
    local n = game.add_counter("score", #action + (if action == "c" then 2 else 0))
    game.log("did " .. action)
    if n > 12 then game.finish({{ 1 }}, {{ n }}, "done") end
  end,
}}
"#
    )
}

fn found(script: &str) -> Option<farebox::call_order::Finding> {
    let def = Arc::new(support::probe(script));
    check(&def, 1, &[1, 2, 3], 200)
}

#[test]
fn a_rule_counting_its_describe_calls_is_found_and_named() {
    let f = found(&rules(
        "local described = 0",
        "described += 1",
        "game.set(\"seen\", described)",
    ))
    .expect("found");
    assert_eq!(f.extra, Extra::Describe);
    assert_eq!(f.scripts, vec!["probe/rules/r.luau".to_string()]);
    assert_eq!(f.action, 1);
    let text = f.to_string();
    assert!(text.contains("describe hook"), "{text}");
    assert!(text.contains("probe/rules/r.luau"), "{text}");
    assert!(text.contains("seed 1"), "{text}");
}

#[test]
fn a_rule_counting_its_own_applies_is_found_through_tries() {
    let f = found(&rules(
        "local applied = 0",
        "",
        "applied += 1\n    game.set(\"applied\", applied)",
    ))
    .expect("found");
    assert_eq!(f.extra, Extra::Try);
    assert!(f.to_string().contains("apply/on_turn_start hooks"), "{f}");
}

#[test]
fn a_rule_remembering_the_last_action_it_described_is_found() {
    // Order, not count: the label of the last action described leaks into the log.
    let f = found(&rules(
        "local last = \"\"",
        "last = action",
        "game.log(\"after \" .. last)",
    ))
    .expect("found");
    assert_eq!(f.extra, Extra::Describe);
}

#[test]
fn caches_of_what_the_content_fixes_are_fine() {
    assert_eq!(
        found(&rules(
            "local ZONES = {}\nlocal CONST = { bonus = 2 }",
            "ZONES.score = ZONES.score or 1",
            "ZONES.score = ZONES.score or 1\n    local _ = CONST.bonus",
        )),
        None
    );
}
