//! The pieces on their spaces: their colours and letters, how several share one space, and the
//! tooltips of pieces and spaces (a space's properties, and what is in the zones they name).

use std::collections::HashMap;

use eframe::egui::{self, Color32, Painter, Pos2, Vec2};
use farebox::GameDef;

use super::color::{first_color, prop_color, seat_color};
use super::marks::Sym;
use super::{NEUTRAL, Place, Scene, note_legend, props_lines, space_label};

/// The colour of a piece: the colour its properties or its kind's name (Dicey Curves' Yellow
/// Racer is yellow whoever drives it), else its seat's, else grey.
pub(super) fn piece_color(scene: &Scene, p: &farebox::game::PieceView) -> Color32 {
    let own = prop_color(scene.def, &p.props).or_else(|| kind_color(scene.def, &p.kind));
    match (own, p.owner) {
        (Some(c), _) => c,
        (None, Some(o)) => seat_color(scene.def, o),
        (None, None) => NEUTRAL,
    }
}

/// The colour every piece of a kind has (a red racer), from the kind's properties.
pub(super) fn kind_color(def: &GameDef, kind: &str) -> Option<Color32> {
    let d = def.piece(kind).and_then(|i| def.pieces.get(i))?;
    prop_color(def, &d.props)
}

/// The name of a piece's kind ("Passenger meeple").
pub(super) fn kind_name<'d>(def: &'d GameDef, kind: &'d str) -> &'d str {
    def.piece(kind)
        .and_then(|i| def.pieces.get(i))
        .map_or(kind, |d| d.name.as_str())
}

/// Draws every piece on the board on its space, spread out when several share one. Returns
/// each token's centre, radius and piece index, for the pointer.
pub(super) fn draw_pieces(
    painter: &Painter,
    scene: &Scene,
    places: &[Option<Place>],
    legend: &mut Vec<(Sym, String)>,
) -> Vec<(Pos2, f32, usize)> {
    let ids: HashMap<&str, usize> = scene
        .board
        .graph
        .spaces
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); places.len()];
    for (k, p) in scene.view.pieces.iter().enumerate() {
        if let Some(&i) = p.at.as_deref().and_then(|a| ids.get(a))
            && let Some(list) = on.get_mut(i)
        {
            list.push(k);
        }
    }
    let mut out = Vec::new();
    for (i, here) in on.iter().enumerate() {
        let Some(place) = places.get(i).copied().flatten() else {
            continue;
        };
        for (slot, &k) in here.iter().enumerate() {
            let Some(p) = scene.view.pieces.get(k) else {
                continue;
            };
            let (c, r) = token_slot(place, slot, here.len());
            let color = piece_color(scene, p);
            let letter = piece_letter(scene, p);
            super::marks::token(painter, c, r, color, &letter);
            out.push((c, r, k));
            // A seat's piece in a colour of its own keeps its kind's name as the mod writes it,
            // which says the colour ("Red's Yellow Racer"); others read as "Red's taxi".
            let coloured = prop_color(scene.def, &p.props)
                .or_else(|| kind_color(scene.def, &p.kind))
                .is_some();
            let what = match p.owner {
                Some(o) if coloured => format!(
                    "{}'s {}",
                    scene.def.seat_name(o as usize),
                    kind_name(scene.def, &p.kind)
                ),
                Some(o) => format!(
                    "{}'s {}",
                    scene.def.seat_name(o as usize),
                    kind_name(scene.def, &p.kind).to_lowercase()
                ),
                None if prop_color(scene.def, &p.props).is_some() => {
                    format!("{} (in its own colour)", kind_name(scene.def, &p.kind))
                }
                None => kind_name(scene.def, &p.kind).to_string(),
            };
            let key = match p.owner {
                Some(_) => color,
                None => kind_color(scene.def, &p.kind).unwrap_or(NEUTRAL),
            };
            note_legend(legend, Sym::Token(key, letter.clone()), what.clone());
            // What it carries (Curbside's taxi with its fare): a dot in that colour on the
            // token, and a line of the legend saying what it is, as the terminal's `Y+p` does.
            if let Some(load) = carrying(p) {
                let dot = first_color(load).unwrap_or(NEUTRAL);
                super::marks::load_dot(painter, c, r, dot);
                let sym = Sym::Carrying(key, letter, dot);
                note_legend(legend, sym, format!("{what} carries: {load}"));
            }
        }
    }
    out
}

/// What a piece says it carries (its `carrying` property), when it carries anything.
fn carrying(p: &farebox::game::PieceView) -> Option<&str> {
    p.props
        .get("carrying")
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The least radius of a piece on the board, in screen points: big enough for its letter to
/// be read (Taxi Derby's patrol car on a plain road space, Critter Cab's cabs at Fit zoom),
/// however small the space under it is drawn.
pub(crate) const MIN_TOKEN_R: f32 = 10.0;

/// Where the `slot`th of `n` tokens on a space goes, and its radius. On a grid cell they take
/// the corners first, clear of the roads through the middle. A token is never smaller than
/// [`MIN_TOKEN_R`]; several on a small space spread out round it so each stays in sight.
pub(crate) fn token_slot(place: Place, slot: usize, n: usize) -> (Pos2, f32) {
    let r = place.r;
    if place.square {
        if n <= 4 {
            // Top right first: the cell's name is in the top left corner.
            let corners = [(1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)];
            let (dx, dy) = corners[slot % 4];
            let t = (r * 0.3).max(MIN_TOKEN_R);
            let off = (r * 0.52).max(t * 1.05);
            return (place.c + Vec2::new(dx, dy) * off, t);
        }
        let t = (r * 0.26).max(MIN_TOKEN_R);
        let a = std::f32::consts::TAU * slot as f32 / n as f32;
        let ring = (r * 0.58).max(spread(t, n));
        return (place.c + Vec2::angled(a) * ring, t);
    }
    if n == 1 {
        return (place.c, (r * 0.78).max(MIN_TOKEN_R));
    }
    let t = (r * if n <= 3 { 0.6 } else { 0.48 }).max(MIN_TOKEN_R);
    let a = std::f32::consts::TAU * slot as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
    let ring = (r * if n <= 3 { 0.75 } else { 0.95 }).max(spread(t, n));
    (place.c + Vec2::angled(a) * ring, t)
}

/// The radius of a ring on which `n` tokens of radius `t` overlap by a fifth at most.
pub(super) fn spread(t: f32, n: usize) -> f32 {
    let half = std::f32::consts::PI / n.max(2) as f32;
    0.8 * t / half.sin()
}

/// The mark on a piece: a `glyph` or `letter` its properties (or its kind's) give, else the
/// first letter of its seat's name, else of its kind's name.
pub(super) fn piece_letter(scene: &Scene, p: &farebox::game::PieceView) -> String {
    let kind_props = scene
        .def
        .piece(&p.kind)
        .and_then(|i| scene.def.pieces.get(i))
        .map(|d| &d.props);
    let given = ["glyph", "letter"].iter().find_map(|k| {
        p.props
            .get(*k)
            .or_else(|| kind_props.and_then(|pr| pr.get(*k)))
            .and_then(|v| v.as_str())
            .filter(|s| !s.is_empty())
    });
    if let Some(g) = given {
        return g.chars().take(2).collect();
    }
    let word = match p.owner {
        Some(o) => scene.def.seat_name(o as usize),
        None => kind_name(scene.def, &p.kind).to_string(),
    };
    word.chars().take(1).collect()
}

pub(super) fn piece_tooltip(ui: &mut egui::Ui, scene: &Scene, k: usize) {
    let Some(p) = scene.view.pieces.get(k) else {
        return;
    };
    let kind = kind_name(scene.def, &p.kind);
    match p.owner {
        Some(o) => ui.label(
            egui::RichText::new(format!("{kind} ({})", scene.def.seat_name(o as usize)))
                .strong()
                .color(seat_color(scene.def, o)),
        ),
        None => ui.label(egui::RichText::new(kind).strong()),
    };
    // The kind's own properties, then the piece's, which win.
    let mut props = scene
        .def
        .piece(&p.kind)
        .and_then(|i| scene.def.pieces.get(i))
        .map(|d| d.props.clone())
        .unwrap_or_default();
    props.extend(p.props.iter().map(|(k, v)| (k.clone(), v.clone())));
    for line in props_lines(&props) {
        ui.label(line);
    }
}

pub(super) fn space_tooltip(ui: &mut egui::Ui, scene: &Scene, s: u32) {
    let Some(sp) = scene.board.graph.spaces.get(s as usize) else {
        return;
    };
    // The title differs from the name the space's widget carries, so the two are never
    // mistaken for each other.
    if scene.board.grid.is_some() {
        let title = format!("Cell {}", space_label(scene, s));
        ui.label(egui::RichText::new(title).strong());
        if !sp.id.contains(',') {
            ui.label(format!("id: {}", sp.id));
        }
        super::grid::cell_tooltip(ui, scene, s);
    } else if sp.name.is_empty() || sp.name == sp.id {
        ui.label(egui::RichText::new(format!("Space {}", sp.id)).strong());
    } else {
        ui.label(egui::RichText::new(format!("{} — {}", sp.name, sp.id)).strong());
    }
    if !sp.tags.is_empty() {
        ui.label(format!("tags: {}", sp.tags.join(", ")));
    }
    for line in props_lines(&sp.props) {
        ui.label(line);
    }
    // Properties that name a zone (a store's stock, a taxi rank's stack) show what is in it.
    for v in sp.props.values() {
        let Some(zid) = v.as_str() else { continue };
        for z in scene.view.zones.iter().filter(|z| z.id == zid) {
            let name = scene
                .def
                .zone(zid)
                .and_then(|i| scene.def.zones.get(i))
                .map_or(zid, |d| d.name.as_str());
            let deck = scene
                .def
                .zone(zid)
                .and_then(|i| scene.def.zones.get(i))
                .and_then(|d| d.deck);
            let shown: Vec<String> = crate::card_brief::cards_in(scene.def, deck, &z.cards)
                .iter()
                .map(|g| g.text())
                .collect();
            ui.label(format!(
                "{name}: {} card{}",
                z.count,
                if z.count == 1 { "" } else { "s" }
            ));
            for line in shown {
                ui.label(format!("  {line}"));
            }
        }
    }
    if scene.board.kind == "track" {
        super::track::space_tooltip(ui, scene, s);
    }
}
