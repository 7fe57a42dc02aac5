//! What hooks and bots return, read in plain words: a value of the wrong shape is reported as
//! a mod author would say it ("item 3 is a table"), never in the terms of the Luau binding.

use mlua::Value as LuaValue;

/// A Luau value as a sentence names it: "a table", "nothing (nil)", "`true`".
pub fn what(v: &LuaValue) -> String {
    match v {
        LuaValue::Nil => "nothing (nil)".to_string(),
        LuaValue::Integer(_) | LuaValue::Number(_) => "a number".to_string(),
        LuaValue::Boolean(b) => format!("`{b}`"),
        LuaValue::String(_) => "a string".to_string(),
        LuaValue::Table(_) => "a table".to_string(),
        LuaValue::Function(_) => "a function".to_string(),
        LuaValue::Thread(_) => "a coroutine".to_string(),
        LuaValue::Buffer(_) => "a buffer".to_string(),
        LuaValue::Vector(_) => "a vector".to_string(),
        other => other.type_name().to_string(),
    }
}

/// A value for a message: short strings and numbers as they are, anything else as [`what`].
pub fn shown(v: &LuaValue) -> String {
    match v {
        LuaValue::Integer(i) => i.to_string(),
        LuaValue::Number(n) => n.to_string(),
        LuaValue::String(s) => {
            let text = s.to_string_lossy();
            format!("the string `{}`", one_line(&text, 60))
        }
        other => what(other),
    }
}

/// The list the `actions` hook returned: a list of strings, each an action
/// ([`crate::action::problem`] says what an action may be). The error says what was wrong,
/// in words that make sense beside the hook's file and line.
pub fn action_list(v: &LuaValue) -> Result<Vec<String>, String> {
    const WANT: &str = "the actions hook must return a list of strings (the legal actions)";
    let t = match v {
        LuaValue::Table(t) => t,
        other => return Err(format!("{WANT}; it returned {}", what(other))),
    };
    let n = t.raw_len();
    if n == 0 {
        // An empty list is "no legal action"; a table with other keys is a mistake.
        if t.clone().pairs::<LuaValue, LuaValue>().next().is_some() {
            return Err(format!(
                "{WANT}; it returned a table with no items 1, 2, 3... (a list is written {{ \"draw\", \"pass\" }})"
            ));
        }
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(n);
    for i in 1..=n {
        let item: LuaValue = t.raw_get(i).unwrap_or(LuaValue::Nil);
        let LuaValue::String(s) = &item else {
            return Err(format!("{WANT}; item {i} is {}", what(&item)));
        };
        let Ok(text) = s.to_str() else {
            return Err(format!("{WANT}; item {i} is not UTF-8 text"));
        };
        if let Some(why) = crate::action::problem(&text) {
            return Err(format!(
                "item {i} of the actions list, `{}`, {why} (actions are kept in replays and shown to people)",
                one_line(&text, 60)
            ));
        }
        out.push(text.to_owned());
    }
    Ok(out)
}

/// `text` cut to `max` characters (with its length in bytes when cut) and kept to one line:
/// control characters are shown escaped (`\n`, `\u{1b}`).
pub fn one_line(text: &str, max: usize) -> String {
    let cut = crate::content::load::cut(text, max);
    let mut out = String::with_capacity(cut.len());
    for c in cut.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
