//! What a seat is offered, as every front end shows it: each legal action with the label the
//! rules give the seat to act (as a menu path), and what the action names (its words, by
//! [`crate::action::names`]) with the board space each one is, if any (a space id, or a grid
//! cell `x,y`). The Studio's local game, the online server and its clients all use this one
//! type: the server sends it as it is, so a client puts an action on the board without reading
//! action strings again.

use serde::{Deserialize, Serialize};

use super::{Game, Told, View};
use crate::board::{Board, TableBoard};
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

/// Who holds a seat at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sitter {
    /// A person's seat nobody has taken yet.
    Open,
    Person,
    Bot,
}

/// One seat as everyone at the table may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatStatus {
    pub seat: u8,
    /// The seat's name in the game ("Red").
    pub name: String,
    pub kind: Sitter,
    /// The person's name as they gave it (person seats, online).
    pub player: Option<String>,
    /// Whether the person is connected (person seats; always at a local table).
    pub connected: bool,
    /// The bot playing the seat: a bot seat's bot, or the one standing in for a person who
    /// dropped out (until they come back).
    pub bot: Option<String>,
    /// Whether the seat is to act.
    pub to_act: bool,
    /// The milliseconds left on the clock of the seat's decision when this was made (the
    /// seat to act, a person, at an online table with a turn clock): when it runs out, the
    /// table's stand-in bot takes that decision for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
}

impl SeatStatus {
    /// Whether a person sits there, or may (an open seat).
    pub fn is_person(&self) -> bool {
        self.kind != Sitter::Bot
    }
}

/// What one seat (or a spectator) sees of a table after action `number`: the one type the
/// Studio's local game builds, the online server builds for each connection and sends as it
/// is, and every front end draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableView {
    pub number: u64,
    /// The seat it is seen from (None: a spectator).
    pub viewer: Option<u8>,
    /// The game as the viewer may see it; its `log` holds the rules' lines of `told`.
    pub view: View,
    pub seats: Vec<SeatStatus>,
    /// The actions the viewer may take now: empty unless it is to act, a person plays it on
    /// this screen or connection, and the game is not over.
    pub offered: Vec<Offer>,
    /// The viewer's log ([`Told`]), newest last.
    pub told: Vec<Told>,
    /// The board as it lies on the table (graph, sections and track boards; a grid's tiles
    /// are in the view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<TableBoard>,
}

impl TableView {
    /// The actions told, in order, as (seat, label, spaces).
    pub fn moves(&self) -> impl Iterator<Item = (u8, &str, &[u32])> + '_ {
        self.told.iter().filter_map(|t| match t {
            Told::Action {
                seat,
                label,
                spaces,
                ..
            } => Some((*seat, label.as_str(), spaces.as_slice())),
            Told::Line(_) => None,
        })
    }

    /// Sets the view's log to the rules' lines of [`TableView::told`].
    pub fn lines_from_told(&mut self) {
        self.view.log = self
            .told
            .iter()
            .filter_map(|t| match t {
                Told::Line(l) => Some(l.clone()),
                Told::Action { .. } => None,
            })
            .collect();
    }
}
