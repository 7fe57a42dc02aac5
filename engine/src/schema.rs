//! JSON Schemas for every TOML file kind, and Luau type stubs for the `game` API.
//!
//! Both are generated from the engine itself: the schemas from the raw serde types of
//! [`crate::content::raw`], the stubs from [`crate::script::api::API`]. `farebox schema` writes
//! them to `schemas/`, and a test fails when the committed copies are stale.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;

use crate::content::raw::{
    RawBoard, RawDeck, RawManifest, RawPatch, RawPieces, RawTable, RawTileSet,
};
use crate::script::HOOKS;
use crate::script::api::API;

/// The file name of the Luau definitions written by [`write_all`].
pub const LUA_STUBS_FILE: &str = "farebox.d.luau";

/// One schema: pretty JSON with a trailing newline, titled after the file kind it describes.
fn schema_for<T: JsonSchema>(title: &str) -> String {
    let mut schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<T>();
    schema.insert("title".into(), serde_json::Value::String(title.into()));
    let mut text =
        serde_json::to_string_pretty(&schema).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// (file name, JSON text) for each TOML file kind.
pub fn json_schemas() -> Vec<(&'static str, String)> {
    vec![
        (
            "mod.schema.json",
            schema_for::<RawManifest>("Farebox mod manifest (mod.toml)"),
        ),
        (
            "board.schema.json",
            schema_for::<RawBoard>("Farebox board (board.toml)"),
        ),
        (
            "tiles.schema.json",
            schema_for::<RawTileSet>("Farebox tile set (tiles*.toml)"),
        ),
        (
            "deck.schema.json",
            schema_for::<RawDeck>("Farebox deck (decks/*.toml)"),
        ),
        (
            "table.schema.json",
            schema_for::<RawTable>("Farebox lookup table (tables/*.toml)"),
        ),
        (
            "pieces.schema.json",
            schema_for::<RawPieces>("Farebox pieces, counters and zones (pieces.toml)"),
        ),
        (
            "patch.schema.json",
            schema_for::<RawPatch>("Farebox patch of a house rule (patches/*.toml)"),
        ),
        (
            "print.schema.json",
            schema_for::<crate::content::print_file::PrintFile>(
                "Farebox print layout (print.toml)",
            ),
        ),
    ]
}

/// Luau type of a hook parameter, by its conventional name.
fn param_type(name: &str) -> &'static str {
    match name {
        "game" => "Game",
        "seat" => "number",
        "action" => "string",
        _ => "any",
    }
}

/// Turns a hook's documented form, "name(a, b) -> ret: what it does", into
/// (Luau function type, what it does).
fn hook_type(doc: &str) -> (String, String) {
    let open = doc.find('(');
    let close = doc.find(')');
    let (Some(open), Some(close)) = (open, close) else {
        return ("(...any) -> any".into(), doc.to_string());
    };
    let params: Vec<String> = doc[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("{p}: {}", param_type(p)))
        .collect();
    let rest = &doc[close + 1..];
    let (ret, what) = match rest.find(": ") {
        Some(i) => (rest[..i].trim(), rest[i + 2..].trim()),
        None => (rest.trim(), ""),
    };
    let ret = ret.strip_prefix("->").map_or("()", str::trim);
    (
        format!("({}) -> {ret}", params.join(", ")),
        what.to_string(),
    )
}

/// The Luau types of the frozen `data` global's parts (tiles, cards, decks, tables, pieces,
/// track pieces), as the stubs declare them.
const DATA_TYPES: &str = "-- A tile kind, as `data.tiles[id]`.\n\
     export type TileData = {\n\
     \tid: string,\n\
     \tname: string,\n\
     \ttext: string,\n\
     \tmove_cost: number,\n\
     \trotatable: boolean,\n\
     \tblocks: boolean,\n\
     \ttags: {string},\n\
     \tprops: {[string]: any},\n\
     \t-- Whether the tile has any roads.\n\
     \troads: boolean,\n\
     \t-- Open sides (e.g. \"NS\") for each of the four rotations, index 1 = unturned.\n\
     \topen: {string},\n\
     \t-- Sides a vehicle may leave by, for each rotation.\n\
     \texits: {string},\n\
     \t-- Sides a vehicle may drive in from, for each rotation.\n\
     \tentries: {string},\n\
     \t-- The rotations (0-3) that give different road layouts.\n\
     \trotations: {number},\n\
     }\n\n\
     -- A card: `id`, `name`, `text`, `count`, `tags` and the deck's own fields.\n\
     export type CardData = {[string]: any}\n\n\
     -- A deck, as `data.decks[id]`.\n\
     export type DeckData = {\n\
     \tid: string,\n\
     \tname: string,\n\
     \t-- Cards by id.\n\
     \tcards: {[string]: CardData},\n\
     \t-- Cards in file order.\n\
     \tlist: {CardData},\n\
     }\n\n\
     -- A lookup table, as `data.tables[id]`.\n\
     export type TableData = {\n\
     \tid: string,\n\
     \t-- Rows in file order.\n\
     \trows: {{[string]: any}},\n\
     \t-- Rows by the value of the key column (when the table has a key).\n\
     \tby_key: {[any]: {[string]: any}},\n\
     }\n\n\
     -- A piece kind, as `data.pieces[id]`.\n\
     export type PieceData = {\n\
     \tid: string,\n\
     \tname: string,\n\
     \tcount: number,\n\
     \tper_seat: boolean,\n\
     \ttags: {string},\n\
     \tprops: {[string]: any},\n\
     }\n\n\
     -- A kind of track piece (a track board), as `data.track_pieces[id]`.\n\
     export type TrackPieceData = {\n\
     \tid: string,\n\
     \tname: string,\n\
     \t-- \"start\", \"finish\" or \"normal\".\n\
     \trole: string,\n\
     \tlanes: number,\n\
     \trows: number,\n\
     \t-- Turn at the exit in degrees; positive turns right.\n\
     \tturn: number,\n\
     \t-- Gates at the exit edge: the lanes each spans (0 = leftmost) and the exact combo size.\n\
     \tgates: {{lanes: {number}, size: number}},\n\
     \ttags: {string},\n\
     \tprops: {[string]: any},\n\
     }\n\n";

/// The Luau type definitions for script authors.
pub fn lua_stubs() -> String {
    let mut s = String::new();
    s.push_str(
        "-- Farebox: Luau definitions for rule scripts and bots.\n\
         -- Generated by `farebox schema` from the engine; do not edit by hand.\n\
         --\n\
         -- Point luau-lsp at this file (a new mod's copy is types/farebox.d.luau):\n\
         -- \"luau-lsp.types.definitionFiles\": { \"@farebox\": \"types/farebox.d.luau\" }.\n\
         -- Seats, spaces, zones and pieces are 1-based numbers (handles); ids are strings.\n\
         -- Call the API with a dot: game.roll(6), not game:roll(6).\n\
         -- Bots and the `actions` hook may only read: functions that change the game fail there.\n\n",
    );

    s.push_str("-- The `game` API, available inside hooks and bots.\n");
    s.push_str("export type Game = {\n");
    for (name, sig, doc) in API {
        for line in doc.lines() {
            let _ = writeln!(s, "\t-- {line}");
        }
        let _ = writeln!(s, "\t{name}: {sig},");
    }
    s.push_str("}\n\n");

    s.push_str(DATA_TYPES);

    s.push_str(
        "-- What `describe` returns: a label, or a menu path whose parts, joined by single spaces,\n\
         -- make the label ({\"Place\", \"a Straightaway\", \"at 3,4\"}). Menus group actions by\n\
         -- their first parts.\n\
         export type Label = string | {string}\n\n",
    );
    s.push_str(
        "-- The hooks a rule script may return (each script returns a table with some of them).\n",
    );
    s.push_str("export type Hooks = {\n");
    for (name, doc) in HOOKS {
        let (ty, what) = hook_type(doc);
        if !what.is_empty() {
            let _ = writeln!(s, "\t-- {what}");
        }
        let _ = writeln!(s, "\t{name}: ({ty})?,");
    }
    s.push_str(
        "\t-- Hooks run before what earlier scripts (the game a house rule depends on) give; one that\n\
         \t-- returns a value other than nil or false ends the hook, and that value is its result.\n\
         \tbefore: BeforeHooks?,\n\
         \t-- Hooks run after it; each gets the result so far last, and may return a new one.\n\
         \tafter: AfterHooks?,\n",
    );
    s.push_str("}\n\n");
    for (kind, after) in [("BeforeHooks", false), ("AfterHooks", true)] {
        let _ = writeln!(s, "export type {kind} = {{");
        for (name, doc) in HOOKS {
            let (ty, _) = hook_type(doc);
            let (params, ret) = ty.split_once(" -> ").unwrap_or((&ty, "()"));
            let ty = match (after, ret) {
                (false, "()") => format!("{params} -> boolean?"),
                (false, r) => format!("{params} -> {r}?"),
                (true, "()") => format!("{params} -> ()"),
                (true, r) => format!("{}, result: {r}) -> {r}?", params.trim_end_matches(')')),
            };
            let _ = writeln!(s, "\t{name}: ({ty})?,");
        }
        s.push_str("}\n\n");
    }

    s.push_str(
        "-- What a bot script returns: `choose` picks an action by its 1-based index in `actions`.\n\
         export type Bot = {\n\
         \tchoose: (game: Game, seat: number, actions: {string}) -> number,\n\
         }\n\n",
    );

    s.push_str("declare game: Game\n\n");
    s.push_str(
        "-- The mod's content, read-only.\n\
         declare data: {\n\
         \tid: string,\n\
         \tname: string,\n\
         \t-- `constants` of mod.toml.\n\
         \tconstants: {[string]: any},\n\
         \ttiles: {[string]: TileData},\n\
         \tdecks: {[string]: DeckData},\n\
         \ttables: {[string]: TableData},\n\
         \tpieces: {[string]: PieceData},\n\
         \t-- Counters, zones and options by id: test `data.zones[id] ~= nil` to cope with a\n\
         \t-- house rule that removed one.\n\
         \tcounters: {[string]: {id: string, name: string, scope: string, initial: number, min: number?, max: number?}},\n\
         \tzones: {[string]: {id: string, name: string, per_seat: boolean, visibility: string, deck: string?}},\n\
         \toptions: {[string]: {id: string, label: string, type: string, default: any, min: number?, max: number?, choices: {string}}},\n\
         \t-- Empty unless the board is a track.\n\
         \ttrack_pieces: {[string]: TrackPieceData},\n\
         }\n",
    );
    s
}

/// The file name of the selene standard library written by [`write_all`] (selene finds it
/// by its name without `.yml`: `std = "schemas/farebox"` in selene.toml).
pub const SELENE_STD_FILE: &str = "farebox.yml";

/// What scripts may not reach: globals the sandbox takes away, which selene's `luau` library
/// would otherwise let through.
const REMOVED: [&str; 14] = [
    "collectgarbage",
    "coroutine",
    "debug",
    "dofile",
    "gcinfo",
    "getfenv",
    "load",
    "loadfile",
    "loadstring",
    "math.randomseed",
    "newproxy",
    "os",
    "require",
    "setfenv",
];

/// The fields of `data`, as the stubs declare them; the first two are plain strings.
const DATA_FIELDS: [&str; 11] = [
    "id",
    "name",
    "constants",
    "tiles",
    "decks",
    "tables",
    "pieces",
    "counters",
    "zones",
    "options",
    "track_pieces",
];

/// Splits `text` at `sep` where it is not inside brackets of any kind.
fn split_top(text: &str, sep: &str) -> Vec<String> {
    let mut parts = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(sep) => {
                parts.push(text[start..i].trim().to_string());
                i += sep.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(text[start..].trim().to_string());
    parts
}

/// The parameters of one function type "(a: T, b: U?) -> R": (type, optional) each.
fn params_of(sig: &str) -> Vec<(String, bool)> {
    let sig = sig.trim();
    let Some(inner) = sig.strip_prefix('(') else {
        return vec![];
    };
    // The parameter list ends at the bracket that closes the first one.
    let mut depth = 1;
    let mut end = inner.len();
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    split_top(&inner[..end], ",")
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            let ty = p.split_once(':').map_or("any", |(_, t)| t.trim());
            match ty.strip_suffix('?') {
                Some(t) => (t.to_string(), true),
                None => (ty.to_string(), false),
            }
        })
        .collect()
}

/// A Luau type as one of selene's argument types.
fn selene_type(ty: &str) -> &'static str {
    match ty {
        "number" => "number",
        "string" => "string",
        "boolean" => "bool",
        t if t.starts_with('{') && !t.contains('|') => "table",
        _ => "any",
    }
}

/// The arguments selene checks for an API signature: one function type, or several joined by
/// `&` (overloads, as `set_counter` has), merged: an argument is required when every overload
/// has it, and typed when every overload that has it agrees.
fn selene_args(sig: &str) -> Vec<(&'static str, bool)> {
    let overloads: Vec<Vec<(String, bool)>> = split_top(sig, "&")
        .iter()
        .map(|o| {
            let o = o.trim();
            // An overload is written in brackets: "((a: T) -> R) & ((b: U) -> R)".
            match o.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
                Some(inner) if inner.trim_start().starts_with('(') => params_of(inner),
                _ => params_of(o),
            }
        })
        .collect();
    let most = overloads.iter().map(Vec::len).max().unwrap_or(0);
    (0..most)
        .map(|i| {
            let at: Vec<_> = overloads.iter().filter_map(|o| o.get(i)).collect();
            let required = at.len() == overloads.len() && at.iter().all(|(_, opt)| !opt);
            let types: Vec<&str> = at.iter().map(|(t, _)| selene_type(t)).collect();
            let ty = if types.windows(2).all(|w| w[0] == w[1]) {
                types.first().copied().unwrap_or("any")
            } else {
                "any"
            };
            (ty, required)
        })
        .collect()
}

/// A selene standard library for rule scripts and bots: the `game` API with the arguments
/// each function takes, `data` read-only, and what the sandbox takes away marked removed, on
/// top of selene's own `luau` library.
pub fn selene_std() -> String {
    let mut s = String::new();
    s.push_str(
        "# Farebox: a selene standard library for rule scripts and bots.\n\
         # Generated by `farebox schema` from the engine; do not edit by hand.\n\
         # In selene.toml: std = \"schemas/farebox\" (the path of this file, without .yml).\n\
         ---\n\
         base: luau\n\
         name: farebox\n\
         globals:\n",
    );
    let mut entries: Vec<(String, String)> = vec![];
    for (name, sig, _) in API {
        let mut e = String::new();
        let args = selene_args(sig);
        if args.is_empty() {
            e.push_str("    args: []\n");
        } else {
            e.push_str("    args:\n");
            for (ty, required) in args {
                let ty = if ty == "..." { "\"...\"" } else { ty };
                if required {
                    let _ = writeln!(e, "      - type: {ty}");
                } else {
                    let _ = writeln!(e, "      - required: false\n        type: {ty}");
                }
            }
        }
        entries.push((format!("game.{name}"), e));
    }
    for (i, field) in DATA_FIELDS.iter().enumerate() {
        let kind = if i < 2 {
            "    property: read-only\n"
        } else {
            "    any: true\n"
        };
        entries.push((format!("data.{field}"), kind.to_string()));
    }
    for name in REMOVED {
        entries.push((name.to_string(), "    removed: true\n".to_string()));
    }
    entries.sort();
    for (name, body) in entries {
        let _ = writeln!(s, "  {name}:");
        s.push_str(&body);
    }
    s
}

/// Writes every schema and the stubs into `dir`; returns the files written.
pub fn write_all(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (name, text) in json_schemas() {
        let path = dir.join(name);
        crate::source::write_atomic(&path, &text)?;
        written.push(path);
    }
    let path = dir.join(LUA_STUBS_FILE);
    crate::source::write_atomic(&path, &lua_stubs())?;
    written.push(path);
    let path = dir.join(SELENE_STD_FILE);
    crate::source::write_atomic(&path, &selene_std())?;
    written.push(path);
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_types_are_parsed() {
        let (ty, what) = hook_type("actions(game, seat) -> {string}: the legal actions");
        assert_eq!(ty, "(game: Game, seat: number) -> {string}");
        assert_eq!(what, "the legal actions");
        let (ty, _) = hook_type("setup(game): after");
        assert_eq!(ty, "(game: Game) -> ()");
    }

    #[test]
    fn schemas_are_deterministic_json() {
        let a = json_schemas();
        assert_eq!(a.len(), 8);
        assert_eq!(a, json_schemas());
        for (name, text) in &a {
            assert!(text.ends_with('\n'), "{name}");
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_ok(),
                "{name}"
            );
        }
        assert_eq!(lua_stubs(), lua_stubs());
    }

    #[test]
    fn selene_arguments_merge_overloads() {
        assert_eq!(
            selene_args(
                "((id: string, value: number) -> number) & ((id: string, seat: number, value: number) -> number)"
            ),
            vec![("string", true), ("number", true), ("number", false)]
        );
        assert_eq!(
            selene_args("(space: number, tags: {string}?, avoid: {[number]: any}?) -> {number}"),
            vec![("number", true), ("table", false), ("table", false)]
        );
        assert_eq!(selene_args("() -> number"), vec![]);
        assert_eq!(
            selene_args("(name: string, value: any, seat: number?) -> ()"),
            vec![("string", true), ("any", true), ("number", false)]
        );
    }

    #[test]
    fn the_selene_library_lists_every_api_function() {
        let text = selene_std();
        for (name, _, _) in API {
            assert!(text.contains(&format!("\n  game.{name}:\n")), "{name}");
        }
        assert!(text.contains("\n  os:\n    removed: true\n"));
        assert!(text.contains("\n  data.tiles:\n    any: true\n"));
    }

    /// The stubs' types are valid Luau: with each `declare x: T` turned into a local, the file
    /// must compile.
    #[test]
    fn stubs_are_valid_luau() {
        let src = lua_stubs()
            .replace("declare game: Game", "local game: Game = nil :: any")
            .replace("declare data: {", "local data: {");
        let src = src
            .trim_end()
            .strip_suffix('}')
            .map(|s| format!("{s}}} = nil :: any\n"))
            .unwrap_or(src);
        let lua = mlua::Lua::new();
        if let Err(e) = lua.load(&src).into_function() {
            panic!("farebox.d.luau does not parse: {e}\n{src}");
        }
    }
}
