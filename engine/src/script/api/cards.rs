//! Zones and their cards: `game.zone`, `game.count`, `game.cards`, `game.top`,
//! `game.move_card`, `game.take_card` and `game.shuffle`.

use mlua::{Lua, Table};

use super::{R, err, seat_arg, text, with, with_mut, with_tables};
use crate::script::CallCtx;
use crate::state::State;

/// (name, Luau signature, what it does), in the order the stubs list them.
pub const API: &[(&str, &str, &str)] = &[
    (
        "zone",
        "(id: string, seat: number?) -> number",
        "Handle of a zone (per-seat zones need the seat).",
    ),
    ("count", "(zone: number) -> number", "Cards in a zone."),
    (
        "cards",
        "(zone: number) -> {string}",
        "Card ids in a zone, bottom first (the top card is last). Bots and the actions and describe hooks get only the cards their seat may see: none of a hidden zone or another seat's hand, the top card of a `top` zone (game.count still gives how many).",
    ),
    (
        "top",
        "(zone: number) -> string?",
        "Id of the top card, or nil (also nil where the reading seat may not see it).",
    ),
    (
        "move_card",
        "(from: number, to: number, where: string?) -> string?",
        "Move the top card of `from` into `to`: where = \"top\" (the default), \"bottom\", \"middle\" (with as many cards above as below, or one fewer above), or a depth from the top, 1 = top (n puts n - 1 cards above it). Returns its id, or nil if `from` is empty.",
    ),
    (
        "take_card",
        "(from: number, card: string, to: number, where: string?) -> boolean",
        "Move a named card from one zone to another (where as in move_card).",
    ),
    (
        "shuffle",
        "(zone: number) -> ()",
        "Shuffle a zone (seeded).",
    ),
];

pub(super) fn register(lua: &Lua, t: &Table) -> R<()> {
    reg!(lua, t, "zone", |_, (id, seat): (String, Option<i64>)| {
        with(|c| {
            let Some(d) = c.def.zone(&id) else {
                return err(format!(
                    "no zone `{id}`{}",
                    crate::diag::suggestion(&id, c.def.zones.iter().map(|z| z.id.as_str()))
                ));
            };
            let per_seat = c.def.zones[d].per_seat;
            if per_seat && seat.is_none() {
                return err(format!("zone `{id}` belongs to each seat: give the seat"));
            }
            let s = seat_arg(c, seat)?;
            c.state.zone_of(d, s).map_or_else(
                || err(format!("no zone `{id}` for that seat")),
                |z| Ok(z as i64 + 1),
            )
        })
    });
    reg!(lua, t, "count", |_, z: i64| with(|c| count_of(c, z)));
    reg!(lua, t, "cards", |lua, z: i64| with_tables(lua, |c| {
        let z = zone_arg(c, z)?;
        let zone = &c.state.zones[z];
        let from = zone.cards.len() - c.access.visible_cards(&c.def, zone);
        let ids: Vec<String> = zone.cards[from..]
            .iter()
            .map(|&r| card_name(c, r))
            .collect();
        lua.create_sequence_from(ids)
    }));
    reg!(lua, t, "top", |lua, z: i64| {
        let card = with(|c| {
            let z = zone_arg(c, z)?;
            let zone = &c.state.zones[z];
            if c.access.visible_cards(&c.def, zone) == 0 {
                return Ok(None);
            }
            Ok(zone.cards.last().map(|&r| card_name(c, r)))
        })?;
        text(lua, card)
    });
    reg!(lua, t, "move_card", |lua,
                               (from, to, place): (
        i64,
        i64,
        Option<String>
    )| {
        let card = with_mut("move_card", |c| {
            let (f, t) = (zone_arg(c, from)?, zone_arg(c, to)?);
            // The top card, unless restricted play keeps it from the seat drawing it.
            let Some(at) = c.state.drawn_from(f, t) else {
                return Ok(None);
            };
            let card = c.state.zones[f].cards.remove(at);
            insert(&mut c.state.zones[t].cards, card, place.as_deref())?;
            Ok(Some(card_name(c, card)))
        })?;
        text(lua, card)
    });
    reg!(lua, t, "take_card", |_,
                               (from, id, to, place): (
        i64,
        String,
        i64,
        Option<String>
    )| with_mut("take_card", |c| {
        let (f, t) = (zone_arg(c, from)?, zone_arg(c, to)?);
        let pos = c.state.zones[f]
            .cards
            .iter()
            .rposition(|&r| card_name(c, r) == id);
        let Some(pos) = pos else { return Ok(false) };
        let card = c.state.zones[f].cards.remove(pos);
        insert(&mut c.state.zones[t].cards, card, place.as_deref())?;
        Ok(true)
    }));
    reg!(lua, t, "shuffle", |_, z: i64| with_mut("shuffle", |c| {
        let z = zone_arg(c, z)?;
        let State { zones, rng, .. } = &mut *c.state;
        rng.shuffle(&mut zones[z].cards);
        Ok(())
    }));
    Ok(())
}

/// `game.count(z)`: how many cards zone `z` holds. Shared with the raw calls.
pub(super) fn count_of(c: &CallCtx, z: i64) -> R<i64> {
    let z = zone_arg(c, z)?;
    Ok(c.state.zones[z].cards.len() as i64)
}

fn zone_arg(ctx: &CallCtx, z: i64) -> R<usize> {
    if z >= 1 && (z as usize) <= ctx.state.zones.len() {
        Ok((z - 1) as usize)
    } else {
        err(format!("{z} is not a zone handle (get one with game.zone)"))
    }
}

fn card_name(ctx: &CallCtx, c: crate::state::CardRef) -> String {
    ctx.def
        .decks
        .get(c.deck as usize)
        .and_then(|d| d.cards.get(c.card as usize))
        .map_or_else(String::new, |c| c.id.clone())
}

fn insert(
    cards: &mut Vec<crate::state::CardRef>,
    card: crate::state::CardRef,
    place: Option<&str>,
) -> R<()> {
    match place {
        None | Some("top") => cards.push(card),
        Some("bottom") => cards.insert(0, card),
        Some("middle") => cards.insert(cards.len().div_ceil(2), card),
        Some(other) => match other.parse::<u64>() {
            // The n-th card from the top: n - 1 cards stay above it (past the bottom: bottom).
            Ok(n) if n >= 1 => {
                let above = (n - 1).min(cards.len() as u64) as usize;
                cards.insert(cards.len() - above, card);
            }
            _ => {
                return err(format!(
                    "`{other}` is not a place in a zone: use \"top\", \"bottom\", \"middle\" or a depth from the top (1 = top)"
                ));
            }
        },
    }
    Ok(())
}
