//! Bundled and broken content: each game's content against its rulebook (one module per
//! game), the bad-input corpus (`bad_inputs.rs`, snapshots in `snapshots/`), seeded breaks of
//! every bundled file (`mutations.rs`), the committed schemas (`schemas.rs`), what scripts
//! read of a mod's definitions (`script_data.rs`), and the code's own layout (`layout.rs`: no
//! import circles, no long function without a reason, a map that names only what exists).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod bad_inputs;
mod critter_cab;
mod curbside;
mod dicey_curves;
mod layout;
mod mutations;
mod schemas;
mod script_data;
mod taxi_derby;
mod wheres_my_ride;
