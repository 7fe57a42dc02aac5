//! What a seat may see: the view of a game, its zones and pieces, built from the state.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{CellView, Game};
use crate::content::GameDef;
use crate::state::{GameResult, LogEntry, State, visible_cards};
use crate::value::Value;

impl Game {
    /// The state as `seat` may see it (None: a spectator, who sees only public things).
    pub fn view(&self, seat: Option<u8>) -> View {
        view_of(&self.def, &self.state, &self.log, seat)
    }

    /// A fingerprint of what `seat` sees of the game, its log left out: two games have the
    /// same one exactly when their views (log aside) are the same. The variables the seat
    /// sees are read by their digests ([`crate::state::Var::digest`], made once per value)
    /// instead of copied into a view and written out, so the cost does not grow with what
    /// they hold.
    pub fn view_print(&self, seat: Option<u8>) -> String {
        let view = view_with(&self.def, &self.state, &[], seat, false);
        let mut h = crate::state::Hashing::new();
        h.json(&view);
        for (name, v) in self.state.vars.iter().filter(|(_, v)| v.seen.by(seat)) {
            h.update(&(name.len() as u64).to_le_bytes());
            h.update(name.as_bytes());
            h.update(&v.digest());
        }
        h.finish().to_hex()[..16].to_string()
    }
}

/// A state as `seat` may see it (None: a spectator), with the log lines it may read. For a
/// state that is not in a game (see [`super::initial_state`]).
pub fn view_of(def: &GameDef, s: &State, log: &[LogEntry], seat: Option<u8>) -> View {
    view_with(def, s, log, seat, true)
}

/// [`view_of`], with the variables the seat may see or with none.
fn view_with(
    def: &GameDef,
    s: &State,
    log: &[LogEntry],
    seat: Option<u8>,
    with_vars: bool,
) -> View {
    let zones = s
        .zones
        .iter()
        .map(|z| {
            let d = &def.zones[z.def as usize];
            let visible = visible_cards(def, z, seat);
            let cards = z.cards[z.cards.len() - visible..]
                .iter()
                .map(|c| def.decks[c.deck as usize].cards[c.card as usize].id.clone())
                .collect();
            ZoneView {
                id: d.id.clone(),
                owner: z.owner,
                count: z.cards.len(),
                cards,
            }
        })
        .collect();
    let vars = s
        .vars
        .iter()
        .filter(|(_, v)| with_vars && v.seen.by(seat))
        .map(|(k, v)| (k.clone(), v.value.clone()))
        .collect();
    // A counter that does not apply under the game's options (`applies_when`) is left out.
    let counters = def
        .counters
        .iter()
        .zip(&s.counters)
        .filter(|(d, _)| match &d.applies_when {
            Some((o, is)) => s.options.get(o).is_none_or(|v| v == is),
            None => true,
        })
        .map(|(d, v)| (d.id.clone(), v.clone()))
        .collect();
    let pieces = s
        .pieces
        .iter()
        .map(|p| PieceView {
            kind: def.pieces[p.def as usize].id.clone(),
            owner: p.owner,
            at: p.at.map(|a| {
                s.board
                    .graph
                    .spaces
                    .get(a as usize)
                    .map_or_else(String::new, |sp| sp.id.clone())
            }),
            props: (*p.props).clone(),
        })
        .collect();
    let tiles = s.board.grid.as_ref().map(|g| {
        let name = |p: &Option<crate::board::Placed>| {
            p.map(|p| (def.tiles[p.tile as usize].id.clone(), p.rot))
        };
        g.tiles
            .iter()
            .zip(&g.blockers)
            .map(|(t, b)| (name(t), name(b)))
            .collect()
    });
    View {
        seat,
        seats: s.seats,
        active: s.active,
        turn: s.turn,
        counters,
        vars,
        zones,
        pieces,
        tiles,
        log: log
            .iter()
            .filter(|l| l.seen.by(seat))
            .map(|l| l.text.to_string())
            .collect(),
        result: s.result.clone(),
    }
}

/// A seat's view of the game. Views, logs and replays shown to a seat are built from this;
/// it goes on the wire as it is (the online server's updates carry it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub seat: Option<u8>,
    pub seats: u8,
    pub active: u8,
    pub turn: u32,
    pub counters: Vec<(String, Vec<i64>)>,
    pub vars: BTreeMap<String, Value>,
    pub zones: Vec<ZoneView>,
    pub pieces: Vec<PieceView>,
    /// For grid boards: (road tile, blocker) on each cell, as (tile id, quarter turns).
    pub tiles: Option<Vec<CellView>>,
    pub log: Vec<String>,
    pub result: Option<GameResult>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ZoneView {
    pub id: String,
    pub owner: Option<u8>,
    pub count: usize,
    /// The cards this seat may see (for a `top` zone, only the top card).
    pub cards: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PieceView {
    pub kind: String,
    pub owner: Option<u8>,
    pub at: Option<String>,
    pub props: BTreeMap<String, Value>,
}
