//! The debug channel: what scripts `print`, for their authors only.
//!
//! `print` is always there, so a script behaves the same whether anyone listens: it returns
//! nothing, changes nothing, and costs the same steps of the budget either way (its work is
//! native and never charged). Only when a [`DebugSink`] is set (the command line's `--debug`,
//! the Studio's Printed panel) are its arguments turned into text and handed over, with the
//! file, line and function that printed. Nothing printed goes into the game's state, its log
//! or a replay, so printing cannot change a game or show a seat anything.
//!
//! Values are written by the engine itself, never by a `__tostring` metamethod (that would
//! run script code, and steps, only when someone listens).

use std::fmt::Write as _;
use std::sync::{Arc, RwLock};

use mlua::{Lua, MultiValue, Table, Value as LuaValue};

/// One line a script printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugLine {
    /// The script and line that printed ("rules/main.luau"), and the function, if named.
    pub file: String,
    pub line: usize,
    pub function: Option<String>,
    /// The number of the action being applied or chosen (1 for the first, 0 during setup),
    /// and the game's seed, when printed in a game.
    pub action: Option<usize>,
    pub seed: Option<u64>,
    /// What was printed: the arguments as text, separated by tabs, control characters other
    /// than tab and line breaks escaped, at most [`MAX_PRINTED`] bytes.
    pub text: String,
}

impl DebugLine {
    /// "seed 5, action 12, rules/main.luau:40 in score: text".
    pub fn heading(&self) -> String {
        let mut s = String::new();
        if let Some(seed) = self.seed {
            let _ = write!(s, "seed {seed}, ");
        }
        match self.action {
            Some(0) => s.push_str("setup, "),
            Some(n) => {
                let _ = write!(s, "action {n}, ");
            }
            None => {}
        }
        let _ = write!(s, "{}:{}", self.file, self.line);
        if let Some(f) = &self.function {
            let _ = write!(s, " in {f}");
        }
        s
    }
}

/// Where printed lines go. Called on the thread that runs the game (several at once in a
/// simulation on many threads), so it must be cheap and may not block for long.
pub type DebugSink = Arc<dyn Fn(DebugLine) + Send + Sync>;

/// The sink every VM made from now on starts with (see [`listen`]).
static LISTENER: RwLock<Option<DebugSink>> = RwLock::new(None);

/// Sends what the scripts of every VM made from now on `print` to `sink` (None: nowhere,
/// the default): the command line's `--debug`, the Studio's Printed panel. A VM can be given
/// its own with [`super::Host::set_debug`].
pub fn listen(sink: Option<DebugSink>) {
    if let Ok(mut l) = LISTENER.write() {
        *l = sink;
    }
}

/// The sink set by [`listen`], if any.
pub(super) fn listener() -> Option<DebugSink> {
    LISTENER.read().ok().and_then(|l| l.clone())
}

/// The longest text one `print` hands over, in bytes; past it the text is cut with "…".
pub const MAX_PRINTED: usize = 4000;

/// How deep tables are written, and how many entries of each.
const TABLE_DEPTH: usize = 2;
const TABLE_ITEMS: usize = 16;

/// The VM's app data: the sink, and where in a game the running call is (set by the game
/// before each call that may print; see [`Slot::at`]).
#[derive(Default)]
pub(super) struct Slot {
    pub sink: Option<DebugSink>,
    pub seed: Option<u64>,
    pub action: Option<usize>,
}

/// Installs `print` in the globals `g`.
pub(super) fn install(lua: &Lua, g: &Table) -> mlua::Result<()> {
    lua.set_app_data(Slot::default());
    let print = lua.create_function(|lua, args: MultiValue| {
        let Some(slot) = lua.app_data_ref::<Slot>() else {
            return Ok(());
        };
        let Some(sink) = slot.sink.clone() else {
            return Ok(());
        };
        let (seed, action) = (slot.seed, slot.action);
        drop(slot);
        let (file, line, function) = caller(lua);
        let text = if args.is_empty() {
            String::new()
        } else {
            show(&args)
        };
        sink(DebugLine {
            file,
            line,
            function,
            action,
            seed,
            text,
        });
        Ok(())
    })?;
    g.raw_set("print", print)
}

/// Values as `print` writes them, separated by tabs; "nil" for none.
pub fn show(values: &MultiValue) -> String {
    if values.is_empty() {
        return "nil".into();
    }
    let mut text = String::new();
    for (i, v) in values.iter().enumerate() {
        if text.len() > MAX_PRINTED {
            break;
        }
        if i > 0 {
            text.push('\t');
        }
        write_value(&mut text, v, 0);
    }
    clean(&text)
}

/// The script frame that called `print`: file, line and function name.
fn caller(lua: &Lua) -> (String, usize, Option<String>) {
    for level in 0..4 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                (Some(s), Some(l)) if l > 0 && s != "farebox" && s != "[C]" => {
                    Some((s.to_string(), l, d.names().name.map(|n| n.to_string())))
                }
                _ => None,
            }
        });
        if let Some(Some(f)) = found {
            return f;
        }
    }
    ("?".into(), 0, None)
}

/// Writes `v` as a person reads it: strings as they are, numbers as Luau writes them,
/// tables as `{key = value, ...}` to a small depth.
fn write_value(out: &mut String, v: &LuaValue, depth: usize) {
    match v {
        LuaValue::Nil => out.push_str("nil"),
        LuaValue::Boolean(b) => {
            let _ = write!(out, "{b}");
        }
        LuaValue::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        LuaValue::Number(n) => write_number(out, *n),
        LuaValue::String(s) => {
            let s = s.to_string_lossy();
            out.push_str(cut(&s, MAX_PRINTED));
        }
        LuaValue::Table(t) if depth < TABLE_DEPTH => write_table(out, t, depth),
        LuaValue::Table(_) => out.push_str("{...}"),
        LuaValue::Vector(v) => {
            let _ = write!(out, "vector({}, {}, {})", v.x(), v.y(), v.z());
        }
        LuaValue::Buffer(b) => {
            let _ = write!(out, "buffer({} bytes)", b.len());
        }
        other => out.push_str(other.type_name()),
    }
}

fn write_number(out: &mut String, n: f64) {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        let _ = write!(out, "{}", n as i64);
    } else if n.is_nan() {
        out.push_str("nan");
    } else if n.is_infinite() {
        out.push_str(if n > 0.0 { "inf" } else { "-inf" });
    } else {
        let _ = write!(out, "{n}");
    }
}

/// A list as `{a, b, c}`, anything else as `{key = value, ...}`, keys in the order Luau
/// gives them; at most [`TABLE_ITEMS`] entries, then "...".
fn write_table(out: &mut String, t: &Table, depth: usize) {
    out.push('{');
    let len = t.raw_len();
    let mut more = false;
    for (n, pair) in t.clone().pairs::<LuaValue, LuaValue>().enumerate() {
        let Ok((k, v)) = pair else { break };
        if n == TABLE_ITEMS || out.len() > MAX_PRINTED {
            more = true;
            break;
        }
        if n > 0 {
            out.push_str(", ");
        }
        let listed = matches!(k, LuaValue::Integer(i) if i >= 1 && (i as usize) <= len);
        if !listed {
            match &k {
                LuaValue::String(s) => out.push_str(cut(&s.to_string_lossy(), 100)),
                other => {
                    out.push('[');
                    write_value(out, other, TABLE_DEPTH);
                    out.push(']');
                }
            }
            out.push_str(" = ");
        }
        write_value(out, &v, depth + 1);
    }
    if more {
        out.push_str(", ...");
    }
    out.push('}');
}

/// `s` cut to at most `max` bytes at a character boundary.
fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Control characters other than tab and line breaks escaped, cut to [`MAX_PRINTED`].
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_PRINTED + 4));
    for c in text.chars() {
        if out.len() >= MAX_PRINTED {
            out.push('…');
            break;
        }
        match c {
            '\t' | '\n' => out.push(c),
            c if c.is_control() => {
                let _ = write!(out, "{}", c.escape_default());
            }
            c => out.push(c),
        }
    }
    out
}
