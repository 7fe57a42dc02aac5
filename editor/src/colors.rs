//! The colours of seats and content, shared by the Studio's board view and the printed
//! edition, so a seat's pieces are the same colour on screen and on paper: each seat's (from
//! a colour word or hex code in its name, else the palette's next colour far enough from the
//! taken ones), a property's, and ink that reads on a given ground.

use eframe::egui::{self, Color32};
use farebox::GameDef;
use farebox::value::Value;

/// Ink: text and outlines on light surfaces.
pub const INK: Color32 = Color32::from_rgb(0x22, 0x24, 0x28);

/// The colour of a seat's pieces and labels: the colour a seat's name says ("Yellow", "Red"),
/// else one of a set of distinct colours that no other seat's name has taken.
pub fn seat_color(def: &GameDef, seat: u8) -> egui::Color32 {
    const PALETTE: [Color32; 8] = [
        Color32::from_rgb(0xe4, 0x57, 0x2e),
        Color32::from_rgb(0x3a, 0x7b, 0xe8),
        Color32::from_rgb(0x3c, 0xb0, 0x5a),
        Color32::from_rgb(0xa0, 0x62, 0xe0),
        Color32::from_rgb(0xf2, 0xc3, 0x18),
        Color32::from_rgb(0x1a, 0xb3, 0xa6),
        Color32::from_rgb(0xee, 0x6a, 0xae),
        Color32::from_rgb(0xb0, 0x7a, 0x45),
    ];
    let seats = def.seat_names.len().max(seat as usize + 1);
    let named: Vec<Option<Color32>> = (0..seats).map(|s| name_color(&def.seat_name(s))).collect();
    if let Some(Some(c)) = named.get(seat as usize) {
        return *c;
    }
    // Seats without a colour in their name take palette colours in seat order, skipping
    // colours close to one a name has taken.
    let mut taken: Vec<Color32> = named.iter().flatten().copied().collect();
    let mut pick = PALETTE[seat as usize % PALETTE.len()];
    for s in 0..=seat as usize {
        if named.get(s).copied().flatten().is_some() {
            continue;
        }
        let free = PALETTE
            .iter()
            .copied()
            .find(|c| taken.iter().all(|t| color_distance(*c, *t) > 90.0));
        pick = free.unwrap_or(PALETTE[s % PALETTE.len()]);
        taken.push(pick);
    }
    pick
}

/// The colour of the first colour word in `text` ("pink passenger, to 3,1": pink), for what
/// a piece carries.
pub(crate) fn first_color(text: &str) -> Option<Color32> {
    text.split(|c: char| !c.is_alphanumeric())
        .find_map(|w| color_word(&w.to_lowercase()))
}

/// The colour a name says, if one of its words is a colour ("Yellow", "red", "Sky Blue").
pub fn name_color(name: &str) -> Option<Color32> {
    name.split(|c: char| !c.is_alphanumeric())
        .rev()
        .find_map(|w| color_word(&w.to_lowercase()))
}

pub(crate) fn color_word(w: &str) -> Option<Color32> {
    let rgb = |r, g, b| Some(Color32::from_rgb(r, g, b));
    match w {
        "yellow" => rgb(0xf2, 0xc3, 0x18),
        "red" => rgb(0xe0, 0x3c, 0x3c),
        "blue" => rgb(0x3a, 0x7b, 0xe8),
        "green" => rgb(0x3c, 0xb0, 0x5a),
        "orange" => rgb(0xf0, 0x85, 0x1e),
        "purple" | "violet" => rgb(0x9b, 0x5c, 0xe0),
        "pink" => rgb(0xf0, 0x7c, 0xb8),
        "teal" => rgb(0x1a, 0xb3, 0xa6),
        "cyan" => rgb(0x2a, 0xc4, 0xe0),
        "magenta" => rgb(0xd0, 0x3c, 0xb0),
        "white" => rgb(0xf4, 0xf4, 0xf0),
        "black" => rgb(0x26, 0x26, 0x2a),
        "brown" => rgb(0x9a, 0x64, 0x38),
        "grey" | "gray" | "silver" => rgb(0xa8, 0xae, 0xb4),
        "gold" => rgb(0xd8, 0xa8, 0x20),
        "lime" => rgb(0x9c, 0xd0, 0x3c),
        "navy" => rgb(0x2c, 0x44, 0x8c),
        _ => None,
    }
}

pub(crate) fn color_distance(a: Color32, b: Color32) -> f32 {
    let d = |x: u8, y: u8| (x as f32 - y as f32).powi(2);
    (d(a.r(), b.r()) + d(a.g(), b.g()) + d(a.b(), b.b())).sqrt()
}

/// A "#rrggbb" colour.
pub(crate) fn hex_color(s: &str) -> Option<Color32> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok());
    Some(Color32::from_rgb(byte(0)?, byte(2)?, byte(4)?))
}

/// The colour a space or piece carries in its properties: `hex`, else a colour word in
/// `color`. A colour word that is a seat's name gives that seat's colour.
pub(crate) fn prop_color(
    def: &GameDef,
    props: &std::collections::BTreeMap<String, Value>,
) -> Option<Color32> {
    if let Some(c) = props
        .get("hex")
        .and_then(|v| v.as_str())
        .and_then(hex_color)
    {
        return Some(c);
    }
    let word = props.get("color").and_then(|v| v.as_str())?;
    let seat = (0..def.seat_names.len()).find(|&s| def.seat_name(s).eq_ignore_ascii_case(word));
    match seat {
        Some(s) => Some(seat_color(def, s as u8)),
        None => name_color(word),
    }
}

/// Black or white, whichever reads better on `bg`.
pub(crate) fn ink_on(bg: Color32) -> Color32 {
    let l = 0.299 * bg.r() as f32 + 0.587 * bg.g() as f32 + 0.114 * bg.b() as f32;
    if l > 150.0 { INK } else { Color32::WHITE }
}
