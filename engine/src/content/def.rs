//! The resolved game definition: what a loaded, validated mod means.
//!
//! References are indices, numbers have their types, and every invariant the loader checked
//! holds, so the runtime never re-validates content. A [`GameDef`] is immutable and shared
//! (`Arc`) by every game, bot and simulation thread that uses it.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

pub use super::raw::{FieldType, OptionType, Scope, Side, TrackRole, Visibility};
use crate::value::Value;

// What a board definition may hold: the loader checks these, and `board` (which re-exports
// them) keeps to them as it lays out and grows a board.

/// How far from 0 a space may lie, either way, in board units (board.toml's `x` and `y`;
/// also the largest section size). Positions are for drawing: this keeps them finite after a
/// sections board is arranged and turned.
pub const MAX_COORDINATE: f64 = 1e9;

/// The most one edge may cost (`cost` in board.toml; the least is 1). A cheapest move never
/// repeats a space, so its total stays far below what the sums are kept in, and exact in a
/// Luau number, however many spaces the board has.
pub const MAX_EDGE_COST: u32 = 1_000_000;

/// The largest side of a track's table, in card lengths (a track of [`MAX_TRACK_PIECES`]
/// cards laid straight is half as long).
pub const MAX_TRACK_TABLE: f64 = 1_000.0;

/// The clearance a track keeps when the rules set none (card lengths). `game.start_track`'s
/// documentation in `script/api/board.rs` states it, and [`MAX_CLEARANCE`].
pub const DEFAULT_CLEARANCE: f64 = 0.1;

/// The largest clearance the rules may ask for (card lengths). Beyond about a quarter the
/// cards on either side of a 90-degree bend count as overlapping (see DESIGN.md of Dicey
/// Curves), so a real track wants far less; this only bounds nonsense.
pub const MAX_CLEARANCE: f64 = 1.0;

/// The most pieces a track may have (laid and removed together). A deck of cards never comes
/// near it; it bounds the work and memory a script can make the engine spend on the track.
pub const MAX_TRACK_PIECES: usize = 500;

/// A loaded mod, with everything it depends on merged in.
#[derive(Debug, Clone)]
pub struct GameDef {
    pub id: String,
    pub name: String,
    pub version: String,
    pub description: String,
    pub credits: Vec<String>,
    pub players: (u32, u32),
    pub seat_names: Vec<String>,
    /// The mods this definition was built from, dependencies first: (id, version).
    pub layers: Vec<(String, String)>,
    pub options: Vec<OptionDef>,
    pub constants: BTreeMap<String, Value>,
    pub board: BoardDef,
    pub tiles: Vec<TileDef>,
    pub decks: Vec<DeckDef>,
    pub tables: Vec<TableDef>,
    pub pieces: Vec<PieceDef>,
    pub counters: Vec<CounterDef>,
    pub zones: Vec<ZoneDef>,
    pub scripts: Vec<ScriptDef>,
    pub bots: Vec<BotDef>,
    /// The built-in search bot's defaults for this game (`[search]` in `mod.toml`).
    pub search: SearchDef,
    /// blake3 of every file read, in load order: replays name the exact content they ran on.
    pub content_hash: String,
    /// The print layout file the mod names (`[content] print`), read but not checked here:
    /// `farebox print` checks it.
    pub print: Option<PrintSource>,
    pub(crate) index: Index,
    /// The content as outcome figures follow it ([`GameDef::catalog`]), made when first asked
    /// for. Held as `Any` so that the definition, which the catalog is made from, does not
    /// name it.
    pub(crate) catalog: std::sync::OnceLock<std::sync::Arc<dyn std::any::Any + Send + Sync>>,
}

/// Name -> index lookups, built once by the loader.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    pub tiles: IdMap,
    pub decks: IdMap,
    pub tables: IdMap,
    pub counters: IdMap,
    pub zones: IdMap,
    pub pieces: IdMap,
    pub spaces: IdMap,
}

/// Ids to indices, hashed with FNV-1a: the `game` API looks an id up at nearly every call
/// (`game.counter("gas", 1)`), ids are short, and the standard hasher (SipHash, built to
/// resist chosen keys) cost more than the rest of such a call. Ids come from the mod, which
/// could only slow its own lookups by choosing colliding ones.
pub(crate) type IdMap = HashMap<String, usize, std::hash::BuildHasherDefault<Fnv>>;

/// The FNV-1a hash (64 bits).
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

impl GameDef {
    pub fn tile(&self, id: &str) -> Option<usize> {
        self.index.tiles.get(id).copied()
    }
    pub fn deck(&self, id: &str) -> Option<usize> {
        self.index.decks.get(id).copied()
    }
    pub fn table(&self, id: &str) -> Option<usize> {
        self.index.tables.get(id).copied()
    }
    pub fn counter(&self, id: &str) -> Option<usize> {
        self.index.counters.get(id).copied()
    }
    pub fn zone(&self, id: &str) -> Option<usize> {
        self.index.zones.get(id).copied()
    }
    pub fn piece(&self, id: &str) -> Option<usize> {
        self.index.pieces.get(id).copied()
    }
    /// A named board space (graph/sections spaces, named grid cells).
    pub fn space(&self, id: &str) -> Option<usize> {
        self.index.spaces.get(id).copied()
    }
    pub fn option(&self, id: &str) -> Option<&OptionDef> {
        self.options.iter().find(|o| o.id == id)
    }
    pub fn bot(&self, id: &str) -> Option<&BotDef> {
        self.bots.iter().find(|b| b.id == id)
    }
    /// The bot that plays online for a person who dropped out or whose turn clock ran out:
    /// the one marked `standin`, else the first listed (None: the random player does it).
    pub fn standin_bot(&self) -> Option<&BotDef> {
        self.bots
            .iter()
            .find(|b| b.standin)
            .or_else(|| self.bots.first())
    }
    /// The counter that holds each seat's score during play, if the mod names one.
    pub fn score_counter(&self) -> Option<usize> {
        self.counters.iter().position(|c| c.score)
    }
    /// Whether the mod has rule scripts, i.e. can be played.
    pub fn playable(&self) -> bool {
        !self.scripts.is_empty()
    }
    /// Display name of a seat.
    pub fn seat_name(&self, seat: usize) -> String {
        self.seat_names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("Seat {}", seat + 1))
    }
}

/// A print layout file as read: its path as shown in messages and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintSource {
    pub path: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptionDef {
    pub id: String,
    pub label: String,
    pub description: String,
    pub kind: OptionType,
    pub default: Value,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub choices: Vec<(String, String)>,
    /// Another option and the value under which this one matters (`applies_when`).
    pub applies_when: Option<(String, Value)>,
}

impl OptionDef {
    /// Whether this option matters with the other options set as `value_of` says.
    pub fn applies(&self, value_of: impl Fn(&str) -> Option<Value>) -> bool {
        match &self.applies_when {
            Some((other, is)) => value_of(other).is_none_or(|v| &v == is),
            None => true,
        }
    }

    /// Parses a value given on a command line or in a menu.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        match self.kind {
            OptionType::Bool => match text {
                "true" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!(
                    "option `{}` takes true or false, not `{text}`",
                    self.id
                )),
            },
            OptionType::Int => {
                let v: i64 = text.parse().map_err(|_| {
                    format!("option `{}` takes a whole number, not `{text}`", self.id)
                })?;
                if self.min.is_some_and(|m| v < m) || self.max.is_some_and(|m| v > m) {
                    return Err(format!(
                        "option `{}` must be between {} and {}",
                        self.id,
                        self.min.map_or("-".into(), |m| m.to_string()),
                        self.max.map_or("-".into(), |m| m.to_string())
                    ));
                }
                Ok(Value::Int(v))
            }
            OptionType::Choice => {
                if self.choices.iter().any(|(c, _)| c == text) {
                    Ok(Value::Str(text.to_string()))
                } else {
                    let ids: Vec<&str> = self.choices.iter().map(|(c, _)| c.as_str()).collect();
                    Err(format!(
                        "option `{}` is one of {}, not `{text}`{}",
                        self.id,
                        ids.join(", "),
                        crate::diag::suggestion(text, ids.iter().copied())
                    ))
                }
            }
        }
    }
}

/// The board, by kind. Every kind becomes a graph of spaces at run time (see `crate::board`).
#[derive(Debug, Clone)]
pub enum BoardDef {
    None,
    Grid(GridDef),
    Graph(GraphDef),
    Sections(SectionsDef),
    Track(TrackDef),
}

impl BoardDef {
    pub fn kind_name(&self) -> &'static str {
        match self {
            BoardDef::None => "none",
            BoardDef::Grid(_) => "grid",
            BoardDef::Graph(_) => "graph",
            BoardDef::Sections(_) => "sections",
            BoardDef::Track(_) => "track",
        }
    }
}

#[derive(Debug, Clone)]
pub struct GridDef {
    pub width: u32,
    pub height: u32,
    pub cells: Vec<CellDef>,
}

#[derive(Debug, Clone)]
pub struct CellDef {
    pub x: u32,
    pub y: u32,
    pub id: Option<String>,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
    /// Preset tile: (tile index, quarter turns).
    pub tile: Option<(usize, u8)>,
}

#[derive(Debug, Clone, Default)]
pub struct GraphDef {
    pub spaces: Vec<SpaceDef>,
    pub edges: Vec<EdgeDef>,
}

#[derive(Debug, Clone)]
pub struct SpaceDef {
    pub id: String,
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

#[derive(Debug, Clone)]
pub struct EdgeDef {
    pub from: usize,
    pub to: usize,
    pub directed: bool,
    pub tags: Vec<String>,
    pub cost: u32,
}

#[derive(Debug, Clone)]
pub struct SectionsDef {
    pub size: f64,
    pub columns: u32,
    pub rows: u32,
    pub shuffle: bool,
    pub rotate: bool,
    /// Bool options that decide `shuffle` and `rotate` when a game starts.
    pub shuffle_option: Option<String>,
    pub rotate_option: Option<String>,
    pub sections: Vec<SectionDef>,
}

#[derive(Debug, Clone)]
pub struct SectionDef {
    pub id: String,
    pub name: String,
    pub graph: GraphDef,
    /// (space index within this section, side, distance along the side)
    pub connectors: Vec<(usize, Side, f64)>,
}

#[derive(Debug, Clone)]
pub struct TrackDef {
    pub table_width: f64,
    pub table_height: f64,
    /// The first piece's heading, in 45-degree steps (0 up, 2 right).
    pub start_heading: i32,
    /// How far in from the table's edge behind the start its entry edge lies (a fraction).
    pub start_from_back: f64,
    /// The least gap between a new piece and the others, in card lengths.
    pub clearance: f64,
    pub pieces: Vec<TrackPieceDef>,
}

#[derive(Debug, Clone)]
pub struct TrackPieceDef {
    pub id: String,
    pub name: String,
    pub role: TrackRole,
    pub lanes: u32,
    pub rows: u32,
    pub turn: i32,
    /// (lanes spanned, exact combo size)
    pub gates: Vec<(Vec<u32>, u32)>,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

/// A tile kind. `links[s]` is the set of sides (bit 1<<side) a vehicle entering from side `s`
/// may leave by; a side with no links cannot be entered.
#[derive(Debug, Clone)]
pub struct TileDef {
    pub id: String,
    pub name: String,
    pub text: String,
    pub links: [u8; 4],
    pub move_cost: u32,
    pub rotatable: bool,
    pub blocks: bool,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }
    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }
    /// The side this one becomes after `quarter_turns` clockwise.
    pub fn turned(self, quarter_turns: u8) -> Side {
        Side::from_index(self.index() + quarter_turns as usize)
    }
    /// Grid step (dx, dy) with y growing downward.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }
    pub fn letter(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::E => "E",
            Side::S => "S",
            Side::W => "W",
        }
    }
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "N" => Some(Side::N),
            "E" => Some(Side::E),
            "S" => Some(Side::S),
            "W" => Some(Side::W),
            _ => None,
        }
    }
}

impl TileDef {
    /// Links after turning the tile `rot` quarter turns clockwise.
    pub fn links_turned(&self, rot: u8) -> [u8; 4] {
        let mut out = [0u8; 4];
        for from in 0..4 {
            let to_mask = self.links[from];
            let mut turned = 0u8;
            for to in 0..4 {
                if to_mask & (1 << to) != 0 {
                    turned |= 1 << ((to + rot as usize) % 4);
                }
            }
            out[(from + rot as usize) % 4] = turned;
        }
        out
    }

    /// The distinct rotations of this tile (a 4-way looks the same every way).
    pub fn distinct_rotations(&self) -> Vec<u8> {
        if !self.rotatable {
            return vec![0];
        }
        let mut seen: Vec<[u8; 4]> = Vec::new();
        let mut out = Vec::new();
        for r in 0..4u8 {
            let l = self.links_turned(r);
            if !seen.contains(&l) {
                seen.push(l);
                out.push(r);
            }
        }
        out
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct FieldDef {
    pub name: String,
    pub kind: FieldType,
    pub to: Option<String>,
    /// Exact number of items of a list field.
    pub length: Option<u32>,
    /// A tag every thing a reference names must carry.
    pub tagged: Option<String>,
    pub required: bool,
    pub default: Option<Value>,
    pub description: String,
    /// The allowed values of a string field with their labels (the id again where the mod
    /// gives none); empty when any string goes.
    pub choices: Vec<(String, String)>,
    /// The least and greatest value of a number field (or of each item of a list of them).
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl FieldDef {
    /// The words people read for a value of this field: its choice's label, else the value.
    pub fn choice_label<'a>(&'a self, value: &'a str) -> &'a str {
        self.choices
            .iter()
            .find(|(id, _)| id == value)
            .map_or(value, |(_, label)| label.as_str())
    }
}

#[derive(Debug, Clone)]
pub struct DeckDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub fields: Vec<FieldDef>,
    pub cards: Vec<CardDef>,
}

impl DeckDef {
    /// Cards counted with their copies.
    pub fn size(&self) -> u32 {
        self.cards.iter().map(|c| c.count).sum()
    }
    pub fn card(&self, id: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.id == id)
    }
}

#[derive(Debug, Clone)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub text: String,
    pub count: u32,
    pub tags: Vec<String>,
    /// Every declared field, defaults filled in (absent optional fields are missing).
    pub fields: BTreeMap<String, Value>,
}

#[derive(Debug, Clone)]
pub struct TableDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub key: Option<String>,
    pub columns: Vec<FieldDef>,
    pub rows: Vec<BTreeMap<String, Value>>,
}

impl TableDef {
    /// The row whose key column equals `key`.
    pub fn lookup(&self, key: &Value) -> Option<&BTreeMap<String, Value>> {
        let k = self.key.as_ref()?;
        self.rows.iter().find(|r| r.get(k) == Some(key))
    }
}

#[derive(Debug, Clone)]
pub struct PieceDef {
    pub id: String,
    pub name: String,
    pub per_seat: bool,
    pub count: u32,
    pub tags: Vec<String>,
    pub props: BTreeMap<String, Value>,
}

#[derive(Debug, Clone)]
pub struct CounterDef {
    pub id: String,
    pub name: String,
    pub scope: Scope,
    pub initial: i64,
    pub initial_option: Option<String>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// An option and the value under which this counter matters (`applies_when`).
    pub applies_when: Option<(String, Value)>,
    /// The score during play (`score = true`; a seat counter, at most one per game).
    pub score: bool,
}

#[derive(Debug, Clone)]
pub struct ZoneDef {
    pub id: String,
    pub name: String,
    pub per_seat: bool,
    pub visibility: Visibility,
    pub deck: Option<usize>,
    pub shuffle: bool,
    /// Whether displays list the zone; false for the rules' bookkeeping.
    pub shown: bool,
}

/// A Luau script of the mod.
#[derive(Debug, Clone)]
pub struct ScriptDef {
    /// The mod it belongs to.
    pub mod_id: String,
    /// Path relative to the mod folder.
    pub path: String,
    /// Path as shown to people.
    pub display: String,
    pub source: String,
    /// Luau bytecode, compiled once when the mod is loaded (None if the source does not
    /// compile; loading it in a VM then reports the syntax error).
    pub bytecode: Option<std::sync::Arc<[u8]>>,
}

/// The built-in search bot's defaults for a game: `[search]` in `mod.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchDef {
    /// Playouts a decision for `search` without a number.
    pub playouts: u32,
    /// How it chooses at the root when a bot of the mod plays its playouts.
    pub root: SearchRoot,
}

/// The playouts a decision of `search` when a mod gives none: about a second a decision in the
/// heavier bundled games on one core of a small machine, well under it in the lighter ones.
pub const DEFAULT_SEARCH_PLAYOUTS: u32 = 200;

/// The most playouts a decision a mod or a spec may ask the search bot for.
pub const MAX_SEARCH_PLAYOUTS: u32 = 100_000;

impl Default for SearchDef {
    fn default() -> SearchDef {
        SearchDef {
            playouts: DEFAULT_SEARCH_PLAYOUTS,
            root: SearchRoot::Paired,
        }
    }
}

/// How the search bot chooses at the root of a decision (see `search::paired`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchRoot {
    /// Compare the playout bot's few best moves on the same imagined games.
    Paired,
    /// Grow a search tree with the playout bot's choice as its prior.
    Tree,
}

impl SearchRoot {
    /// The word `mod.toml` and search specs use for it.
    pub fn word(self) -> &'static str {
        match self {
            SearchRoot::Paired => "paired",
            SearchRoot::Tree => "tree",
        }
    }

    /// The root a word names, if any.
    pub fn from_word(w: &str) -> Option<SearchRoot> {
        match w {
            "paired" => Some(SearchRoot::Paired),
            "tree" => Some(SearchRoot::Tree),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct BotDef {
    pub id: String,
    pub name: String,
    pub description: String,
    pub script: ScriptDef,
    /// Whether it stands in for people online ([`GameDef::standin_bot`]).
    pub standin: bool,
}
