//! Pieces and counters to cut out: every piece the game uses (a set per seat, in the seat's
//! colour, for the most seats the game takes) as a round token with its name and cut line;
//! and every counter a track of numbered boxes to keep it on, with a marker per seat (or one,
//! for a counter of the whole table).

use farebox::content::def::Scope;

use super::cards::text_block;
use super::doc::{Align, HAIR, Item, Rect, Rgb, TextRun};
use super::sheets::page;
use super::{Ctx, MARGIN, Printed};

/// A piece token's diameter and a marker's, in mm, and the room between them.
const TOKEN: f32 = 24.0;
const MARKER: f32 = 14.0;
const GAP: f32 = 4.0;
/// A track's boxes: their size, how many to a row, and how far a track without a maximum
/// runs (a marker's "+50" side carries it on).
const BOX: f32 = 13.0;
const PER_ROW: i64 = 10;
const OPEN_TRACK: i64 = 50;
const ROOM: f32 = MARGIN + 8.0;

/// The colour of seat `s` (0-based) as the Studio shows it.
fn seat_rgb(ctx: &Ctx<'_>, s: usize) -> Rgb {
    let c = crate::colors::seat_color(ctx.def, s as u8);
    ctx.ink(Rgb(c.r(), c.g(), c.b()))
}

/// One token to cut out: a disc of `d` mm, filled, its cut line round it, a name across it.
struct Token {
    d: f32,
    fill: Rgb,
    name: String,
    under: String,
}

/// Flows tokens over sheets, row by row.
fn sheets_of(ctx: &Ctx<'_>, label: &str, tokens: &[Token], out: &mut Printed) {
    let (pw, ph) = ctx.opts.paper;
    let mut items = Vec::new();
    let (mut x, mut y, mut row_h) = (ROOM, ROOM + 8.0, 0.0f32);
    let mut sheet = 1;
    let flush = |items: Vec<Item>, sheet: usize, out: &mut Printed| {
        let label = format!("{}: {label}, sheet {sheet}", ctx.def.name);
        out.pages.push(page(ctx, label, items));
    };
    for t in tokens {
        if x + t.d > pw - ROOM {
            x = ROOM;
            y += row_h + GAP;
            row_h = 0.0;
        }
        if y + t.d > ph - ROOM {
            flush(std::mem::take(&mut items), sheet, out);
            sheet += 1;
            (x, y, row_h) = (ROOM, ROOM + 8.0, 0.0);
        }
        if items.is_empty() {
            let mut title = label.to_string();
            if let Some(f) = title.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            items.push(heading(ROOM, ROOM + 4.0, pw - 2.0 * ROOM, &title));
        }
        let r = t.d / 2.0;
        let c = (x + r, y + r);
        items.push(Item::Circle {
            c,
            r,
            fill: Some(t.fill),
            stroke: Some((Rgb::BLACK, HAIR)),
        });
        let ink = if t.fill.luma() < 110 {
            Rgb::WHITE
        } else {
            Rgb::BLACK
        };
        let inner = Rect::new(c.0 - r * 0.82, c.1 - r * 0.5, r * 1.64, r * 0.72);
        text_block(
            ctx,
            &mut items,
            &t.name,
            inner,
            7.0,
            3.5,
            true,
            Align::Center,
            true,
            ink,
        );
        if !t.under.is_empty() {
            let low = Rect::new(c.0 - r * 0.6, c.1 + r * 0.25, r * 1.2, r * 0.4);
            text_block(
                ctx,
                &mut items,
                &t.under,
                low,
                6.0,
                3.5,
                false,
                Align::Center,
                true,
                ink,
            );
        }
        x += t.d + GAP;
        row_h = row_h.max(t.d);
    }
    if !items.is_empty() {
        flush(items, sheet, out);
    }
}

fn heading(x: f32, y: f32, w: f32, text: &str) -> Item {
    Item::Text(TextRun {
        x,
        y,
        w,
        align: Align::Left,
        size: 14.0,
        bold: true,
        color: Rgb::BLACK,
        text: text.to_string(),
    })
}

/// The pieces and the counters' markers, as tokens; then a track per counter.
pub fn print_pieces(ctx: &mut Ctx<'_>, out: &mut Printed) {
    let def = ctx.def;
    let seats = def.players.1.max(1) as usize;
    let mut tokens = Vec::new();
    for p in &def.pieces {
        if p.per_seat {
            for s in 0..seats {
                for _ in 0..p.count {
                    tokens.push(Token {
                        d: TOKEN,
                        fill: seat_rgb(ctx, s),
                        name: p.name.clone(),
                        under: def.seat_name(s),
                    });
                }
            }
        } else {
            for _ in 0..p.count {
                tokens.push(Token {
                    d: TOKEN,
                    fill: ctx.ink(Rgb(225, 225, 220)),
                    name: p.name.clone(),
                    under: String::new(),
                });
            }
        }
    }
    // A marker per seat for each seat's counter, one for each of the table's.
    let mut markers = Vec::new();
    for c in &def.counters {
        let (lo, hi) = track_range(c.min, c.max, c.initial);
        let open = c.max.is_none() && hi - lo + 1 >= OPEN_TRACK;
        let under = if open {
            format!("+{OPEN_TRACK} on the back")
        } else {
            String::new()
        };
        match c.scope {
            Scope::Seat => {
                for s in 0..seats {
                    markers.push(Token {
                        d: MARKER,
                        fill: seat_rgb(ctx, s),
                        name: c.name.clone(),
                        under: under.clone(),
                    });
                }
            }
            Scope::Global => markers.push(Token {
                d: MARKER,
                fill: ctx.ink(Rgb(225, 225, 220)),
                name: c.name.clone(),
                under,
            }),
        }
    }
    if !tokens.is_empty() {
        sheets_of(ctx, "pieces", &tokens, out);
    }
    if !markers.is_empty() {
        sheets_of(ctx, "counter markers", &markers, out);
        print_tracks(ctx, out);
    }
}

/// The boxes a counter's track has: from its minimum (or 0) to its maximum, or to
/// `OPEN_TRACK - 1` past its start when it has none; at most 100 boxes.
fn track_range(min: Option<i64>, max: Option<i64>, initial: i64) -> (i64, i64) {
    let lo = min.unwrap_or(initial.min(0)).max(-99);
    let hi = max.unwrap_or(lo + OPEN_TRACK - 1).min(lo + 99).max(lo);
    (lo, hi)
}

/// A track of numbered boxes per counter, as many to a page as fit.
fn print_tracks(ctx: &mut Ctx<'_>, out: &mut Printed) {
    let (pw, ph) = ctx.opts.paper;
    let mut items = Vec::new();
    let mut y = ROOM;
    let mut sheet = 1;
    for c in &ctx.def.counters {
        let (lo, hi) = track_range(c.min, c.max, c.initial);
        let rows = ((hi - lo + 1) as f32 / PER_ROW as f32).ceil();
        let tall = 10.0 + rows * BOX;
        if y + tall > ph - ROOM && !items.is_empty() {
            let label = format!("{}: counter tracks, sheet {sheet}", ctx.def.name);
            out.pages.push(page(ctx, label, std::mem::take(&mut items)));
            sheet += 1;
            y = ROOM;
        }
        let whose = match c.scope {
            Scope::Seat => "a marker per seat",
            Scope::Global => "one marker for the table",
        };
        items.push(heading(
            ROOM,
            y + 5.0,
            pw - 2.0 * ROOM,
            &match &c.initial_option {
                Some(o) => format!("{} ({whose}; starts where the option `{o}` says)", c.name),
                None => format!("{} ({whose}; starts at {})", c.name, c.initial),
            },
        ));
        let x0 = (pw - PER_ROW as f32 * BOX) / 2.0;
        for (i, n) in (lo..=hi).enumerate() {
            let (col, row) = (i as i64 % PER_ROW, i as i64 / PER_ROW);
            let r = Rect::new(x0 + col as f32 * BOX, y + 9.0 + row as f32 * BOX, BOX, BOX);
            let start = n == c.initial && c.initial_option.is_none();
            let fill = start.then(|| ctx.ink(Rgb(255, 236, 170)));
            items.push(Item::rect(r, fill, Some((Rgb(90, 90, 90), 0.3))));
            items.push(Item::Text(TextRun {
                x: r.x,
                y: r.y + BOX * 0.62,
                w: BOX,
                align: Align::Center,
                size: 9.0,
                bold: start,
                color: Rgb::BLACK,
                text: n.to_string(),
            }));
        }
        y += tall + 6.0;
    }
    if !items.is_empty() {
        out.pages.push(page(
            ctx,
            format!("{}: counter tracks, sheet {sheet}", ctx.def.name),
            items,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::track_range;

    #[test]
    fn tracks_run_from_the_minimum_to_the_maximum_or_fifty_boxes() {
        assert_eq!(track_range(Some(0), Some(12), 0), (0, 12));
        assert_eq!(track_range(Some(0), None, 0), (0, 49));
        assert_eq!(track_range(None, None, 5), (0, 49));
        assert_eq!(track_range(Some(-5), Some(1_000), 0), (-5, 94));
    }
}
