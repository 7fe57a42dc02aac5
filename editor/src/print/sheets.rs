//! Sheets to read at the table: each lookup table as a grid of its columns and rows, and the
//! player aid (the turn summary the mod's print file writes), over as many pages as they need.

use super::doc::{Align, HAIR, Item, Page, Rect, Rgb, TextRun};
use super::text::{PT, wrap};
use super::{Ctx, MARGIN, Printed};

const ROOM: f32 = MARGIN + 10.0;

/// A page of `items` with no trim: a sheet to read or to cut along its own lines.
pub(super) fn page(ctx: &Ctx<'_>, label: String, items: Vec<Item>) -> Page {
    Page {
        w: ctx.opts.paper.0,
        h: ctx.opts.paper.1,
        trim: None,
        bleed: None,
        items,
        label,
    }
}

fn title(items: &mut Vec<Item>, x: f32, y: f32, w: f32, text: &str) {
    items.push(Item::Text(TextRun {
        x,
        y,
        w,
        align: Align::Left,
        size: 14.0,
        bold: true,
        color: Rgb::BLACK,
        text: text.to_string(),
    }));
}

/// Every lookup table as a sheet (continued on more pages when long).
pub fn print_tables(ctx: &mut Ctx<'_>, out: &mut Printed) {
    let (pw, ph) = ctx.opts.paper;
    let w = pw - 2.0 * ROOM;
    for t in &ctx.def.tables {
        let cols: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        if cols.is_empty() {
            continue;
        }
        // Columns share the width by the longest text in each, within limits.
        let size = 8.0;
        let longest: Vec<f32> = cols
            .iter()
            .map(|c| {
                let head = ctx.fonts.width(c, true);
                t.rows
                    .iter()
                    .map(|r| r.get(*c).map_or(0.0, |v| ctx.fonts.width(&cell(v), false)))
                    .fold(head, f32::max)
                    .clamp(3.0, 40.0)
            })
            .collect();
        let sum: f32 = longest.iter().sum();
        let widths: Vec<f32> = longest.iter().map(|l| l / sum * w).collect();
        let lh = 1.25 * size * PT;
        let mut items = Vec::new();
        let mut y = ROOM;
        let mut part = 1;
        let head = |items: &mut Vec<Item>, y: &mut f32, part: usize| {
            let name = if part == 1 {
                t.name.clone()
            } else {
                format!("{} (continued)", t.name)
            };
            title(items, ROOM, *y + 5.0, w, &name);
            *y += 9.0;
            if part == 1 && !t.description.is_empty() {
                for l in wrap(&ctx.fonts, &t.description, false, 8.0, w) {
                    items.push(Item::Text(TextRun {
                        x: ROOM,
                        y: *y + 3.0,
                        w,
                        align: Align::Left,
                        size: 8.0,
                        bold: false,
                        color: Rgb(60, 60, 60),
                        text: l,
                    }));
                    *y += 8.0 * PT * 1.2;
                }
                *y += 2.0;
            }
            let mut x = ROOM;
            items.push(Item::rect(
                Rect::new(ROOM, *y, w, lh + 1.0),
                Some(Rgb::LIGHT),
                None,
            ));
            for (c, cw) in cols.iter().zip(&widths) {
                items.push(Item::Text(TextRun {
                    x: x + 1.0,
                    y: *y + lh * 0.8,
                    w: cw - 2.0,
                    align: Align::Left,
                    size,
                    bold: true,
                    color: Rgb::BLACK,
                    text: c.replace('_', " "),
                }));
                x += cw;
            }
            *y += lh + 1.0;
        };
        head(&mut items, &mut y, part);
        for row in &t.rows {
            // A row's height is its tallest wrapped cell.
            let cells: Vec<Vec<String>> = cols
                .iter()
                .zip(&widths)
                .map(|(c, cw)| {
                    wrap(
                        &ctx.fonts,
                        &row.get(*c).map(cell).unwrap_or_default(),
                        false,
                        size,
                        cw - 2.0,
                    )
                })
                .collect();
            let lines = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            let rh = lines as f32 * lh + 1.0;
            if y + rh > ph - ROOM {
                out.pages.push(page(
                    ctx,
                    format!("{}, page {part}", t.name),
                    std::mem::take(&mut items),
                ));
                part += 1;
                y = ROOM;
                head(&mut items, &mut y, part);
            }
            let mut x = ROOM;
            for (ls, cw) in cells.iter().zip(&widths) {
                for (i, l) in ls.iter().enumerate() {
                    items.push(Item::Text(TextRun {
                        x: x + 1.0,
                        y: y + lh * 0.8 + i as f32 * lh,
                        w: cw - 2.0,
                        align: Align::Left,
                        size,
                        bold: false,
                        color: Rgb::BLACK,
                        text: l.clone(),
                    }));
                }
                x += cw;
            }
            y += rh;
            items.push(Item::line((ROOM, y), (ROOM + w, y), Rgb::GREY, HAIR));
        }
        out.pages
            .push(page(ctx, format!("{}, page {part}", t.name), items));
    }
}

fn cell(v: &farebox::value::Value) -> String {
    use farebox::value::Value;
    match v {
        Value::Nil => String::new(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Int(i) => i.to_string(),
        Value::Num(n) => format!("{n}"),
        Value::Str(s) => s.clone(),
        Value::List(l) => l.iter().map(cell).collect::<Vec<_>>().join(", "),
        Value::Map(_) => String::new(),
    }
}

/// The player aid: the print file's `[aid]`, one copy per seat at most four to a page; with
/// no aid, the game's name, seats and description.
pub fn print_aid(ctx: &mut Ctx<'_>, out: &mut Printed) {
    let def = ctx.def;
    let (title_text, lines) = match &ctx.file.aid {
        Some(a) => (a.title.clone(), a.lines.clone()),
        None => return,
    };
    let (pw, ph) = ctx.opts.paper;
    // Two aids to a page, one above the other, to cut apart.
    let half = (ph - 2.0 * MARGIN) / 2.0;
    let w = pw - 2.0 * ROOM;
    let mut body = Vec::new();
    let mut height = 0.0;
    let size = 9.0;
    let mut y = 14.0;
    for l in &lines {
        let (bullet, text) = match l.strip_prefix("# ") {
            Some(h) => (false, h.to_string()),
            None => (true, l.clone()),
        };
        let bold = !bullet;
        let wrapped = wrap(&ctx.fonts, &text, bold, size, w - 6.0);
        for (i, wl) in wrapped.iter().enumerate() {
            body.push((y, bullet && i == 0, bold, wl.clone()));
            y += size * PT * 1.3;
        }
        y += if bold { 0.5 } else { 1.2 };
        height = y;
    }
    if height > half - 6.0 {
        ctx.warn(format!(
            "{}: the player aid is taller than half a page; it prints at the top of a page of its own",
            ctx.file_path
        ));
    }
    let seats = (def.players.1 as usize).clamp(1, 8);
    let per_page = if height > half - 6.0 { 1 } else { 2 };
    let mut items = Vec::new();
    for s in 0..seats {
        let top = MARGIN + (s % per_page) as f32 * half + 4.0;
        items.push(Item::rect(
            Rect::new(ROOM - 4.0, top, w + 8.0, half - 8.0),
            None,
            Some((Rgb::GREY, HAIR)),
        ));
        title(
            &mut items,
            ROOM,
            top + 8.0,
            w,
            &format!("{}: {title_text}", def.name),
        );
        for (y, bullet, bold, text) in &body {
            if *bullet {
                items.push(Item::Text(TextRun {
                    x: ROOM,
                    y: top + y + 2.0,
                    w: 5.0,
                    align: Align::Left,
                    size,
                    bold: false,
                    color: Rgb::BLACK,
                    text: "•".into(),
                }));
            }
            items.push(Item::Text(TextRun {
                x: ROOM + 5.0,
                y: top + y + 2.0,
                w: w - 5.0,
                align: Align::Left,
                size,
                bold: *bold,
                color: Rgb::BLACK,
                text: text.clone(),
            }));
        }
        if s % per_page == per_page - 1 || s + 1 == seats {
            out.pages.push(page(
                ctx,
                format!("{}, sheet {}", title_text, s / per_page + 1),
                std::mem::take(&mut items),
            ));
        }
    }
}
