//! The board of an online game, from what the server sends: the mod's board for a grid, the
//! board as it lies on the table otherwise, and the spaces an action changed.

use super::*;

/// The board a client can draw from the mod alone, before (or without) the server's: a
/// graph or a grid (whose tiles come in the view) is the mod's; a sections board is laid out
/// by the table's secret seed and a track is laid as the game goes, so those show no board
/// until the server sends them (their pieces are listed by the spaces they stand on).
pub fn client_board(def: &GameDef) -> Board {
    let mut rng = farebox::rng::Rng::new(0, 0);
    let none = BTreeMap::new();
    match &def.board {
        BoardDef::Graph(_) | BoardDef::Grid(_) | BoardDef::None => {
            Board::new(&def.board, &def.tiles, &none, &mut rng)
        }
        BoardDef::Sections(_) | BoardDef::Track(_) => {
            Board::new(&BoardDef::None, &def.tiles, &none, &mut rng)
        }
    }
}

/// The spaces where a move changed what the seat sees: a piece's old and new space, a cell
/// whose tiles changed (as the local game marks them).
pub(super) fn changed(board: &Board, before: &WireView, after: &WireView) -> Vec<u32> {
    let at = |v: &WireView, k: usize| {
        v.pieces
            .get(k)
            .and_then(|p| p.at.as_deref())
            .and_then(|id| board.graph.find(id))
    };
    let mut out = Vec::new();
    for k in 0..before.pieces.len().max(after.pieces.len()) {
        let (a, b) = (at(before, k), at(after, k));
        if a != b {
            out.extend(a);
            out.extend(b);
        }
    }
    if let (Some(t0), Some(t1)) = (&before.tiles, &after.tiles) {
        for (i, (a, b)) in t0.iter().zip(t1).enumerate() {
            if a != b {
                out.push(i as u32);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
