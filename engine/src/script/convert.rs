//! Values between Rust and Luau, and the read-only `data` table of a mod's content.

use mlua::{Lua, Table, Value as LuaValue};

use crate::content::GameDef;
use crate::value::Value;

pub fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Num(n) => LuaValue::Number(*n),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::List(l) => {
            let t = lua.create_table_with_capacity(l.len(), 0)?;
            for (i, x) in l.iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, x)?)?;
            }
            LuaValue::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, x) in m {
                t.raw_set(k.as_str(), to_lua(lua, x)?)?;
            }
            LuaValue::Table(t)
        }
    })
}

/// How deep a value from a script may nest (tables in tables).
pub const MAX_DEPTH: usize = 64;
/// How many tables and values one value from a script may hold, counted as copied: a
/// subtable the value refers to twice counts twice.
pub const MAX_NODES: usize = 100_000;
/// How much text (strings and keys, in bytes) one value from a script may hold.
pub const MAX_TEXT: usize = 4 << 20;

/// What is left of the limits while one value is converted.
struct Budget {
    nodes: usize,
    text: usize,
}

impl Budget {
    fn node(&mut self) -> Result<(), String> {
        if self.nodes == 0 {
            return Err(too_large());
        }
        self.nodes -= 1;
        Ok(())
    }

    fn text(&mut self, bytes: usize) -> Result<(), String> {
        if bytes > self.text {
            return Err(too_large());
        }
        self.text -= bytes;
        Ok(())
    }
}

fn too_large() -> String {
    format!(
        "the value is too large: the game state takes at most {MAX_NODES} tables and values, \
         and {} MiB of text, in one value (a table that holds the same subtable many times \
         counts each)",
        MAX_TEXT >> 20
    )
}

/// Lua -> Value. Tables with keys 1..n become lists, others maps with string keys. Refused
/// beyond [`MAX_DEPTH`] levels, [`MAX_NODES`] tables and values or [`MAX_TEXT`] bytes of text,
/// so a value built to expand when copied (the same subtable held many times, at every level)
/// stops within those bounds.
pub fn from_lua(v: &LuaValue) -> Result<Value, String> {
    let mut budget = Budget {
        nodes: MAX_NODES,
        text: MAX_TEXT,
    };
    convert(v, 0, &mut budget)
}

fn convert(v: &LuaValue, depth: usize, budget: &mut Budget) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "the value is nested too deeply: at most {MAX_DEPTH} levels of tables (or it \
             refers to itself)"
        ));
    }
    budget.node()?;
    Ok(match v {
        LuaValue::Nil => Value::Nil,
        LuaValue::Boolean(b) => Value::Bool(*b),
        LuaValue::Integer(i) => Value::Int(*i),
        LuaValue::Number(n) => {
            if n.fract() == 0.0 && n.abs() < 9.0e15 {
                Value::Int(*n as i64)
            } else {
                Value::Num(*n)
            }
        }
        LuaValue::String(s) => {
            let b = s.as_bytes();
            budget.text(b.len())?;
            Value::Str(
                std::str::from_utf8(&b)
                    .map_err(|_| "strings must be UTF-8")?
                    .to_string(),
            )
        }
        LuaValue::Table(t) => {
            let n = t.raw_len();
            let mut count = 0usize;
            let mut map = std::collections::BTreeMap::new();
            for pair in t.clone().pairs::<LuaValue, LuaValue>() {
                let (k, x) =
                    pair.map_err(|_| "a table in the value could not be read".to_string())?;
                count += 1;
                let key = match &k {
                    LuaValue::String(s) => {
                        let b = s.as_bytes();
                        budget.text(b.len())?;
                        std::str::from_utf8(&b)
                            .map_err(|_| "keys must be UTF-8")?
                            .to_string()
                    }
                    LuaValue::Integer(i) => i.to_string(),
                    LuaValue::Number(n) => n.to_string(),
                    other => {
                        return Err(format!(
                            "table keys must be strings or numbers, not {}",
                            super::returns::what(other)
                        ));
                    }
                };
                map.insert(key, convert(&x, depth + 1, budget)?);
            }
            if count == n && n > 0 {
                let mut list = Vec::with_capacity(n);
                for i in 1..=n {
                    list.push(map.remove(&i.to_string()).unwrap_or(Value::Nil));
                }
                Value::List(list)
            } else {
                Value::Map(map)
            }
        }
        other => {
            return Err(format!(
                "the game state cannot hold {}",
                super::returns::what(other)
            ));
        }
    })
}

fn map_table(lua: &Lua, entries: Vec<(&str, Value)>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for (k, v) in entries {
        t.raw_set(k, to_lua(lua, &v)?)?;
    }
    Ok(t)
}

fn strings(v: &[String]) -> Value {
    Value::List(v.iter().map(|s| Value::Str(s.clone())).collect())
}

/// The `data` global: constants, tiles, decks (cards by id and in order), tables, pieces.
/// Frozen, so scripts cannot change content.
pub fn content_table(lua: &Lua, def: &GameDef) -> mlua::Result<Table> {
    let data = lua.create_table()?;
    data.raw_set("id", def.id.as_str())?;
    data.raw_set("name", def.name.as_str())?;
    let constants = lua.create_table()?;
    for (k, v) in &def.constants {
        constants.raw_set(k.as_str(), to_lua(lua, v)?)?;
    }
    data.raw_set("constants", constants)?;

    data.raw_set("tiles", tiles_table(lua, def)?)?;

    data.raw_set("decks", decks_table(lua, def)?)?;

    let tables = lua.create_table()?;
    for t in &def.tables {
        let tt = lua.create_table()?;
        tt.raw_set("id", t.id.as_str())?;
        let rows = lua.create_table()?;
        let by_key = lua.create_table()?;
        for (i, r) in t.rows.iter().enumerate() {
            let rt = to_lua(lua, &Value::Map(r.clone()))?;
            rows.raw_set(i + 1, rt.clone())?;
            if let Some(k) = t.key.as_ref().and_then(|k| r.get(k)) {
                by_key.raw_set(to_lua(lua, k)?, rt)?;
            }
        }
        tt.raw_set("rows", rows)?;
        tt.raw_set("by_key", by_key)?;
        tables.raw_set(t.id.as_str(), tt)?;
    }
    data.raw_set("tables", tables)?;

    data.raw_set("pieces", pieces_table(lua, def)?)?;

    // Counters, zones and options by id, so that a game can ask what a house rule left in.
    let opt = |v: Option<i64>| v.map_or(Value::Nil, Value::Int);
    let scope = |s: crate::content::def::Scope| {
        Value::Str(
            match s {
                crate::content::def::Scope::Seat => "seat",
                crate::content::def::Scope::Global => "global",
            }
            .into(),
        )
    };
    let counters = lua.create_table()?;
    for c in &def.counters {
        let ct = map_table(
            lua,
            vec![
                ("id", Value::Str(c.id.clone())),
                ("name", Value::Str(c.name.clone())),
                ("scope", scope(c.scope)),
                ("initial", Value::Int(c.initial)),
                ("min", opt(c.min)),
                ("max", opt(c.max)),
            ],
        )?;
        counters.raw_set(c.id.as_str(), ct)?;
    }
    data.raw_set("counters", counters)?;
    let zones = lua.create_table()?;
    for z in &def.zones {
        let visibility = match z.visibility {
            crate::content::def::Visibility::Public => "public",
            crate::content::def::Visibility::Owner => "owner",
            crate::content::def::Visibility::Hidden => "hidden",
            crate::content::def::Visibility::Top => "top",
        };
        let zt = map_table(
            lua,
            vec![
                ("id", Value::Str(z.id.clone())),
                ("name", Value::Str(z.name.clone())),
                ("per_seat", Value::Bool(z.per_seat)),
                ("visibility", Value::Str(visibility.into())),
                (
                    "deck",
                    z.deck
                        .and_then(|d| def.decks.get(d))
                        .map_or(Value::Nil, |d| Value::Str(d.id.clone())),
                ),
            ],
        )?;
        zones.raw_set(z.id.as_str(), zt)?;
    }
    data.raw_set("zones", zones)?;
    let options = lua.create_table()?;
    for o in &def.options {
        let kind = match o.kind {
            crate::content::def::OptionType::Int => "int",
            crate::content::def::OptionType::Bool => "bool",
            crate::content::def::OptionType::Choice => "choice",
        };
        let ot = map_table(
            lua,
            vec![
                ("id", Value::Str(o.id.clone())),
                ("label", Value::Str(o.label.clone())),
                ("type", Value::Str(kind.into())),
                ("default", o.default.clone()),
                ("min", opt(o.min)),
                ("max", opt(o.max)),
                (
                    "choices",
                    Value::List(
                        o.choices
                            .iter()
                            .map(|(id, _)| Value::Str(id.clone()))
                            .collect(),
                    ),
                ),
            ],
        )?;
        options.raw_set(o.id.as_str(), ot)?;
    }
    data.raw_set("options", options)?;

    data.raw_set("track_pieces", track_pieces_table(lua, def)?)?;
    strict(lua, &data, "data", &["id", "name"])?;
    if let Ok(constants) = data.raw_get::<Table>("constants") {
        strict(lua, &constants, "data.constants", &[])?;
    }
    freeze(&data);
    Ok(data)
}

/// `data.tiles`.
fn tiles_table(lua: &Lua, def: &GameDef) -> mlua::Result<Table> {
    let tiles = lua.create_table()?;
    for t in &def.tiles {
        let tt = map_table(
            lua,
            vec![
                ("id", Value::Str(t.id.clone())),
                ("name", Value::Str(t.name.clone())),
                ("text", Value::Str(t.text.clone())),
                ("move_cost", Value::Int(t.move_cost as i64)),
                ("rotatable", Value::Bool(t.rotatable)),
                ("blocks", Value::Bool(t.blocks)),
                ("tags", strings(&t.tags)),
                ("props", Value::Map(t.props.clone())),
                ("roads", Value::Bool(t.links.iter().any(|l| *l != 0))),
                (
                    "open",
                    side_lists(t, |l| {
                        l.iter()
                            .enumerate()
                            .fold(0u8, |a, (i, m)| a | m | if *m != 0 { 1 << i } else { 0 })
                    }),
                ),
                ("exits", side_lists(t, |l| l.iter().fold(0u8, |a, m| a | m))),
                (
                    "entries",
                    side_lists(t, |l| {
                        l.iter()
                            .enumerate()
                            .fold(0u8, |a, (i, m)| if *m != 0 { a | 1 << i } else { a })
                    }),
                ),
                (
                    "rotations",
                    Value::List(
                        t.distinct_rotations()
                            .into_iter()
                            .map(|r| Value::Int(r as i64))
                            .collect(),
                    ),
                ),
            ],
        )?;
        tiles.raw_set(t.id.as_str(), tt)?;
    }
    Ok(tiles)
}

/// `data.decks`.
fn decks_table(lua: &Lua, def: &GameDef) -> mlua::Result<Table> {
    let decks = lua.create_table()?;
    for d in &def.decks {
        let dt = lua.create_table()?;
        dt.raw_set("id", d.id.as_str())?;
        dt.raw_set("name", d.name.as_str())?;
        let by_id = lua.create_table()?;
        let order = lua.create_table()?;
        for (i, c) in d.cards.iter().enumerate() {
            let ct = lua.create_table()?;
            ct.raw_set("id", c.id.as_str())?;
            ct.raw_set("name", c.name.as_str())?;
            ct.raw_set("text", c.text.as_str())?;
            ct.raw_set("count", c.count)?;
            ct.raw_set("tags", to_lua(lua, &strings(&c.tags))?)?;
            for (k, v) in &c.fields {
                ct.raw_set(k.as_str(), to_lua(lua, v)?)?;
            }
            ct.set_readonly(true);
            by_id.raw_set(c.id.as_str(), ct.clone())?;
            order.raw_set(i + 1, ct)?;
        }
        dt.raw_set("cards", by_id)?;
        dt.raw_set("list", order)?;
        decks.raw_set(d.id.as_str(), dt)?;
    }
    Ok(decks)
}

/// `data.pieces`.
fn pieces_table(lua: &Lua, def: &GameDef) -> mlua::Result<Table> {
    let pieces = lua.create_table()?;
    for p in &def.pieces {
        let pt = map_table(
            lua,
            vec![
                ("id", Value::Str(p.id.clone())),
                ("name", Value::Str(p.name.clone())),
                ("count", Value::Int(p.count as i64)),
                ("per_seat", Value::Bool(p.per_seat)),
                ("tags", strings(&p.tags)),
                ("props", Value::Map(p.props.clone())),
            ],
        )?;
        pieces.raw_set(p.id.as_str(), pt)?;
    }
    Ok(pieces)
}

/// `data.track_pieces`: a track board's pieces by id, in the order the board file lists them.
fn track_pieces_table(lua: &Lua, def: &GameDef) -> mlua::Result<Table> {
    let track = lua.create_table()?;
    if let crate::content::def::BoardDef::Track(t) = &def.board {
        for p in &t.pieces {
            let role = match p.role {
                crate::content::raw::TrackRole::Start => "start",
                crate::content::raw::TrackRole::Finish => "finish",
                crate::content::raw::TrackRole::Normal => "normal",
            };
            let gates = p
                .gates
                .iter()
                .map(|(lanes, size)| {
                    Value::Map(
                        [
                            (
                                "lanes".to_string(),
                                Value::List(lanes.iter().map(|l| Value::Int(*l as i64)).collect()),
                            ),
                            ("size".to_string(), Value::Int(*size as i64)),
                        ]
                        .into_iter()
                        .collect(),
                    )
                })
                .collect();
            let pt = map_table(
                lua,
                vec![
                    ("id", Value::Str(p.id.clone())),
                    ("name", Value::Str(p.name.clone())),
                    ("role", Value::Str(role.into())),
                    ("lanes", Value::Int(p.lanes as i64)),
                    ("rows", Value::Int(p.rows as i64)),
                    ("turn", Value::Int(p.turn as i64)),
                    ("gates", Value::List(gates)),
                    ("tags", strings(&p.tags)),
                    ("props", Value::Map(p.props.clone())),
                ],
            )?;
            track.raw_set(p.id.as_str(), pt)?;
        }
    }
    Ok(track)
}

/// Reading a key `t` does not hold is an error naming the key and the nearest one it does
/// hold, instead of a nil the rules go on with (`C.wild_colour` for `wild_color`). A key that
/// may be missing on purpose is read with `rawget`. Keys present are found without the
/// metatable, so this costs nothing on the way that works.
fn strict(lua: &Lua, t: &Table, name: &'static str, also: &[&str]) -> mlua::Result<()> {
    let mut keys: Vec<String> = t
        .clone()
        .pairs::<LuaValue, LuaValue>()
        .filter_map(|kv| kv.ok())
        .filter_map(|(k, _)| {
            k.as_string()
                .and_then(|s| s.to_str().ok().map(|s| s.to_string()))
        })
        .collect();
    keys.extend(also.iter().map(|k| (*k).to_string()));
    keys.sort();
    let index = lua.create_function(move |_, (_t, key): (LuaValue, LuaValue)| {
        let shown = match &key {
            LuaValue::String(s) => s.to_string_lossy().chars().take(64).collect::<String>(),
            other => format!("({})", other.type_name()),
        };
        let near = crate::diag::suggestion(&shown, keys.iter().map(String::as_str));
        Err::<(), _>(mlua::Error::runtime(format!(
            "{name} has no `{shown}`{near} (read a key that may be missing with rawget({name}, \
             \"{shown}\"))"
        )))
    })?;
    let mt = lua.create_table()?;
    mt.raw_set("__index", index)?;
    mt.raw_set("__metatable", false)?;
    t.set_metatable(Some(mt))?;
    Ok(())
}

/// For each quarter turn 0..3 of a tile, the sides (as "NES"-style strings) picked out of its
/// turned links by `mask`.
fn side_lists(t: &crate::content::def::TileDef, mask: impl Fn(&[u8; 4]) -> u8) -> Value {
    Value::List(
        (0..4u8)
            .map(|r| {
                let m = mask(&t.links_turned(r));
                Value::Str(
                    crate::content::def::Side::ALL
                        .iter()
                        .filter(|s| m & (1 << s.index()) != 0)
                        .map(|s| s.letter())
                        .collect(),
                )
            })
            .collect(),
    )
}

/// Makes `t` and every table reachable from it read-only, however deep (each table once,
/// so shared subtables cost nothing more).
fn freeze(t: &Table) {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![t.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(t.to_pointer() as usize) {
            continue;
        }
        if let Ok(pairs) = t
            .clone()
            .pairs::<LuaValue, LuaValue>()
            .collect::<mlua::Result<Vec<_>>>()
        {
            for (k, v) in pairs {
                for x in [k, v] {
                    if let LuaValue::Table(inner) = x {
                        stack.push(inner);
                    }
                }
            }
        }
        t.set_readonly(true);
    }
}
