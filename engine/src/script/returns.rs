//! What hooks and bots return, read in plain words: a value of the wrong shape is reported as
//! a mod author would say it ("item 3 is a table"), never in the terms of the Luau binding.

use mlua::{FromLua, Lua, Value as LuaValue};

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

/// The list the `actions` hook returned: a list of strings (numbers are taken as their text,
/// and the list ends at its first nil), each an action ([`crate::action::problem`] says what
/// an action may be). The error says what was wrong, in words that make sense beside the
/// hook's file and line.
pub fn action_list(lua: &Lua, v: LuaValue) -> Result<Vec<String>, String> {
    const WANT: &str = "the actions hook must return a list of strings (the legal actions)";
    let LuaValue::Table(t) = &v else {
        return Err(format!("{WANT}; it returned {}", what(&v)));
    };
    // mlua reads a list of strings straight off the stack; the items are looked at one by one
    // only to say what is wrong with them.
    let list = match Vec::<String>::from_lua(v.clone(), lua) {
        Ok(list) => list,
        Err(_) => return Err(wrong_item(t, WANT)),
    };
    if list.is_empty() && t.clone().pairs::<LuaValue, LuaValue>().next().is_some() {
        // An empty list is "no legal action"; a table with other keys is a mistake.
        return Err(format!(
            "{WANT}; it returned a table with no items 1, 2, 3... (a list is written {{ \"draw\", \"pass\" }})"
        ));
    }
    for (i, a) in list.iter().enumerate() {
        if let Some(why) = crate::action::problem(a) {
            return Err(format!(
                "item {} of the actions list, `{}`, {why} (actions are kept in replays and shown to people)",
                i + 1,
                one_line(a, 60)
            ));
        }
    }
    Ok(list)
}

/// What is wrong with the first item of `t` that is not an action's text.
fn wrong_item(t: &mlua::Table, want: &str) -> String {
    for (i, item) in t.clone().sequence_values::<LuaValue>().enumerate() {
        let i = i + 1;
        match item {
            Ok(LuaValue::String(s)) if s.to_str().is_err() => {
                return format!("{want}; item {i} is not UTF-8 text");
            }
            Ok(LuaValue::String(_) | LuaValue::Integer(_) | LuaValue::Number(_)) => {}
            Ok(other) => return format!("{want}; item {i} is {}", what(&other)),
            Err(_) => return format!("{want}; item {i} could not be read"),
        }
    }
    format!("{want}; it could not be read as one")
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
