//! Raw content: serde structs that mirror the TOML files exactly.
//!
//! Every struct denies unknown keys, and the values a person can get wrong by name (ids and
//! references) keep their position in the file through [`Sp`]. Nothing outside the loader reads
//! these types: [`crate::content::resolve`] turns them into a checked [`crate::GameDef`].
//!
//! The JSON Schemas in `schemas/` are generated from these types (see [`crate::schema`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A value with the byte range it came from in its file.
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct Sp<T>(pub toml::Spanned<T>);

impl<T> Sp<T> {
    pub fn get(&self) -> &T {
        self.0.get_ref()
    }
    pub fn span(&self) -> std::ops::Range<usize> {
        self.0.span()
    }
}

impl<T: Default> Default for Sp<T> {
    fn default() -> Self {
        Sp(toml::Spanned::new(0..0, T::default()))
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
}

/// A free-form value as written in TOML: used for properties, card fields, table cells and
/// constants. Its meaning comes from a field definition or from the scripts that read it.
pub type RawValue = toml::Value;

/// A map of free-form values whose keys keep their positions.
pub type SpannedMap = BTreeMap<Sp<String>, Sp<RawValue>>;

impl PartialEq for Sp<String> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}
impl Eq for Sp<String> {}
impl PartialOrd for Sp<String> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Sp<String> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.get().cmp(other.get())
    }
}

// ---------------------------------------------------------------------------------------------
// mod.toml

/// `mod.toml`: the manifest of a mod (a game or a house rule).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawManifest {
    /// Stable id: lowercase letters, digits and dashes. Other mods depend on it by this id.
    pub id: Sp<String>,
    /// Name shown to players.
    pub name: String,
    /// The mod's own version: three whole numbers, MAJOR.MINOR.PATCH (e.g. "1.0.0").
    pub version: Sp<String>,
    /// The engine version this mod was written for, as "MAJOR.MINOR" (e.g. "0.1").
    pub engine: Sp<String>,
    /// One or two sentences on what the game is.
    #[serde(default)]
    pub description: String,
    /// Who made the mod, and credits for the published game it implements.
    #[serde(default)]
    pub credits: Vec<String>,
    /// How many seats a game of this mod can have. A house rule that leaves it out has its
    /// game's.
    pub players: Option<RawPlayers>,
    /// Names of the seats in order (e.g. taxi colors). Seats past the list are numbered. A
    /// house rule that leaves it out has its game's.
    #[serde(default)]
    pub seat_names: Vec<String>,
    /// Mods this one builds on (a house rule depends on its game). Loaded first.
    #[serde(default)]
    pub depends: Vec<RawDependency>,
    /// Choices made when a game starts: variants, difficulty, game length.
    #[serde(default)]
    pub options: Vec<RawOption>,
    /// Fixed numbers and names the rule scripts read (never hard-coded in Lua).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub constants: BTreeMap<String, RawValue>,
    /// The content files of the mod, relative to the mod folder.
    #[serde(default)]
    pub content: RawContentFiles,
    /// Rule scripts (Luau), run in this order. Each returns a table of hooks.
    #[serde(default)]
    pub scripts: Vec<Sp<String>>,
    /// Scripted bots shipped with the mod.
    #[serde(default)]
    pub bots: Vec<RawBot>,
    /// How the built-in search bot plays this game by default. A house rule that leaves a
    /// field out has its game's.
    pub search: Option<RawSearch>,
}

/// `[search]` in `mod.toml`: the built-in search bot's defaults for this game.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSearch {
    /// Playouts a decision for `search` without a number (1 to 100,000; 200 when left out).
    /// Choose it so a decision takes well under a second: a playout's cost depends on the
    /// game. The Studio's quick and strong levels are a quarter and four times this.
    pub playouts: Option<Sp<u32>>,
    /// How the search chooses at the root when its playouts are played by one of the mod's
    /// bots: `paired` (the default) compares the bot's few best moves on the same imagined
    /// games; `tree` grows a search tree with the bot's choice as its prior. With random
    /// playouts the search always grows the tree.
    pub root: Option<Sp<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlayers {
    pub min: Sp<u32>,
    pub max: Sp<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDependency {
    /// Id of the mod depended on.
    pub id: Sp<String>,
    /// The oldest version this mod works with, as "MAJOR.MINOR" or "MAJOR.MINOR.PATCH" (the
    /// installed one must have the same major and be at least this).
    pub version: Sp<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OptionType {
    Int,
    Bool,
    Choice,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    pub id: Sp<String>,
    /// Short label for menus.
    pub label: String,
    #[serde(default)]
    pub description: String,
    #[serde(rename = "type")]
    pub kind: Sp<OptionType>,
    /// Default value: an integer, a boolean or a choice id, matching `type`.
    #[schemars(with = "serde_json::Value")]
    pub default: Sp<RawValue>,
    /// Smallest allowed value (int options).
    pub min: Option<i64>,
    /// Largest allowed value (int options).
    pub max: Option<i64>,
    /// Allowed values (choice options).
    #[serde(default)]
    pub choices: Vec<RawChoice>,
    /// This option matters only while another (choice or bool) option has a given value:
    /// `applies_when = { option = "end", is = "rounds" }`. Menus grey it out otherwise; the
    /// value is still set and passed to the rules.
    pub applies_when: Option<Sp<RawAppliesWhen>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAppliesWhen {
    /// The option this one depends on.
    pub option: Sp<String>,
    /// The value (a choice id, or true / false) under which this option applies.
    #[schemars(with = "serde_json::Value")]
    pub is: Sp<RawValue>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChoice {
    pub id: Sp<String>,
    pub label: String,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawContentFiles {
    /// The board file (kinds grid, sections, track, graph, none).
    pub board: Option<Sp<String>>,
    /// Tile set files.
    #[serde(default)]
    pub tiles: Vec<Sp<String>>,
    /// Deck files, one deck each.
    #[serde(default)]
    pub decks: Vec<Sp<String>>,
    /// Lookup table files, one table each.
    #[serde(default)]
    pub tables: Vec<Sp<String>>,
    /// The pieces file: pieces, counters and zones.
    pub pieces: Option<Sp<String>>,
    /// Patch files (house rules): changes to the content of the mods this one depends on,
    /// applied after this mod's other files, in order.
    #[serde(default)]
    pub patches: Vec<Sp<String>>,
    /// The print layout (`farebox print`): card templates, sizes and the player aid. The
    /// engine only reads it; the command that prints checks it.
    pub print: Option<Sp<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBot {
    pub id: Sp<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Luau file that returns a table with a `choose(game, seat, actions)` function.
    pub script: Sp<String>,
    /// Online, the bot that plays for a person who dropped out or whose turn clock ran out
    /// (at most one bot of a mod; without one, the first bot listed does it).
    #[serde(default)]
    pub standin: bool,
}

// ---------------------------------------------------------------------------------------------
// board.toml

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// W x H cells holding placed tiles; edges come from the tiles' roads.
    Grid,
    /// Board sections with their own spaces, arranged and rotated at setup.
    Sections,
    /// Track pieces attached end to end while the game runs.
    Track,
    /// Spaces and edges written out directly.
    Graph,
    /// No board.
    None,
}

/// `board.toml`: the board. `kind` says which of the tables below describes it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    pub kind: Sp<BoardKind>,
    pub grid: Option<RawGrid>,
    pub graph: Option<RawGraph>,
    pub sections: Option<RawSections>,
    pub track: Option<RawTrack>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGrid {
    pub width: Sp<u32>,
    pub height: Sp<u32>,
    /// Named cells with tags and properties, and tiles placed before the game starts.
    #[serde(default)]
    pub cells: Vec<RawCell>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCell {
    /// Column, 1-based from the left.
    pub x: Sp<u32>,
    /// Row, 1-based from the top.
    pub y: Sp<u32>,
    /// Optional name, so other content can refer to this cell.
    pub id: Option<Sp<String>>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub props: BTreeMap<String, RawValue>,
    /// A tile kind placed here before the game starts.
    pub tile: Option<Sp<String>>,
    /// Quarter turns clockwise of the preset tile (0-3).
    #[serde(default)]
    pub rotation: u8,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGraph {
    #[serde(default)]
    pub spaces: Vec<RawSpace>,
    #[serde(default)]
    pub edges: Vec<RawEdge>,
    /// Chains of edges: each consecutive pair of spaces is joined.
    #[serde(default)]
    pub paths: Vec<RawPath>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSpace {
    pub id: Sp<String>,
    /// Name shown to players (defaults to the id).
    #[serde(default)]
    pub name: String,
    /// Position for drawing, in board units: a finite number within a billion of 0 (within
    /// the section, on a sections board).
    #[schemars(range(min = -1e9, max = 1e9))]
    pub x: Sp<f64>,
    #[schemars(range(min = -1e9, max = 1e9))]
    pub y: Sp<f64>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub props: BTreeMap<String, RawValue>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEdge {
    pub from: Sp<String>,
    pub to: Sp<String>,
    /// One-way from `from` to `to`.
    #[serde(default)]
    pub directed: bool,
    /// Tags such as `river` or `flight`; rules decide who may use a tagged edge.
    #[serde(default)]
    pub tags: Vec<String>,
    /// What crossing the edge costs a move: a whole number from 1 to 1,000,000 (default 1).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub cost: Option<Sp<i64>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPath {
    pub spaces: Vec<Sp<String>>,
    #[serde(default)]
    pub directed: bool,
    #[serde(default)]
    pub tags: Vec<String>,
    /// What crossing each edge of the path costs a move: 1 to 1,000,000 (default 1).
    #[schemars(range(min = 1, max = 1_000_000))]
    pub cost: Option<Sp<i64>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
pub enum Side {
    N,
    E,
    S,
    W,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSections {
    /// Side length of every (square) section, in board units: above 0, at most a billion.
    pub size: Sp<f64>,
    /// Sections per row and per column of the arranged board.
    pub columns: Sp<u32>,
    pub rows: Sp<u32>,
    /// Arrange the sections in a random order at setup.
    #[serde(default)]
    pub shuffle: bool,
    /// Turn each section by a random quarter turn at setup.
    #[serde(default)]
    pub rotate: bool,
    /// A bool option that decides `shuffle` when a game starts (`shuffle` is then its
    /// default when the option is not set).
    pub shuffle_option: Option<Sp<String>>,
    /// A bool option that decides `rotate` when a game starts.
    pub rotate_option: Option<Sp<String>>,
    pub pieces: Vec<RawSection>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSection {
    pub id: Sp<String>,
    #[serde(default)]
    pub name: String,
    /// Spaces, with positions inside the section (0..size on both axes, y down).
    pub spaces: Vec<RawSpace>,
    #[serde(default)]
    pub edges: Vec<RawEdge>,
    #[serde(default)]
    pub paths: Vec<RawPath>,
    /// Spaces on the section's border that join the neighbouring section's connector at the
    /// same point once the sections are arranged.
    #[serde(default)]
    pub connectors: Vec<RawConnector>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConnector {
    pub space: Sp<String>,
    pub side: Side,
    /// Distance along the side, from its left end seen from inside the section when facing
    /// that side (0..size).
    pub at: f64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTrack {
    /// Table size in track-card lengths (2 to 1,000 each way); a piece that would leave it is
    /// set aside.
    #[schemars(range(min = 2, max = 1000))]
    pub table_width: Sp<f64>,
    #[schemars(range(min = 2, max = 1000))]
    pub table_height: Sp<f64>,
    /// Which way the first piece heads, in degrees: a multiple of 45, 0 up the table, 90 to
    /// the right (default 0).
    pub start_heading: Option<Sp<i64>>,
    /// Where the first piece's entry edge lies on the table's middle line: this fraction of the
    /// table's extent along the start heading in from the edge behind it (0 to 1; default 0.5,
    /// the middle). It follows the table when the rules change its size before the first piece.
    pub start_from_back: Option<Sp<f64>>,
    /// The least gap, in card lengths, between a new piece and every piece on the table but the
    /// one it joins (0 to 1; default 0.1).
    pub clearance: Option<Sp<f64>>,
    /// Track piece shapes. Cards of a deck refer to them with a `ref` field to `track-pieces`.
    pub pieces: Vec<RawTrackPiece>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TrackRole {
    Start,
    Finish,
    Normal,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTrackPiece {
    pub id: Sp<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default = "normal_role")]
    pub role: TrackRole,
    /// Number of lanes (2 or 3; the start grid has 3).
    pub lanes: Sp<u32>,
    /// Spaces along each lane.
    pub rows: Sp<u32>,
    /// Turn at the exit, in degrees: 0, +-45 or +-90 (positive turns right).
    #[serde(default)]
    pub turn: Sp<i32>,
    /// Gates at the exit edge of the piece, one entry per gate.
    #[serde(default)]
    pub gates: Vec<RawGate>,
    /// Free-form tags for rules and bots (`curve`, `chicane`, ...).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Free-form properties for rules and bots.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub props: BTreeMap<String, RawValue>,
}

fn normal_role() -> TrackRole {
    TrackRole::Normal
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGate {
    /// Lanes this gate spans (0 = leftmost in the direction of travel).
    pub lanes: Vec<u32>,
    /// Exact combo size needed to pass (2-5).
    pub size: Sp<u32>,
}

// ---------------------------------------------------------------------------------------------
// tiles.toml

/// A tile set file: kinds of tiles that can be placed on grid cells.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTileSet {
    pub tiles: Vec<RawTile>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTile {
    pub id: Sp<String>,
    pub name: String,
    #[serde(default)]
    pub text: String,
    /// Roads across the tile: "N-S" joins two sides both ways, "W>E" is one-way from W to E,
    /// and a single side such as "S" is a dead-end stub.
    #[serde(default)]
    pub roads: Vec<Sp<String>>,
    /// Movement actions needed to drive through the tile (a stop sign costs 2): a whole number
    /// from 1 to 1,000,000 (default 1).
    #[schemars(range(min = 1, max = 1_000_000), extend("default" = 1))]
    pub move_cost: Option<Sp<i64>>,
    /// Whether the tile may be turned on the board.
    #[serde(default = "yes")]
    pub rotatable: bool,
    /// A tile that closes its cell to traffic (cones, potholes).
    #[serde(default)]
    pub blocks: bool,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub props: BTreeMap<String, RawValue>,
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

// ---------------------------------------------------------------------------------------------
// decks/*.toml and tables/*.toml

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldType {
    Int,
    Number,
    String,
    Bool,
    /// A list of integers.
    Ints,
    /// A list of strings.
    Strings,
    /// The id of something else in the mod; see `to`.
    Ref,
    /// A list of ids; see `to`.
    Refs,
}

/// The type of one card field or table column.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFieldDef {
    #[serde(rename = "type")]
    pub kind: Sp<FieldType>,
    /// For `ref`/`refs`: what the id names: `tiles`, `spaces`, `pieces`, `track-pieces`,
    /// `deck:<id>` (a card of that deck) or `table:<id>` (a row key of that table).
    pub to: Option<Sp<String>>,
    /// A card or row must give this field.
    #[serde(default)]
    pub required: bool,
    /// Value used when a card or row leaves the field out.
    #[schemars(with = "Option<serde_json::Value>")]
    pub default: Option<Sp<RawValue>>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Allowed values, for string fields: ids (`"gain-coins"`), or ids with the words people
    /// read on a card (`{ id = "gain-coins", label = "Gain coins" }`).
    #[serde(default)]
    pub choices: Vec<RawFieldChoice>,
    /// For list fields (`ints`, `strings`, `refs`): exactly this many items.
    pub length: Option<Sp<u32>>,
    /// For `ref`/`refs` fields naming `spaces`, `tiles`, `pieces` or `deck:<id>`: every thing
    /// named must carry this tag (e.g. only spaces tagged `stand`).
    pub tagged: Option<Sp<String>>,
    #[serde(default)]
    pub description: String,
}

/// One allowed value of a string field: its id alone, or its id and a label.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawFieldChoice {
    Id(String),
    Labelled(RawFieldChoiceLabelled),
}

/// A field choice with the words a person reads for it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFieldChoiceLabelled {
    pub id: String,
    pub label: String,
}

impl RawFieldChoice {
    pub fn id(&self) -> &str {
        match self {
            RawFieldChoice::Id(id) => id,
            RawFieldChoice::Labelled(c) => &c.id,
        }
    }
    /// The label, or the id where none is given.
    pub fn label(&self) -> &str {
        match self {
            RawFieldChoice::Id(id) => id,
            RawFieldChoice::Labelled(c) => &c.label,
        }
    }
}

/// A deck file: one deck of cards (or tokens, or tiles drawn from a bag).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeck {
    pub id: Sp<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Every card tag must be a row key of this table (its `key` column), so a misspelt tag
    /// is caught with "did you mean".
    pub tags_from: Option<Sp<String>>,
    /// Typed fields every card of this deck may or must carry, besides the fixed keys
    /// `id`, `name`, `text`, `count` and `tags`.
    #[serde(default)]
    pub fields: BTreeMap<Sp<String>, RawFieldDef>,
    /// The cards. Each is a table with `id` (required), `name`, `text`, `count` (default 1),
    /// `tags`, and the deck's fields.
    #[schemars(with = "Vec<BTreeMap<String, serde_json::Value>>")]
    pub cards: Vec<SpannedMap>,
    /// The file each card came from, where a patch added or replaced it (else the deck's).
    #[serde(skip)]
    #[schemars(skip)]
    pub card_files: Vec<Option<usize>>,
}

/// A lookup table file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub id: Sp<String>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The column rows are looked up by; its values must be unique.
    pub key: Option<Sp<String>>,
    pub columns: BTreeMap<Sp<String>, RawFieldDef>,
    #[schemars(with = "Vec<BTreeMap<String, serde_json::Value>>")]
    pub rows: Vec<SpannedMap>,
    /// The file each row came from, where a patch added or replaced it (else the table's).
    #[serde(skip)]
    #[schemars(skip)]
    pub row_files: Vec<Option<usize>>,
}

// ---------------------------------------------------------------------------------------------
// patches/*.toml

/// A patch file: what a house rule changes in the content of the mods it depends on. Whole
/// items are added or replaced by giving them the same id in the mod's own files; a patch
/// takes items out, and changes decks card by card and tables row by row.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPatch {
    /// Items to take out of the game, by id.
    #[serde(default)]
    pub remove: RawRemove,
    /// Decks to change: cards taken out, added, or replaced (a card with the same id).
    #[serde(default)]
    pub decks: Vec<RawDeckPatch>,
    /// Lookup tables to change: rows taken out, added, or replaced (a row with the same key).
    #[serde(default)]
    pub tables: Vec<RawTablePatch>,
}

/// Ids of items to take out, by kind.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRemove {
    #[serde(default)]
    pub tiles: Vec<Sp<String>>,
    #[serde(default)]
    pub decks: Vec<Sp<String>>,
    #[serde(default)]
    pub tables: Vec<Sp<String>>,
    #[serde(default)]
    pub pieces: Vec<Sp<String>>,
    #[serde(default)]
    pub counters: Vec<Sp<String>>,
    #[serde(default)]
    pub zones: Vec<Sp<String>>,
    #[serde(default)]
    pub options: Vec<Sp<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeckPatch {
    /// The deck to change.
    pub id: Sp<String>,
    /// Ids of cards to take out.
    #[serde(default)]
    pub remove: Vec<Sp<String>>,
    /// Cards to add; a card with the id of one in the deck replaces it, in its place.
    #[serde(default)]
    #[schemars(with = "Vec<BTreeMap<String, serde_json::Value>>")]
    pub cards: Vec<SpannedMap>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTablePatch {
    /// The table to change.
    pub id: Sp<String>,
    /// Values of the key column of rows to take out.
    #[serde(default)]
    #[schemars(with = "Vec<serde_json::Value>")]
    pub remove: Vec<Sp<RawValue>>,
    /// Rows to add; a row with the key of one in the table replaces it, in its place.
    #[serde(default)]
    #[schemars(with = "Vec<BTreeMap<String, serde_json::Value>>")]
    pub rows: Vec<SpannedMap>,
}

// ---------------------------------------------------------------------------------------------
// pieces.toml

/// The pieces file: physical pieces, counters (gas, money, stars) and zones (decks, hands,
/// discard piles, face-up rows).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPieces {
    #[serde(default)]
    pub pieces: Vec<RawPiece>,
    #[serde(default)]
    pub counters: Vec<RawCounter>,
    #[serde(default)]
    pub zones: Vec<RawZone>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPiece {
    pub id: Sp<String>,
    pub name: String,
    /// One set of `count` pieces per seat (owned by that seat) instead of one shared set.
    #[serde(default)]
    pub per_seat: bool,
    #[serde(default = "one")]
    pub count: u32,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, serde_json::Value>")]
    pub props: BTreeMap<String, RawValue>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Seat,
    Global,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCounter {
    pub id: Sp<String>,
    pub name: String,
    pub scope: Scope,
    /// Starting value.
    #[serde(default)]
    pub initial: i64,
    /// Take the starting value from this int option instead.
    pub initial_option: Option<Sp<String>>,
    /// Take the starting value from this whole-number entry of `[constants]` instead, so a
    /// house rule that changes the constant changes the counter too.
    pub initial_constant: Option<Sp<String>>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// This counter matters only while an option has a given value (as an option's
    /// `applies_when`); views leave it out otherwise.
    pub applies_when: Option<Sp<RawAppliesWhen>>,
    /// This seat counter is the game's score as it stands during play: outcome runs follow
    /// it to count how often the lead changed and how early the winner took it for good. At
    /// most one counter of a game says so.
    #[serde(default)]
    pub score: Sp<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Everyone sees every card.
    Public,
    /// The owning seat sees the cards; others see how many.
    Owner,
    /// Nobody sees the cards, only how many (a face-down deck).
    Hidden,
    /// Everyone sees the top card only.
    Top,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    pub id: Sp<String>,
    pub name: String,
    /// One zone per seat (a hand) instead of one shared zone.
    #[serde(default)]
    pub per_seat: bool,
    pub visibility: Visibility,
    /// Fill the zone with every card of this deck (with counts) at setup.
    pub deck: Option<Sp<String>>,
    /// Shuffle the zone after filling it.
    #[serde(default)]
    pub shuffle: bool,
    /// Whether displays list the zone (default true). `false` marks a box the rules use for
    /// bookkeeping: the terminal and the Studio do not list it.
    #[serde(default = "yes")]
    pub shown: bool,
}
