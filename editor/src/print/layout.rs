//! The print layout a mod names in `mod.toml` (`[content] print = "print.toml"`): card sizes,
//! each deck's template (regions of text, boxes and images placed on the card, colours taken
//! from fields), the board's scale and the player aid. Checked here, every problem with the
//! file and line; the format is in mods/README.md ("Printing").

use toml::Spanned;

use farebox::GameDef;

/// The most regions one template may have, and the largest sizes it may ask for: enough for
/// any card, small enough that a hostile file cannot make the printer work without end.
pub const MAX_REGIONS: usize = 64;
pub const MAX_CARD_MM: f32 = 400.0;
pub const MAX_TEXT_PT: f32 = 144.0;
pub const MIN_TEXT_PT: f32 = 4.0;
pub const MAX_AID_LINES: usize = 200;

pub use farebox::content::print_file::{Aid, Back, BoardScale, DeckTemplate, PrintFile, Region};

/// A problem in the print file.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// The line (1-based) of byte `at` of `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text.get(..at.min(text.len()))
        .map_or(1, |t| t.bytes().filter(|b| *b == b'\n').count() + 1)
}

/// A card size by name or `WxH` in mm.
pub fn card_size(s: &str) -> Result<(f32, f32), String> {
    match s {
        "poker" => return Ok((63.0, 88.0)),
        "bridge" => return Ok((57.0, 89.0)),
        "tarot" => return Ok((70.0, 120.0)),
        "mini" => return Ok((44.0, 63.0)),
        _ => {}
    }
    let parsed = s
        .split_once('x')
        .and_then(|(w, h)| Some((w.trim().parse::<f32>().ok()?, h.trim().parse::<f32>().ok()?)));
    match parsed {
        Some((w, h)) if (10.0..=MAX_CARD_MM).contains(&w) && (10.0..=MAX_CARD_MM).contains(&h) => {
            Ok((w, h))
        }
        Some(_) => Err(format!(
            "card size `{s}` is outside 10 to {MAX_CARD_MM} mm a side"
        )),
        None => Err(format!(
            "`{s}` is not a card size: poker, bridge, tarot, mini or WxH in millimetres (63x88)"
        )),
    }
}

/// The slots (`{name}`) of a template string.
pub fn slots(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(a) = rest.find('{') {
        let Some(b) = rest[a..].find('}') else { break };
        out.push(&rest[a + 1..a + b]);
        rest = &rest[a + b + 1..];
    }
    out
}

/// Reads and checks the print file of `def`; the problems, each with its line, when it is
/// wrong.
pub fn read(def: &GameDef, text: &str) -> Result<PrintFile, Vec<Problem>> {
    let file: PrintFile = toml::from_str(text).map_err(|e| {
        vec![Problem {
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            message: e.message().trim().to_string(),
        }]
    })?;
    let mut problems = Vec::new();
    let at = |problems: &mut Vec<Problem>, span: std::ops::Range<usize>, message: String| {
        problems.push(Problem {
            line: line_of(text, span.start),
            message,
        });
    };
    for sz in file.card.iter().chain(
        file.decks
            .values()
            .filter_map(|d| d.get_ref().card.as_ref()),
    ) {
        if let Err(e) = card_size(sz.get_ref()) {
            at(&mut problems, sz.span(), e);
        }
    }
    if let Some(m) = &file.board.mm_per_unit
        && !(0.1..=1000.0).contains(m.get_ref())
    {
        at(
            &mut problems,
            m.span(),
            format!(
                "board.mm_per_unit is {}; give 0.1 to 1000 millimetres",
                m.get_ref()
            ),
        );
    }
    for (name, c) in &file.colors {
        if super::doc::Rgb::parse(c.get_ref()).is_none() {
            at(
                &mut problems,
                c.span(),
                format!("colour `{name}` is `{}`, not #rgb or #rrggbb", c.get_ref()),
            );
        }
    }
    if let Some(aid) = &file.aid
        && aid.lines.len() > MAX_AID_LINES
    {
        at(
            &mut problems,
            0..0,
            format!(
                "the player aid has {} lines; at most {MAX_AID_LINES} fit on its sheets",
                aid.lines.len()
            ),
        );
    }
    for (id, t) in &file.decks {
        let Some(deck) = def.decks.iter().find(|d| &d.id == id) else {
            let hint = farebox::diag::suggestion(id, def.decks.iter().map(|d| d.id.as_str()));
            at(&mut problems, t.span(), format!("no deck `{id}`{hint}"));
            continue;
        };
        let t = t.get_ref();
        let size = t
            .card
            .as_ref()
            .or(file.card.as_ref())
            .and_then(|s| card_size(s.get_ref()).ok())
            .unwrap_or((63.0, 88.0));
        if t.regions.len() > MAX_REGIONS {
            at(
                &mut problems,
                t.regions.first().map_or(0..0, |r| r.span()),
                format!(
                    "deck `{id}` has {} regions; a template may have {MAX_REGIONS}",
                    t.regions.len()
                ),
            );
            continue;
        }
        let known = |slot: &str| {
            matches!(slot, "name" | "text" | "id" | "count" | "tags")
                || deck.fields.iter().any(|f| f.name == slot)
        };
        let check_slots = |problems: &mut Vec<Problem>,
                           s: &str,
                           span: std::ops::Range<usize>,
                           what: &str| {
            for slot in slots(s) {
                if !known(slot) {
                    let names = ["name", "text", "id", "count", "tags"]
                        .into_iter()
                        .chain(deck.fields.iter().map(|f| f.name.as_str()));
                    let hint = farebox::diag::suggestion(slot, names);
                    at(
                        problems,
                        span.clone(),
                        format!("{what} names `{{{slot}}}`, which deck `{id}` does not have{hint}"),
                    );
                }
            }
        };
        for c in [&t.background, &t.border].into_iter().flatten() {
            check_slots(&mut problems, c.get_ref(), c.span(), "a colour");
        }
        for (i, r) in t.regions.iter().enumerate() {
            check_region(text, id, i + 1, r, size, &mut problems, &check_slots);
        }
    }
    if problems.is_empty() {
        Ok(file)
    } else {
        Err(problems)
    }
}

/// Checks a text's `{field}` slots: (problems, text, span, what it is).
type SlotCheck<'a> = dyn Fn(&mut Vec<Problem>, &str, std::ops::Range<usize>, &str) + 'a;

/// Checks region `n` of deck `id`'s template on a card of `size` mm: its area, reach, text
/// sizes, alignment and `{field}` slots.
fn check_region(
    text: &str,
    id: &str,
    n: usize,
    r: &Spanned<Region>,
    size: (f32, f32),
    problems: &mut Vec<Problem>,
    check_slots: &SlotCheck<'_>,
) {
    let at = |problems: &mut Vec<Problem>, span: std::ops::Range<usize>, message: String| {
        problems.push(Problem {
            line: line_of(text, span.start),
            message,
        });
    };
    let span = r.span();
    let r = r.get_ref();
    let finite = [r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite());
    if !finite || r.w <= 0.0 || r.h <= 0.0 {
        at(
            problems,
            span.clone(),
            format!("region {n} of deck `{id}` has no area"),
        );
        return;
    }
    if r.x < -5.0 || r.y < -5.0 || r.x + r.w > size.0 + 5.0 || r.y + r.h > size.1 + 5.0 {
        at(
            problems,
            span.clone(),
            format!(
                "region {n} of deck `{id}` ({}x{} mm at {}, {}) reaches past the bleed of a {}x{} mm card",
                r.w, r.h, r.x, r.y, size.0, size.1
            ),
        );
    }
    for (what, v) in [("size", r.size), ("min", r.min)] {
        if let Some(v) = v
            && !(MIN_TEXT_PT..=MAX_TEXT_PT).contains(&v)
        {
            at(
                problems,
                span.clone(),
                format!(
                    "region {n} of deck `{id}`: {what} is {v} pt; give {MIN_TEXT_PT} to {MAX_TEXT_PT}"
                ),
            );
        }
    }
    if let Some(a) = &r.align
        && !matches!(a.as_str(), "left" | "center" | "right")
    {
        at(
            problems,
            span.clone(),
            format!("region {n} of deck `{id}`: align is `{a}`; give left, center or right"),
        );
    }
    for s in [
        &r.text, &r.color, &r.fill, &r.stroke, &r.image, &r.tile, &r.when,
    ]
    .into_iter()
    .flatten()
    {
        check_slots(problems, s, span.clone(), &format!("region {n}"));
    }
}
