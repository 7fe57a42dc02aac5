//! Parsing one TOML file into a raw struct: every syntax error the parser recovers from, then
//! each key serde refuses (taken out of the tree so the next one shows), in a mod author's
//! words; and the budget of records and values a load may parse.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use super::{MAX_ERRORS_PER_FILE, MAX_RECORDS, MAX_VALUES, Reader};
use crate::diag::suggestion;

impl Reader<'_> {
    /// Parses a TOML file into a raw struct, turning every problem into a diagnostic: all
    /// syntax errors the parser recovers from, then each key serde refuses (the key is taken
    /// out and the file read again, so one misspelling does not hide the next).
    pub(super) fn parse<T: DeserializeOwned>(&mut self, file: usize) -> Option<T> {
        if !self.within_budget(file) {
            return None;
        }
        let f = self.files.files.get(file)?;
        let (doc, syntax) = toml::de::DeTable::parse_recoverable(&f.text);
        if !syntax.is_empty() {
            // After one mistake the parser often trips again on the same line: one error per
            // line, preferring the one that names what was left open.
            let mut by_line: BTreeMap<usize, &toml::de::Error> = BTreeMap::new();
            for e in &syntax {
                let line = f.line_col(e.span().map_or(0, |s| s.start)).0;
                let slot = by_line.entry(line).or_insert(e);
                if !slot.message().starts_with("unclosed") && e.message().starts_with("unclosed") {
                    *slot = e;
                }
            }
            for e in by_line.values().take(MAX_ERRORS_PER_FILE) {
                let d = match (e.span(), e.message().trim()) {
                    // The parser gives no place for a key path too deep to read: the line is
                    // found here, so the error is not reported at the top of the file.
                    (None, "recursion limit") => f.error(
                        deep_key(&f.text).unwrap_or(0..0),
                        format!(
                            "a key nested too deeply: tables and dotted keys are read to {} levels",
                            MAX_KEY_DEPTH - 1
                        ),
                    ),
                    (span, m) => f.error(span.unwrap_or(0..0), m.to_string()),
                };
                self.diags.push(d);
            }
            return None;
        }
        // The usual case, a good file, is read once; the tree is only kept (parsed again) when
        // there are keys to take out.
        let mut e = match T::deserialize(toml::de::Deserializer::from(doc)) {
            Ok(v) => return Some(v),
            Err(e) => e,
        };
        let (mut doc, _) = toml::de::DeTable::parse_recoverable(&f.text);
        // Keys now known to be absent: taken out for being wrong, or meant by a misspelling.
        // Their "missing field" error is not news.
        let mut absent: Vec<String> = Vec::new();
        for _ in 0..MAX_ERRORS_PER_FILE {
            if absent
                .iter()
                .any(|k| e.message().starts_with(&format!("missing field `{k}`")))
            {
                return None;
            }
            let span = e.span().unwrap_or(0..0);
            let d = f.error(span.clone(), friendly_toml_error(e.message()));
            self.diags.push(d);
            // An error about a whole table (a missing key) names no key to take out.
            if span.is_empty() || e.message().starts_with("missing field") {
                return None;
            }
            absent.extend(meant_key(e.message()));
            absent.push(take_out(doc.get_mut(), span.start)?);
            e = match T::deserialize(toml::de::Deserializer::from(doc.clone())) {
                Ok(_) => return None,
                Err(e) => e,
            };
        }
        None
    }

    /// Counts a file's records and values with the TOML lexer alone (no tree is built, nothing
    /// is kept) and adds them to the load's; a file that would take the load past
    /// [`MAX_RECORDS`] or [`MAX_VALUES`] is refused, at the first record or value too many, and
    /// counts for nothing. A list that starts a line counts as a record: an overcount only a
    /// list of lists written one to a line makes.
    fn within_budget(&mut self, file: usize) -> bool {
        use toml_parser::lexer::TokenKind as K;
        let Some(f) = self.files.files.get(file) else {
            return false;
        };
        let (mut records, mut values) = (self.records, self.values);
        let mut line_start = true;
        for token in toml_parser::Source::new(&f.text).lex() {
            match token.kind() {
                K::Newline => {
                    line_start = true;
                    continue;
                }
                K::Whitespace | K::Comment => continue,
                K::LeftCurlyBracket => records += 1,
                K::LeftSquareBracket if line_start => records += 1,
                K::Equals | K::Comma => values += 1,
                _ => {}
            }
            line_start = false;
            let what = if records > MAX_RECORDS {
                format!(
                    "{MAX_RECORDS} records (tables: cards, rows, tiles, cells, spaces, edges...)"
                )
            } else if values > MAX_VALUES {
                format!("{MAX_VALUES} values")
            } else {
                continue;
            };
            let at = token.span().start();
            let d = f.error(
                at..at,
                format!(
                    "with this file the mod and its dependencies hold more than {what}, more than a game can use; the file is not read"
                ),
            );
            self.diags.push(d);
            return false;
        }
        (self.records, self.values) = (records, values);
        true
    }
}

/// The ticked names in serde's "unknown field `x`, expected one of `a`, `b`" (or "unknown
/// variant ..."): the wrong one and the expected ones.
fn unknown_name<'m>(msg: &'m str, prefix: &str) -> Option<(&'m str, Vec<&'m str>)> {
    let rest = msg.trim().strip_prefix(prefix)?;
    let ticks: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    let (wrong, expected) = ticks.split_first()?;
    Some((wrong, expected.to_vec()))
}

/// For an unknown key, the known key it is closest to (the one it was meant to be).
fn meant_key(msg: &str) -> Option<String> {
    let (wrong, expected) = unknown_name(msg, "unknown field")?;
    crate::diag::did_you_mean(wrong, expected).map(str::to_string)
}

/// The depth of key paths at which the TOML parser stops (its own limit).
const MAX_KEY_DEPTH: usize = 80;

/// Where the first key path of `text` that reaches [`MAX_KEY_DEPTH`] levels is: a table
/// header (`[a.b.c]`) or a dotted key (`a.b.c = 1`), counted with the header it is under.
/// Quoted parts are counted as one part; a line that is neither is skipped.
fn deep_key(text: &str) -> Option<std::ops::Range<usize>> {
    let parts = |path: &str| {
        let mut n = 1;
        let mut quote: Option<char> = None;
        for c in path.chars() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '.') => n += 1,
                _ => {}
            }
        }
        n
    };
    let mut header = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim();
        let depth = if let Some(h) = t.strip_prefix("[[").or_else(|| t.strip_prefix('[')) {
            header = parts(h.split(']').next().unwrap_or(""));
            header
        } else if let Some((key, _)) = t.split_once('=') {
            header + parts(key)
        } else {
            continue;
        };
        if depth >= MAX_KEY_DEPTH {
            return Some(start..start + line.trim_end().len());
        }
    }
    None
}

/// Takes out of `table`, at any depth, the key whose name or value holds byte `at`, and
/// returns its name. (A table's own span is only its header, so tables are searched, not
/// matched.) Nothing is taken when no key holds `at`, as for an error about a whole table.
fn take_out(table: &mut toml::de::DeTable<'_>, at: usize) -> Option<String> {
    use toml::de::DeValue;
    let within = |r: std::ops::Range<usize>| r.contains(&at);
    let mut hit: Option<String> = None;
    for (k, v) in table.iter_mut() {
        let holds_tables = match v.get_ref() {
            DeValue::Table(_) => true,
            DeValue::Array(items) => {
                !items.is_empty()
                    && items
                        .iter()
                        .all(|i| matches!(i.get_ref(), DeValue::Table(_)))
            }
            _ => false,
        };
        if within(k.span()) || (!holds_tables && within(v.span())) {
            hit = Some(k.get_ref().to_string());
            break;
        }
        match v.get_mut() {
            DeValue::Table(t) => {
                if let Some(key) = take_out(t, at) {
                    return Some(key);
                }
            }
            DeValue::Array(items) => {
                for item in items.iter_mut() {
                    if let DeValue::Table(t) = item.get_mut()
                        && let Some(key) = take_out(t, at)
                    {
                        return Some(key);
                    }
                }
            }
            _ => {}
        }
    }
    let key = hit?;
    table.remove(key.as_str());
    Some(key)
}

/// Rewrites serde's messages into the words of a mod author, with "did you mean".
pub fn friendly_toml_error(msg: &str) -> String {
    let msg = msg.trim();
    for (prefix, what) in [("unknown field", "key"), ("unknown variant", "value")] {
        if let Some((wrong, expected)) = unknown_name(msg, prefix) {
            let hint = suggestion(wrong, expected.iter().copied());
            let list = if expected.is_empty() {
                "none are allowed here".to_string()
            } else {
                format!(
                    "expected one of {}",
                    expected
                        .iter()
                        .map(|e| format!("`{e}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return if hint.is_empty() {
                format!("unknown {what} `{wrong}`; {list}")
            } else {
                format!("unknown {what} `{wrong}`{hint}")
            };
        }
    }
    if let Some(rest) = msg.strip_prefix("missing field") {
        return format!("missing key{rest}");
    }
    // A whole number written with a decimal point ("12.0") where a whole number belongs.
    if let Some(rest) = msg.strip_prefix("invalid type: floating point `")
        && let Some((number, expected)) = rest.split_once("`, expected ")
        && let Ok(x) = number.parse::<f64>()
        && x.fract() == 0.0
        && x.abs() < 1e18
    {
        let expected = plain_expected(expected, false);
        return format!(
            "wrong type: `{number}` is written with a decimal point, expected {expected}: write {}",
            x as i64
        );
    }
    // A list where a table of named values belongs ("invalid length 1, expected struct X with
    // 4 elements": serde reads a struct from a list too).
    if msg.starts_with("invalid length ") && msg.contains("expected struct ") {
        return "wrong type: a list, expected a table".to_string();
    }
    // A number out of range says the range; a value of the wrong type only what belongs.
    let range = msg.starts_with("invalid value: integer `");
    let mut msg = msg.replace("invalid type: ", "wrong type: ");
    if let Some((head, expected)) = msg.rsplit_once("expected ") {
        msg = format!("{head}expected {}", plain_expected(expected, range));
    }
    // A whole number past 64 bits reaches serde as a 128-bit one ("integer `N` as i128").
    for wide in ["` as i128", "` as u128"] {
        if let Some(at) = msg.find(wide)
            && let Some(start) = msg[..at].rfind("integer `")
        {
            let number = &msg[start + 9..at];
            let expected = msg[at + wide.len()..]
                .strip_prefix(", expected ")
                .filter(|e| !e.starts_with("any valid"))
                .map_or(String::new(), |e| format!("; expected {e}"));
            return format!(
                "the number {number} is out of range: whole numbers run from -9223372036854775808 to 9223372036854775807{expected}"
            );
        }
    }
    if msg.ends_with("number overflowed") {
        return "the number is too large".to_string();
    }
    msg.replace("invalid value: integer `", "wrong value: `")
        .replace("floating point `", "a number with a fraction `")
        .replace("expected a map", "expected a table")
        .replace("expected a sequence", "expected a list")
        .replace("wrong type: map,", "wrong type: a table,")
        .replace("wrong type: sequence,", "wrong type: a list,")
}

/// What serde says it expected, in a mod author's words: Rust's type names mean nothing to
/// them, and a number out of range should say the range.
fn plain_expected(expected: &str, range: bool) -> String {
    let plain = match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" if !range => "a whole number, 0 or more",
        "i8" | "i16" | "i32" | "i64" | "isize" if !range => "a whole number",
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number, 0 or more",
        "i8" => "a whole number from -128 to 127",
        "i16" => "a whole number from -32768 to 32767",
        "i32" => "a whole number from -2147483648 to 2147483647",
        "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        _ => "",
    };
    if !plain.is_empty() {
        return plain.to_string();
    }
    // "struct StatFigure", "struct Settings with 7 elements", "tuple struct X", "enum Y".
    for (rust, words) in [
        ("struct ", "a table"),
        ("tuple struct ", "a list"),
        ("enum ", "one of the values allowed here"),
    ] {
        if let Some(name) = expected.strip_prefix(rust)
            && name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            return words.to_string();
        }
    }
    if let Some(n) = expected
        .strip_prefix("a tuple of size ")
        .or_else(|| expected.strip_prefix("an array of length "))
    {
        return format!("a list of {n}");
    }
    expected.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let m = friendly_toml_error("unknown field `coutn`, expected one of `id`, `count`, `name`");
        assert_eq!(m, "unknown key `coutn`; did you mean `count`?");
        let m = friendly_toml_error("unknown variant `gird`, expected one of `grid`, `graph`");
        assert_eq!(m, "unknown value `gird`; did you mean `grid`?");
    }
}
