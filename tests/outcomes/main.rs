//! Seeded outcomes of the bundled games (a transcript of one game, statistics over 1,000
//! games, each bot's margin over the random agent: insta snapshots in `snapshots/`), and the
//! accepted outcomes of every bundled mod against its house rules' (`house_rules.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod critter_cab;
mod curbside;
mod dicey_curves;
mod house_rules;
mod taxi_derby;
mod wheres_my_ride;
