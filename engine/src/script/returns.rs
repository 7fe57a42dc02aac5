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

/// The list the `actions` hook returned: a list of strings (numbers are taken as their text,
/// and the list ends at its first nil), each an action ([`crate::action::problem`] says what
/// an action may be). The error says what was wrong, in words that make sense beside the
/// hook's file and line.
pub fn action_list(v: &LuaValue) -> Result<Vec<String>, String> {
    const WANT: &str = "the actions hook must return a list of strings (the legal actions)";
    let LuaValue::Table(t) = v else {
        return Err(format!("{WANT}; it returned {}", what(v)));
    };
    // mlua reads each string straight off the stack (`for_each_value` is what its own
    // `Vec<String>` conversion uses; this hook runs at every decision); the items are looked
    // at one by one only to say what is wrong with them.
    let mut list = Vec::new();
    if t.for_each_value::<String>(|s| {
        list.push(s);
        Ok(())
    })
    .is_err()
    {
        return Err(wrong_item(t, WANT));
    }
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

/// What a parameter of the API's Rust type `to` asks for, in words ("a whole number", "a list
/// of strings"); None for a type with no plain name.
pub fn wanted(to: &str) -> Option<String> {
    if let Some(inner) = to.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')) {
        return wanted(inner);
    }
    if let Some(inner) = to.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')) {
        return Some(format!("a list of {}", plural(&wanted(inner)?)));
    }
    Some(
        match to {
            "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => {
                "a whole number"
            }
            "f32" | "f64" => "a number",
            "String" | "string" | "BorrowedStr" | "str" => "a string",
            "bool" | "boolean" => "true or false",
            "table" | "Table" => "a table",
            "function" | "Function" => "a function",
            _ => return None,
        }
        .to_string(),
    )
}

/// "a whole number" -> "whole numbers", for "a list of ...".
pub fn plural(want: &str) -> String {
    match want {
        "true or false" => "trues or falses".to_string(),
        w => format!("{}s", w.strip_prefix("a ").unwrap_or(w)),
    }
}

/// The Luau type name `from` (as the binding reports what it was given) in words, for "must
/// be `want`, not ...".
pub fn got(from: &str, want: &str) -> String {
    match from {
        "number" | "integer" if want == "a whole number" => "a fraction or a number out of range",
        "integer" => "a whole number",
        "number" => "a number",
        "string" => "a string",
        "table" => "a table",
        "boolean" => "true or false",
        "function" => "a function",
        "thread" => "a coroutine",
        "buffer" => "a buffer",
        "vector" => "a vector",
        "nil" => "nil",
        other => other,
    }
    .to_string()
}

/// An error message as a mod author should read it: without the place inside the engine's
/// own Luau wrappers ("farebox:49: "), and with no memory address (an error raised with a
/// table is shown by Luau as "table: 0x..."; an address differs from run to run and means
/// nothing to a person).
pub fn plain_message(message: &str) -> String {
    let mut m = message;
    while let Some(rest) = m.strip_prefix("farebox:") {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        match rest[digits..].strip_prefix(": ") {
            Some(after) if digits > 0 => m = after,
            _ => break,
        }
    }
    for kind in ["table", "function", "userdata", "thread", "buffer"] {
        if let Some(addr) = m.strip_prefix(kind).and_then(|r| r.strip_prefix(": 0x"))
            && !addr.is_empty()
            && addr.chars().all(|c| c.is_ascii_hexdigit())
        {
            let a = if kind == "userdata" { "" } else { "a " };
            return format!(
                "an error was raised with {a}{kind} rather than a message (error(\"what went wrong\"))"
            );
        }
    }
    without_addresses(m)
}

/// `text` with every "0x" followed by six or more hex digits shown as "(an address)".
fn without_addresses(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        let hex = rest[at + 2..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        out.push_str(&rest[..at]);
        if hex >= 6 {
            out.push_str("(an address)");
        } else {
            out.push_str(&rest[at..at + 2 + hex]);
        }
        rest = &rest[at + 2 + hex..];
    }
    out.push_str(rest);
    out
}
