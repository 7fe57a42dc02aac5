//! A script's failure as people read it ([`ScriptError`]): mod, file, line, hook, message and
//! stack, and the helpers that find the line and make the message short and plain.

use std::fmt;

use mlua::Lua;

use super::returns;
use crate::content::def::ScriptDef;

/// A script failed: everything a person needs to find the mistake.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScriptError {
    pub mod_id: String,
    /// File as shown to people, and 1-based line (0 if unknown).
    pub file: String,
    pub line: usize,
    /// The hook (or "load", or "bot <id>") that was running.
    pub hook: String,
    pub message: String,
    /// The stack, and where in a game (boxed: errors are rare, and results that may hold
    /// one are passed around on every call).
    pub context: Box<ErrorContext>,
}

/// Where a script error happened, beyond its file and line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ErrorContext {
    /// The Luau stack when it failed, innermost first: "file:line in function", the mod's
    /// own frames only (not the engine's wrappers or native code).
    pub trace: Vec<String>,
    /// Where in a game it failed: the number of the action being applied or chosen (1 for
    /// the first; 0 during setup), and the game's seed. None outside a game.
    pub action: Option<usize>,
    pub seed: Option<u64>,
    /// When it failed in one of the search bot's playouts at that action, rather than in the
    /// game itself: which playout, and how far it had got.
    pub playout: Option<PlayoutAt>,
}

/// Where in the search bot's thinking a script failed: the playout (1 for the decision's
/// first) and the actions it had taken from the game's real position before the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoutAt {
    /// 0: while asking the playout bot what it would do, before the playouts.
    pub playout: u32,
    pub taken: u32,
}

impl fmt::Display for PlayoutAt {
    /// "in the search bot's playout 3 of that decision, after 5 playout actions".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.playout == 0 {
            return write!(
                f,
                "while the search bot asked its playout bot what it would do there"
            );
        }
        write!(
            f,
            "in the search bot's playout {} of that decision, after {} playout {}",
            self.playout,
            self.taken,
            if self.taken == 1 { "action" } else { "actions" }
        )
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: error: {}", self.file, self.line, self.message)?;
        } else {
            write!(f, "{}: error: {}", self.file, self.message)?;
        }
        write!(f, " (mod `{}`, in {}", self.mod_id, self.hook)?;
        match (self.context.action, self.context.seed) {
            (Some(0), Some(seed)) => write!(f, ", setting up the game with seed {seed}")?,
            (Some(n), Some(seed)) => write!(f, ", at action {n} of the game with seed {seed}")?,
            _ => {}
        }
        if let Some(p) = self.context.playout {
            write!(f, ", {p}")?;
        }
        write!(f, ")")?;
        // One frame says no more than the first line.
        if self.context.trace.len() > 1 {
            for frame in &self.context.trace {
                write!(f, "\n    at {frame}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ScriptError {}

/// The most frames an error keeps: a runaway recursion has thousands.
pub(super) const MAX_FRAMES: usize = 12;

/// At most this many bytes of an error message are kept: a script may raise a string of
/// megabytes.
pub(super) const MAX_MESSAGE: usize = 2000;

pub(super) fn shorten(m: &str) -> String {
    if m.len() <= MAX_MESSAGE {
        return m.to_string();
    }
    // Room for the note of what was cut, so the message stays within the bound.
    let mut end = MAX_MESSAGE - 32;
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes more)", &m[..end], m.len() - end)
}

/// The frames of the Luau code running now, innermost first ("file:line in name"), leaving
/// out native code and the engine's own wrappers.
pub(super) fn stack_now(lua: &Lua) -> Vec<String> {
    let mut out = vec![];
    for level in 0..64 {
        let frame = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                (Some(s), Some(l)) if l > 0 && s != "farebox" && s != "[C]" => {
                    Some(match d.names().name {
                        Some(n) => format!("{s}:{l} in {n}"),
                        None => format!("{s}:{l}"),
                    })
                }
                _ => None,
            }
        });
        match frame {
            None => break,
            Some(Some(f)) if out.len() < MAX_FRAMES => out.push(f),
            Some(_) => {}
        }
    }
    out
}

/// "file:line: " of the Luau code running now, for errors raised from the interrupt.
pub(super) fn where_now(lua: &Lua) -> String {
    for level in 0..4 {
        let found = lua.inspect_stack(level, |d| {
            let src = d.source();
            match (src.short_src, d.current_line()) {
                // The engine's own Luau wrappers are not where a mod's error lies.
                (Some(s), Some(l)) if l > 0 && s != "farebox" => Some(format!("{s}:{l}: ")),
                _ => None,
            }
        });
        if let Some(Some(w)) = found {
            return w;
        }
    }
    String::new()
}

/// Line `line` (1-based) of a script's source.
pub(super) fn source_line(s: &ScriptDef, line: usize) -> Option<&str> {
    s.source.lines().nth(line.checked_sub(1)?)
}

/// A plain-words message for an API call given an argument of the wrong kind ("argument 1 of
/// `game.cell` must be a whole number, not nil"), in place of the binding's conversion error.
/// The function is named when the line calls only one `game` function.
pub(super) fn bad_argument(e: &mlua::Error, line: Option<&str>) -> Option<String> {
    let mut e = e;
    while let mlua::Error::CallbackError { cause, .. } = e {
        e = cause;
    }
    let mlua::Error::BadArgument { pos, cause, .. } = e else {
        return None;
    };
    let mlua::Error::FromLuaConversionError { from, to, .. } = &**cause else {
        return None;
    };
    let want = returns::wanted(to)?;
    let got = returns::got(from, &want);
    // `game:zone("hand")` passes the game table as argument 1: say so, with the fix.
    if let Some(line) = line
        && let Some(at) = line.find("game:")
    {
        let name: String = line[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && line[at + 5 + name.len()..].trim_start().starts_with('(') {
            return Some(format!(
                "`game:{name}(...)` passes the `game` table itself as argument 1 (so argument \
                 {pos} is {got}); call it with a dot: `game.{name}(...)`"
            ));
        }
    }
    let mut called: Vec<&str> = vec![];
    if let Some(line) = line {
        for (at, _) in line.match_indices("game.") {
            let name: String = line[at + 5..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if line[at + 5 + name.len()..].trim_start().starts_with('(')
                && !called.contains(&&line[at..at + 5 + name.len()])
            {
                called.push(&line[at..at + 5 + name.len()]);
            }
        }
    }
    let (of, list) = match called.as_slice() {
        [one] => (format!("`{one}`"), super::api::takes_list(one, *pos)),
        _ => ("the `game` function called here".to_string(), false),
    };
    if list && !to.starts_with("Vec<") && want != "a table" {
        // mlua names the item's type when an item of a list argument is wrong.
        return Some(format!(
            "argument {pos} of {of} must be a list of {}, and an item of it is {got}",
            returns::plural(&want)
        ));
    }
    Some(format!("argument {pos} of {of} must be {want}, not {got}"))
}

/// The message of the error that started it all, without tracebacks.
pub(super) fn innermost(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, .. } => innermost(cause),
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        mlua::Error::SyntaxError { message, .. } => {
            message.lines().next().unwrap_or("").to_string()
        }
        mlua::Error::MemoryError(m) => m.clone(),
        mlua::Error::ExternalError(x) => x.to_string(),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}
