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

use super::marks::{self, ASPHALT, FLIGHT, Sym};
use super::{Drawn, INK, Place, Scene, Xf, note_legend, prop_color, text};

/// City blocks between the roads of a section.
pub const BLOCK: Color32 = Color32::from_rgb(0xd8, 0xd2, 0xbf);
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

pub fn draw(p: &Painter, xf: Xf, scene: &Scene) -> Drawn {
    let sections = scene.board.kind == "sections";
    let spaces = &scene.board.graph.spaces;
    let rn = xf.len(node_radius(scene));
    let mut legend = Vec::new();

    // The ground: the sections as laid, or a parchment map tinted by region.
    if sections {
        let BoardDef::Sections(s) = &scene.def.board else {
            return Drawn {
                places: vec![],
                legend,
                note: None,
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
        if has("start") {
            let color = prop_color(scene.def, &sp.props).unwrap_or(Color32::WHITE);
            marks::space(p, c, r, color);
            p.circle_stroke(
                c,
                r * 0.62,
                Stroke::new((r * 0.14).max(1.0), Color32::WHITE),
            );
            let word = sp
                .props
                .get("color")
                .and_then(|v| v.as_str())
                .unwrap_or("a taxi");
            let whose = (0..scene.def.seat_names.len())
                .map(|k| scene.def.seat_name(k))
                .find(|n| n.eq_ignore_ascii_case(word))
                .unwrap_or_else(|| word.to_string());
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
    // Names, most telling first, each only where it overlaps no name already written.
    let size = (rn * 0.9).min(14.0);
    let mut order: Vec<usize> = (0..spaces.len()).collect();
    order.sort_by_key(|&i| spaces.get(i).map_or(usize::MAX, |s| rank(&s.tags)));
    let mut taken: Vec<Rect> = Vec::new();
    // A name never covers another space's symbol.
    let symbols: Vec<(usize, Rect)> = spaces
        .iter()
        .zip(&places)
        .enumerate()
        .filter(|(_, (sp, _))| !sp.tags.is_empty())
        .filter_map(|(i, (_, pl))| {
            pl.map(|pl| (i, Rect::from_center_size(pl.c, Vec2::splat(pl.r * 1.8))))
        })
        .collect();
    for i in order {
        let (Some(sp), Some(Some(place))) = (spaces.get(i), places.get(i)) else {
            continue;
        };
        let plain = sp.tags.is_empty();
        if size < super::MIN_TEXT || (plain && sections && rn < 30.0) {
            continue;
        }
        let name = if sp.name.is_empty() { &sp.id } else { &sp.name };
        let at = place.c + Vec2::new(0.0, place.r + 2.0);
        let galley = p.layout_no_wrap(name.clone(), FontId::proportional(size), INK);
        let r = Align2::CENTER_TOP
            .anchor_size(at, galley.size())
            .expand(1.5);
        let covers = symbols.iter().any(|&(j, s)| j != i && s.intersects(r));
        if covers || taken.iter().any(|t| t.intersects(r)) || !p.clip_rect().intersects(r) {
            continue;
        }
        taken.push(r);
        p.rect_filled(
            r,
            3.0,
            Color32::from_rgba_unmultiplied(0xf5, 0xf0, 0xe0, 215),
        );
        p.galley(r.min + Vec2::splat(1.5), galley, INK);
    }
    Drawn {
        places,
        legend,
        note: None,
    }
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
