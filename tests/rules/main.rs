//! Every bundled game's rules, rule ID by rule ID (`mods/<game>/RULES.md`): one module per
//! game, each with its checks declared once through `farebox_suite::rule_checks!` (the
//! function, its place in the list the mutants run, and its `#[test]`), and its deliberate
//! breaks (`<game>/mutants.rs`) that `every_broken_rule_is_caught` requires a check to catch.
//! One test binary for all of them, so the engine is linked once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod critter_cab;
mod curbside;
mod dicey_curves;
mod taxi_derby;
mod wheres_my_ride;
