//! The rule hooks a script may return and how several scripts' hooks chain: each hook's
//! place in the chain (plain, before, after), and the menu path an `actions` entry names.

use super::returns;
use mlua::{Function, Value as LuaValue};

/// The hooks a rule script may return, in the order they are documented.
pub const HOOKS: [(&str, &str); 8] = [
    (
        "setup",
        "setup(game): after the engine has built zones, pieces and counters",
    ),
    (
        "actions",
        "actions(game, seat) -> {string}: the legal actions of the seat to act",
    ),
    (
        "apply",
        "apply(game, seat, action): carry out one legal action",
    ),
    (
        "describe",
        "describe(game, seat, action) -> Label: a label for people, or a menu path (optional)",
    ),
    (
        "on_turn_start",
        "on_turn_start(game, seat): at the start of every turn: the first, right after setup, and each time game.end_turn() passes play on",
    ),
    (
        "score",
        "score(game, seat) -> number: the seat's score so far, for display (optional)",
    ),
    (
        "imagine",
        "imagine(game, seat): in a game imagined for a seat's lookahead, set the secret variables it may not know to values it could believe (optional)",
    ),
    (
        "evaluate",
        "evaluate(game, seat) -> number: how well the seat stands in an unfinished game, from 0 (as good as lost) to 1 (as good as won), for the search bot's cut playouts (optional; without it the search reads score, higher better)",
    ),
];

/// One function in a hook's chain, and the script that returned it.
#[derive(Clone)]
pub(super) struct Step {
    pub(super) func: Function,
    pub(super) script: usize,
}

/// How a script takes part in a hook (see [`Host::hook_chain`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookPart {
    /// A `before` hook: runs first and may end the hook.
    Before,
    /// The plain hook that the `before`s and `after`s wrap.
    Base,
    /// An `after` hook: gets the result so far.
    After,
}

/// One step of a hook's chain: which script of which mod gives it, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookStep {
    pub part: HookPart,
    /// The mod the script belongs to.
    pub mod_id: String,
    /// The script's path, relative to its mod folder.
    pub script: String,
    /// The script's place in load order (0 = the first script run): the step with the
    /// highest one was added last.
    pub order: usize,
}

/// How one hook is carried out once every script has had its say. A script's plain hook
/// replaces everything earlier scripts gave for it; its `before` and `after` hooks wrap what
/// is there so far. Flattened, a call runs the `before`s (the latest script's first), the base
/// hook, then the `after`s (the earliest script's first).
#[derive(Default)]
pub(super) struct Chain {
    pub(super) befores: Vec<Step>,
    pub(super) base: Option<Step>,
    pub(super) afters: Vec<Step>,
}

impl Chain {
    pub(super) fn is_empty(&self) -> bool {
        self.base.is_none() && self.befores.is_empty() && self.afters.is_empty()
    }
}

/// How many arguments after `game` each hook of [`HOOKS`] takes; an `after` hook gets the
/// result so far right after them.
pub(super) const HOOK_ARGS: [usize; 8] = [0, 1, 2, 2, 1, 1, 1, 1];

/// Where a script's return table puts hooks that wrap, rather than replace, earlier ones.
pub(super) const WRAPS: [&str; 2] = ["before", "after"];

pub(super) fn hook_index(name: &str) -> Option<usize> {
    HOOKS.iter().position(|(h, _)| *h == name)
}

/// What a `describe` hook returned for `action`, as a menu path: a string is a path of one
/// part; a list must hold one or more strings (items 1..n, nothing else). Empty labels or
/// parts are refused, since people could not tell them apart. The error says what was wrong.
pub(super) fn menu_path(v: &LuaValue, action: &str) -> Result<Vec<String>, String> {
    const WANT: &str = "it must return a label: a string, or a list of strings (a menu path)";
    let what = returns::what;
    let text = |v: &LuaValue| -> Option<String> {
        match v {
            LuaValue::String(s) => Some(s.to_string_lossy()),
            _ => None,
        }
    };
    let returned = |x: &str| format!("describe returned {x} for the action `{action}`");
    match v {
        LuaValue::String(_) => {
            let s = text(v).unwrap_or_default();
            if s.trim().is_empty() {
                return Err(format!("{}; {WANT}", returned("an empty label")));
            }
            Ok(vec![s])
        }
        LuaValue::Table(t) => {
            let n = t.raw_len();
            let mut keys = 0usize;
            for pair in t.clone().pairs::<LuaValue, LuaValue>() {
                if pair.is_err() {
                    return Err(format!("{}; {WANT}", returned(&what(v))));
                }
                keys += 1;
            }
            if n == 0 && keys == 0 {
                return Err(format!("{}; {WANT}", returned("an empty list")));
            }
            if keys != n {
                return Err(format!(
                    "{}, with keys other than 1, 2, 3...; {WANT}",
                    returned("a table")
                ));
            }
            let mut out = Vec::with_capacity(n);
            for i in 1..=n {
                let item: LuaValue = t.raw_get(i).unwrap_or(LuaValue::Nil);
                match text(&item) {
                    Some(s) if !s.trim().is_empty() => out.push(s),
                    Some(_) => {
                        return Err(format!(
                            "{} whose part {i} is an empty string; each part of a menu path must say something",
                            returned("a menu path")
                        ));
                    }
                    None => {
                        return Err(format!(
                            "{} whose part {i} is {}, not a string",
                            returned("a menu path"),
                            what(&item)
                        ));
                    }
                }
            }
            Ok(out)
        }
        other => Err(format!("{}; {WANT}", returned(&what(other)))),
    }
}
