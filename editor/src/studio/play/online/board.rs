//! The board of an online game before the server sends one: the mod's board for a graph or a
//! grid; a sections city or a track only once the server sends it.

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
