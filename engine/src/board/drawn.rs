//! The board as it lies on the table, for drawing it somewhere the game is not: where the
//! spaces are (with the tags and properties the mod and the laid track give them), the roads
//! between them, a sections city's arrangement and a track's laid cards. Public to every
//! seat: the rules cannot write a space's tags or properties, so they say only what the mod's
//! files and the cards laid in sight say. The online server sends it as it is, in the engine's
//! own types, and a client draws the [`Board`] it makes again.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Board, Edge, Graph, Space, TrackState};
use crate::content::def::{BoardDef, GameDef};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableBoard {
    pub spaces: Vec<Space>,
    pub edges: Vec<Edge>,
    /// For sections boards: (section index, quarter turns) at each layout position.
    pub arrangement: Vec<(u16, u8)>,
    pub track: Option<TrackState>,
}

impl TableBoard {
    /// The board of a game of `def` as it lies now; None for a grid (its tiles are in the
    /// seat's view) and for a game without a board.
    pub fn of(def: &GameDef, board: &Board) -> Option<TableBoard> {
        if !matches!(
            def.board,
            BoardDef::Graph(_) | BoardDef::Sections(_) | BoardDef::Track(_)
        ) {
            return None;
        }
        Some(TableBoard {
            spaces: board.graph.spaces.clone(),
            edges: board.graph.edges.clone(),
            arrangement: board.arrangement.clone(),
            track: board.track.clone(),
        })
    }

    /// The board again, for drawing it as the game's own is drawn (`def` gives its kind).
    pub fn to_board(&self, def: &GameDef) -> Board {
        let mut graph = Graph::default();
        for s in &self.spaces {
            graph.add_space(s.clone());
        }
        for e in &self.edges {
            graph.add_edge(e.clone());
        }
        Board {
            kind: def.board.kind_name(),
            graph: Arc::new(graph),
            grid: None,
            track: self.track.clone(),
            arrangement: self.arrangement.clone(),
        }
    }
}
