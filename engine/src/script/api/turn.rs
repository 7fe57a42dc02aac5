//! Seats and turns, the end of the game, the log and randomness: `game.seats` to
//! `game.random`, with `math.random` and the check behind `game.try` and `game.undo`.

use mlua::{Lua, MultiValue, Table, Value as LuaValue};

use super::{R, err, room_for, seat_arg, text, with, with_mut, with_tables};
use crate::script::Access;
use crate::script::convert::to_lua;
use crate::state::{Footprint, GameResult, LogEntry, Seen};
use crate::value::Value;

/// The longest line `game.log` takes, in bytes, and the most lines a game's log may hold.
pub const MAX_LOG_LINE: usize = 4000;
pub const MAX_LOG_LINES: usize = 100_000;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    ("seats", "() -> number", "Number of seats in this game."),
    ("active", "() -> number", "The seat whose turn it is."),
    (
        "viewer",
        "() -> number?",
        "The seat this call reads the game as: the seat a bot or the actions hook chooses for, or the acting seat's own label in describe. Nil when describe makes the public label (everyone else reads it) and in the rules, which see everything.",
    ),
    (
        "turn",
        "() -> number",
        "Turns started so far; the first turn is 1.",
    ),
    (
        "seat_name",
        "(seat: number) -> string",
        "Display name of a seat.",
    ),
    (
        "option",
        "(id: string) -> any",
        "Value of a game option chosen at setup.",
    ),
    (
        "end_turn",
        "() -> number",
        "Pass play to the next seat; on_turn_start runs after the current hook. Returns the new seat.",
    ),
    (
        "set_active",
        "(seat: number) -> ()",
        "Give the turn to a seat without starting a new turn.",
    ),
    (
        "finish",
        "(places: {number}, scores: {number}, reason: string) -> ()",
        "End the game: place of each seat (1 = first, ties share), scores, and why.",
    ),
    (
        "try",
        "(action: string) -> boolean",
        "Bots only, to look ahead: apply `action` as if it were taken (false, and nothing changes, if it is not legal now). Until game.undo, every read sees the game after it, still as the bot's seat sees it; tries stack. Whatever is still tried when choose returns is undone. At most 2,000 tries per choose, within its step budget.",
    ),
    (
        "undo",
        "() -> boolean",
        "Bots only: take back the latest game.try (false if there is none).",
    ),
    (
        "finish_together",
        "(won: boolean, score: number, reason: string) -> ()",
        "End a cooperative game: the whole table wins (every seat first) or loses (nobody first), with one shared score.",
    ),
    (
        "result",
        "() -> {places: {number}, scores: {number}, reason: string, together: boolean?}?",
        "How the game ended (nil while it goes on): each seat's place (1 = first) and score, and why. A bot reads it after a game.try that ends the game.",
    ),
    (
        "is_over",
        "() -> boolean",
        "Whether finish has been called.",
    ),
    (
        "log",
        "(text: string, seat: number?) -> ()",
        "Add a line to the log; with a seat, only that seat sees it.",
    ),
    (
        "roll",
        "(sides: number) -> number",
        "Roll a die with this many sides (seeded).",
    ),
    (
        "random",
        "(n: number) -> number",
        "A random whole number from 1 to n (seeded).",
    ),
];

// One piece: the turn and seat functions of the `game` API, one `reg!` per function in the
// order of `API` above; each entry stands alone.
pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(lua, t, "seats", |_, ()| with(|c| Ok(c.state.seats as i64)));
    reg!(lua, t, "active", |_, ()| with(|c| Ok(c.state.active
        as i64
        + 1)));
    reg!(lua, t, "viewer", |_, ()| with(|c| Ok(match c.access {
        Access::Seat(Some(s)) => Some(s as i64 + 1),
        _ => None,
    })));
    reg!(lua, t, "turn", |_, ()| with(|c| Ok(c.state.turn as i64)));
    reg!(lua, t, "seat_name", |lua, seat: i64| {
        let name = with(|c| {
            let s = seat_arg(c, Some(seat))?.unwrap_or(0);
            Ok(c.def.seat_name(s as usize))
        })?;
        text(lua, Some(name))
    });
    reg!(lua, t, "option", |lua, id: String| with_tables(lua, |c| {
        match c.state.options.get(&*id) {
            Some(v) => to_lua(lua, v),
            None => err(format!(
                "no option `{id}`{}",
                crate::diag::suggestion(&id, c.def.options.iter().map(|o| o.id.as_str()))
            )),
        }
    }));
    reg!(lua, t, "end_turn", |_, ()| with_mut("end_turn", |c| {
        let s = &mut c.state;
        s.active = (s.active + 1) % s.seats.max(1);
        s.turn += 1;
        s.pending_turn_start = true;
        Ok(s.active as i64 + 1)
    }));
    reg!(lua, t, "set_active", |_, seat: i64| with_mut(
        "set_active",
        |c| {
            let s = seat_arg(c, Some(seat))?.unwrap_or(0);
            c.state.active = s;
            Ok(())
        }
    ));
    reg!(lua, t, "finish", |_,
                            (places, scores, reason): (
        Vec<i64>,
        Vec<i64>,
        String
    )| with_mut("finish", |c| {
        reason_fits(&reason)?;
        let n = c.state.seats as usize;
        if places.len() != n || scores.len() != n {
            return err(format!(
                "finish needs a place and a score for each of the {n} seats"
            ));
        }
        if places.iter().any(|&p| p < 1 || p > n as i64) {
            return err("places run from 1 (first) to the number of seats");
        }
        c.state.result = Some(GameResult {
            places: places.iter().map(|&p| p as u32).collect(),
            scores,
            reason,
            together: None,
        });
        Ok(())
    }));
    reg!(lua, t, "finish_together", |_,
                                     (won, score, reason): (
        bool,
        i64,
        String
    )| with_mut(
        "finish_together",
        |c| {
            reason_fits(&reason)?;
            let n = c.state.seats as u32;
            c.state.result = Some(GameResult {
                places: vec![if won { 1 } else { n }; n as usize],
                scores: vec![score; n as usize],
                reason,
                together: Some(won),
            });
            Ok(())
        }
    ));
    reg!(lua, t, "result", |lua, ()| with_tables(lua, |c| {
        let Some(r) = &c.state.result else {
            return Ok(LuaValue::Nil);
        };
        let mut m = std::collections::BTreeMap::new();
        m.insert(
            "places".to_string(),
            Value::List(r.places.iter().map(|p| Value::Int(*p as i64)).collect()),
        );
        m.insert(
            "scores".to_string(),
            Value::List(r.scores.iter().map(|s| Value::Int(*s)).collect()),
        );
        m.insert("reason".to_string(), Value::Str(r.reason.clone()));
        if let Some(t) = r.together {
            m.insert("together".to_string(), Value::Bool(t));
        }
        to_lua(lua, &Value::Map(m))
    }));
    reg!(lua, t, "is_over", |_, ()| with(|c| Ok(c
        .state
        .result
        .is_some())));
    reg!(lua, t, "log", |lua, (text, seat): (String, Option<i64>)| {
        with_mut("log", |c| {
            if text.len() > MAX_LOG_LINE {
                return err(format!(
                    "game.log: a line of {} bytes is too long (at most {MAX_LOG_LINE})",
                    text.len()
                ));
            }
            if c.log.len() >= MAX_LOG_LINES {
                return err(format!("game.log: the log is full ({MAX_LOG_LINES} lines)"));
            }
            let seen = match seat_arg(c, seat)? {
                Some(s) => Seen::Seat(s),
                None => Seen::All,
            };
            let (turn, active) = (c.state.turn, c.state.active);
            let line = LogEntry {
                turn,
                seat: Some(active),
                text: text.into(),
                seen,
            };
            room_for(lua, c, line.footprint())?;
            c.log.push(line);
            Ok(())
        })
    });
    reg!(lua, t, "roll", |_, sides: i64| with_mut("roll", |c| {
        if !(1..=1000).contains(&sides) {
            return err("a die has 1 to 1000 sides");
        }
        Ok(c.state.rng.roll(sides as u32) as i64)
    }));
    reg!(lua, t, "random", |_, n: i64| with(|c| {
        if n < 1 {
            return err("game.random(n) needs n >= 1");
        }
        let rng = if c.access.read_only() {
            &mut c.bot_rng
        } else {
            &mut c.state.rng
        };
        Ok(rng.range(1, n))
    }));
    Ok(())
}

/// A game's ending reason is shown like a log line, and held to the same length.
fn reason_fits(reason: &str) -> R<()> {
    if reason.len() > MAX_LOG_LINE {
        return err(format!(
            "the reason a game ended is {} bytes long; at most {MAX_LOG_LINE}",
            reason.len()
        ));
    }
    Ok(())
}

/// Called by `game.try` and `game.undo` before they stop the bot: they work only in a bot's
/// `choose` (run as a coroutine), and `try` needs an action.
pub fn check_lookahead(_lua: &Lua, (what, action): (String, LuaValue)) -> R<()> {
    with(|c| {
        if !c.lookahead {
            return err(format!(
                "game.{what} can be used only in a bot's choose, to look ahead"
            ));
        }
        if what == "try" && !matches!(action, LuaValue::String(_)) {
            return err(format!(
                "game.try needs an action (a string), not {}",
                action.type_name()
            ));
        }
        Ok(())
    })
}

/// `math.random` with the engine's generator: (), (n) or (m, n), as in Lua.
pub fn math_random(_lua: &Lua, args: MultiValue) -> R<LuaValue> {
    let nums: Vec<i64> = args
        .iter()
        .filter_map(|v| v.as_integer().or_else(|| v.as_number().map(|n| n as i64)))
        .collect();
    with(|ctx| {
        let rng = if ctx.access.read_only() {
            &mut ctx.bot_rng
        } else {
            &mut ctx.state.rng
        };
        Ok(match nums.as_slice() {
            [] => LuaValue::Number(rng.unit()),
            [n] if *n >= 1 => LuaValue::Integer(rng.range(1, *n)),
            [m, n] if n >= m => LuaValue::Integer(rng.range(*m, *n)),
            _ => return err("math.random: empty interval"),
        })
    })
}
