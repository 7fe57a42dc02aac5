//! Every bundled game's rule oracles (`tests/support/<game>_oracles.rs`) and the invariants
//! every game keeps (`tests/support/oracles.rs`), run on every step of seeded games: one
//! module per game, in one test binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod critter_cab;
mod curbside;
mod dicey_curves;
mod taxi_derby;
mod wheres_my_ride;
