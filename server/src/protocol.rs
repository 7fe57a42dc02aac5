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
use std::sync::Arc;

use farebox::GameDef;
use farebox::board::{Board, Edge, Graph, LaidPiece, Space, TrackState};
use farebox::content::def::BoardDef;
use farebox::game::View;
use farebox::value::Value;
use serde::{Deserialize, Serialize};

/// The protocol's version; a client of another version is told so in [`ServerMsg::Welcome`].
/// 2: a whole view's log is in [`Update::told`] (each action's line with the rules' lines),
/// its `view.log` empty. 3: an offer carries its label and what it names ([`Offer`]).
pub const PROTOCOL: u32 = 3;

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

/// Who holds a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
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
    pub kind: SeatKind,
    /// The person's name as they gave it (person seats).
    pub player: Option<String>,
    /// Whether the person is connected (person seats).
    pub connected: bool,
    /// The bot playing the seat: a bot seat's bot, or the one standing in for a person who
    /// dropped out (until they come back).
    pub bot: Option<String>,
    /// Whether the seat is to act.
    pub to_act: bool,
    /// The milliseconds left on the clock of the seat's decision when this was sent (the seat
    /// to act, a person, at a table with a turn clock): when it runs out, the table's stand-in
    /// bot takes that decision for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
}

/// An action offered to the connection's seat: the engine's [`farebox::game::Offer`] as it
/// is (the label its rules give that seat, as a menu path, and the board spaces it names).
pub use farebox::game::Offer;

/// The last action taken, as the connection's seat is shown it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastAction {
    pub seat: u8,
    /// The seat's own label for its own action, the public label for anyone else's.
    pub label: String,
    /// Whether a bot took it.
    pub by_bot: bool,
}

/// The most entries a seat's log keeps (actions' lines and the lines the rules wrote,
/// together): a client keeps the newest this many, and a whole view carries at most this
/// many, so a long game's history never goes out in one message unbounded. A thousand is
/// more than the Play tab's log panel draws (about 300 lines), a few hundred actions of a
/// long game, and at most a few megabytes (a rules' line is at most 4000 bytes).
pub const LOG_KEPT: usize = 1000;

/// One entry of a seat's log, as a client at the table since the start holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Told {
    /// An action, by the label it had for the seat when it was taken (the seat's own label
    /// for its own action, the public one for anyone else's: as [`LastAction`]); `number`
    /// is the action number it led to.
    Action {
        number: u64,
        seat: u8,
        label: String,
        by_bot: bool,
    },
    /// A line the rules wrote that the seat may read.
    Line(String),
}

/// A seat's view of the game: the engine's [`View`] as it is (the same type both ways).
pub type WireView = View;

/// The board as it lies on the table, for drawing it: where the spaces are (id, name,
/// position, and the tags and properties the mod and the laid track give them), the roads
/// between them, a sections city's arrangement and a track's laid cards. Public to everyone,
/// like the local game's board (`farebox play` shows it to every seat): the rules cannot write
/// a space's tags or properties, so they say only what the mod's files and the cards laid in
/// sight say. Sent for graph, sections and track boards only (a grid's tiles are in the
/// view), with a seat's whole view and whenever it changed after an action; a client draws
/// it as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBoard {
    pub spaces: Vec<WireSpace>,
    pub edges: Vec<WireEdge>,
    /// For sections boards: (section index, quarter turns) at each layout position.
    pub arrangement: Vec<(u16, u8)>,
    pub track: Option<WireTrack>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireSpace {
    pub id: String,
    pub name: String,
    pub x: f64,
    pub y: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub props: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireEdge {
    pub from: u32,
    pub to: u32,
    pub directed: bool,
    pub tags: Vec<String>,
    pub cost: u32,
}

/// A track's laid cards and where the next one attaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTrack {
    pub laid: Vec<WireLaid>,
    pub end: (f64, f64, i32),
    pub table: (f64, f64),
    pub clearance: f64,
}

/// One laid track card: `farebox::board::LaidPiece` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireLaid {
    pub piece: u16,
    pub x: f64,
    pub y: f64,
    pub heading: i32,
    pub lanes: u32,
    pub rows: u32,
    pub turn: i32,
    pub first_space: u32,
    pub forced: bool,
    pub removed: bool,
}

impl WireBoard {
    /// The board of a game of `def` as it lies now; None for a grid (its tiles are in the
    /// view) and for a game without a board.
    pub fn of(def: &GameDef, board: &Board) -> Option<WireBoard> {
        if !matches!(
            def.board,
            BoardDef::Graph(_) | BoardDef::Sections(_) | BoardDef::Track(_)
        ) {
            return None;
        }
        let g = &board.graph;
        Some(WireBoard {
            spaces: g
                .spaces
                .iter()
                .map(|s| WireSpace {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    x: s.x,
                    y: s.y,
                    tags: s.tags.clone(),
                    props: s.props.clone(),
                })
                .collect(),
            edges: g
                .edges
                .iter()
                .map(|e| WireEdge {
                    from: e.from,
                    to: e.to,
                    directed: e.directed,
                    tags: e.tags.clone(),
                    cost: e.cost,
                })
                .collect(),
            arrangement: board.arrangement.clone(),
            track: board.track.as_ref().map(|t| WireTrack {
                laid: t
                    .laid
                    .iter()
                    .map(|p| WireLaid {
                        piece: p.piece,
                        x: p.x,
                        y: p.y,
                        heading: p.heading,
                        lanes: p.lanes,
                        rows: p.rows,
                        turn: p.turn,
                        first_space: p.first_space,
                        forced: p.forced,
                        removed: p.removed,
                    })
                    .collect(),
                end: t.end,
                table: t.table,
                clearance: t.clearance,
            }),
        })
    }

    /// The board again, for drawing it as the local game does (a client has the mod, so
    /// `def`, for the board's kind).
    pub fn to_board(&self, def: &GameDef) -> Board {
        let mut graph = Graph::default();
        graph.spaces = self
            .spaces
            .iter()
            .map(|s| Space {
                id: s.id.clone(),
                name: s.name.clone(),
                x: s.x,
                y: s.y,
                tags: s.tags.clone(),
                props: s.props.clone(),
            })
            .collect();
        graph.edges = self
            .edges
            .iter()
            .map(|e| Edge {
                from: e.from,
                to: e.to,
                directed: e.directed,
                tags: e.tags.clone(),
                cost: e.cost,
            })
            .collect();
        Board {
            kind: def.board.kind_name(),
            graph: Arc::new(graph),
            grid: None,
            track: self.track.as_ref().map(|t| TrackState {
                laid: t
                    .laid
                    .iter()
                    .map(|p| LaidPiece {
                        piece: p.piece,
                        x: p.x,
                        y: p.y,
                        heading: p.heading,
                        lanes: p.lanes,
                        rows: p.rows,
                        turn: p.turn,
                        first_space: p.first_space,
                        forced: p.forced,
                        removed: p.removed,
                    })
                    .collect(),
                end: t.end,
                table: t.table,
                clearance: t.clearance,
                start: None,
            }),
            arrangement: self.arrangement.clone(),
        }
    }
}

/// The game as one connection may see it after action `number`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub code: String,
    pub number: u64,
    pub view: WireView,
    /// The actions the connection's seat may take now: empty unless it is to act, is played
    /// by the person on this connection, and the game is not over.
    pub offered: Vec<Offer>,
    pub seats: Vec<SeatStatus>,
    /// The action that led here (absent in a resync or the first view).
    pub last: Option<LastAction>,
    /// How many of the seat's log lines came before `view.log`: an update after an action
    /// carries only the lines that action wrote that the seat may read, to be added to those
    /// it has. A resync's `view.log` is empty (0): its log is in `told`.
    pub log_from: usize,
    /// In a resync: the seat's log as a client at the table since the start holds it, the
    /// newest [`LOG_KEPT`] entries: each action's line as the seat was shown it live, then
    /// the lines the rules wrote as it was applied that the seat may read. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub told: Vec<Told>,
    /// Whether this is the whole view sent again (after a join, a refused action or a
    /// [`ClientMsg::Resync`]) rather than the view after a new action.
    pub resync: bool,
    /// The board as it lies on the table ([`WireBoard`]): with every whole view, and after
    /// an action that changed it; absent otherwise (the last one sent still holds) and for
    /// grid boards and games without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<WireBoard>,
    /// A deliberately leaky server's extra (tests only: see `ServerConfig::leak_for_tests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debug: Option<serde_json::Value>,
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
            let def = Arc::new(
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
            let wire = WireBoard::of(&def, &g.state().board).unwrap();
            let text = serde_json::to_string(&wire).unwrap();
            // (Positions may come back a rounding apart: JSON numbers are read quickly.)
            let read: WireBoard = serde_json::from_str(&text).unwrap();
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
        }
    }
}
