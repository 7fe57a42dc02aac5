//! The board at run time: every board kind becomes a graph of spaces joined by edges
//! (`graph.rs`, which also holds the moves over it).
//!
//! - `graph` boards copy their spaces and edges.
//! - `sections` boards arrange (and turn) their sections at setup and join connectors that
//!   meet at the same point (`sections.rs`).
//! - `grid` boards have one space per cell; which moves are possible depends on the tiles
//!   placed on the cells, so [`Board::grid_step`] reads the tiles instead of fixed edges
//!   (`grid.rs`).
//! - `track` boards start empty and grow a piece at a time ([`Board::lay_track`]), each piece
//!   checked by its footprint ([`CardShape`], `geometry.rs`) against the table's edge and the
//!   pieces already laid; pieces can be taken off again ([`Board::remove_track`]) (`track.rs`).
//!
//! This file holds what every kind shares: the [`Board`] itself and the setup that picks the
//! kind. The kinds' files add their own methods to `Board`; every type stays reachable as
//! `board::Name`.
//!
//! The fixed part (spaces, edges) sits behind an `Arc`, so cloning the state for rollback is
//! cheap; only a growing track copies it.

mod drawn;
mod geometry;
mod graph;
mod grid;
mod sections;
mod track;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::content::def::*;
use crate::rng::Rng;
use crate::value::Value;

pub use drawn::TableBoard;
pub use geometry::{CARD_MARGIN, CardShape, LANE_WIDTH};
use graph::copy_graph;
// The limits a board keeps to are the definition's (the loader checks them first).
pub use crate::content::def::{
    DEFAULT_CLEARANCE, MAX_CLEARANCE, MAX_COORDINATE, MAX_EDGE_COST, MAX_TRACK_PIECES,
    MAX_TRACK_TABLE,
};
pub use graph::{Edge, Graph, Space, WalkTooLong, Walks};
pub use grid::{GridState, Placed, fresh_stamp};
pub use track::{AttachError, LaidPiece, TrackError, TrackState};

#[derive(Debug, Clone, Serialize)]
pub struct Board {
    pub kind: &'static str,
    /// Derived from the definition, the arrangement and the laid track: not hashed.
    #[serde(skip)]
    pub graph: Arc<Graph>,
    pub grid: Option<GridState>,
    pub track: Option<TrackState>,
    /// For sections boards: (section index, quarter turns) at each layout position.
    pub arrangement: Vec<(u16, u8)>,
}

impl Board {
    /// The board a game starts with; `options` are the game's (a sections board may take its
    /// shuffle and rotate from them).
    pub fn new(
        def: &BoardDef,
        tiles: &[TileDef],
        options: &BTreeMap<String, Value>,
        rng: &mut Rng,
    ) -> Board {
        let mut board = Board {
            kind: def.kind_name(),
            graph: Arc::new(Graph::default()),
            grid: None,
            track: None,
            arrangement: vec![],
        };
        match def {
            BoardDef::None => {}
            BoardDef::Graph(g) => {
                let mut graph = Graph::default();
                copy_graph(&mut graph, g, 0.0, 0.0, 0, 1.0);
                board.graph = Arc::new(graph);
            }
            BoardDef::Sections(s) => board.lay_out_sections(s, options, rng),
            BoardDef::Grid(g) => board.lay_out_grid(g, tiles),
            BoardDef::Track(t) => board.track = Some(TrackState::new(t)),
        }
        board
    }

    pub fn space_count(&self) -> usize {
        self.graph.spaces.len()
    }
}

/// A space of a board's definition, for the tests of the board kinds.
#[cfg(test)]
fn space(id: &str, x: f64, y: f64) -> SpaceDef {
    SpaceDef {
        id: id.into(),
        name: id.into(),
        x,
        y,
        tags: vec![],
        props: BTreeMap::new(),
    }
}
