//! No bundled game's rules remember anything between hook calls: replayed with extra calls of
//! every hook (as screens, bots and the Studio make them), each seeded game goes the same way.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

#[test]
fn bundled_rules_give_the_same_game_however_often_they_are_asked() {
    for id in [
        "curbside",
        "curbside-gas-station",
        "taxi-derby",
        "taxi-derby-learners-permit",
        "critter-cab",
        "critter-cab-no-sitting-out",
        "dicey-curves",
        "dicey-curves-sunday-drive",
        "wheres-my-ride",
        "wheres-my-ride-show-dont-tell",
    ] {
        let def = Arc::new(farebox_suite::load(id));
        let seats = def.players.0 as u8;
        if let Some(f) = farebox::call_order::check(&def, seats, &[1, 2], 300) {
            panic!("{id}: {f}");
        }
    }
}
