//! How a game starts: the state before the `setup` hook runs, and the options resolved from
//! the mod's defaults and the table's choices.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::{GameError, Setup};
use crate::board::Board;
use crate::content::GameDef;
use crate::content::def::{OptionType, Scope};
use crate::rng::Rng;
use crate::state::{CardRef, PieceState, Seen, State, ZoneState};
use crate::value::Value;

/// The state a game starts from before its `setup` hook runs: the board built (sections
/// arranged, by the seed), every zone filled from its deck (shuffled where it says so), every
/// piece off the board, counters at their starting values. Content-only mods (no rules yet)
/// are shown from this.
pub fn initial_state(def: &GameDef, setup: &Setup) -> Result<State, GameError> {
    let options = resolve_options(def, setup)?;

    let mut rng = Rng::new(setup.seed, 0);
    let board = Board::new(&def.board, &def.tiles, &options, &mut rng);
    let seats = setup.seats;

    let mut zones = Vec::new();
    let mut zone_index = Vec::new();
    for (di, z) in def.zones.iter().enumerate() {
        let owners: Vec<Option<u8>> = if z.per_seat {
            (0..seats).map(Some).collect()
        } else {
            vec![None]
        };
        let mut idx = Vec::new();
        for owner in owners {
            let mut cards = Vec::new();
            if let Some(d) = z.deck
                && let Some(deck) = def.decks.get(d)
            {
                for (ci, c) in deck.cards.iter().enumerate() {
                    for _ in 0..c.count {
                        cards.push(CardRef {
                            deck: d as u16,
                            card: ci as u16,
                        });
                    }
                }
            }
            if z.shuffle {
                rng.shuffle(&mut cards);
            }
            idx.push(zones.len() as u16);
            zones.push(ZoneState {
                def: di as u16,
                owner,
                cards,
            });
        }
        zone_index.push(idx);
    }
    let mut pieces = Vec::new();
    for (di, p) in def.pieces.iter().enumerate() {
        let owners: Vec<Option<u8>> = if p.per_seat {
            (0..seats).map(Some).collect()
        } else {
            vec![None]
        };
        for owner in owners {
            for _ in 0..p.count {
                pieces.push(PieceState {
                    def: di as u16,
                    owner,
                    at: None,
                    props: Arc::default(),
                    props_bytes: 0,
                });
            }
        }
    }
    let counters = def
        .counters
        .iter()
        .map(|c| {
            let v = c
                .initial_option
                .as_ref()
                .and_then(|o| options.get(o))
                .and_then(|v| v.as_int())
                .unwrap_or(c.initial);
            let n = if c.scope == Scope::Seat {
                seats as usize
            } else {
                1
            };
            vec![v; n]
        })
        .collect();
    Ok(State {
        seats,
        active: 0,
        turn: 1,
        board,
        pieces,
        zones,
        zone_index,
        counters,
        vars: Arc::default(),
        options: Arc::new(options),
        rng,
        result: None,
        pending_turn_start: true,
        props_bytes: 0,
        unknown: None,
        vars_bytes: 0,
        stats: Arc::default(),
        barred: setup.barred.as_ref().map(|b| {
            let cards = def
                .decks
                .iter()
                .enumerate()
                .flat_map(|(d, deck)| {
                    deck.cards
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| b.ids.contains(&c.id))
                        .map(move |(c, _)| CardRef {
                            deck: d as u16,
                            card: c as u16,
                        })
                })
                .collect();
            Arc::new(crate::state::BarredCards {
                seat: b.seat,
                cards,
            })
        }),
    })
}

/// Whether `setup`'s options are ones `def` takes (an option it has, a value of its type and
/// range): the message a game's setup would fail with, for a front end to give up front.
pub fn check_options(def: &GameDef, setup: &Setup) -> Result<(), String> {
    resolve_options(def, setup)
        .map(|_| ())
        .map_err(|e| match e {
            GameError::Setup(m) => m,
            other => other.to_string(),
        })
}

pub(super) fn resolve_options(
    def: &GameDef,
    setup: &Setup,
) -> Result<BTreeMap<String, Value>, GameError> {
    let mut out = BTreeMap::new();
    for (k, v) in &setup.options {
        let Some(o) = def.option(k) else {
            let hint = crate::diag::suggestion(k, def.options.iter().map(|o| o.id.as_str()));
            return Err(GameError::Setup(format!(
                "{} has no option `{k}`{hint}",
                def.name
            )));
        };
        let v = match (o.kind, v) {
            (_, Value::Str(s)) => o.parse(s).map_err(GameError::Setup)?,
            (OptionType::Int, Value::Int(_)) | (OptionType::Bool, Value::Bool(_)) => v.clone(),
            (OptionType::Int, Value::Num(x)) if x.fract() == 0.0 && x.abs() < 1e18 => {
                return Err(GameError::Setup(format!(
                    "option `{k}` takes a whole number: write {}, not {x:?}",
                    *x as i64
                )));
            }
            (kind, _) => {
                let wants = match kind {
                    OptionType::Int => "a whole number",
                    OptionType::Bool => "true or false",
                    OptionType::Choice => "one of its choices, as text",
                };
                return Err(GameError::Setup(format!(
                    "option `{k}` takes {wants}, not {}",
                    v.type_name()
                )));
            }
        };
        if let (OptionType::Int, Some(i)) = (o.kind, v.as_int())
            && (o.min.is_some_and(|m| i < m) || o.max.is_some_and(|m| i > m))
        {
            return Err(GameError::Setup(format!(
                "option `{k}` = {i} is out of range"
            )));
        }
        out.insert(k.clone(), v);
    }
    for o in &def.options {
        out.entry(o.id.clone()).or_insert_with(|| o.default.clone());
    }
    let _ = Seen::All;
    Ok(out)
}
