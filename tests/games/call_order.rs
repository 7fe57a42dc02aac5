//! No bundled game's rules remember anything between hook calls: replayed with extra calls of
//! every hook (as screens, bots and the Studio make them), each seeded game goes the same way.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

#[test]
fn bundled_rules_give_the_same_game_however_often_they_are_asked() {
    for id in farebox_suite::games()
        .into_iter()
        .chain(farebox_suite::house_rules())
    {
        let id = id.as_str();
        let def = Arc::new(farebox_suite::load(id));
        let seats = def.players.0 as u8;
        if let Some(f) = farebox::call_order::check(&def, seats, &[1, 2], 300) {
            panic!("{id}: {f}");
        }
    }
}
