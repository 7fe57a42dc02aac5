//! The numeric content fields a tuner may change, named as `--fields` names them:
//!
//! - `decks.DECK.CARD.FIELD`: a card's number field (`count`, or one of the deck's fields);
//! - `tables.TABLE.ROW.COLUMN`: a row's number cell, the row named by its key value (a table
//!   without a key column: by its place, counted from 1);
//! - `options.OPTION.default`: a whole-number option's default;
//! - `constants.NAME`: a number of `[constants]`.
//!
//! A pattern is such a name where `*` stands for any run of characters within one part
//! (between dots): `decks.road-tiles.*.count`, `options.*.default`.

use farebox::content::raw::RawValue;

use crate::edit::{Catalog, Edit, RowRef};

/// Where a field lives, as the edit that changes it needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    Card {
        deck: String,
        card: String,
        field: String,
    },
    Row {
        table: String,
        row: RowRef,
        column: String,
    },
    OptionDefault {
        option: String,
    },
    Constant {
        key: String,
    },
}

/// One numeric field of the content as the open mod makes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Its name (see the module).
    pub name: String,
    pub value: f64,
    /// A whole number (changed a whole step at a time) rather than a decimal.
    pub integer: bool,
    pub place: Place,
}

impl Field {
    /// The step the search moves this field by: 1 for a whole number, a tenth of the value
    /// (0.1 for a value of 0) for a decimal.
    pub fn step(&self) -> f64 {
        if self.integer {
            1.0
        } else if self.value == 0.0 {
            0.1
        } else {
            round4(self.value.abs() / 10.0)
        }
    }

    /// The edit that sets this field to `value`.
    pub fn edit(&self, value: f64) -> Edit {
        let v = Some(self.raw(value));
        match &self.place {
            Place::Card { deck, card, field } => Edit::SetCardField {
                deck: deck.clone(),
                card: card.clone(),
                field: field.clone(),
                value: v,
            },
            Place::Row { table, row, column } => Edit::SetRowCell {
                table: table.clone(),
                row: row.clone(),
                column: column.clone(),
                value: v,
            },
            Place::OptionDefault { option } => Edit::SetOptionField {
                option: option.clone(),
                field: "default".into(),
                value: v,
            },
            Place::Constant { key } => Edit::SetConstant {
                key: key.clone(),
                value: v,
            },
        }
    }

    /// `value` as TOML writes this field.
    pub fn raw(&self, value: f64) -> RawValue {
        if self.integer {
            RawValue::Integer(value.round() as i64)
        } else {
            RawValue::Float(round4(value))
        }
    }

    /// `value` as the field is written ("3", "0.25").
    pub fn shown(&self, value: f64) -> String {
        self.raw(value).to_string()
    }
}

/// `x` to four decimals (steps of a decimal field stay readable).
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn number(v: &RawValue) -> Option<(f64, bool)> {
    match v {
        RawValue::Integer(i) => Some((*i as f64, true)),
        RawValue::Float(f) if f.is_finite() => Some((*f, false)),
        _ => None,
    }
}

/// Text of a row's key value for its name ("3", "small").
fn key_text(v: &RawValue) -> String {
    match v {
        RawValue::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every numeric field of `catalog`, in the order the content lists them.
pub fn all(catalog: &Catalog) -> Vec<Field> {
    let mut out = vec![];
    for deck in &catalog.decks {
        for (card, e) in &deck.cards {
            for key in &e.keys {
                let Some((value, integer)) = e.value.get(key).and_then(number) else {
                    continue;
                };
                out.push(Field {
                    name: format!("decks.{}.{card}.{key}", deck.id),
                    value,
                    integer,
                    place: Place::Card {
                        deck: deck.id.clone(),
                        card: card.clone(),
                        field: key.clone(),
                    },
                });
            }
        }
    }
    for table in &catalog.tables {
        for (i, (key, e)) in table.rows.iter().enumerate() {
            let (row_name, row) = match key {
                Some(k) => (key_text(k), RowRef::Key(k.clone())),
                None => ((i + 1).to_string(), RowRef::Index(i)),
            };
            for col in &e.keys {
                if Some(col) == table.key.as_ref() {
                    continue;
                }
                let Some((value, integer)) = e.value.get(col).and_then(number) else {
                    continue;
                };
                out.push(Field {
                    name: format!("tables.{}.{row_name}.{col}", table.id),
                    value,
                    integer,
                    place: Place::Row {
                        table: table.id.clone(),
                        row: row.clone(),
                        column: col.clone(),
                    },
                });
            }
        }
    }
    for (id, e) in &catalog.options {
        let int_option = e.value.get("type").and_then(RawValue::as_str) == Some("int");
        let Some((value, _)) = e.value.get("default").and_then(number) else {
            continue;
        };
        if int_option {
            out.push(Field {
                name: format!("options.{id}.default"),
                value,
                integer: true,
                place: Place::OptionDefault { option: id.clone() },
            });
        }
    }
    for (key, e) in &catalog.constants {
        let Some((value, integer)) = number(&e.value) else {
            continue;
        };
        out.push(Field {
            name: format!("constants.{key}"),
            value,
            integer,
            place: Place::Constant { key: key.clone() },
        });
    }
    out
}

/// Whether `name` matches `pattern` (`*`: any run of characters within one part).
pub fn matches(pattern: &str, name: &str) -> bool {
    let p: Vec<&str> = pattern.split('.').collect();
    let n: Vec<&str> = name.split('.').collect();
    p.len() == n.len() && p.iter().zip(&n).all(|(p, n)| part_matches(p, n))
}

fn part_matches(p: &str, n: &str) -> bool {
    let Some((first, rest)) = p.split_once('*') else {
        return p == n;
    };
    let Some(mut left) = n.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = rest.split('*').collect();
    let last = pieces.len() - 1;
    for (i, piece) in pieces.iter().enumerate() {
        if i == last {
            return left.len() >= piece.len() && left.ends_with(piece);
        }
        match left.find(piece) {
            Some(at) => left = &left[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// The fields `patterns` name, each once, in the content's order. A pattern that names no
/// field is an error that lists the fields there are (the first few) and how to see them all.
pub fn select(all: &[Field], patterns: &[String]) -> Result<Vec<Field>, String> {
    if patterns.is_empty() {
        return Err("--fields names no field; `farebox tune MOD --list-fields` lists them".into());
    }
    for p in patterns {
        if !all.iter().any(|f| matches(p, &f.name)) {
            let hint = farebox::diag::suggestion(p, all.iter().map(|f| f.name.as_str()));
            let some: Vec<&str> = all.iter().take(8).map(|f| f.name.as_str()).collect();
            return Err(format!(
                "no numeric field matches `{}`{hint}; fields are named decks.DECK.CARD.FIELD, \
                 tables.TABLE.ROW.COLUMN, options.OPTION.default and constants.NAME (this mod \
                 has {} of them, such as {}; `--list-fields` lists them all)",
                crate::common::shown(p, crate::common::MAX_SHOWN),
                all.len(),
                some.join(", ")
            ));
        }
    }
    Ok(all
        .iter()
        .filter(|f| patterns.iter().any(|p| matches(p, &f.name)))
        .cloned()
        .collect())
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn a_star_stays_within_its_part() {
        assert!(matches(
            "decks.road-tiles.*.count",
            "decks.road-tiles.cs-t3.count"
        ));
        assert!(matches("options.*.default", "options.starting-gas.default"));
        assert!(matches(
            "decks.*.cs-t*.count",
            "decks.road-tiles.cs-t12.count"
        ));
        assert!(matches("constants.*_turn", "constants.actions_per_turn"));
        assert!(!matches("constants.*_turn", "constants.actions_per_turns"));
        assert!(!matches("decks.*.count", "decks.road-tiles.cs-t3.count"));
        assert!(!matches("options.*", "options.starting-gas.default"));
        assert!(matches("constants.stall_rounds", "constants.stall_rounds"));
    }
}
