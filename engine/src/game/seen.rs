//! What a seat is offered, as every front end shows it: each legal action with the label the
//! rules give the seat to act (as a menu path), and what the action names (its words, by
//! [`crate::action::names`]) with the board space each one is, if any (a space id, or a grid
//! cell `x,y`). The Studio's local game, the online server and its clients all use this one
//! type: the server sends it as it is, so a client puts an action on the board without reading
//! action strings again.

use serde::{Deserialize, Serialize};

use super::Game;
use crate::board::Board;
use crate::script::ScriptError;

/// An action the seat to act may take, as that seat reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub action: String,
    /// The label: the parts of `path` joined by single spaces.
    pub label: String,
    /// Menu groups from the `describe` hook (the last part is the item itself).
    pub path: Vec<String>,
    /// The action's words in order, each with the board space it names.
    pub names: Vec<Name>,
}

/// One word of an action, and the board space it names (a space id, or a grid cell as
/// `x,y`), if it names one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Name {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<u32>,
}

impl Offer {
    /// The offer of `action`, labelled by `path`, its names looked up on `board`.
    pub fn new(action: String, path: Vec<String>, board: &Board) -> Offer {
        let names = crate::action::names(&action)
            .map(|w| Name {
                id: w.to_string(),
                space: space_named(board, w),
            })
            .collect();
        Offer {
            label: path.join(" "),
            action,
            path,
            names,
        }
    }

    /// The board spaces the action names, in the order it names them.
    pub fn spaces(&self) -> impl Iterator<Item = u32> + '_ {
        self.names.iter().filter_map(|n| n.space)
    }
}

/// The space `word` names on `board`: a grid cell written `x,y`, else a space by its id.
pub fn space_named(board: &Board, word: &str) -> Option<u32> {
    if let Some((x, y)) = word.split_once(',')
        && let (Ok(x), Ok(y)) = (x.parse::<i64>(), y.parse::<i64>())
        && let Some(c) = board.cell(x, y)
    {
        return Some(c);
    }
    board.graph.find(word)
}

impl Game {
    /// The offers of `actions` (legal actions of this very state, for the seat to act): each
    /// labelled by the seat's own `describe` (one call an action), its names looked up on the
    /// board as it lies now.
    pub fn offers(&mut self, actions: Vec<String>) -> Vec<Offer> {
        actions
            .into_iter()
            .map(|a| {
                let path = self.describe_path(&a);
                Offer::new(a, path, &self.state.board)
            })
            .collect()
    }

    /// [`Game::offers`] of every legal action of the seat to act.
    pub fn legal_offers(&mut self) -> Result<Vec<Offer>, ScriptError> {
        let actions = self.legal_actions()?;
        Ok(self.offers(actions))
    }
}
