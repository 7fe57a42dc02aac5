//! Card sheets: faces through the deck's template (or the plain default), a short content
//! hash on each, crop marks outside the bleed, and backs (after each sheet, mirrored, with
//! `--duplex`; else one sheet of backs per deck).

use farebox::GameDef;
use farebox::content::def::{CardDef, DeckDef, FieldType};
use farebox::value::Value;

use super::doc::{Align, HAIR, Item, Page, Picture, Rect, Rgb, TextRun};
use super::layout::{DeckTemplate, Region, card_size, slots};
use super::text::{ASCENT, LINE, PT, fit};
use super::{Ctx, Layout, MARGIN, MAX_CARDS, Printed, PrintedCard, SAFE};

/// Crop marks start this far beyond the bleed and are this long.
const MARK_GAP: f32 = 1.0;
const MARK_LEN: f32 = 3.5;

/// The short content hash printed on a card: what the card says, so a stale print shows.
pub fn card_hash(deck: &DeckDef, card: &CardDef) -> String {
    let mut h = blake3::Hasher::new();
    for part in [&deck.id, &card.id, &card.name, &card.text] {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    for t in &card.tags {
        h.update(t.as_bytes());
        h.update(&[1]);
    }
    for (k, v) in &card.fields {
        h.update(k.as_bytes());
        h.update(format!("={v:?}").as_bytes());
        h.update(&[2]);
    }
    h.finalize().to_hex()[..6].to_string()
}

/// The name of the thing an id names (a tile, a card, a space, a track piece), or the id.
fn name_of(def: &GameDef, id: &str) -> String {
    use farebox::content::def::BoardDef;
    let named = |n: &str| (!n.is_empty()).then(|| n.to_string());
    def.tiles
        .iter()
        .find(|t| t.id == id)
        .and_then(|t| named(&t.name))
        .or_else(|| {
            def.decks
                .iter()
                .flat_map(|d| &d.cards)
                .find(|c| c.id == id)
                .and_then(|c| named(&c.name))
        })
        .or_else(|| match &def.board {
            BoardDef::Graph(g) => g
                .spaces
                .iter()
                .find(|s| s.id == id)
                .and_then(|s| named(&s.name)),
            BoardDef::Sections(s) => s
                .sections
                .iter()
                .flat_map(|x| &x.graph.spaces)
                .find(|s| s.id == id)
                .and_then(|s| named(&s.name)),
            BoardDef::Track(t) => t
                .pieces
                .iter()
                .find(|p| p.id == id)
                .and_then(|p| named(&p.name)),
            _ => None,
        })
        .unwrap_or_else(|| id.replace('-', " "))
}

/// A field's value as a player reads it: a choice's label, the name of what a reference
/// names, a list joined with commas; a false flag is empty (so `when` can test it).
fn shown(def: &GameDef, deck: &DeckDef, field: &str, v: &Value) -> String {
    let fd = deck.fields.iter().find(|f| f.name == field);
    let is_ref = fd.is_some_and(|f| matches!(f.kind, FieldType::Ref | FieldType::Refs));
    let label = |s: &str| match fd.and_then(|f| f.choices.iter().find(|(id, _)| id == s)) {
        Some((_, l)) => l.clone(),
        None if is_ref => name_of(def, s),
        None => s.to_string(),
    };
    match v {
        Value::Nil | Value::Bool(false) => String::new(),
        Value::Bool(true) => "yes".to_string(),
        Value::Int(i) => i.to_string(),
        Value::Num(n) => format!("{n}"),
        Value::Str(s) => label(s),
        Value::List(l) => l
            .iter()
            .map(|x| shown(def, deck, field, x))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Map(_) => String::new(),
    }
}

/// The value of a slot for a card; None when the card leaves it empty.
fn slot_value(def: &GameDef, deck: &DeckDef, card: &CardDef, slot: &str) -> Option<String> {
    let s = match slot {
        "name" => card.name.clone(),
        "text" => card.text.clone(),
        "id" => card.id.clone(),
        "count" => card.count.to_string(),
        "tags" => card.tags.join(", "),
        f => {
            let v = card.fields.get(f).or_else(|| {
                deck.fields
                    .iter()
                    .find(|d| d.name == f)
                    .and_then(|d| d.default.as_ref())
            })?;
            // A tile field's slot keeps the id: a `tile` region draws it.
            if f == "tile" {
                return Some(shown(def, deck, "", v)).filter(|s| !s.is_empty());
            }
            shown(def, deck, f, v)
        }
    };
    (!s.is_empty()).then_some(s)
}

/// `s` with its slots filled; None when a slot is empty.
fn fill_slots(def: &GameDef, deck: &DeckDef, card: &CardDef, s: &str) -> Option<String> {
    let mut out = s.to_string();
    for slot in slots(s) {
        let v = slot_value(def, deck, card, slot)?;
        out = out.replacen(&format!("{{{slot}}}"), &v, 1);
    }
    Some(out)
}

/// A colour: `#hex`, a `[colors]` name, or a `{field}` naming either.
fn colour(ctx: &Ctx<'_>, deck: &DeckDef, card: &CardDef, s: &str) -> Result<Rgb, String> {
    let v = fill_slots(ctx.def, deck, card, s).unwrap_or_default();
    Rgb::parse(&v)
        .or_else(|| {
            ctx.file
                .colors
                .get(&v)
                .and_then(|c| Rgb::parse(c.get_ref()))
        })
        .ok_or_else(|| {
            format!("colour `{v}` (from `{s}`) is neither #rrggbb nor a name under [colors]")
        })
}

/// How a sheet of cards is laid out: columns, rows, the first card's top left, and the gaps
/// between cards across and down.
#[derive(Debug, Clone, Copy)]
struct Grid {
    cols: usize,
    rows: usize,
    x0: f32,
    y0: f32,
    gap: f32,
    gap_y: f32,
}

impl Grid {
    fn per_sheet(&self) -> usize {
        self.cols * self.rows
    }
    fn slot(&self, i: usize, w: f32, h: f32) -> Rect {
        let (c, r) = (i % self.cols, i / self.cols);
        Rect::new(
            self.x0 + c as f32 * (w + self.gap),
            self.y0 + r as f32 * (h + self.gap_y),
            w,
            h,
        )
    }
}

/// Room under each card's bleed for its notes (`Options::notes`): up to three lines.
const NOTE_BAND: f32 = 7.0;
const NOTE_PT: f32 = 5.0;
/// A crop mark shorter than this is left out.
const MIN_MARK: f32 = 1.5;
/// With a gutter fold, each trim stays this far beyond its bleed from the fold.
const FOLD_ROOM: f32 = 1.0;

/// The grid of `w` x `h` mm cards on `paper`, spaced or butted; with `fold`, on the left
/// half only, as close to the fold as the bleed allows.
fn grid(
    ctx: &Ctx<'_>,
    w: f32,
    h: f32,
    paper: (f32, f32),
    butted: bool,
    fold: bool,
) -> Option<Grid> {
    let b = ctx.opts.bleed;
    let gap = if butted { 0.0 } else { 2.0 * b };
    let gap_y = gap
        + if ctx.opts.notes.is_some() {
            NOTE_BAND
        } else {
            0.0
        };
    // Room at the paper's edges for the bleed, the marks and what a printer cannot reach.
    let outer = b + MARK_GAP + if butted { MIN_MARK } else { MARK_LEN } + MARGIN;
    let (pw, ph) = paper;
    let (avail_w, right) = if fold {
        (pw / 2.0 - outer - b - FOLD_ROOM, pw / 2.0 - b - FOLD_ROOM)
    } else {
        (pw - 2.0 * outer, pw - outer)
    };
    let count = |avail: f32, size: f32, gap: f32| ((avail + gap) / (size + gap)).floor();
    let cols = count(avail_w, w, gap);
    // The last row's notes too.
    let rows = count(ph - 2.0 * outer - (gap_y - gap), h, gap_y);
    if cols < 1.0 || rows < 1.0 {
        return None;
    }
    let (cols, rows) = (cols as usize, rows as usize);
    let used_w = cols as f32 * w + (cols - 1) as f32 * gap;
    let used_h = rows as f32 * h + (rows - 1) as f32 * gap_y + (gap_y - gap);
    Some(Grid {
        cols,
        rows,
        x0: if fold {
            right - used_w
        } else {
            (pw - used_w) / 2.0
        },
        y0: (ph - used_h) / 2.0,
        gap,
        gap_y,
    })
}

/// The grid `ctx.opts.layout` asks for, and whether its cards are butted.
fn chosen_grid(ctx: &Ctx<'_>, w: f32, h: f32, paper: (f32, f32)) -> Option<(Grid, bool)> {
    let fold = ctx.opts.gutter_fold;
    let spaced = || grid(ctx, w, h, paper, false, fold).map(|g| (g, false));
    let butted = || grid(ctx, w, h, paper, true, fold).map(|g| (g, true));
    match ctx.opts.layout {
        Layout::Spaced => spaced(),
        Layout::Butted => butted(),
        Layout::Auto if ctx.opts.notes.is_some() => spaced(),
        Layout::Auto => match (spaced(), butted()) {
            (Some(s), Some(b)) if b.0.per_sheet() > s.0.per_sheet() => Some(b),
            (Some(s), _) => Some(s),
            (None, b) => b,
        },
    }
}

/// The bleed of each trim as drawn: the bleed on every side but those another trim touches
/// (butted cards share a cut there, and one card's colour must not cover its neighbour).
fn bleeds(trims: &[Rect], b: f32) -> Vec<Rect> {
    let near = |p: f32, q: f32| (p - q).abs() < 0.01;
    let overlap = |a0: f32, a1: f32, b0: f32, b1: f32| a0 < b1 - 0.01 && b0 < a1 - 0.01;
    trims
        .iter()
        .map(|t| {
            let touches = |side: usize| {
                trims.iter().any(|o| match side {
                    0 => near(o.right(), t.x) && overlap(o.y, o.bottom(), t.y, t.bottom()),
                    1 => near(o.x, t.right()) && overlap(o.y, o.bottom(), t.y, t.bottom()),
                    2 => near(o.bottom(), t.y) && overlap(o.x, o.right(), t.x, t.right()),
                    _ => near(o.y, t.bottom()) && overlap(o.x, o.right(), t.x, t.right()),
                })
            };
            let d = |side| if touches(side) { 0.0 } else { b };
            let (l, r, top, bottom) = (d(0), d(1), d(2), d(3));
            Rect::new(t.x - l, t.y - top, t.w + l + r, t.h + top + bottom)
        })
        .collect()
}

/// A card's items drawn within its bleed as laid out (`bleeds`), when that is less than its
/// full bleed.
fn within(items: Vec<Item>, t: Rect, bleed: Rect, b: f32) -> Vec<Item> {
    let full = t.inset(-b);
    if (bleed.w - full.w).abs() < 0.01 && (bleed.h - full.h).abs() < 0.01 {
        return items;
    }
    vec![Item::Group {
        clip: Some(bleed),
        translate: (0.0, 0.0),
        rotate: 0.0,
        pivot: (0.0, 0.0),
        items,
    }]
}

/// A card's notes, small, under its bleed and between its crop marks.
fn notes(ctx: &Ctx<'_>, deck: &DeckDef, card: &CardDef, t: Rect) -> Vec<Item> {
    let Some(lines) = ctx
        .opts
        .notes
        .as_ref()
        .and_then(|n| n.get(&format!("{}/{}", deck.id, card.id)))
    else {
        return Vec::new();
    };
    let line_h = NOTE_PT * PT * 1.2;
    lines
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, l)| {
            let f = fit(&ctx.fonts, l, false, NOTE_PT, 3.5, t.w - 2.0, line_h);
            Item::Text(TextRun {
                x: t.x + 1.0,
                y: t.bottom() + ctx.opts.bleed + 0.5 + line_h * (i as f32 + 0.8),
                w: t.w - 2.0,
                align: Align::Center,
                size: f.size,
                bold: false,
                color: Rgb(60, 60, 60),
                text: f.lines.first().cloned().unwrap_or_default(),
            })
        })
        .collect()
}

/// Crop marks for the trims on a page (`bleeds` their bleeds as drawn): at each corner,
/// outward, beyond the bleed, skipping any that would cross another card's bleed and
/// shortened to stay off the paper's edge (`MARGIN`). Butted cards share their marks.
fn crop_marks(trims: &[Rect], bleeds: &[Rect], paper: (f32, f32)) -> Vec<Item> {
    // A mark crossing a card's bleed, or lying along its edge (a cut between butted cards),
    // would be printed on the card.
    let crosses = |a: (f32, f32), b: (f32, f32)| {
        bleeds.iter().any(|r| {
            let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
            let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
            x1 >= r.x - 0.01
                && x0 <= r.right() + 0.01
                && y1 >= r.y - 0.01
                && y0 <= r.bottom() + 0.01
        })
    };
    let (pw, ph) = paper;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (t, bl) in trims.iter().zip(bleeds) {
        for (x, sx, bx) in [
            (t.x, -1.0, t.x - bl.x),
            (t.right(), 1.0, bl.right() - t.right()),
        ] {
            for (y, sy, by) in [
                (t.y, -1.0, t.y - bl.y),
                (t.bottom(), 1.0, bl.bottom() - t.bottom()),
            ] {
                // A vertical mark at x beyond the corner in y, a horizontal one at y beyond it
                // in x, each from past this card's bleed to MARK_LEN on or the paper's margin.
                let room_y = if sy < 0.0 {
                    y - MARGIN
                } else {
                    ph - MARGIN - y
                };
                let room_x = if sx < 0.0 {
                    x - MARGIN
                } else {
                    pw - MARGIN - x
                };
                let (vy0, vy1) = (by + MARK_GAP, (by + MARK_GAP + MARK_LEN).min(room_y));
                let (hx0, hx1) = (bx + MARK_GAP, (bx + MARK_GAP + MARK_LEN).min(room_x));
                let v = ((x, y + sy * vy0), (x, y + sy * vy1), vy1 - vy0);
                let h = ((x + sx * hx0, y), (x + sx * hx1, y), hx1 - hx0);
                for (a, b, len) in [v, h] {
                    let key = [a.0, a.1, b.0, b.1].map(|f| (f * 100.0).round() as i64);
                    if len >= MIN_MARK - 0.001 && !crosses(a, b) && seen.insert(key) {
                        out.push(Item::line(a, b, Rgb::BLACK, HAIR));
                    }
                }
            }
        }
    }
    out
}

/// Text lines fitted into `r`, as items; true when it overflows.
#[allow(clippy::too_many_arguments)]
pub(super) fn text_block(
    ctx: &Ctx<'_>,
    items: &mut Vec<Item>,
    text: &str,
    r: Rect,
    size: f32,
    min: f32,
    bold: bool,
    align: Align,
    middle: bool,
    color: Rgb,
) -> bool {
    let f = fit(&ctx.fonts, text, bold, size, min, r.w, r.h);
    let lh = LINE * f.size * PT;
    let block =
        (f.lines.len() as f32 - 1.0).max(0.0) * lh + (ASCENT + super::text::DESCENT) * f.size * PT;
    let top = if middle {
        r.y + (r.h - block).max(0.0) / 2.0
    } else {
        r.y
    };
    for (i, l) in f.lines.iter().enumerate() {
        items.push(Item::Text(TextRun {
            x: r.x,
            y: top + ASCENT * f.size * PT + i as f32 * lh,
            w: r.w,
            align,
            size: f.size,
            bold,
            color,
            text: l.clone(),
        }));
    }
    f.overflows
}

/// Reads an image for a card: PNG or JPEG, at most 20 MiB.
fn picture(ctx: &Ctx<'_>, rel: &str) -> Result<Picture, String> {
    if let Some(p) = ctx.pictures.borrow().get(rel) {
        return p.clone();
    }
    let p = read_picture(ctx, rel);
    ctx.pictures.borrow_mut().insert(rel.to_string(), p.clone());
    p
}

fn read_picture(ctx: &Ctx<'_>, rel: &str) -> Result<Picture, String> {
    let path = super::mod_path(ctx.folder, rel)?;
    let meta = std::fs::metadata(&path).map_err(|e| format!("cannot read image `{rel}`: {e}"))?;
    if !meta.is_file() || meta.len() > 20 << 20 {
        return Err(format!(
            "image `{rel}` is not a regular file of at most 20 MiB"
        ));
    }
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read image `{rel}`: {e}"))?;
    let (jpeg, px) = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 24 {
        let be =
            |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        (false, (be(16), be(20)))
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        (true, (1, 1))
    } else {
        return Err(format!("image `{rel}` is neither a PNG nor a JPEG"));
    };
    if px.0 == 0 || px.1 == 0 || px.0 > 10_000 || px.1 > 10_000 {
        return Err(format!(
            "image `{rel}` is {}x{} pixels; give 1 to 10000 a side",
            px.0, px.1
        ));
    }
    Ok(Picture {
        bytes: std::sync::Arc::new(bytes),
        jpeg,
        px,
    })
}

/// The face of `card` with its trim at `t`.
fn face(
    ctx: &Ctx<'_>,
    deck: &DeckDef,
    card: &CardDef,
    spanned: Option<&toml::Spanned<DeckTemplate>>,
    t: Rect,
    hash: &str,
    problems: &mut Vec<String>,
) -> Vec<Item> {
    let tpl = spanned.map(|t| t.get_ref());
    let bleed = t.inset(-ctx.opts.bleed);
    let safe = t.inset(SAFE);
    let mut items = Vec::new();
    let bg = match tpl.and_then(|t| t.background.as_ref()) {
        Some(s) => colour(ctx, deck, card, s.get_ref()).unwrap_or_else(|e| {
            problems.push(format!("{}: card `{}`: {e}", ctx.at(s.span()), card.id));
            Rgb::WHITE
        }),
        None => Rgb::WHITE,
    };
    items.push(Item::rect(bleed, Some(ctx.ink(bg)), None));
    let border = tpl
        .and_then(|t| t.border.as_ref())
        .and_then(|s| colour(ctx, deck, card, s.get_ref()).ok())
        .unwrap_or(Rgb::GREY);
    items.push(Item::rect(t.inset(1.5), None, Some((border, 0.5))));
    let dark = bg.luma() < 110 && !ctx.opts.low_ink;
    let ink = if dark { Rgb::WHITE } else { Rgb::BLACK };
    match tpl {
        Some(tp) if !tp.regions.is_empty() => {
            // Filled boxes so far: text takes a colour that reads on what lies under it.
            let mut panels: Vec<(Rect, Rgb)> = Vec::new();
            for (i, r) in tp.regions.iter().enumerate() {
                let f = Face { deck, card, t, bg };
                region(ctx, &f, i, r, &mut panels, &mut items, problems);
            }
        }
        _ => default_face(ctx, deck, card, safe, ink, &mut items, problems),
    }
    // The content hash, small, inside the safe zone at the bottom right.
    items.push(Item::Text(TextRun {
        x: safe.x,
        y: safe.bottom() - 0.3,
        w: safe.w,
        align: Align::Right,
        size: 5.0,
        bold: false,
        color: if dark { Rgb::LIGHT } else { Rgb::GREY },
        text: hash.to_string(),
    }));
    items
}

/// What a region is drawn for: the card, its trim and its background.
struct Face<'a> {
    deck: &'a DeckDef,
    card: &'a CardDef,
    t: Rect,
    bg: Rgb,
}

/// Region `i` of a template on a card's face: its box, image, tile and fitted text, with the
/// filled boxes so far in `panels` (text takes a colour that reads on what lies under it).
fn region(
    ctx: &Ctx<'_>,
    f: &Face<'_>,
    i: usize,
    r: &toml::Spanned<Region>,
    panels: &mut Vec<(Rect, Rgb)>,
    items: &mut Vec<Item>,
    problems: &mut Vec<String>,
) {
    let (deck, card, t, bg) = (f.deck, f.card, f.t, f.bg);
    let line = ctx.at(r.span());
    let r: &Region = r.get_ref();
    if let Some(w) = &r.when
        && fill_slots(ctx.def, deck, card, w).is_none()
    {
        return;
    }
    let rect = Rect::new(t.x + r.x, t.y + r.y, r.w, r.h);
    let fill = r
        .fill
        .as_ref()
        .map(|s| colour(ctx, deck, card, s))
        .transpose();
    let stroke = r
        .stroke
        .as_ref()
        .map(|s| colour(ctx, deck, card, s))
        .transpose();
    match (fill, stroke) {
        (Ok(f), Ok(s)) if f.is_some() || s.is_some() => {
            if let Some(f) = f {
                panels.push((rect, f));
            }
            items.push(Item::rect(rect, f.map(|c| ctx.ink(c)), s.map(|c| (c, 0.4))));
        }
        (Err(e), _) | (_, Err(e)) => {
            problems.push(format!("{line}: card `{}`: {e}", card.id));
        }
        _ => {}
    }
    if let Some(img) = &r.image
        && let Some(rel) = fill_slots(ctx.def, deck, card, img)
    {
        match picture(ctx, &rel) {
            Ok(p) => {
                // Fitted inside the region, keeping its proportions.
                let ar = p.px.0 as f32 / p.px.1 as f32;
                let (w, h) = if rect.w / rect.h > ar {
                    (rect.h * ar, rect.h)
                } else {
                    (rect.w, rect.w / ar)
                };
                let at = Rect::new(
                    rect.x + (rect.w - w) / 2.0,
                    rect.y + (rect.h - h) / 2.0,
                    w,
                    h,
                );
                items.push(Item::Image { at, picture: p });
            }
            Err(e) => {
                problems.push(format!("{line}: card `{}`: {e}", card.id));
                items.push(Item::rect(rect, None, Some((Rgb::GREY, HAIR))));
            }
        }
    }
    if let Some(tl) = &r.tile
        && let Some(id) = fill_slots(ctx.def, deck, card, tl)
    {
        match ctx.def.tiles.iter().find(|t| t.id == id) {
            Some(tile) => {
                let side = rect.w.min(rect.h);
                let sq = Rect::new(
                    rect.x + (rect.w - side) / 2.0,
                    rect.y + (rect.h - side) / 2.0,
                    side,
                    side,
                );
                items.extend(super::boards::tile_items(ctx, tile, sq, 0));
                items.push(Item::rect(sq, None, Some((Rgb::GREY, 0.3))));
            }
            None => problems.push(format!("{line}: card `{}`: no tile `{id}`", card.id)),
        }
    }
    if let Some(txt) = &r.text
        && let Some(s) = fill_slots(ctx.def, deck, card, txt)
    {
        let (cx, cy) = (rect.x + rect.w / 2.0, rect.y + rect.h / 2.0);
        let under = panels
            .iter()
            .rev()
            .find(|(p, _)| cx >= p.x && cx <= p.right() && cy >= p.y && cy <= p.bottom())
            .map_or(bg, |(_, c)| *c);
        let ink = if under.luma() < 110 && !ctx.opts.low_ink {
            Rgb::WHITE
        } else {
            Rgb::BLACK
        };
        let color = match r.color.as_ref().map(|c| colour(ctx, deck, card, c)) {
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                problems.push(format!("{line}: card `{}`: {e}", card.id));
                ink
            }
            None => ink,
        };
        let align = match r.align.as_deref() {
            Some("center") => Align::Center,
            Some("right") => Align::Right,
            _ => Align::Left,
        };
        let size = r.size.unwrap_or(9.0);
        let min = r.min.unwrap_or(size.min(6.0));
        if text_block(
            ctx, items, &s, rect, size, min, r.bold, align, r.middle, color,
        ) {
            problems.push(format!(
                    "{line}: card `{}` of deck `{}`: the text of region {} does not fit at {min} pt; shorten it or make the region larger",
                    card.id,
                    deck.id,
                    i + 1
                ));
        }
    }
    for (ch, what) in missing_glyphs(ctx, deck, card, r) {
        problems.push(format!(
            "{line}: card `{}`: no font has `{ch}` (U+{:04X}) in {what}; it prints as nothing",
            card.id, ch as u32
        ));
    }
}

fn missing_glyphs(
    ctx: &Ctx<'_>,
    deck: &DeckDef,
    card: &CardDef,
    r: &Region,
) -> Vec<(char, &'static str)> {
    let Some(txt) = &r.text else {
        return Vec::new();
    };
    let Some(s) = fill_slots(ctx.def, deck, card, txt) else {
        return Vec::new();
    };
    let mut seen = ctx.fonts.shape(&s, r.bold).1;
    seen.dedup();
    seen.into_iter().map(|c| (c, "its text")).collect()
}

/// The plain face: name, text, then each field as `Label: value`, the deck's name below.
#[allow(clippy::too_many_arguments)]
fn default_face(
    ctx: &Ctx<'_>,
    deck: &DeckDef,
    card: &CardDef,
    safe: Rect,
    ink: Rgb,
    items: &mut Vec<Item>,
    problems: &mut Vec<String>,
) {
    let name = if card.name.is_empty() {
        &card.id
    } else {
        &card.name
    };
    let title = Rect::new(safe.x, safe.y, safe.w, 11.0);
    items.push(Item::rect(
        Rect::new(safe.x - 1.0, safe.y - 1.0, safe.w + 2.0, 12.0),
        Some(ctx.ink(Rgb::LIGHT)),
        None,
    ));
    let mut over = text_block(
        ctx,
        items,
        name,
        title,
        11.0,
        6.0,
        true,
        Align::Center,
        true,
        Rgb::BLACK,
    );
    let mut body = String::new();
    if !card.text.is_empty() {
        body.push_str(&card.text);
        body.push('\n');
    }
    for f in &deck.fields {
        if matches!(f.kind, FieldType::Ref | FieldType::Refs) && f.name == "tile" {
            continue;
        }
        if let Some(v) = slot_value(ctx.def, deck, card, &f.name) {
            body.push_str(&format!("{}: {v}\n", f.name.replace('_', " ")));
        }
    }
    let body_r = Rect::new(safe.x, safe.y + 14.0, safe.w, safe.h - 14.0 - 6.0);
    over |= text_block(
        ctx,
        items,
        body.trim_end(),
        body_r,
        8.5,
        5.0,
        false,
        Align::Left,
        false,
        ink,
    );
    items.push(Item::Text(TextRun {
        x: safe.x,
        y: safe.bottom() - 0.3,
        w: safe.w,
        align: Align::Left,
        size: 5.5,
        bold: false,
        color: Rgb::GREY,
        text: deck.name.clone(),
    }));
    if over {
        problems.push(format!(
            "card `{}` of deck `{}` does not fit the plain card at 5 pt; give the deck a template in the mod's print file",
            card.id, deck.id
        ));
    }
    let mut missing = ctx.fonts.shape(&format!("{name}{body}"), false).1;
    missing.dedup();
    for ch in missing {
        problems.push(format!(
            "card `{}` of deck `{}`: no font has `{ch}` (U+{:04X}); it prints as nothing",
            card.id, deck.id, ch as u32
        ));
    }
}

/// The back of a deck's cards at trim `t`.
fn back(ctx: &Ctx<'_>, deck: &DeckDef, tpl: Option<&DeckTemplate>, t: Rect) -> Vec<Item> {
    let b = tpl.map(|t| &t.back);
    let parse = |s: Option<&toml::Spanned<String>>, d: Rgb| {
        s.and_then(|s| {
            Rgb::parse(s.get_ref()).or_else(|| {
                ctx.file
                    .colors
                    .get(s.get_ref())
                    .and_then(|c| Rgb::parse(c.get_ref()))
            })
        })
        .unwrap_or(d)
    };
    let bg = ctx.ink(parse(
        b.and_then(|b| b.background.as_ref()),
        Rgb(40, 52, 72),
    ));
    let fg = parse(
        b.and_then(|b| b.color.as_ref()),
        if bg.luma() < 110 {
            Rgb::WHITE
        } else {
            Rgb::BLACK
        },
    );
    let mut items = vec![
        Item::rect(t.inset(-ctx.opts.bleed), Some(bg), None),
        Item::rect(t.inset(4.0), None, Some((fg, 0.6))),
    ];
    let title = b
        .and_then(|b| b.title.clone())
        .unwrap_or_else(|| deck.name.clone());
    let inner = t.inset(8.0);
    let mid = Rect::new(inner.x, t.y + t.h * 0.3, inner.w, t.h * 0.3);
    text_block(
        ctx,
        &mut items,
        &title,
        mid,
        16.0,
        7.0,
        true,
        Align::Center,
        true,
        fg,
    );
    let sub = b
        .and_then(|b| b.subtitle.clone())
        .unwrap_or_else(|| ctx.def.name.clone());
    let low = Rect::new(inner.x, t.y + t.h * 0.62, inner.w, 8.0);
    text_block(
        ctx,
        &mut items,
        &sub,
        low,
        8.0,
        5.0,
        false,
        Align::Center,
        true,
        fg,
    );
    items
}

/// The fold of a gutter-fold sheet: a dashed line down the middle, named at its ends.
fn fold_line(paper: (f32, f32)) -> Vec<Item> {
    let x = paper.0 / 2.0;
    let mut items = vec![Item::Shape {
        points: vec![(x, MARGIN + 4.0), (x, paper.1 - MARGIN - 4.0)],
        closed: false,
        fill: None,
        stroke: Some((Rgb(110, 110, 110), HAIR)),
        dashed: true,
    }];
    for y in [MARGIN + 2.5, paper.1 - MARGIN - 1.0] {
        items.push(Item::Text(TextRun {
            x: x - 10.0,
            y,
            w: 20.0,
            align: Align::Center,
            size: 6.0,
            bold: false,
            color: Rgb(110, 110, 110),
            text: "fold".to_string(),
        }));
    }
    items
}

/// The card size of `deck`.
fn size_of(ctx: &Ctx<'_>, deck: &DeckDef) -> (f32, f32) {
    if let Some(s) = ctx.opts.card {
        return s;
    }
    let t = ctx.file.decks.get(&deck.id).map(|t| t.get_ref());
    t.and_then(|t| t.card.as_ref())
        .or(ctx.file.card.as_ref())
        .and_then(|s| card_size(s.get_ref()).ok())
        .unwrap_or((63.0, 88.0))
}

/// Every deck's cards (each copy), in sheets.
pub fn print_decks(ctx: &mut Ctx<'_>, out: &mut Printed) -> Result<(), Vec<String>> {
    let total: u64 = ctx
        .def
        .decks
        .iter()
        .flat_map(|d| &d.cards)
        .map(|c| c.count as u64)
        .sum();
    if total > MAX_CARDS as u64 {
        return Err(vec![format!(
            "the mod's decks hold {total} cards with their copies; a print makes at most {MAX_CARDS}"
        )]);
    }
    if ctx.opts.gutter_fold && ctx.opts.duplex {
        return Err(vec![
            "a gutter fold prints each card's back beside its face; leave out duplex".to_string(),
        ]);
    }
    if ctx.opts.layout == Layout::Butted && ctx.opts.notes.is_some() {
        return Err(vec![
            "butted cards leave no room for figures under them; use the spaced layout".to_string(),
        ]);
    }
    // A gutter fold lies on landscape paper, folded down the middle.
    let (pw, ph) = ctx.opts.paper;
    let paper = if ctx.opts.gutter_fold {
        (pw.max(ph), pw.min(ph))
    } else {
        ctx.opts.paper
    };
    let decks = ctx.def.decks.clone();
    for deck in &decks {
        print_deck(ctx, deck, paper, out)?;
    }
    Ok(())
}

/// One deck's sheets of faces and backs on `paper`.
fn print_deck(
    ctx: &mut Ctx<'_>,
    deck: &DeckDef,
    paper: (f32, f32),
    out: &mut Printed,
) -> Result<(), Vec<String>> {
    let b = ctx.opts.bleed;
    let (w, h) = size_of(ctx, deck);
    let Some((grid, butted)) = chosen_grid(ctx, w, h, paper) else {
        let how = if ctx.opts.gutter_fold {
            " on half the paper, for a gutter fold,"
        } else {
            ""
        };
        return Err(vec![format!(
            "deck `{}`: a {w}x{h} mm card with {b} mm bleed and its crop marks does not fit{how} on the paper ({}x{} mm)",
            deck.id, paper.0, paper.1
        )]);
    };
    let per = grid.per_sheet();
    let mut faces: Vec<(&CardDef, String)> = Vec::new();
    for card in &deck.cards {
        if ctx
            .opts
            .only
            .as_ref()
            .is_some_and(|o| !o.contains(&card.id))
        {
            continue;
        }
        let hash = card_hash(deck, card);
        for _ in 0..card.count.max(1) {
            faces.push((card, hash.clone()));
        }
    }
    if faces.is_empty() {
        return Ok(());
    }
    let spanned = ctx.file.decks.get(&deck.id);
    let tpl = spanned.map(|t| t.get_ref());
    let mut problems = Vec::new();
    let sheets = faces.len().div_ceil(per);
    let how = match (ctx.opts.gutter_fold, butted) {
        (true, _) => " (fold down the middle, glue, then cut)",
        (false, true) => " (cards butted: cut along the marks at the sheet's edges)",
        (false, false) => "",
    };
    // Long-edge duplex and a gutter fold both put the back of the card at x at
    // paper width - x - w.
    let mirror = |t: &Rect| Rect::new(paper.0 - t.x - t.w, t.y, t.w, t.h);
    let backs_of = |trims: &[Rect]| -> Vec<Item> {
        let mirrored: Vec<Rect> = trims.iter().map(mirror).collect();
        let mut items = Vec::new();
        for (t, bl) in mirrored.iter().zip(bleeds(&mirrored, b)) {
            items.extend(within(back(ctx, deck, tpl, *t), *t, bl, b));
        }
        items
    };
    for s in 0..sheets {
        let chunk = &faces[s * per..((s + 1) * per).min(faces.len())];
        let trims: Vec<Rect> = (0..chunk.len()).map(|i| grid.slot(i, w, h)).collect();
        let drawn = bleeds(&trims, b);
        let mut items = Vec::new();
        for ((card, hash), (t, bl)) in chunk.iter().zip(trims.iter().zip(&drawn)) {
            let one = face(ctx, deck, card, spanned, *t, hash, &mut problems);
            items.extend(within(one, *t, *bl, b));
            items.extend(notes(ctx, deck, card, *t));
            out.cards.push(PrintedCard {
                deck: deck.id.clone(),
                id: card.id.clone(),
                hash: hash.clone(),
                page: out.pages.len(),
                trim: *t,
            });
        }
        let label = format!("{}, sheet {}{how}", deck.name, s + 1);
        if ctx.opts.gutter_fold {
            let backs: Vec<Rect> = trims.iter().map(mirror).collect();
            items.extend(backs_of(&trims));
            items.extend(fold_line(paper));
            let all: Vec<Rect> = trims.iter().chain(&backs).copied().collect();
            let drawn: Vec<Rect> = drawn.iter().copied().chain(bleeds(&backs, b)).collect();
            items.extend(crop_marks(&all, &drawn, paper));
            out.pages.push(Page::sheet(paper, b, &all, items, label));
            continue;
        }
        items.extend(crop_marks(&trims, &drawn, paper));
        out.pages.push(Page::sheet(paper, b, &trims, items, label));
        if ctx.opts.duplex {
            let backs: Vec<Rect> = trims.iter().map(mirror).collect();
            let mut items = backs_of(&trims);
            items.extend(crop_marks(&backs, &bleeds(&backs, b), paper));
            out.pages.push(Page::sheet(
                paper,
                b,
                &backs,
                items,
                format!("{}, backs of sheet {}", deck.name, s + 1),
            ));
        }
    }
    if !ctx.opts.duplex && !ctx.opts.gutter_fold {
        // One sheet of backs, to print on the back of each sheet of faces by hand: the
        // same slots, so it needs no mirroring when the paper is turned over sideways.
        let n = faces.len().min(per);
        let backs: Vec<Rect> = (0..n).map(|i| grid.slot(i, w, h)).collect();
        let drawn = bleeds(&backs, b);
        let mut items = Vec::new();
        for (t, bl) in backs.iter().zip(&drawn) {
            items.extend(within(back(ctx, deck, tpl, *t), *t, *bl, b));
        }
        items.extend(crop_marks(&backs, &drawn, paper));
        out.pages.push(Page::sheet(
            paper,
            b,
            &backs,
            items,
            format!("{}, backs{how}", deck.name),
        ));
    }
    for p in problems {
        ctx.warn(p);
    }
    Ok(())
}
