//! [`Value`]: plain data shared by content (properties, card fields), game variables and
//! scripts. Maps are ordered, so values serialize and hash the same way in every process.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(untagged)]
pub enum Value {
    #[default]
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

impl Value {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Num(n) if n.fract() == 0.0 => Some(*n as i64),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.get(key),
            _ => None,
        }
    }

    /// About how many bytes the value takes in the game state: a fixed cost per value and
    /// per map entry, plus its text. Used to keep the state a script builds within bounds.
    pub fn footprint(&self) -> usize {
        const NODE: usize = 32;
        match self {
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Num(_) => NODE,
            Value::Str(s) => NODE + s.len(),
            Value::List(l) => NODE + l.iter().map(Value::footprint).sum::<usize>(),
            Value::Map(m) => {
                NODE + m
                    .iter()
                    .map(|(k, v)| NODE + k.len() + v.footprint())
                    .sum::<usize>()
            }
        }
    }

    /// The name of the value's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Num(_) => "a number",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a table",
        }
    }

    /// Converts a TOML value (dates become strings).
    /// A table of TOML values (a space's or a card's `props`) as values.
    pub fn map_from_toml(p: &BTreeMap<String, toml::Value>) -> BTreeMap<String, Value> {
        p.iter()
            .map(|(k, v)| (k.clone(), Value::from_toml(v)))
            .collect()
    }

    pub fn from_toml(v: &toml::Value) -> Value {
        match v {
            toml::Value::String(s) => Value::Str(s.clone()),
            toml::Value::Integer(i) => Value::Int(*i),
            toml::Value::Float(f) => Value::Num(*f),
            toml::Value::Boolean(b) => Value::Bool(*b),
            toml::Value::Datetime(d) => Value::Str(d.to_string()),
            toml::Value::Array(a) => Value::List(a.iter().map(Value::from_toml).collect()),
            toml::Value::Table(t) => Value::Map(
                t.iter()
                    .map(|(k, v)| (k.clone(), Value::from_toml(v)))
                    .collect(),
            ),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => write!(f, "nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::List(l) => {
                write!(f, "[")?;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            Value::Map(m) => {
                write!(f, "{{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k} = {v}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_string())
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
