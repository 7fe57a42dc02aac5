//! The board of an online game, from what the server sends: the mod's board for a grid, the
//! board as it lies on the table otherwise, with what the mod says of each space put back,
//! and the spaces an action changed.

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

/// The board as it lies on the table, from the one the server sent: its spaces, roads,
/// sections arrangement and laid track ([`WireBoard::to_board`]), with what the mod says of
/// each space (its tags and properties: a taxi stand, a start in its seat's colour, a track
/// space's card, lane, row and gate), which the board view draws by and the wire leaves out.
/// These come from the mod the Studio has open, which every seat has whole, so they show
/// nothing a seat may not see.
pub fn table_board(def: &GameDef, wire: &WireBoard) -> Board {
    let mut board = wire.to_board(def);
    let marks = space_marks(def, &board);
    let graph = std::sync::Arc::make_mut(&mut board.graph);
    for (sp, mark) in graph.spaces.iter_mut().zip(marks) {
        if let Some((id, tags, props)) = mark
            && id == sp.id
        {
            sp.tags = tags;
            sp.props = props;
        }
    }
    board
}

/// A space's id, tags and properties as the mod gives them.
type Marks = (String, Vec<String>, BTreeMap<String, farebox::value::Value>);

/// For each of the board's spaces in order, what the mod says of it (None where it cannot
/// tell): a graph's spaces are the mod's in order; a sections board's, each laid section's in
/// the order of the arrangement; a track's are found by laying the same cards at the same
/// places on a fresh track, as the engine laid them.
fn space_marks(def: &GameDef, board: &Board) -> Vec<Option<Marks>> {
    let of = |sp: &farebox::content::def::SpaceDef| {
        Some((sp.id.clone(), sp.tags.clone(), sp.props.clone()))
    };
    match &def.board {
        BoardDef::Graph(g) => g.spaces.iter().map(of).collect(),
        BoardDef::Sections(s) => board
            .arrangement
            .iter()
            .flat_map(|&(si, _)| {
                s.sections
                    .get(si as usize)
                    .map_or(&[][..], |sec| &sec.graph.spaces[..])
            })
            .map(of)
            .collect(),
        BoardDef::Track(t) => {
            let Some(track) = &board.track else {
                return Vec::new();
            };
            let mut rng = farebox::rng::Rng::new(0, 0);
            let mut fresh = Board::new(&def.board, &def.tiles, &BTreeMap::new(), &mut rng);
            for laid in &track.laid {
                let Some(piece) = t.pieces.get(laid.piece as usize) else {
                    break;
                };
                if let Some(ft) = fresh.track.as_mut() {
                    ft.end = (laid.x, laid.y, laid.heading);
                }
                if fresh.lay_track(laid.piece as usize, piece, true).is_err() {
                    break;
                }
            }
            for (k, laid) in track.laid.iter().enumerate() {
                if laid.removed {
                    let _ = fresh.remove_track(k, k + 1);
                }
            }
            fresh
                .graph
                .spaces
                .iter()
                .map(|sp| Some((sp.id.clone(), sp.tags.clone(), sp.props.clone())))
                .collect()
        }
        BoardDef::Grid(_) | BoardDef::None => Vec::new(),
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
