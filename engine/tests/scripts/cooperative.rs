//! Cooperative endings: `game.finish_together` ends a game that the whole table wins or
//! loses together, with one shared score.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;

use farebox::game::{Game, Setup};

const RULES: &str = r#"
return {
  actions = function(g, seat) return { "win", "lose" } end,
  apply = function(g, seat, action)
    game.finish_together(action == "win", 7, "the table " .. action .. "s")
  end,
}
"#;

fn play(seats: u8, action: &str) -> farebox::state::GameResult {
    let mut g = Game::new(Arc::new(support::probe(RULES)), Setup::new(seats, 1)).unwrap();
    g.apply(action).unwrap();
    assert!(g.is_over());
    g.result().unwrap().clone()
}

#[test]
fn the_table_wins_together() {
    for seats in [1, 2] {
        let r = play(seats, "win");
        assert_eq!(r.together, Some(true));
        assert_eq!(r.winners(), (0..seats as usize).collect::<Vec<_>>());
        assert_eq!(r.scores, vec![7; seats as usize]);
        assert_eq!(r.reason, "the table wins");
    }
}

#[test]
fn the_table_loses_together() {
    for seats in [1, 2] {
        let r = play(seats, "lose");
        assert_eq!(r.together, Some(false));
        assert!(r.winners().is_empty(), "{r:?}");
        assert_eq!(r.scores, vec![7; seats as usize]);
    }
}
