//! New files of content: a board of any kind for a mod that has none, a deck, a table and a
//! tile set. Each is written as an author would write it by hand: the `#:schema` line the
//! mod's own `mod.toml` uses (pointed at the schema of its kind), comments that say how the
//! file reads and what may be added, and a first entry that loads and validates, so the
//! editors have something to show and copy. The file is named in `[content]` of `mod.toml`.

use toml_edit::{DocumentMut, Item, Value};

use super::{add_content, err};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;

/// The kind of board to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewBoard {
    /// Cells in rows and columns, tiles laid on them.
    Grid { width: u32, height: u32 },
    /// Spaces joined by roads.
    Map,
    /// Square sections of spaces, laid out at setup.
    Sections,
    /// Track pieces laid end to end while the game runs.
    Track,
}

impl NewBoard {
    /// The kind's name as `kind` writes it.
    pub fn kind(self) -> &'static str {
        match self {
            NewBoard::Grid { .. } => "grid",
            NewBoard::Map => "graph",
            NewBoard::Sections => "sections",
            NewBoard::Track => "track",
        }
    }

    /// What the undo list calls it.
    pub fn what(self) -> &'static str {
        match self {
            NewBoard::Grid { .. } => "a grid board",
            NewBoard::Map => "a map board",
            NewBoard::Sections => "a sections board",
            NewBoard::Track => "a track board",
        }
    }
}

/// A board for a mod that has none. The open mod's board file of kind `none` is written over;
/// else a new `board.toml` is named in `[content]`, which in a house rule takes the place of
/// the game's board.
pub(super) fn add_board(tx: &mut Tx<'_>, base: &[Layer], b: &NewBoard) -> Result<(), EditError> {
    if let NewBoard::Grid { width, height } = *b {
        for (n, side) in [(width, "wide"), (height, "high")] {
            if !(1..=64).contains(&n) {
                return err(format!("a grid is 1 to 64 cells {side}, not {n}"));
            }
        }
    }
    let own = tx.layer.content("board").into_iter().next();
    let current = own
        .as_deref()
        .and_then(|rel| tx.doc(rel))
        .or_else(|| {
            base.iter().rev().find_map(|l| {
                l.content("board")
                    .into_iter()
                    .next()
                    .and_then(|rel| l.doc(&rel))
            })
        })
        .and_then(|d| d.get("kind"))
        .and_then(Item::as_str)
        .map(str::to_string);
    if let Some(kind) = current.filter(|k| k != "none") {
        return err(format!(
            "the mod has a board already (kind `{kind}`); it is edited in the Board tab"
        ));
    }
    let text = board_text(&schema_line(tx, 0, "board"), b);
    let doc = parse(&text)?;
    match own.filter(|rel| tx.layer.files.contains_key(rel)) {
        Some(rel) => {
            *tx.doc_mut(&rel)? = doc;
        }
        None => {
            let rel = free_name(tx, "", "board");
            tx.create(&rel, doc)?;
            add_content(tx, "board", &rel)?;
        }
    }
    Ok(())
}

/// A deck file `decks/<id>.toml` with one card.
pub(super) fn add_deck(tx: &mut Tx<'_>, id: &str, name: &str) -> Result<(), EditError> {
    check_id(id, "deck")?;
    let text = format!(
        r#"{schema}# The deck `{id}`. Each card is a [[cards]] table: `id` (what rules and other files
# name it by), `name` and `text` (what players read), `count` (copies in the deck, default 1)
# and `tags`. Typed fields every card may carry are declared under [fields.<name>], e.g.
#   [fields.value]
#   type = "int"
#   default = 0
# A zone of pieces.toml with `deck = "{id}"` is filled with these cards at setup.

id = {id_q}
name = {name_q}

[[cards]]
id = {card_q}
name = "First card"
text = ""
"#,
        schema = schema_line(tx, 1, "deck"),
        id_q = quoted(id),
        name_q = quoted(name),
        card_q = quoted(&format!("{id}-1")),
    );
    let rel = free_name(tx, "decks/", id);
    tx.create(&rel, parse(&text)?)?;
    add_content(tx, "decks", &rel)
}

/// A table file `tables/<id>.toml` with a key column, a number column and one row.
pub(super) fn add_table(tx: &mut Tx<'_>, id: &str, name: &str) -> Result<(), EditError> {
    check_id(id, "table")?;
    let text = format!(
        r#"{schema}# The table `{id}`: rows looked up by their `key` column, whose values are unique.
# Each column is declared under [columns.<name>] with its `type` (int, number, string, bool,
# ints, strings, ref, refs), and may be `required`, have a `default`, a `min` and a `max`.
# Each row is a [[rows]] table.

id = {id_q}
name = {name_q}
key = "key"

[columns.key]
type = "string"
required = true

[columns.value]
type = "int"
default = 0

[[rows]]
key = "first"
value = 1
"#,
        schema = schema_line(tx, 1, "table"),
        id_q = quoted(id),
        name_q = quoted(name),
    );
    let rel = free_name(tx, "tables/", id);
    tx.create(&rel, parse(&text)?)?;
    add_content(tx, "tables", &rel)
}

/// A tile set file `tiles.toml` (or `tiles-2.toml`...) with one tile, a straight road.
pub(super) fn add_tile_set(tx: &mut Tx<'_>, tile: &str, name: &str) -> Result<(), EditError> {
    check_id(tile, "tile")?;
    let text = format!(
        r#"{schema}# Kinds of tile that can be laid on the grid's cells. Roads are drawn with the tile
# unturned; sides are N, E, S, W. "N-S" is a two-way road, "W>E" one way from W to E, and a
# lone side such as "S" is a dead end. `move_cost` is what driving through the tile takes
# (default 1), `rotatable = false` keeps it unturned, `blocks = true` closes its cell.

[[tiles]]
id = {id_q}
name = {name_q}
text = ""
roads = ["N-S"]
"#,
        schema = schema_line(tx, 0, "tiles"),
        id_q = quoted(tile),
        name_q = quoted(name),
    );
    let rel = free_name(tx, "", "tiles");
    tx.create(&rel, parse(&text)?)?;
    add_content(tx, "tiles", &rel)
}

/// The text of a new board file.
fn board_text(schema: &str, b: &NewBoard) -> String {
    let body = match *b {
        NewBoard::Grid { width, height } => format!(
            r#"# The board: a grid of {width} x {height} cells. A cell is addressed by x, its column (1 at the
# left), and y, its row (1 at the top). List a cell under [[grid.cells]] to name it (`id`, so
# rules can find it), tag it, give it `props`, or lay a tile on it before the game starts
# (`tile`, turned `rotation` quarter turns clockwise). Sides are 1 to 64 cells.

kind = "grid"

[grid]
width = {width}
height = {height}
"#
        ),
        NewBoard::Map => r#"# The board: a map of spaces joined by roads. A space has an `id` (what rules and other
# files name it by), a `name` players read and a place, `x` to the right and `y` down in
# board units; `tags` and `props` mark what the rules look for. An edge joins two spaces
# both ways, or one way from `from` to `to` when `directed`; `cost` is what crossing it
# takes (default 1).

kind = "graph"

[graph]
spaces = [
  { id = "space-1", name = "Space 1", x = 100.0, y = 100.0 },
  { id = "space-2", name = "Space 2", x = 300.0, y = 100.0 },
]
edges = [
  { from = "space-1", to = "space-2" },
]
"#
        .to_string(),
        NewBoard::Sections => r#"# The board: a city of square sections, `size` board units on a side, laid out `columns`
# by `rows` (left to right, top to bottom). `shuffle = true` lays them in a random order at
# setup, `rotate = true` turns each a random quarter turn. A section's spaces lie inside it
# (x to the right, y down, 0 to size); a connector joins its space to the neighbouring
# section's connector at the same point of the shared side once the sections are laid out
# (`at` is the distance along the side from its left end, seen from inside facing it).

kind = "sections"

[sections]
size = 100.0
columns = 2
rows = 1

[[sections.pieces]]
id = "west"
name = "West"
spaces = [
  { id = "west-middle", name = "West, middle", x = 50.0, y = 50.0 },
  { id = "west-edge", name = "West, east edge", x = 100.0, y = 50.0 },
]
edges = [
  { from = "west-middle", to = "west-edge" },
]
connectors = [
  { space = "west-edge", side = "E", at = 50.0 },
]

[[sections.pieces]]
id = "east"
name = "East"
spaces = [
  { id = "east-edge", name = "East, west edge", x = 0.0, y = 50.0 },
  { id = "east-middle", name = "East, middle", x = 50.0, y = 50.0 },
]
edges = [
  { from = "east-edge", to = "east-middle" },
]
connectors = [
  { space = "east-edge", side = "W", at = 50.0 },
]
"#
        .to_string(),
        NewBoard::Track => r#"# The board: a track laid piece by piece while the game runs, on a table `table_width` by
# `table_height` track lengths. The first piece heads `start_heading` degrees (0 up the
# table, 90 to the right). Each piece has `lanes` (1 to 4) with `rows` spaces along each
# (1 to 8); `turn` is the heading change at its exit (0, -45, 45, -90, 90; positive turns
# right); `gates` at the exit need a combo of exactly `size` dice to cross. Cards of a deck
# name the pieces with a `ref` field to `track-pieces`.

kind = "track"

[track]
table_width = 16.0
table_height = 12.0
start_heading = 90

[[track.pieces]]
id = "start"
name = "Start"
role = "start"
lanes = 2
rows = 2

[[track.pieces]]
id = "straight"
name = "Straight"
lanes = 2
rows = 3

[[track.pieces]]
id = "gentle-left"
name = "Gentle Left"
lanes = 2
rows = 2
turn = -45
gates = [{ lanes = [0], size = 3 }, { lanes = [1], size = 2 }]

[[track.pieces]]
id = "finish"
name = "Finish"
role = "finish"
lanes = 2
rows = 2
"#
        .to_string(),
    };
    format!("{schema}{body}")
}

/// The `#:schema` line of a new file `depth` folders below the mod's own, in the style of the
/// mod's `mod.toml` (the same folder of schemas, reached from the new file); none when
/// `mod.toml` has none.
fn schema_line(tx: &Tx<'_>, depth: usize, kind: &str) -> String {
    let Some(first) = tx
        .doc("mod.toml")
        .map(|d| d.to_string())
        .and_then(|t| t.lines().next().map(str::to_string))
    else {
        return String::new();
    };
    let Some(dir) = first
        .strip_prefix("#:schema ")
        .and_then(|p| p.trim().strip_suffix("mod.schema.json"))
    else {
        return String::new();
    };
    let up = if dir.starts_with('/') || dir.contains("://") {
        String::new()
    } else {
        "../".repeat(depth)
    };
    format!("#:schema {up}{dir}{kind}.schema.json\n")
}

/// `<folder><stem>.toml`, else `<folder><stem>-2.toml`..., the first the mod has no file at.
fn free_name(tx: &Tx<'_>, folder: &str, stem: &str) -> String {
    let taken = |rel: &str| tx.layer.files.contains_key(rel) || tx.layer.folder.join(rel).exists();
    let first = format!("{folder}{stem}.toml");
    if !taken(&first) {
        return first;
    }
    (2..)
        .map(|n| format!("{folder}{stem}-{n}.toml"))
        .find(|rel| !taken(rel))
        .unwrap_or(first)
}

/// Ids are lowercase letters, digits, dashes and underscores, as other files write them.
fn check_id(id: &str, what: &str) -> Result<(), EditError> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        err(format!(
            "`{id}` cannot be a {what}'s id: use lowercase letters, digits and dashes, starting with a letter (like `night-fares`)"
        ))
    }
}

fn quoted(s: &str) -> String {
    Value::from(s).to_string()
}

fn parse(text: &str) -> Result<DocumentMut, EditError> {
    text.parse::<DocumentMut>()
        .map_err(|e| EditError::new(format!("the new file is not TOML: {e}")))
}
