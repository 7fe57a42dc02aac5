//! Bundled and broken content: each game's content against its rulebook (one module per
//! game), the bad-input corpus (`bad_inputs.rs`, snapshots in `snapshots/`), seeded breaks of
//! every bundled file (`mutations.rs`), the committed schemas (`schemas.rs`) and what scripts
//! read of a mod's definitions (`script_data.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bad_inputs;
mod critter_cab;
mod curbside;
mod dicey_curves;
mod mutations;
mod schemas;
mod script_data;
mod taxi_derby;
mod wheres_my_ride;
