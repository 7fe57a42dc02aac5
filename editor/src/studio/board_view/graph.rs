//! Boards of spaces joined by edges: `graph` boards (Critter Cab) and `sections` boards
//! (Taxi Derby), whose spaces the engine has already placed section by section.
//!
//! Edges are drawn by their tags: untagged edges are roads, `river` edges wavy blue lines,
//! `flight` edges dashed arcs, any other tag a dashed line of its own colour; a one-way edge
//! has an arrow. Spaces are discs, larger and marked with a symbol when their tags say what
//! they are (a store with its price, a passenger stack with its count, a drop-off, the police
//! station, a start in its seat's colour, a taxi stand, a chance space...). Sections are drawn
//! as the squares they were laid in, with their names; a graph map gets a parchment ground,
//! tinted by the `region` property of its spaces.

use eframe::egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2, epaint::QuadraticBezierShape,
};
use farebox::content::def::BoardDef;

use super::marks::{self, ASPHALT, BLOCK, FLIGHT, Sym};
use super::{Drawn, INK, Place, Scene, Xf, note_legend, prop_color, text};

const PARCHMENT: Color32 = Color32::from_rgb(0xe9, 0xe2, 0xc8);

/// The radius of a space in board units: a third of the distance between the two closest
/// spaces, so no two overlap.
fn node_radius(scene: &Scene) -> f64 {
    let sp = &scene.board.graph.spaces;
    let mut best = f64::INFINITY;
    for (i, a) in sp.iter().enumerate() {
        for b in sp.iter().skip(i + 1) {
            let d = (a.x - b.x).hypot(a.y - b.y);
            if d > 1e-9 && d < best {
                best = d;
            }
        }
    }
    if best.is_finite() { best * 0.32 } else { 0.5 }
}

/// The sections' squares in board units, with the index of the section laid in each.
fn section_squares(scene: &Scene) -> Vec<(Rect, usize)> {
    let BoardDef::Sections(s) = &scene.def.board else {
        return Vec::new();
    };
    let cols = s.columns.max(1) as usize;
    let size = s.size as f32;
    scene
        .board
        .arrangement
        .iter()
        .enumerate()
        .map(|(slot, &(si, _))| {
            let min = Pos2::new((slot % cols) as f32 * size, (slot / cols) as f32 * size);
            (Rect::from_min_size(min, Vec2::splat(size)), si as usize)
        })
        .collect()
}

fn spaces_box(scene: &Scene) -> Option<Rect> {
    let sp = &scene.board.graph.spaces;
    let first = sp.first()?;
    let mut r = Rect::from_min_max(
        Pos2::new(first.x as f32, first.y as f32),
        Pos2::new(first.x as f32, first.y as f32),
    );
    for s in sp {
        r.extend_with(Pos2::new(s.x as f32, s.y as f32));
    }
    Some(r)
}

pub fn extent(scene: &Scene) -> Rect {
    let rn = node_radius(scene) as f32;
    let mut r = spaces_box(scene)
        .map_or(Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)), |b| {
            b.expand(rn * 2.5)
        });
    for (sq, _) in section_squares(scene) {
        r = r.union(sq);
    }
    r
}

/// What the legend drawn over the board may not cover, in board units: each space with its
/// symbol, and the sections' squares.
pub fn solid(scene: &Scene) -> Vec<Rect> {
    let rn = node_radius(scene) as f32 * 1.3;
    let mut out: Vec<Rect> = scene
        .board
        .graph
        .spaces
        .iter()
        .map(|s| Rect::from_center_size(Pos2::new(s.x as f32, s.y as f32), Vec2::splat(rn * 2.0)))
        .collect();
    out.extend(section_squares(scene).into_iter().map(|(r, _)| r));
    out
}

/// A soft colour for a terrain region named by a space's `region` property.
fn region_color(name: &str) -> Color32 {
    let rgb = match name {
        "forest" | "woods" => (0x7d, 0xa4, 0x6b),
        "meadow" | "field" | "fields" | "park" => (0xb7, 0xd3, 0x7c),
        "town" | "city" => (0xd9, 0xc0, 0x9a),
        "hills" | "mountain" | "mountains" => (0xbf, 0xa7, 0x84),
        "riverside" | "river" | "lake" | "harbor" | "harbour" | "beach" => (0x9f, 0xcb, 0xe3),
        _ => {
            let h = name
                .bytes()
                .fold(7u32, |a, b| a.wrapping_mul(31).wrapping_add(b as u32));
            (
                0xb0 + (h % 40) as u8,
                0xb8 + (h / 40 % 40) as u8,
                0xa8 + (h / 1600 % 40) as u8,
            )
        }
    };
    Color32::from_rgb(rgb.0, rgb.1, rgb.2)
}

/// A colour of its own for an edge tag the board view has no style for.
fn tag_color(tag: &str) -> Color32 {
    let h = tag
        .bytes()
        .fold(17u32, |a, b| a.wrapping_mul(31).wrapping_add(b as u32));
    let palette = [
        Color32::from_rgb(0xd8, 0x43, 0x15),
        Color32::from_rgb(0x00, 0x89, 0x7b),
        Color32::from_rgb(0x6d, 0x4c, 0x41),
        Color32::from_rgb(0xc0, 0xca, 0x33),
    ];
    palette[h as usize % palette.len()]
}

// One piece: one paint pass in z-order (roads, spaces, marks, pieces, then names) over the
// geometry worked out at its top; each layer reads the positions and rects the earlier ones took.
pub fn draw(p: &Painter, xf: Xf, scene: &Scene, keep_off: Option<Rect>) -> Drawn {
    let sections = scene.board.kind == "sections";
    let spaces = &scene.board.graph.spaces;
    let rn = xf.len(node_radius(scene));
    let mut legend = Vec::new();
    // Where the sections' names are written: the spaces' names keep off them.
    let mut section_names: Vec<Rect> = Vec::new();

    // The ground: the sections as laid, or a parchment map tinted by region.
    if sections {
        let BoardDef::Sections(s) = &scene.def.board else {
            return Drawn {
                places: vec![],
                legend,
                note: None,
                named: vec![],
                written: vec![],
                marks: vec![],
            };
        };
        for (sq, si) in section_squares(scene) {
            let r = Rect::from_min_max(
                xf.p(sq.min.x as f64, sq.min.y as f64),
                xf.p(sq.max.x as f64, sq.max.y as f64),
            );
            p.rect_filled(r, 4.0, BLOCK);
            p.rect_stroke(
                r,
                4.0,
                Stroke::new(2.5, INK),
                eframe::egui::StrokeKind::Inside,
            );
            if let Some(sec) = s.sections.get(si) {
                let at = r.min + Vec2::splat(rn * 0.4);
                let size = (r.width() * 0.035).min(20.0);
                if let Some(tr) = text(p, at, Align2::LEFT_TOP, &sec.name, size, INK) {
                    p.rect_filled(tr.expand(3.0), 3.0, Color32::from_white_alpha(150));
                    text(p, at, Align2::LEFT_TOP, &sec.name, size, INK);
                    section_names.push(tr.expand(3.0));
                }
            }
        }
        note_legend(
            &mut legend,
            Sym::Section,
            "city section, named in its corner",
        );
    } else if let Some(b) = spaces_box(scene) {
        let margin = node_radius(scene) as f32 * 2.2;
        let b = b.expand(margin);
        let r = Rect::from_min_max(
            xf.p(b.min.x as f64, b.min.y as f64),
            xf.p(b.max.x as f64, b.max.y as f64),
        );
        p.rect_filled(r, 8.0, PARCHMENT);
        let ground = p.with_clip_rect(r.shrink(2.0).intersect(p.clip_rect()));
        for sp in spaces {
            if let Some(region) = sp.props.get("region").and_then(|v| v.as_str()) {
                let c = region_color(region);
                ground.circle_filled(
                    xf.p(sp.x, sp.y),
                    rn * 3.6,
                    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 60),
                );
            }
        }
        p.rect_stroke(
            r,
            8.0,
            Stroke::new(2.0, Color32::from_rgb(0x8d, 0x7b, 0x5a)),
            eframe::egui::StrokeKind::Inside,
        );
    }

    // Edges: roads under everything else, in two passes so crossings join cleanly.
    let road_w = if sections { rn * 1.15 } else { rn * 0.55 };
    let at = |i: u32| spaces.get(i as usize).map(|s| xf.p(s.x, s.y));
    let edges: Vec<_> = scene
        .board
        .graph
        .edges
        .iter()
        .enumerate()
        .filter_map(|(k, e)| Some((k, e, at(e.from)?, at(e.to)?)))
        .collect();
    let bends = if sections {
        street_corners(scene)
    } else {
        Vec::new()
    };
    for pass in 0..2 {
        for &(k, e, a, b) in &edges {
            if !e.tags.is_empty() {
                continue;
            }
            let (width, color) = if pass == 0 {
                (road_w + 3.0, Color32::from_black_alpha(110))
            } else {
                (road_w, ASPHALT)
            };
            match bends.get(k).copied().flatten() {
                Some((x, y)) => {
                    let corner = xf.p(x, y);
                    p.add(QuadraticBezierShape::from_points_stroke(
                        [a, corner, b],
                        false,
                        Color32::TRANSPARENT,
                        Stroke::new(width, color),
                    ));
                }
                None => {
                    p.line_segment([a, b], Stroke::new(width, color));
                }
            }
            if pass == 1 {
                note_legend(&mut legend, Sym::EdgeRoad, "road");
                if e.directed {
                    marks::arrow(
                        p,
                        a + (b - a) * 0.5,
                        (b - a).normalized(),
                        road_w * 0.45,
                        Color32::WHITE,
                    );
                    note_legend(&mut legend, Sym::Directed, "one way");
                }
            }
        }
    }
    for &(_, e, a, b) in edges.iter().filter(|(_, e, _, _)| !e.tags.is_empty()) {
        let (mid, dir, color) = if e.tags.iter().any(|t| t == "river") {
            marks::river(p, a, b, (road_w * 0.5).max(2.0));
            note_legend(&mut legend, Sym::EdgeRiver, "river route");
            (a + (b - a) * 0.5, (b - a).normalized(), marks::RIVER)
        } else if e.tags.iter().any(|t| t == "flight") {
            let (m, d) = marks::flight(p, a, b, 0.18, Stroke::new((road_w * 0.4).max(2.0), FLIGHT));
            note_legend(&mut legend, Sym::EdgeFlight, "flight path");
            (m, d, FLIGHT)
        } else {
            let color = tag_color(e.tags.first().map_or("", |t| t.as_str()));
            p.extend(eframe::egui::Shape::dashed_line(
                &[a, b],
                Stroke::new((road_w * 0.4).max(2.0), color),
                8.0,
                5.0,
            ));
            note_legend(
                &mut legend,
                Sym::EdgeOther(color),
                format!("{} route", e.tags.join(", ")),
            );
            (a + (b - a) * 0.5, (b - a).normalized(), color)
        };
        if e.directed {
            marks::arrow(p, mid, dir, (road_w * 0.6).max(5.0), color);
            note_legend(&mut legend, Sym::Directed, "one way");
        }
    }

    // Spaces, then their names once there is room for them.
    let mut places = Vec::with_capacity(spaces.len());
    for sp in spaces {
        let c = xf.p(sp.x, sp.y);
        let has = |t: &str| sp.tags.iter().any(|x| x == t);
        let featured = !sp.tags.is_empty();
        let r = if featured { rn } else { rn * 0.6 };
        places.push(Some(Place {
            c,
            r: r.max(5.0),
            square: false,
        }));
        if !p.clip_rect().expand(r).contains(c) {
            continue;
        }
        // The seat a start belongs to, by the colour it names; a start of a seat not in this
        // game is drawn as a plain space.
        let word = sp
            .props
            .get("color")
            .and_then(|v| v.as_str())
            .unwrap_or("a taxi");
        let seat = (0..scene.def.seat_names.len())
            .find(|&k| scene.def.seat_name(k).eq_ignore_ascii_case(word));
        let in_game = seat.is_none_or(|k| k < usize::from(scene.view.seats));
        if has("start") && in_game {
            let color = prop_color(scene.def, &sp.props).unwrap_or(Color32::WHITE);
            marks::space(p, c, r, color);
            p.circle_stroke(
                c,
                r * 0.62,
                Stroke::new((r * 0.14).max(1.0), Color32::WHITE),
            );
            let whose = seat.map_or_else(|| word.to_string(), |k| scene.def.seat_name(k));
            note_legend(&mut legend, Sym::Start(color), format!("start of {whose}"));
        } else if has("store") {
            let price = sp.props.get("price").and_then(|v| v.as_int());
            marks::store(p, c, r, price);
            note_legend(&mut legend, Sym::Store, "store, with its price");
        } else if has("stack") {
            let count = zone_named(scene, sp.props.get("stack")).map(|z| z.count);
            marks::stack(p, c, r, count);
            note_legend(&mut legend, Sym::Stack, "passenger stack (cards left)");
        } else if has("pickup") {
            marks::pickup(p, c, r);
            note_legend(&mut legend, Sym::Pickup, "pick-up stop");
        } else if has("dropoff") {
            marks::dropoff(p, c, r);
            note_legend(&mut legend, Sym::Dropoff, "drop-off");
        } else if has("police") {
            marks::police(p, c, r);
            note_legend(&mut legend, Sym::Police, "police station");
        } else if has("stand") {
            marks::stand(p, c, r);
            note_legend(&mut legend, Sym::Stand, "taxi stand");
        } else if has("chance") {
            marks::chance(p, c, r);
            note_legend(&mut legend, Sym::Chance, "chance: draw a card");
        } else {
            marks::space(p, c, r, Color32::WHITE);
            note_legend(&mut legend, Sym::Space, "space");
        }
        // Smaller badges for what a space also is.
        let badge = c + Vec2::new(r * 0.85, -r * 0.85);
        if has("perch") {
            marks::perch(p, badge, r * 0.5);
            note_legend(&mut legend, Sym::Perch, "perch: flight paths end here");
        }
        if has("landing") {
            marks::landing(p, badge + Vec2::new(0.0, r * 1.7), r * 0.5);
            note_legend(&mut legend, Sym::Landing, "landing: river routes end here");
        }
        if has("bridge") {
            p.circle_stroke(
                c,
                r + 2.5,
                Stroke::new(2.5, Color32::from_rgb(0x8d, 0x6e, 0x63)),
            );
            note_legend(&mut legend, Sym::Bridge, "bridge over the river");
        }
    }
    // The spots a person may act on, marked before the names so that no name hides under
    // a mark, the lit ones (of the action under the pointer) brighter (the board view marks
    // the one under the pointer again).
    for spot in scene.actionable {
        if let super::Spot::Space(s) = *spot
            && let Some(Some(place)) = places.get(s as usize)
        {
            super::highlight(p, *place, scene.lit.contains(spot));
        }
    }
    let mut taken = section_names;
    taken.extend(keep_off);
    let (named, written) = names(p, scene, &places, rn, sections, taken);
    Drawn {
        places,
        legend,
        note: None,
        named,
        written,
        marks: Vec::new(),
    }
}

/// Whether the board marks the spots a person may act on itself ([`draw`] does for boards of
/// spaces), so that their names are written over the marks.
pub fn marks_actionable(scene: &Scene) -> bool {
    !matches!(scene.board.kind, "grid" | "track")
}

/// Feature names are never written smaller than this (screen points), however far out the
/// board is zoomed: smaller than the usual least size, [`super::MIN_TEXT`], rather than gone.
const FEATURE_TEXT: f32 = 9.5;

/// Writes the spaces' names, most telling first, each where it overlaps no name already
/// written (a section's name included), no other feature's symbol and no piece, and always
/// inside the view (a name that would run off an edge is shifted in). Returns the spaces
/// named, with the name.
///
/// Every space a person may act on is named first, by the name the actions use
/// ([`super::space_label`]: a name several spaces share gets the number its id ends
/// with, as the rules say "Fernway 2"), in full, at the least feature size, those of the
/// action under the pointer (`Scene::lit`) first; beside it where free, else further out on a
/// line to it (a line that crosses no name), else in the shorter form below where that names
/// it alone, else over the symbols it covers least. A name is never written over another
/// name or the legend: where a crowd of such places leaves one no room, it is left to the
/// space's tooltip and the action list (the patrol car's 37 places in Taxi Derby).
///
/// Then the features, i.e. spaces with tags (the board draws them larger, with their
/// symbol: a taxi stand, a store, a chance space, a perch...), since those are the places
/// people look for and tell apart by name (Critter Cab's eight stands look alike). A
/// feature's name is never left out for being small: zoomed out it is written at
/// [`FEATURE_TEXT`], below its space, else above, right or left of it, and when none of
/// those is free, shortened to what comes before a comma or parenthesis ("Anchor Street
/// Rank, stop A" -> "Anchor Street Rank") if no other space's name shortens to the same
/// words or is written so; `taken` holds what names keep off (the sections' names, the legend
/// over the board). Only when even that has nowhere free to go is it left out (its
/// tooltip names it), so a crowded board does not turn into overlapping text. Plain road
/// spaces (no tags) are named only when the board is zoomed in far enough to write them at
/// a readable size, below the space, where free.
// One piece: names are placed one at a time against one growing list of what is taken; the
// candidate places, the shortened forms and the leader lines all read and extend that list.
fn names(
    p: &Painter,
    scene: &Scene,
    places: &[Option<Place>],
    rn: f32,
    sections: bool,
    taken: Vec<Rect>,
) -> (Vec<(u32, String)>, Vec<Rect>) {
    let spaces = &scene.board.graph.spaces;
    let view = p.clip_rect().shrink(2.0);
    let base = (rn * 0.9).min(14.0);
    let acting: Vec<usize> = scene
        .actionable
        .iter()
        .filter_map(|spot| match spot {
            super::Spot::Space(s) => Some(*s as usize),
            super::Spot::Card { .. } => None,
        })
        .collect();
    let lit = |i: usize| scene.lit.contains(&super::Spot::Space(i as u32));
    let mut order: Vec<usize> = (0..spaces.len()).collect();
    order.sort_by_key(|&i| {
        let first = if !acting.contains(&i) {
            2
        } else if lit(i) {
            0
        } else {
            1
        };
        (first, spaces.get(i).map_or(usize::MAX, |s| rank(&s.tags)))
    });
    let full: Vec<String> = (0..spaces.len())
        .map(|i| super::space_label(scene, i as u32))
        .collect();
    // A shortened name is written only where it names one space alone.
    let heads: Vec<Option<String>> = full.iter().map(|n| short_form(n)).collect();
    let unique_head = |i: usize| -> Option<String> {
        let h = heads.get(i).cloned().flatten()?;
        let again = heads
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.as_ref() == Some(&h))
            || full.contains(&h);
        (!again).then_some(h)
    };
    // What a name must not cover: the other features' symbols and the pieces.
    let mut blocked: Vec<(usize, Rect)> = spaces
        .iter()
        .zip(places)
        .enumerate()
        .filter(|(_, (sp, _))| !sp.tags.is_empty())
        .filter_map(|(i, (_, pl))| {
            pl.map(|pl| (i, Rect::from_center_size(pl.c, Vec2::splat(pl.r * 1.8))))
        })
        .collect();
    // A space a person may act on stays in sight (its mark's rim may go under a name).
    for &s in &acting {
        if let Some(Some(pl)) = places.get(s) {
            blocked.push((s, Rect::from_center_size(pl.c, Vec2::splat(pl.r * 1.6))));
        }
    }
    // A space with pieces on it: how far out they reach (its own name goes beyond them).
    let mut reach: Vec<f32> = places.iter().map(|pl| pl.map_or(0.0, |pl| pl.r)).collect();
    let mut on = vec![0usize; places.len()];
    for piece in &scene.view.pieces {
        if let Some(s) = piece.at.as_deref().and_then(|a| scene.board.graph.find(a))
            && let Some(n) = on.get_mut(s as usize)
        {
            *n += 1;
        }
    }
    for (s, &n) in on.iter().enumerate() {
        let Some(Some(pl)) = places.get(s) else {
            continue;
        };
        for k in 0..n {
            let (c, t) = super::token_slot(*pl, k, n);
            blocked.push((s, Rect::from_center_size(c, Vec2::splat(t * 2.4))));
            if let Some(x) = reach.get_mut(s) {
                *x = x.max((c - pl.c).length() + t * 1.2);
            }
        }
    }
    // A space marked as changed by a last move: its ring reaches further still.
    for m in scene.moved {
        for &s in &m.spaces {
            if let (Some(Some(pl)), Some(x)) = (places.get(s as usize), reach.get_mut(s as usize))
                && !pl.square
            {
                *x = x.max(super::marks::moved_ring_reach(pl.r));
            }
        }
    }
    // What names keep off: the sections' names and the legend, then each name written.
    let mut taken = taken;
    let first = taken.len();
    let mut named = Vec::new();
    // The lines joining names written further out to their spaces.
    let mut leaders: Vec<(Pos2, Pos2)> = Vec::new();
    for i in order {
        let (Some(sp), Some(Some(place)), Some(name)) = (spaces.get(i), places.get(i), full.get(i))
        else {
            continue;
        };
        if !view.contains(place.c) {
            continue;
        }
        let act = acting.contains(&i);
        let featured = !sp.tags.is_empty();
        let size = if act || featured {
            base.max(FEATURE_TEXT)
        } else if base < super::MIN_TEXT || (sections && rn < 30.0) {
            continue;
        } else {
            base
        };
        let mut forms = vec![name.clone()];
        if featured || act {
            forms.extend(unique_head(i));
        }
        let sides: &[Align2] = if act {
            &[
                Align2::CENTER_TOP,
                Align2::CENTER_BOTTOM,
                Align2::LEFT_CENTER,
                Align2::RIGHT_CENTER,
                Align2::LEFT_TOP,
                Align2::RIGHT_TOP,
                Align2::LEFT_BOTTOM,
                Align2::RIGHT_BOTTOM,
            ]
        } else if featured {
            &[
                Align2::CENTER_TOP,
                Align2::CENTER_BOTTOM,
                Align2::LEFT_CENTER,
                Align2::RIGHT_CENTER,
            ]
        } else {
            &[Align2::CENTER_TOP]
        };
        // Nothing covered, its own space's symbol and pieces included (a name shifted in
        // from the edge of the view could land on them).
        let free = |r: Rect| {
            !taken.iter().any(|t| t.intersects(r))
                && !blocked.iter().any(|&(_, b)| b.intersects(r))
                && !leaders.iter().any(|&(a, b)| crosses(a, b, r))
        };
        // A name further out is joined to its space by a line that crosses no other name.
        let clear_line = |r: Rect, far: f32| {
            far <= 1.0 || {
                let (a, b) = leader_of(*place, r);
                !taken.iter().any(|t| crosses(a, b, t.shrink(0.5)))
            }
        };
        let gap = reach.get(i).copied().unwrap_or(place.r) + 2.0;
        let at_side = |side: Align2, size: Vec2, far: f32| {
            let g = gap * far;
            let d = g * std::f32::consts::FRAC_1_SQRT_2;
            let at = place.c
                + match side {
                    Align2::CENTER_TOP => Vec2::new(0.0, g),
                    Align2::CENTER_BOTTOM => Vec2::new(0.0, -g),
                    Align2::LEFT_CENTER => Vec2::new(g, 0.0),
                    Align2::RIGHT_CENTER => Vec2::new(-g, 0.0),
                    Align2::LEFT_TOP => Vec2::new(d, d),
                    Align2::RIGHT_TOP => Vec2::new(-d, d),
                    Align2::LEFT_BOTTOM => Vec2::new(d, -d),
                    _ => Vec2::new(-d, -d),
                };
            inside(side.anchor_size(at, size).expand(1.5), view)
        };
        // A place the person may act on may have its name further out, joined to it by a
        // line, when nothing next to it is free.
        let rings: &[f32] = if act {
            &[1.0, 1.9, 2.8, 3.8, 5.0]
        } else {
            &[1.0]
        };
        let mut spot = None;
        'found: for form in &forms {
            let galley = p.layout_no_wrap(form.clone(), FontId::proportional(size), INK);
            for &far in rings {
                for &side in sides {
                    let r = at_side(side, galley.size(), far);
                    if free(r) && clear_line(r, far) {
                        spot = Some((r, galley, form.clone(), far > 1.0));
                        break 'found;
                    }
                }
            }
        }
        if spot.is_none() && act {
            // Where no side is clear, over the symbols it covers least, but never over
            // another name or the legend: a crowd of places to act on (Taxi Derby's patrol
            // car may go to 37) would otherwise pile their names up unreadably. A name that
            // has no such place is left to the space's tooltip and the action list.
            let galley = p.layout_no_wrap(name.clone(), FontId::proportional(size), INK);
            let covered = |r: Rect| -> f32 {
                blocked
                    .iter()
                    .map(|(_, b)| {
                        let i = r.intersect(*b);
                        if i.is_positive() { i.area() } else { 0.0 }
                    })
                    .sum::<f32>()
            };
            let best = rings
                .iter()
                .flat_map(|&far| sides.iter().map(move |&side| (far, side)))
                .map(|(far, side)| (at_side(side, galley.size(), far), far))
                .filter(|&(r, far)| {
                    !taken.iter().any(|t| t.intersects(r))
                        && !leaders.iter().any(|&(a, b)| crosses(a, b, r))
                        && clear_line(r, far)
                })
                .map(|(r, far)| (covered(r), r, far))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, r, far)) = best {
                spot = Some((r, galley, name.clone(), far > 1.0));
            }
        }
        if let Some((r, galley, form, leader)) = spot {
            taken.push(r);
            if leader {
                let (from, to) = leader_of(*place, r);
                p.line_segment([from, to], Stroke::new(2.5, Color32::from_black_alpha(160)));
                p.line_segment([from, to], Stroke::new(1.2, super::ACTION));
                leaders.push((from, to));
            }
            p.rect_filled(
                r,
                3.0,
                Color32::from_rgba_unmultiplied(0xf5, 0xf0, 0xe0, 225),
            );
            p.galley(r.min + Vec2::splat(1.5), galley, INK);
            named.push((i as u32, form));
        }
    }
    let written = taken.get(first..).unwrap_or_default().to_vec();
    (named, written)
}

/// The line from a space's edge to its name written further out.
fn leader_of(place: Place, r: Rect) -> (Pos2, Pos2) {
    let to = r.clamp(place.c);
    (place.c + (to - place.c).normalized() * place.r, to)
}

/// Whether the segment `a`-`b` passes through `r` (Liang-Barsky clipping).
fn crosses(a: Pos2, b: Pos2, r: Rect) -> bool {
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-d.x, a.x - r.min.x),
        (d.x, r.max.x - a.x),
        (-d.y, a.y - r.min.y),
        (d.y, r.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// A name's shorter form: the part before a comma or parenthesis ("Anchor Street Rank,
/// stop A" -> "Anchor Street Rank"). A name without one has none: its first word alone
/// ("Gull" for "Gull Lane Taxi Rank") would be a cut name, not a name.
fn short_form(name: &str) -> Option<String> {
    let head = name.split([',', '(', ':']).next().unwrap_or(name).trim();
    (head != name.trim() && !head.is_empty()).then(|| head.to_string())
}

/// `r` moved the least to lie inside `view` (its left or top edge kept when it is larger).
pub(super) fn inside(r: Rect, view: Rect) -> Rect {
    let dx = if r.min.x < view.min.x {
        view.min.x - r.min.x
    } else if r.max.x > view.max.x {
        (view.max.x - r.max.x).max(view.min.x - r.min.x)
    } else {
        0.0
    };
    let dy = if r.min.y < view.min.y {
        view.min.y - r.min.y
    } else if r.max.y > view.max.y {
        (view.max.y - r.max.y).max(view.min.y - r.min.y)
    } else {
        0.0
    };
    r.translate(Vec2::new(dx, dy))
}

/// Which names to write first: places people look for before plain road.
fn rank(tags: &[String]) -> usize {
    const ORDER: [&str; 9] = [
        "stand", "police", "store", "dropoff", "stack", "start", "chance", "pickup", "bridge",
    ];
    tags.iter()
        .filter_map(|t| ORDER.iter().position(|o| o == t))
        .min()
        .unwrap_or(if tags.is_empty() {
            ORDER.len() + 1
        } else {
            ORDER.len()
        })
}

/// For each edge between two spaces out of line with each other, the corner it turns at:
/// where the street one of them lies on (a line through an in-line neighbour) meets the
/// other's. Sections boards draw such turns as curves round that corner, so their streets
/// read as streets.
fn street_corners(scene: &Scene) -> Vec<Option<(f64, f64)>> {
    let g = &scene.board.graph;
    let sp = |i: u32| g.spaces.get(i as usize);
    let same = |a: f64, b: f64| (a - b).abs() < 1e-6;
    // Whether each space has a neighbour in line across (same y) or down (same x).
    let mut across = vec![false; g.spaces.len()];
    let mut down = vec![false; g.spaces.len()];
    for e in &g.edges {
        let (Some(a), Some(b)) = (sp(e.from), sp(e.to)) else {
            continue;
        };
        for i in [e.from, e.to] {
            if same(a.y, b.y)
                && let Some(f) = across.get_mut(i as usize)
            {
                *f = true;
            }
            if same(a.x, b.x)
                && let Some(f) = down.get_mut(i as usize)
            {
                *f = true;
            }
        }
    }
    let flag = |v: &[bool], i: u32| v.get(i as usize).copied().unwrap_or(false);
    g.edges
        .iter()
        .map(|e| {
            let (a, b) = (sp(e.from)?, sp(e.to)?);
            if same(a.x, b.x) || same(a.y, b.y) {
                return None;
            }
            if flag(&across, e.from) || flag(&down, e.to) {
                Some((b.x, a.y))
            } else if flag(&down, e.from) || flag(&across, e.to) {
                Some((a.x, b.y))
            } else {
                None
            }
        })
        .collect()
}

/// The zone a property names (a rank's stack), if the view has it.
fn zone_named<'v>(
    scene: &Scene<'v>,
    v: Option<&farebox::value::Value>,
) -> Option<&'v farebox::game::ZoneView> {
    let id = v?.as_str()?;
    scene.view.zones.iter().find(|z| z.id == id)
}
