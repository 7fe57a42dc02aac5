//! Tiles and boards: square tiles with their roads and cut lines; a board of any kind at the
//! mod's scale (`[board] mm_per_unit`), split over pages with an overlap and registration
//! marks when it is larger than one; a sections city's sections and a track's pieces as
//! pieces to cut out.

use farebox::board::{CARD_MARGIN, CardShape, LANE_WIDTH};
use farebox::content::def::{BoardDef, GraphDef, TileDef, TrackPieceDef};
use farebox::value::Value;

use super::doc::{Align, HAIR, Item, Page, Rect, Rgb, TextRun};
use super::text::{PT, fit};
use super::{Ctx, MARGIN, Printed};

/// How far neighbouring pages of a board overlap at least (mm).
pub const OVERLAP: f32 = 15.0;

/// How far one page of a board is from the next when `a` mm of the page shows the board:
/// whole inches, so that both pages place the strip they share at the same fraction of a
/// printer's or screen's pixel (the strip then rasterises alike on both), and at least
/// [`OVERLAP`] less than `a`.
pub fn step(a: f32) -> f32 {
    const INCH: f32 = 25.4;
    let s = a - OVERLAP;
    if s >= INCH {
        (s / INCH).floor() * INCH
    } else {
        s.max(1.0)
    }
}

/// Millimetres per board unit: the mod's, else a default per kind.
fn scale(ctx: &Ctx<'_>) -> f32 {
    if let Some(m) = &ctx.file.board.mm_per_unit {
        return *m.get_ref();
    }
    match &ctx.def.board {
        BoardDef::Grid(_) => 40.0,
        BoardDef::Sections(s) => 160.0 / s.size.max(1.0) as f32,
        BoardDef::Track(_) => 90.0,
        BoardDef::Graph(g) => {
            // The whole graph on about two pages' width.
            let (w, h) = extent(g);
            (360.0 / w.max(h).max(1.0)).min(40.0)
        }
        BoardDef::None => 1.0,
    }
}

fn extent(g: &GraphDef) -> (f32, f32) {
    let max_x = g.spaces.iter().map(|s| s.x).fold(0.0, f64::max);
    let max_y = g.spaces.iter().map(|s| s.y).fold(0.0, f64::max);
    (max_x as f32, max_y as f32)
}

/// How many copies of each tile kind the decks hold (a card whose ref field names it), at
/// least one.
fn tile_copies(ctx: &Ctx<'_>, tile: &TileDef) -> u32 {
    let n: u32 = ctx
        .def
        .decks
        .iter()
        .flat_map(|d| {
            d.cards.iter().filter(|c| {
                c.fields
                    .values()
                    .any(|v| matches!(v, Value::Str(s) if s == &tile.id))
            })
        })
        .map(|c| c.count)
        .sum();
    n.max(1)
}

/// A tile's roads, drawn in a cell `r`: a band from each entry side to each side it leads to,
/// an arrow on one-way roads, a dead end's stub.
pub fn tile_items(ctx: &Ctx<'_>, tile: &TileDef, r: Rect, rotation: u8) -> Vec<Item> {
    let road = ctx.ink(Rgb(70, 70, 75));
    let ground = ctx.ink(if tile.blocks {
        Rgb(230, 170, 120)
    } else {
        Rgb(200, 225, 190)
    });
    let mut items = vec![Item::rect(r, Some(ground), None)];
    let c = (r.x + r.w / 2.0, r.y + r.h / 2.0);
    let side = |s: usize| {
        let s = (s + rotation as usize) % 4;
        match s {
            0 => (c.0, r.y),
            1 => (r.right(), c.1),
            2 => (c.0, r.bottom()),
            _ => (r.x, c.1),
        }
    };
    let width = r.w * 0.22;
    for a in 0..4 {
        for b in 0..4 {
            if tile.links[a] & (1 << b) == 0 {
                continue;
            }
            let two_way = tile.links[b] & (1 << a) != 0;
            if two_way && b < a {
                continue;
            }
            let (pa, pb) = (side(a), side(b));
            items.push(Item::Shape {
                points: if a == b { vec![pa, c] } else { vec![pa, c, pb] },
                closed: false,
                fill: None,
                stroke: Some((road, width)),
                dashed: false,
            });
            if !two_way && a != b {
                // An arrow at the exit half, pointing out.
                let m = ((c.0 + pb.0) / 2.0, (c.1 + pb.1) / 2.0);
                let (dx, dy) = (pb.0 - c.0, pb.1 - c.1);
                let len = (dx * dx + dy * dy).sqrt().max(0.01);
                let (ux, uy) = (dx / len, dy / len);
                let s = width * 0.35;
                items.push(Item::Shape {
                    points: vec![
                        (m.0 + ux * s, m.1 + uy * s),
                        (m.0 - ux * s - uy * s, m.1 - uy * s + ux * s),
                        (m.0 - ux * s + uy * s, m.1 - uy * s - ux * s),
                    ],
                    closed: true,
                    fill: Some(Rgb::WHITE),
                    stroke: None,
                    dashed: false,
                });
            }
        }
    }
    if tile.move_cost > 1 {
        items.push(Item::Circle {
            c,
            r: width * 0.5,
            fill: Some(Rgb(200, 40, 40)),
            stroke: Some((Rgb::WHITE, 0.4)),
        });
    }
    let name = fit(&ctx.fonts, &tile.name, true, 6.0, 4.0, r.w - 2.0, 5.0);
    items.push(Item::Text(TextRun {
        x: r.x + 1.0,
        y: r.y + 1.0 + 0.76 * name.size * PT,
        w: r.w - 2.0,
        align: Align::Left,
        size: name.size,
        bold: true,
        color: Rgb::BLACK,
        text: name.lines.first().cloned().unwrap_or_default(),
    }));
    items
}

/// The tile kinds, each as many times as the decks hold it, on sheets with cut lines.
pub fn print_tiles(ctx: &mut Ctx<'_>, out: &mut Printed) -> Result<(), Vec<String>> {
    if ctx.def.tiles.is_empty() {
        return Ok(());
    }
    let side = scale(ctx).clamp(15.0, 180.0);
    let (pw, ph) = ctx.opts.paper;
    let b = ctx.opts.bleed;
    let room = MARGIN + 5.0;
    let cols = ((pw - 2.0 * room + 2.0 * b) / (side + 2.0 * b)).floor() as usize;
    let rows = ((ph - 2.0 * room + 2.0 * b) / (side + 2.0 * b)).floor() as usize;
    if cols == 0 || rows == 0 {
        return Err(vec![format!(
            "tiles of {side} mm (board.mm_per_unit) do not fit on the paper"
        )]);
    }
    let mut all = Vec::new();
    for t in &ctx.def.tiles {
        for _ in 0..tile_copies(ctx, t) {
            all.push(t.clone());
        }
    }
    let per = cols * rows;
    let gap = 2.0 * b;
    let x0 = (pw - (cols as f32 * side + (cols - 1) as f32 * gap)) / 2.0;
    let y0 = (ph - (rows as f32 * side + (rows - 1) as f32 * gap)) / 2.0;
    for (s, chunk) in all.chunks(per).enumerate() {
        let mut items = Vec::new();
        let mut trims = Vec::new();
        for (i, t) in chunk.iter().enumerate() {
            let r = Rect::new(
                x0 + (i % cols) as f32 * (side + gap),
                y0 + (i / cols) as f32 * (side + gap),
                side,
                side,
            );
            // The ground bleeds; the roads stop at the trim.
            items.push(Item::rect(
                r.inset(-b),
                Some(ctx.ink(Rgb(200, 225, 190))),
                None,
            ));
            items.extend(tile_items(ctx, t, r, 0));
            items.push(Item::rect(r, None, Some((Rgb::GREY, HAIR))));
            trims.push(r);
        }
        out.pages.push(Page::sheet(
            ctx.opts.paper,
            ctx.opts.bleed,
            &trims,
            items,
            format!("Tiles, sheet {}", s + 1),
        ));
    }
    Ok(())
}

/// Spaces and roads of a graph, `k` mm per unit, offset by `o`.
fn graph_items(ctx: &Ctx<'_>, g: &GraphDef, k: f32, o: (f32, f32)) -> Vec<Item> {
    let at = |i: usize| {
        g.spaces
            .get(i)
            .map_or((0.0, 0.0), |s| (o.0 + s.x as f32 * k, o.1 + s.y as f32 * k))
    };
    let mut items = Vec::new();
    let road = ctx.ink(Rgb(120, 120, 125));
    let ground = ctx.ink(GROUND);
    for e in &g.edges {
        let (a, b) = (at(e.from), at(e.to));
        items.push(Item::Shape {
            points: vec![a, b],
            closed: false,
            fill: None,
            stroke: Some((road, 1.2)),
            dashed: !e.tags.is_empty(),
        });
        if e.directed {
            let m = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let l = (dx * dx + dy * dy).sqrt().max(0.01);
            let (ux, uy) = (dx / l * 2.0, dy / l * 2.0);
            items.push(Item::Shape {
                points: vec![
                    (m.0 + ux, m.1 + uy),
                    (m.0 - ux - uy, m.1 - uy + ux),
                    (m.0 - ux + uy, m.1 - uy - ux),
                ],
                closed: true,
                fill: Some(Rgb::BLACK),
                stroke: None,
                dashed: false,
            });
        }
        if e.cost > 1 {
            let m = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            items.push(Item::Text(TextRun {
                x: m.0 - 5.0,
                y: m.1 - 1.0,
                w: 10.0,
                align: Align::Center,
                size: 6.0,
                bold: true,
                color: Rgb(160, 40, 40),
                text: e.cost.to_string(),
            }));
        }
    }
    let r = (k * 0.28).clamp(1.5, 6.0);
    for (i, s) in g.spaces.iter().enumerate() {
        let c = at(i);
        let tagged = !s.tags.is_empty();
        items.push(Item::Circle {
            c,
            r,
            fill: Some(if tagged {
                ctx.ink(Rgb(250, 215, 90))
            } else {
                Rgb::WHITE
            }),
            stroke: Some((Rgb::BLACK, 0.35)),
        });
        let label = if s.name.is_empty() { &s.id } else { &s.name };
        let f = fit(&ctx.fonts, label, false, 7.0, 4.5, (k * 1.8).max(14.0), 6.5);
        for (j, l) in f.lines.iter().enumerate() {
            let y = c.1 + r + 2.6 + j as f32 * f.size * PT * 1.1;
            items.push(halo(ctx, l, false, f.size, c.0, y, ground));
            items.push(Item::Text(TextRun {
                x: c.0 - (k * 0.9).max(7.0),
                y,
                w: (k * 1.8).max(14.0),
                align: Align::Center,
                size: f.size,
                bold: false,
                color: Rgb::BLACK,
                text: l.clone(),
            }));
        }
        if tagged {
            let tags = s.tags.join(" · ");
            items.push(halo(ctx, &tags, true, 5.5, c.0, c.1 - r - 0.8, ground));
            items.push(Item::Text(TextRun {
                x: c.0 - 15.0,
                y: c.1 - r - 0.8,
                w: 30.0,
                align: Align::Center,
                size: 5.5,
                bold: true,
                color: Rgb(110, 80, 0),
                text: tags,
            }));
        }
    }
    items
}

/// The ground of a map or section board.
const GROUND: Rgb = Rgb(240, 244, 236);

/// A patch of `ground` behind a line of text centred on `cx` with its baseline at `y`, so
/// roads under a label do not run through its letters.
fn halo(ctx: &Ctx<'_>, text: &str, bold: bool, size: f32, cx: f32, y: f32, ground: Rgb) -> Item {
    let em = size * PT;
    let w = ctx.fonts.width(text, bold) * em + 0.8;
    Item::rect(
        Rect::new(cx - w / 2.0, y - 0.8 * em, w, 1.05 * em),
        Some(ground),
        None,
    )
}

/// A registration mark: a circle with a cross.
fn registration(c: (f32, f32)) -> Vec<Item> {
    vec![
        Item::Circle {
            c,
            r: 2.0,
            fill: None,
            stroke: Some((Rgb::BLACK, HAIR)),
        },
        Item::line((c.0 - 3.0, c.1), (c.0 + 3.0, c.1), Rgb::BLACK, HAIR),
        Item::line((c.0, c.1 - 3.0), (c.0, c.1 + 3.0), Rgb::BLACK, HAIR),
    ]
}

/// Pages showing a drawing `w` x `h` mm: one page when it fits, else windows that overlap by
/// [`OVERLAP`], with registration marks in each overlap and the windows named A1, B1, ...
pub fn paginate(ctx: &Ctx<'_>, name: &str, w: f32, h: f32, items: Vec<Item>) -> Vec<Page> {
    let (pw, ph) = ctx.opts.paper;
    let room = MARGIN + 3.0;
    let (aw, ah) = (pw - 2.0 * room, ph - 2.0 * room - 6.0);
    let count = |size: f32, a: f32| {
        if size <= a {
            1
        } else {
            ((size - (a - step(a))) / step(a)).ceil() as usize
        }
    };
    // The overlap of neighbouring pages across and down.
    let (ox, oy) = (aw - step(aw), ah - step(ah));
    let (nx, ny) = (count(w, aw), count(h, ah));
    let mut items = items;
    // Registration marks at the middle of each overlap, on every seam.
    for i in 1..nx {
        let x = i as f32 * step(aw) + ox / 2.0;
        for j in 0..ny {
            let y0 = j as f32 * step(ah);
            for f in [0.2f32, 0.8] {
                items.extend(registration((x, y0 + ah.min(h) * f)));
            }
        }
    }
    for j in 1..ny {
        let y = j as f32 * step(ah) + oy / 2.0;
        for i in 0..nx {
            let x0 = i as f32 * step(aw);
            for f in [0.2f32, 0.8] {
                items.extend(registration((x0 + aw.min(w) * f, y)));
            }
        }
    }
    let mut pages = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            let (wx, wy) = (i as f32 * step(aw), j as f32 * step(ah));
            let win_w = aw.min(w - wx);
            let win_h = ah.min(h - wy);
            let clip = Rect::new(room, room + 6.0, win_w, win_h);
            let mut page_items = vec![Item::Group {
                clip: Some(clip),
                translate: (room - wx, room + 6.0 - wy),
                rotate: 0.0,
                pivot: (0.0, 0.0),
                items: items.clone(),
            }];
            let tag = format!("{}{}", (b'A' + (i % 26) as u8) as char, j + 1);
            let title = if nx * ny > 1 {
                let over = match (nx > 1, ny > 1) {
                    (true, true) => format!("{ox:.0} mm across and {oy:.0} mm down"),
                    (true, false) => format!("{ox:.0} mm"),
                    _ => format!("{oy:.0} mm"),
                };
                format!("{name}: part {tag} of {nx}x{ny}, overlapping its neighbours by {over}")
            } else {
                name.to_string()
            };
            page_items.push(Item::Text(TextRun {
                x: room,
                y: room + 3.0,
                w: aw,
                align: Align::Left,
                size: 8.0,
                bold: true,
                color: Rgb::BLACK,
                text: title,
            }));
            page_items.push(Item::Shape {
                points: vec![
                    (clip.x, clip.y),
                    (clip.right(), clip.y),
                    (clip.right(), clip.bottom()),
                    (clip.x, clip.bottom()),
                ],
                closed: true,
                fill: None,
                stroke: Some((Rgb::GREY, HAIR)),
                dashed: true,
            });
            pages.push(Page {
                w: pw,
                h: ph,
                trim: Some(clip),
                bleed: Some(clip),
                items: page_items,
                label: format!("{name}, part {tag}"),
            });
        }
    }
    pages
}

/// The board, whatever its kind.
pub fn print_board(ctx: &mut Ctx<'_>, out: &mut Printed) -> Result<(), Vec<String>> {
    let k = scale(ctx);
    let def = ctx.def;
    match &def.board {
        BoardDef::None => {}
        BoardDef::Grid(g) => {
            let (w, h) = (g.width as f32 * k, g.height as f32 * k);
            guard(w, h)?;
            let mut items = vec![Item::rect(
                Rect::new(0.0, 0.0, w, h),
                Some(ctx.ink(Rgb(245, 245, 238))),
                None,
            )];
            for y in 0..g.height {
                for x in 0..g.width {
                    let r = Rect::new(x as f32 * k, y as f32 * k, k, k);
                    items.push(Item::rect(r, None, Some((Rgb::GREY, 0.3))));
                }
            }
            for c in &g.cells {
                let r = Rect::new((c.x - 1) as f32 * k, (c.y - 1) as f32 * k, k, k);
                if let Some((t, rot)) = c.tile
                    && let Some(tile) = def.tiles.get(t)
                {
                    items.extend(tile_items(ctx, tile, r, rot));
                }
                let label = [c.id.clone().unwrap_or_default(), c.tags.join(" ")]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" · ");
                items.push(Item::Text(TextRun {
                    x: r.x + 1.0,
                    y: r.bottom() - 1.5,
                    w: r.w - 2.0,
                    align: Align::Left,
                    size: 6.0,
                    bold: true,
                    color: Rgb(60, 60, 140),
                    text: label,
                }));
            }
            out.pages.extend(paginate(ctx, &def.name, w, h, items));
        }
        BoardDef::Graph(g) => {
            let (ew, eh) = extent(g);
            let pad = 12.0;
            let (w, h) = (ew * k + 2.0 * pad, eh * k + 2.0 * pad);
            guard(w, h)?;
            let mut items = vec![Item::rect(
                Rect::new(0.0, 0.0, w, h),
                Some(ctx.ink(GROUND)),
                None,
            )];
            items.extend(graph_items(ctx, g, k, (pad, pad)));
            out.pages.extend(paginate(ctx, &def.name, w, h, items));
        }
        BoardDef::Sections(s) => {
            let side = s.size as f32 * k;
            guard(side, side)?;
            for sec in &s.sections {
                let mut items = vec![Item::rect(
                    Rect::new(0.0, 0.0, side, side),
                    Some(ctx.ink(GROUND)),
                    Some((Rgb::BLACK, HAIR)),
                )];
                items.extend(graph_items(ctx, &sec.graph, k, (0.0, 0.0)));
                let name = format!("{}: section {}", def.name, sec.name);
                out.pages.extend(paginate(ctx, &name, side, side, items));
            }
        }
        BoardDef::Track(t) => {
            let copies = |p: &TrackPieceDef| -> u32 {
                def.decks
                    .iter()
                    .flat_map(|d| &d.cards)
                    .filter(|c| {
                        c.fields
                            .values()
                            .any(|v| matches!(v, Value::Str(s) if s == &p.id))
                    })
                    .map(|c| c.count)
                    .sum::<u32>()
                    .max(1)
            };
            let mut all = Vec::new();
            for p in &t.pieces {
                let (items, w, h) = track_piece(ctx, p, k);
                guard(w, h)?;
                for n in 0..copies(p) {
                    let name = format!("{} ({} of {})", p.name, n + 1, copies(p));
                    all.push(Piece {
                        name,
                        items: items.clone(),
                        w,
                        h,
                    });
                }
            }
            out.pages
                .extend(gang(ctx, &format!("{}: track pieces", def.name), all));
        }
    }
    Ok(())
}

/// A piece to cut out: its drawing (from its top left) and size in mm.
pub struct Piece {
    pub name: String,
    pub items: Vec<Item>,
    pub w: f32,
    pub h: f32,
}

/// Pieces at their true size, as many to a sheet as fit: in rows, tallest first, each in its
/// own box (its outline is the cut line), named `name, sheet N`. A piece larger than the
/// printable area goes over pages of its own, as a board does.
pub fn gang(ctx: &Ctx<'_>, name: &str, mut pieces: Vec<Piece>) -> Vec<Page> {
    let (pw, ph) = ctx.opts.paper;
    let room = MARGIN + 3.0;
    let top = room + 6.0;
    let (aw, ah) = (pw - 2.0 * room, ph - room - top);
    pieces.sort_by(|a, b| b.h.total_cmp(&a.h));
    let mut pages = Vec::new();
    // Each sheet: its rows (top, height, width used) and its pieces placed.
    struct Sheet {
        rows: Vec<(f32, f32, f32)>,
        placed: Vec<(f32, f32, Piece)>,
    }
    let mut sheets: Vec<Sheet> = Vec::new();
    for p in pieces {
        if p.w > aw || p.h > ah {
            let title = format!("{name}: {}", p.name);
            pages.extend(paginate(ctx, &title, p.w, p.h, p.items));
            continue;
        }
        // The first row of any sheet with room, else a new row on the first sheet with room
        // below its rows, else a new sheet (tallest first, so a row is as tall as its first).
        let mut spot = None;
        'find: for (si, s) in sheets.iter_mut().enumerate() {
            for row in &mut s.rows {
                if p.h <= row.1 && row.2 + p.w <= aw {
                    spot = Some((si, row.2, row.0));
                    row.2 += p.w;
                    break 'find;
                }
            }
            let below = s.rows.last().map_or(0.0, |r| r.0 + r.1);
            if below + p.h <= ah {
                s.rows.push((below, p.h, p.w));
                spot = Some((si, 0.0, below));
                break;
            }
        }
        let (si, x, y) = match spot {
            Some(s) => s,
            None => {
                sheets.push(Sheet {
                    rows: vec![(0.0, p.h, p.w)],
                    placed: Vec::new(),
                });
                (sheets.len() - 1, 0.0, 0.0)
            }
        };
        sheets[si].placed.push((room + x, top + y, p));
    }
    let sheets: Vec<Vec<(f32, f32, Piece)>> = sheets.into_iter().map(|s| s.placed).collect();
    let count = sheets.len();
    for (n, sheet) in sheets.into_iter().enumerate() {
        let mut items = vec![Item::Text(TextRun {
            x: room,
            y: room + 3.0,
            w: aw,
            align: Align::Left,
            size: 8.0,
            bold: true,
            color: Rgb::BLACK,
            text: format!(
                "{name}, sheet {} of {count}: cut along each piece's outline",
                n + 1
            ),
        })];
        let mut trims = Vec::new();
        for (px, py, p) in sheet {
            trims.push(Rect::new(px, py, p.w, p.h));
            items.push(Item::Group {
                clip: None,
                translate: (px, py),
                rotate: 0.0,
                pivot: (0.0, 0.0),
                items: p.items,
            });
        }
        pages.push(Page::sheet(
            ctx.opts.paper,
            ctx.opts.bleed,
            &trims,
            items,
            format!("{name}, sheet {}", n + 1),
        ));
    }
    pages
}

/// A board larger than this (mm) is refused: hundreds of pages help no one.
const MAX_BOARD_MM: f32 = 5_000.0;

fn guard(w: f32, h: f32) -> Result<(), Vec<String>> {
    if !(w.is_finite() && h.is_finite()) || w > MAX_BOARD_MM || h > MAX_BOARD_MM {
        return Err(vec![format!(
            "the board would be {w:.0}x{h:.0} mm at this scale; a print takes boards up to {MAX_BOARD_MM} mm a side (set board.mm_per_unit in the mod's print file)"
        )]);
    }
    Ok(())
}

/// A track piece at `k` mm per card length: its outline to cut, lanes and rows, gates, name.
fn track_piece(ctx: &Ctx<'_>, p: &TrackPieceDef, k: f32) -> (Vec<Item>, f32, f32) {
    let shape = CardShape::new(0.0, 0.0, 0, p.turn, p.lanes);
    let hw = shape.half_width();
    // Outline points along both edges, finely enough for curves.
    let n = 24;
    let mut left = Vec::new();
    let mut right = Vec::new();
    for i in 0..=n {
        let f = i as f64 / n as f64;
        left.push(shape.at(f, -hw));
        right.push(shape.at(f, hw));
    }
    let all: Vec<(f64, f64)> = left.iter().chain(right.iter()).copied().collect();
    let min_x = all.iter().map(|p| p.0).fold(f64::MAX, f64::min);
    let min_y = all.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let max_x = all.iter().map(|p| p.0).fold(f64::MIN, f64::max);
    let max_y = all.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    // Room around the outline: neighbours on a sheet stay apart for the scissors.
    let pad = 2.0;
    let tr = |q: (f64, f64)| {
        (
            pad + (q.0 - min_x) as f32 * k,
            pad + (q.1 - min_y) as f32 * k,
        )
    };
    let mut outline: Vec<(f32, f32)> = left.iter().map(|q| tr(*q)).collect();
    outline.extend(right.iter().rev().map(|q| tr(*q)));
    let mut items = vec![Item::Shape {
        points: outline,
        closed: true,
        fill: Some(ctx.ink(Rgb(90, 90, 95))),
        stroke: Some((Rgb::BLACK, 0.4)),
        dashed: false,
    }];
    // Lane dividers and row lines.
    for l in 1..p.lanes {
        let off = -hw + CARD_MARGIN / 2.0 + l as f64 * LANE_WIDTH;
        let pts: Vec<(f32, f32)> = (0..=n)
            .map(|i| tr(shape.at(i as f64 / n as f64, off)))
            .collect();
        items.push(Item::Shape {
            points: pts,
            closed: false,
            fill: None,
            stroke: Some((Rgb::WHITE, 0.5)),
            dashed: true,
        });
    }
    for r in 0..=p.rows {
        let f = r as f64 / p.rows.max(1) as f64;
        items.push(Item::line(
            tr(shape.at(f, -hw + CARD_MARGIN / 2.0)),
            tr(shape.at(f, hw - CARD_MARGIN / 2.0)),
            Rgb::WHITE,
            0.4,
        ));
    }
    for (lanes, size) in &p.gates {
        for l in lanes {
            let off = -hw + CARD_MARGIN / 2.0 + (*l as f64 + 0.5) * LANE_WIDTH;
            let c = tr(shape.at(0.5, off));
            items.push(Item::Circle {
                c,
                r: 2.5,
                fill: Some(Rgb(230, 60, 60)),
                stroke: Some((Rgb::WHITE, 0.3)),
            });
            items.push(Item::Text(TextRun {
                x: c.0 - 3.0,
                y: c.1 + 1.0,
                w: 6.0,
                align: Align::Center,
                size: 6.0,
                bold: true,
                color: Rgb::WHITE,
                text: size.to_string(),
            }));
        }
    }
    let c = tr(shape.at(0.15, 0.0));
    items.push(halo(
        ctx,
        &p.name,
        true,
        7.0,
        c.0,
        c.1,
        ctx.ink(Rgb(90, 90, 95)),
    ));
    items.push(Item::Text(TextRun {
        x: c.0 - 30.0,
        y: c.1,
        w: 60.0,
        align: Align::Center,
        size: 7.0,
        bold: true,
        color: Rgb::WHITE,
        text: p.name.clone(),
    }));
    let w = (max_x - min_x) as f32 * k + 2.0 * pad;
    let h = (max_y - min_y) as f32 * k + 2.0 * pad;
    (items, w, h)
}
