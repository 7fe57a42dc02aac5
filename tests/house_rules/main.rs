//! The bundled house rules: Gas Station, the worked example (`gas_station.rs`), the content
//! every house rule changes (`content.rs`), and the hooks each game's house rule wraps (one
//! module per game).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod content;
mod critter_cab;
mod dicey_curves;
mod gas_station;
mod taxi_derby;
mod wheres_my_ride;
