//! Fields: the fields a deck declares and the columns a table declares, the values a card
//! or row gives them, and the rows checked against them (references found in them are kept
//! to check once every id is known).

use std::collections::{BTreeMap, HashMap};

use super::Ctx;
use super::refs::PendingRef;
use crate::content::def::*;
use crate::content::raw::{RawFieldDef, RawValue, Sp, SpannedMap};
use crate::diag::{did_you_mean, suggestion};
use crate::value::Value;

pub(super) fn resolve_fields(
    cx: &mut Ctx,
    file: usize,
    raw: &BTreeMap<Sp<String>, RawFieldDef>,
    reserved: &[&str],
) -> Vec<FieldDef> {
    let mut out = Vec::new();
    for (name, f) in raw {
        if reserved.contains(&name.get().as_str()) {
            cx.err(
                file,
                name.span(),
                format!(
                    "`{}` is a fixed key of every card; it cannot be declared as a field",
                    name.get()
                ),
            );
            continue;
        }
        let kind = *f.kind.get();
        let is_ref = matches!(kind, FieldType::Ref | FieldType::Refs);
        match (&f.to, is_ref) {
            (None, true) => cx.err(
                file,
                f.kind.span(),
                format!(
                    "field `{}` is a reference; say what it refers to with `to`",
                    name.get()
                ),
            ),
            (Some(to), false) => cx.err(file, to.span(), "`to` is only for ref and refs fields"),
            (Some(to), true) => {
                let t = to.get();
                let valid = ["tiles", "spaces", "pieces", "track-pieces"].contains(&t.as_str())
                    || t.strip_prefix("deck:").is_some_and(|s| !s.is_empty())
                    || t.strip_prefix("table:").is_some_and(|s| !s.is_empty());
                if !valid {
                    let hint = suggestion(t, ["tiles", "spaces", "pieces", "track-pieces"]);
                    cx.err(file, to.span(), format!("`to = \"{t}\"` is not a kind of thing: use tiles, spaces, pieces, track-pieces, deck:<id> or table:<id>{hint}"));
                }
            }
            (None, false) => {}
        }
        if !f.choices.is_empty() && !matches!(kind, FieldType::String | FieldType::Strings) {
            cx.err(file, f.kind.span(), "only string fields have `choices`");
        }
        let mut seen: Vec<&str> = Vec::new();
        for c in &f.choices {
            if seen.contains(&c.id()) {
                cx.err(
                    file,
                    name.span(),
                    format!("field `{}` lists the choice `{}` twice", name.get(), c.id()),
                );
            }
            seen.push(c.id());
        }
        if let Some(n) = &f.length
            && !matches!(kind, FieldType::Ints | FieldType::Strings | FieldType::Refs)
        {
            cx.err(
                file,
                n.span(),
                "only list fields (ints, strings, refs) have a `length`",
            );
        }
        if let Some(tag) = &f.tagged {
            let taggable = f.to.as_ref().is_some_and(|t| {
                ["spaces", "tiles", "pieces"].contains(&t.get().as_str())
                    || t.get().starts_with("deck:")
            });
            if !is_ref || !taggable {
                cx.err(
                    file,
                    tag.span(),
                    "`tagged` is only for ref and refs fields naming spaces, tiles, pieces or the cards of a deck",
                );
            }
        }
        let fd = FieldDef {
            name: name.get().clone(),
            kind,
            to: f.to.as_ref().map(|t| t.get().clone()),
            length: f.length.as_ref().map(|n| *n.get()),
            tagged: f.tagged.as_ref().map(|t| t.get().clone()),
            required: f.required,
            default: None,
            description: f.description.clone(),
            choices: f
                .choices
                .iter()
                .map(|c| (c.id().to_string(), c.label().to_string()))
                .collect(),
            min: f.min,
            max: f.max,
        };
        let default = f
            .default
            .as_ref()
            .and_then(|d| match check_value(f, d.get()) {
                Ok(v) => Some(v),
                Err(e) => {
                    cx.err(
                        file,
                        d.span(),
                        format!("default of field `{}`: {e}", name.get()),
                    );
                    None
                }
            });
        out.push(FieldDef { default, ..fd });
    }
    out
}

/// Checks one value against its field type; returns the typed value.
fn check_value(f: &RawFieldDef, v: &RawValue) -> Result<Value, String> {
    let int_in_range = |i: i64| -> Result<i64, String> {
        if let Some(m) = f.min.filter(|&m| i < m) {
            return Err(format!("{i} is less than the minimum {m}"));
        }
        if let Some(m) = f.max.filter(|&m| i > m) {
            return Err(format!("{i} is more than the maximum {m}"));
        }
        Ok(i)
    };
    let string_choice = |s: &str| -> Result<String, String> {
        if f.choices.is_empty() || f.choices.iter().any(|c| c.id() == s) {
            Ok(s.to_string())
        } else {
            let hint = match f.choices.iter().find(|c| c.label().eq_ignore_ascii_case(s)) {
                Some(c) => format!(" (`{s}` is the label of `{}`: write the id)", c.id()),
                None => suggestion(s, f.choices.iter().map(|c| c.id())),
            };
            let ids: Vec<&str> = f.choices.iter().map(|c| c.id()).collect();
            Err(format!("`{s}` is not one of {}{hint}", ids.join(", ")))
        }
    };
    let wrong = |want: &str| {
        Err(format!(
            "expected {want}, found {}",
            Value::from_toml(v).type_name()
        ))
    };
    if let (Some(n), RawValue::Array(a)) = (&f.length, v)
        && a.len() != *n.get() as usize
    {
        let n = *n.get();
        return Err(format!(
            "expected exactly {n} {}, found {}",
            if n == 1 { "item" } else { "items" },
            a.len()
        ));
    }
    match (f.kind.get(), v) {
        (FieldType::Int, RawValue::Integer(i)) => Ok(Value::Int(int_in_range(*i)?)),
        (FieldType::Int, _) => wrong("an integer"),
        (FieldType::Number, RawValue::Integer(i)) => Ok(Value::Num(*i as f64)),
        (FieldType::Number, RawValue::Float(x)) => Ok(Value::Num(*x)),
        (FieldType::Number, _) => wrong("a number"),
        (FieldType::Bool, RawValue::Boolean(b)) => Ok(Value::Bool(*b)),
        (FieldType::Bool, _) => wrong("true or false"),
        (FieldType::String | FieldType::Ref, RawValue::String(s)) => {
            Ok(Value::Str(string_choice(s)?))
        }
        (FieldType::String | FieldType::Ref, _) => wrong("a string"),
        (FieldType::Ints, RawValue::Array(a)) => a
            .iter()
            .map(|x| match x {
                RawValue::Integer(i) => int_in_range(*i).map(Value::Int),
                other => Err(format!(
                    "expected a list of integers, found {} in it",
                    Value::from_toml(other).type_name()
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::List),
        (FieldType::Strings | FieldType::Refs, RawValue::Array(a)) => a
            .iter()
            .map(|x| match x {
                RawValue::String(s) => string_choice(s).map(Value::Str),
                other => Err(format!(
                    "expected a list of strings, found {} in it",
                    Value::from_toml(other).type_name()
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Value::List),
        (FieldType::Ints | FieldType::Strings | FieldType::Refs, _) => wrong("a list"),
    }
}

/// Checks the rows of a deck or table against its fields; `fixed` are keys every row may have.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_rows(
    cx: &mut Ctx,
    files: &[usize],
    what: &str,
    defs: &BTreeMap<Sp<String>, RawFieldDef>,
    fields: &[FieldDef],
    rows: &[SpannedMap],
    fixed: &[&str],
    pending: &mut Vec<PendingRef>,
) -> Vec<BTreeMap<String, Value>> {
    let mut out = Vec::new();
    let by_name: HashMap<&str, &RawFieldDef> =
        defs.iter().map(|(n, d)| (n.get().as_str(), d)).collect();
    for (i, row) in rows.iter().enumerate() {
        let file = files[i];
        let label = row
            .iter()
            .find(|(k, _)| k.get() == "id")
            .and_then(|(_, v)| v.get().as_str().map(|s| format!("{what} `{s}`")))
            .unwrap_or_else(|| format!("{what} #{}", i + 1));
        let mut values = BTreeMap::new();
        // Fields a misspelt key was taken to mean: their absence is not news.
        let mut meant: Vec<&str> = vec![];
        for (k, v) in row {
            let key = k.get().as_str();
            if fixed.contains(&key) {
                continue;
            }
            let Some(&def) = by_name.get(key) else {
                let known: Vec<&str> = fixed
                    .iter()
                    .copied()
                    .chain(fields.iter().map(|f| f.name.as_str()))
                    .collect();
                meant.extend(did_you_mean(key, known.iter().copied()));
                let hint = suggestion(key, known.iter().copied());
                let hint = if hint.is_empty() {
                    format!("; declare it under [fields.{key}] or [columns.{key}]")
                } else {
                    hint
                };
                cx.err(
                    file,
                    k.span(),
                    format!("{label} has unknown field `{key}`{hint}"),
                );
                continue;
            };
            match check_value(def, v.get()) {
                Ok(val) => {
                    if let Some(to) = &def.to {
                        let ids: Vec<String> = match &val {
                            Value::Str(s) => vec![s.clone()],
                            Value::List(l) => l
                                .iter()
                                .filter_map(|x| x.as_str().map(String::from))
                                .collect(),
                            _ => vec![],
                        };
                        for id in ids {
                            pending.push(PendingRef {
                                file,
                                span: v.span(),
                                target: to.get().clone(),
                                id,
                                context: format!("{label}, field `{key}`"),
                                tagged: def.tagged.as_ref().map(|t| t.get().clone()),
                            });
                        }
                    }
                    values.insert(key.to_string(), val);
                }
                Err(e) => {
                    // Given, though wrong: not also "missing".
                    meant.push(key);
                    cx.err(file, v.span(), format!("{label}, field `{key}`: {e}"))
                }
            }
        }
        for f in fields {
            if values.contains_key(&f.name) {
                continue;
            }
            if let Some(d) = &f.default {
                values.insert(f.name.clone(), d.clone());
            } else if f.required && !meant.contains(&f.name.as_str()) {
                let span = row.keys().next().map_or(0..0, |k| k.span());
                cx.err(
                    file,
                    span,
                    format!("{label} is missing required field `{}`", f.name),
                );
            }
        }
        out.push(values);
    }
    out
}

pub(super) fn fixed_string(
    row: &SpannedMap,
    key: &str,
) -> Option<(String, std::ops::Range<usize>)> {
    row.iter()
        .find(|(k, _)| k.get() == key)
        .and_then(|(_, v)| v.get().as_str().map(|s| (s.to_string(), v.span())))
}

/// The file of each of `n` cards or rows: where a patch put it, else the deck's or table's.
pub(super) fn row_files(file: usize, n: usize, patched: &[Option<usize>]) -> Vec<usize> {
    (0..n)
        .map(|i| patched.get(i).copied().flatten().unwrap_or(file))
        .collect()
}
