//! The wire protocol: JSON text messages over a WebSocket, one object each, tagged by `type`.
//!
//! A client sends [`ClientMsg`]; the server answers with [`ServerMsg`]. Every message about a
//! table carries the table's action number (`number`: how many actions the game has taken),
//! so a client always knows which state a message speaks of, and an action sent against an
//! old number is refused and answered with the seat's whole view again.
//!
//! Nothing a seat may not see is ever put in a message to it: the server builds each
//! connection's messages from the game's view for that seat (`Game::view`), the labels the
//! rules give that seat (`Game::describe_for`) and the actions offered to that seat only
//! when it is to act. The seed, the generator, the whole state, the other seats' actions and
//! the replay stay on the server until the game is over.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The protocol's version; a client of another version is told so in [`ServerMsg::Welcome`].
/// 2: a whole view's log is in [`Update::told`] (each action's line with the rules' lines),
/// its `view.log` empty. 3: an offer carries its label and what it names ([`Offer`]). 4: an
/// update is the engine's [`TableView`] (the board in the engine's types, each action's entry
/// with the spaces it changed, no separate `last`).
pub const PROTOCOL: u32 = 4;

/// The largest message a client may send, in bytes. A larger one ends the connection.
pub const MAX_CLIENT_MESSAGE: usize = 16 * 1024;

/// A seat asked for in [`ClientMsg::Create`]: `person` (a seat for someone to join), `random`,
/// one of the mod's bot ids, or `search:N` (the built-in search bot, N playouts at most
/// [`MAX_SEARCH_PLAYOUTS`]).
pub const PERSON: &str = "person";

/// The most playouts a search bot seated over the wire may use a decision (a bot costs the
/// server's time, which every table shares).
pub const MAX_SEARCH_PLAYOUTS: u32 = 400;

/// What a client sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Opens a table of a mod the server serves. Answered with [`ServerMsg::Created`]; the
    /// connection is not seated by it (join a seat next).
    Create {
        #[serde(rename = "mod")]
        mod_id: String,
        /// One entry per seat: [`PERSON`] or a bot (`random`, a bot id, `search:N`).
        seats: Vec<String>,
        /// Game options, id = value as text.
        #[serde(default)]
        options: BTreeMap<String, String>,
        /// The turn clock: seconds a person has for each decision before the table's stand-in
        /// bot takes it (absent: the server's clock).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<u32>,
    },
    /// Asks what a table is (its mod, content hash and seats) without joining it.
    Look { code: String },
    /// Takes a person's seat (`seat` counts from 0), or watches with no seat (`seat` absent).
    /// `content_hash` is the client's own copy of the mod's content: when it is given and
    /// differs from the table's, the join is refused with [`ServerMsg::ContentMismatch`].
    Join {
        code: String,
        #[serde(default)]
        seat: Option<u8>,
        #[serde(default)]
        name: String,
        #[serde(default)]
        content_hash: Option<String>,
    },
    /// Comes back to a seat with the token [`ServerMsg::Joined`] gave.
    Rejoin {
        code: String,
        token: String,
        #[serde(default)]
        content_hash: Option<String>,
    },
    /// Takes an action offered to the connection's seat, at action number `number`.
    Act { number: u64, action: String },
    /// Asks for the whole view again.
    Resync,
    /// Asks for a record of the game once it is over: `seat` (the game as the connection's
    /// seat saw it) or `replay` (the whole replay, seed and all).
    Download { what: DownloadKind },
    /// Leaves the table (the seat stays the person's: a bot plays it after the grace period,
    /// and the token brings them back).
    Leave,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DownloadKind {
    Seat,
    Replay,
}

/// A mod the server serves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModInfo {
    pub id: String,
    pub name: String,
    pub version: String,
    pub content_hash: String,
    pub players: (u32, u32),
    /// The bots a table of it may seat, besides `random` and `search:N`.
    pub bots: Vec<String>,
}

/// Who holds a seat, and one seat as everyone at the table may see it: the engine's types.
pub use farebox::game::{SeatStatus, Sitter};

/// An action offered to the connection's seat: the engine's [`farebox::game::Offer`] as it
/// is (the label its rules give that seat, as a menu path, and the board spaces it names).
pub use farebox::game::Offer;

/// One entry of a seat's log ([`farebox::game::Told`]): an action by the label it had for the
/// seat when it was taken, with the spaces it changed, or a line the rules wrote.
pub use farebox::game::Told;

/// The board as it lies on the table ([`farebox::board::TableBoard`]): sent for graph,
/// sections and track boards only (a grid's tiles are in the view), with a seat's whole view
/// and whenever an action changed it.
pub use farebox::board::TableBoard;

/// What a seat sees of a table ([`farebox::game::TableView`]): the one type the Studio's local
/// game builds too.
pub use farebox::game::TableView;

/// The most entries a seat's log keeps (actions' entries and the lines the rules wrote,
/// together): a client keeps the newest this many, and a whole view carries at most this
/// many, so a long game's history never goes out in one message unbounded. A thousand is
/// more than the Play tab's log panel draws (about 300 lines), a few hundred actions of a
/// long game, and at most a few megabytes (a rules' line is at most 4000 bytes).
pub const LOG_KEPT: usize = 1000;

/// The game as one connection may see it after action `number`: a [`TableView`] (read through
/// it: `update.view`, `update.offered`), whole or as the news of one action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub code: String,
    /// In a whole view (`resync`), everything: the seat's log in `told` as a client at the
    /// table since the start holds it (the newest [`LOG_KEPT`] entries), the board. After an
    /// action, `told` holds only the entries that action added (its own, then the lines it
    /// wrote that the seat may read), to be added to those the client has, and `board` is
    /// absent unless the action changed it (the last one sent still holds). `view.log` is
    /// always empty on the wire: the lines are in `told`.
    #[serde(flatten)]
    pub table: TableView,
    /// How many entries of the seat's log came before `told` (0 in a whole view).
    pub log_from: usize,
    /// Whether this is the whole view sent again (after a join, a refused action or a
    /// [`ClientMsg::Resync`]) rather than the news of a new action.
    pub resync: bool,
    /// A deliberately leaky server's extra (tests only: see `ServerConfig::leak_for_tests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debug: Option<serde_json::Value>,
}

impl std::ops::Deref for Update {
    type Target = TableView;
    fn deref(&self) -> &TableView {
        &self.table
    }
}

impl std::ops::DerefMut for Update {
    fn deref_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
}

impl Update {
    /// The action that led here, as the seat was told it (None in a whole view, and before
    /// the first action).
    pub fn last(&self) -> Option<&Told> {
        if self.resync {
            return None;
        }
        self.told.iter().find(|t| matches!(t, Told::Action { .. }))
    }
}

/// What the server sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The first message on every connection.
    Welcome {
        protocol: u32,
        mods: Vec<ModInfo>,
    },
    Created {
        code: String,
        #[serde(rename = "mod")]
        mod_id: String,
        seats: u8,
    },
    /// What a table is (answer to [`ClientMsg::Look`]).
    Table {
        code: String,
        number: u64,
        #[serde(rename = "mod")]
        mod_id: String,
        content_hash: String,
        seats: Vec<SeatStatus>,
        over: bool,
    },
    /// The connection sits at a table: `seat` absent for a spectator; `token` brings a
    /// person back to the seat ([`ClientMsg::Rejoin`]). An [`Update`] follows.
    Joined {
        code: String,
        number: u64,
        #[serde(rename = "mod")]
        mod_id: String,
        mod_name: String,
        version: String,
        content_hash: String,
        seat: Option<u8>,
        token: Option<String>,
    },
    Update(Box<Update>),
    /// Someone came, went, or a bot took over or gave back a seat.
    Seats {
        code: String,
        number: u64,
        seats: Vec<SeatStatus>,
    },
    /// An action was refused; the whole view follows (an [`Update`] with `resync`).
    Refused {
        code: String,
        number: u64,
        reason: String,
    },
    Download {
        code: String,
        number: u64,
        what: DownloadKind,
        text: String,
    },
    /// The client's copy of the mod is not the table's.
    ContentMismatch {
        code: String,
        #[serde(rename = "mod")]
        mod_id: String,
        table_hash: String,
        your_hash: String,
        message: String,
    },
    /// A request that could not be done (the connection stays).
    Error {
        reason: String,
    },
    /// The server ends the connection, for this reason.
    Bye {
        reason: String,
    },
}

impl ServerMsg {
    /// The action number the message carries, if it is about a table.
    pub fn number(&self) -> Option<u64> {
        match self {
            ServerMsg::Table { number, .. }
            | ServerMsg::Joined { number, .. }
            | ServerMsg::Seats { number, .. }
            | ServerMsg::Refused { number, .. }
            | ServerMsg::Download { number, .. } => Some(*number),
            ServerMsg::Update(u) => Some(u.number),
            _ => None,
        }
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Reads a client's message; the error says what is wrong, in a few words, without echoing
/// more than a little of the input.
pub fn parse_client(text: &str) -> Result<ClientMsg, String> {
    serde_json::from_str(text).map_err(|e| {
        let mut m = e.to_string();
        if m.len() > 200 {
            let mut cut = 200;
            while !m.is_char_boundary(cut) {
                cut -= 1;
            }
            m.truncate(cut);
            m.push('…');
        }
        format!("not a Farebox message: {m}")
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn messages_read_back() {
        let m = ClientMsg::Act {
            number: 3,
            action: "move N".into(),
        };
        let t = serde_json::to_string(&m).unwrap();
        assert_eq!(t, r#"{"type":"act","number":3,"action":"move N"}"#);
        assert_eq!(parse_client(&t).unwrap(), m);
        assert!(parse_client(r#"{"type":"act","number":3,"action":"x","seat":1}"#).is_err());
        assert!(parse_client(r#"{"type":"fly"}"#).is_err());
        assert!(parse_client("[1,2").is_err());
        let j = parse_client(r#"{"type":"join","code":"ABC"}"#).unwrap();
        assert_eq!(
            j,
            ClientMsg::Join {
                code: "ABC".into(),
                seat: None,
                name: String::new(),
                content_hash: None
            }
        );
        // A log's entries on the wire: an action's line, a rules' line.
        let told = vec![
            Told::Action {
                number: 4,
                seat: 1,
                label: "Drives to Oak Street".into(),
                by_bot: false,
                spaces: vec![],
            },
            Told::Line("Red picks up a fare".into()),
        ];
        let t = serde_json::to_string(&told).unwrap();
        assert_eq!(
            t,
            r#"[{"action":{"number":4,"seat":1,"label":"Drives to Oak Street","by_bot":false}},{"line":"Red picks up a fare"}]"#
        );
        assert_eq!(serde_json::from_str::<Vec<Told>>(&t).unwrap(), told);
    }

    /// The board a client rebuilds from the wire is the table's as it lies, each space with
    /// the tags and properties the mod and the laid track give it (a track space's card,
    /// lane, row and gate), so no client lays the track again to find them.
    #[test]
    fn a_board_on_the_wire_is_the_tables_whole() {
        use farebox::game::{Game, Setup};
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
        let resolver = farebox::source::FolderResolver::new(mods.clone());
        for id in ["dicey-curves", "taxi-derby"] {
            let def = std::sync::Arc::new(
                farebox::content::load_mod(
                    &farebox::source::FsSource::new(mods.join(id)),
                    &resolver,
                )
                .unwrap(),
            );
            let mut g = Game::new(def.clone(), Setup::new(2, 7)).unwrap();
            for _ in 0..40 {
                let Some(a) = g.legal_actions().unwrap().first().cloned() else {
                    break;
                };
                g.apply(&a).unwrap();
            }
            let wire = TableBoard::of(&def, &g.state().board).unwrap();
            let text = serde_json::to_string(&wire).unwrap();
            // (Positions may come back a rounding apart: JSON numbers are read quickly.)
            let read: TableBoard = serde_json::from_str(&text).unwrap();
            let board = read.to_board(&def);
            let table = &g.state().board.graph.spaces;
            assert_eq!(board.graph.spaces.len(), table.len(), "{id}");
            assert!(table.iter().any(|s| !s.tags.is_empty()), "{id}: no tags");
            for (a, b) in board.graph.spaces.iter().zip(table) {
                assert_eq!(
                    (&a.id, &a.tags, &a.props),
                    (&b.id, &b.tags, &b.props),
                    "{id}"
                );
            }
            // A whole update, board and all, reads back as it was sent.
            let mut table = TableView {
                number: g.history().len() as u64,
                viewer: Some(1),
                view: g.view(Some(1)),
                seats: vec![],
                offered: g.legal_offers().unwrap(),
                told: vec![Told::Line("a line".into())],
                board: Some(wire.clone()),
            };
            table.view.log.clear();
            let m = ServerMsg::Update(Box::new(Update {
                code: "ABCD".into(),
                table,
                log_from: 0,
                resync: true,
                debug: None,
            }));
            let back: ServerMsg = serde_json::from_str(&m.to_text()).unwrap();
            let (ServerMsg::Update(a), ServerMsg::Update(b)) = (&back, &m) else {
                panic!("not an update: {back:?}");
            };
            assert_eq!(
                (&a.view, &a.offered, &a.told),
                (&b.view, &b.offered, &b.told)
            );
            assert_eq!(
                a.board.as_ref().map(|b| b.spaces.len()),
                Some(wire.spaces.len())
            );
        }
    }
}
