//! Grid boards (Curbside): a square per cell, each tile's roads drawn as they lie.
//!
//! A tile's roads run from the middle of the cell to each side it links, so where two
//! neighbouring tiles both open onto their shared side the road runs on, and where only one
//! does it visibly stops at the edge. A side traffic may only enter or only leave by carries
//! an arrow the way traffic goes; a tile that takes more than one move to cross has a stop
//! sign, a road with a single open side ends in a crater, and a blocker (a pothole, a cone)
//! sits over its cell and darkens it. Cells without a tile are darker, with a dashed edge.

use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2};
use farebox::content::def::{Side, TileDef};

use super::marks::{self, ASPHALT, PAPER, Sym};
use super::{Drawn, INK, MIN_TEXT, Place, Scene, Xf, note_legend, prop_color, seat_color, text};

/// Room left of and above the grid for the column and row numbers.
const RULER: f32 = 0.45;

fn size(scene: &Scene) -> (u32, u32) {
    scene
        .board
        .grid
        .as_ref()
        .map_or((0, 0), |g| (g.width, g.height))
}

pub fn extent(scene: &Scene) -> Rect {
    let (w, h) = size(scene);
    Rect::from_min_max(
        Pos2::new(0.5 - RULER, 0.5 - RULER),
        Pos2::new(w.max(1) as f32 + 0.5, h.max(1) as f32 + 0.5),
    )
}

/// A tile on a cell with its quarter turns.
type Laid<'d> = Option<(&'d TileDef, u8)>;

/// The road tile and the blocker on a cell, as the seat sees them.
fn on_cell<'d>(scene: &Scene<'d>, cell: u32) -> (Laid<'d>, Laid<'d>) {
    let def = scene.def;
    match &scene.view.tiles {
        Some(tiles) => {
            let Some((t, b)) = tiles.get(cell as usize) else {
                return (None, None);
            };
            let find = |p: &Option<(String, u8)>| {
                p.as_ref().and_then(|(id, r)| {
                    def.tile(id).and_then(|i| def.tiles.get(i)).map(|t| (t, *r))
                })
            };
            (find(t), find(b))
        }
        None => {
            let find = |p: Option<farebox::board::Placed>| {
                p.and_then(|p| def.tiles.get(p.tile as usize).map(|t| (t, p.rot)))
            };
            (
                find(scene.board.tile_at(cell)),
                find(scene.board.blocker_at(cell)),
            )
        }
    }
}

/// For each side (N, E, S, W) of a tile as it lies: may a vehicle enter by it, leave by it.
fn sides(t: &TileDef, rot: u8) -> [(bool, bool); 4] {
    let links = t.links_turned(rot);
    let exits = links.iter().fold(0u8, |a, m| a | m);
    let mut out = [(false, false); 4];
    for (s, o) in out.iter_mut().enumerate() {
        if let Some(l) = links.get(s) {
            *o = (*l != 0, exits & (1 << s) != 0);
        }
    }
    out
}

fn dir(side: Side) -> Vec2 {
    let (dx, dy) = side.delta();
    Vec2::new(dx as f32, dy as f32)
}

/// The colour of a start cell: the colour its properties name, else the seat its id ends with
/// ("start-2" is the second seat's), else white.
fn start_color(scene: &Scene, cell: u32) -> Color32 {
    let Some(sp) = scene.board.graph.spaces.get(cell as usize) else {
        return Color32::WHITE;
    };
    if let Some(c) = prop_color(scene.def, &sp.props) {
        return c;
    }
    let n = sp
        .id
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|d| d.parse::<u8>().ok());
    match n {
        Some(n) if n >= 1 && (n as usize) <= scene.def.seat_names.len() => {
            seat_color(scene.def, n - 1)
        }
        _ => Color32::WHITE,
    }
}

pub fn draw(p: &Painter, xf: Xf, scene: &Scene) -> Drawn {
    let (w, h) = size(scene);
    let s = xf.scale;
    let mut legend = Vec::new();
    let mut places = vec![None; scene.board.graph.spaces.len()];
    let mut named = Vec::new();
    // Column numbers above, row numbers on the left: the dice read x then y.
    let ruler = (s * 0.3).min(18.0);
    for x in 1..=w {
        text(
            p,
            xf.p(x as f64, 0.5 - RULER as f64 / 2.0),
            Align2::CENTER_CENTER,
            &x.to_string(),
            ruler,
            Color32::from_gray(220),
        );
    }
    for y in 1..=h {
        text(
            p,
            xf.p(0.5 - RULER as f64 / 2.0, y as f64),
            Align2::CENTER_CENTER,
            &y.to_string(),
            ruler,
            Color32::from_gray(220),
        );
    }
    for cell in 0..w * h {
        let Some((x, y)) = scene.board.xy(cell) else {
            continue;
        };
        let c = xf.p(x as f64, y as f64);
        let rect = Rect::from_center_size(c, Vec2::splat(s * 0.96));
        if let Some(slot) = places.get_mut(cell as usize) {
            *slot = Some(Place {
                c,
                r: cell_radius(s),
                square: true,
            });
        }
        if !p.clip_rect().intersects(rect) {
            continue;
        }
        let (tile, blocker) = on_cell(scene, cell);
        match tile {
            Some((t, rot)) => {
                p.rect_filled(rect, s * 0.05, PAPER);
                draw_roads(p, c, s, t, rot, &mut legend);
            }
            None => {
                marks::empty_cell(p, rect);
                note_legend(&mut legend, Sym::EmptyCell, "empty cell: no tile yet");
            }
        }
        let start = scene
            .board
            .graph
            .spaces
            .get(cell as usize)
            .is_some_and(|sp| sp.tags.iter().any(|t| t == "start"));
        // A start cell of a seat not in this game is a cell like any other.
        let color = start_color(scene, cell);
        let whose =
            (0..scene.def.seat_names.len()).find(|&k| seat_color(scene.def, k as u8) == color);
        let start = start && whose.is_none_or(|k| k < usize::from(scene.view.seats));
        if start {
            marks::start_mark(p, rect, color);
            let whose = whose.map_or("a taxi".to_string(), |k| scene.def.seat_name(k));
            note_legend(
                &mut legend,
                Sym::Start(color),
                format!("start cell of {whose}"),
            );
        }
        if let Some((b, _)) = blocker {
            p.rect_filled(rect, s * 0.05, Color32::from_black_alpha(120));
            let (sym, line) = if b.tags.iter().any(|t| t == "pothole") {
                marks::pothole(p, c, s * 0.3);
                (
                    Sym::Pothole,
                    format!("{}: closed, nobody drives in", b.name),
                )
            } else if b.tags.iter().any(|t| t == "cone") {
                marks::cone(p, c, s * 0.3);
                (Sym::Cone, format!("{}: closed, nobody drives in", b.name))
            } else {
                marks::no_entry(p, c, s * 0.3);
                (Sym::Closed, format!("{}: closed, nobody drives in", b.name))
            };
            note_legend(&mut legend, sym, line);
            text(
                p,
                c + Vec2::new(0.0, s * 0.36),
                Align2::CENTER_CENTER,
                &b.name,
                s * 0.11,
                Color32::WHITE,
            );
        }
        // The cell's name in its corner, once it can be read.
        let ink = if tile.is_some() && blocker.is_none() {
            Color32::from_gray(90)
        } else {
            Color32::from_gray(200)
        };
        // Clear of a start cell's border and of the square marking a last move.
        let name = format!("{x},{y}");
        let corner = name_corner(rect, s, start);
        let acting = scene.actionable.contains(&super::Spot::Space(cell));
        if text(p, corner, Align2::LEFT_TOP, &name, s * 0.12, ink).is_some() {
            named.push((cell, name));
        } else if acting {
            // A cell a person may act on is named even when names are too small to draw:
            // at the least size, on a plate.
            let galley = p.layout_no_wrap(name.clone(), FontId::proportional(MIN_TEXT), INK);
            let r = Align2::LEFT_TOP
                .anchor_size(rect.min + Vec2::splat(2.0), galley.size())
                .expand(1.5);
            p.rect_filled(
                r,
                3.0,
                Color32::from_rgba_unmultiplied(0xf5, 0xf0, 0xe0, 225),
            );
            p.galley(r.min + Vec2::splat(1.5), galley, INK);
            named.push((cell, name));
        }
    }
    Drawn {
        places,
        legend,
        note: None,
        named,
        written: Vec::new(),
        marks: Vec::new(),
    }
}

/// A tile's roads drawn on a cell centred on `c` and `s` wide (the editor's palette and brush).
/// A grid cell's radius as a place on the board (a cell `s` wide).
fn cell_radius(s: f32) -> f32 {
    s * 0.48
}

/// Where a cell's name is written: its top left corner, in from a start cell's border and
/// clear of the square that marks a last move on it (which once hid the name's first digit).
fn name_corner(rect: Rect, s: f32, start: bool) -> Pos2 {
    let inset = if start { s * 0.1 } else { s * 0.05 };
    let clear = marks::moved_reach(cell_radius(s));
    rect.min + Vec2::new(inset.max(clear), (inset * 0.7).max(clear))
}

pub(crate) fn paint_tile(p: &Painter, c: Pos2, s: f32, t: &TileDef, rot: u8) {
    let rect = Rect::from_center_size(c, Vec2::splat(s * 0.96));
    p.rect_filled(rect, s * 0.05, PAPER);
    draw_roads(p, c, s, t, rot, &mut Vec::new());
}

/// The roads of a tile whose cell is centred on `c` and `s` wide.
fn draw_roads(p: &Painter, c: Pos2, s: f32, t: &TileDef, rot: u8, legend: &mut Vec<(Sym, String)>) {
    let sides = sides(t, rot);
    let rw = s * 0.3;
    let open: Vec<Side> = Side::ALL
        .into_iter()
        .filter(|side| sides.get(side.index()).is_some_and(|&(a, b)| a || b))
        .collect();
    if open.is_empty() {
        // A tile without roads (never laid by the bundled games, but a mod may): its name.
        text(p, c, Align2::CENTER_CENTER, &t.name, s * 0.12, INK);
        return;
    }
    note_legend(legend, Sym::Road, "road");
    for &side in &open {
        p.line_segment([c, c + dir(side) * s * 0.49], Stroke::new(rw, ASPHALT));
    }
    p.rect_filled(Rect::from_center_size(c, Vec2::splat(rw)), 0.0, ASPHALT);
    // The centre line, when there is room for it.
    if s > 70.0 && open.len() > 1 {
        let line = Stroke::new((s * 0.012).max(1.0), Color32::from_rgb(0xf0, 0xd0, 0x60));
        for &side in &open {
            let a = c + dir(side) * rw * 0.5;
            p.extend(Shape::dashed_line(
                &[a, c + dir(side) * s * 0.49],
                line,
                s * 0.05,
                s * 0.04,
            ));
        }
    }
    for &side in &open {
        let Some(&(enter, leave)) = sides.get(side.index()) else {
            continue;
        };
        let flow = match (enter, leave) {
            (true, false) => -dir(side),
            (false, true) => dir(side),
            _ => continue,
        };
        marks::arrow(p, c + dir(side) * s * 0.3, flow, rw * 0.42, Color32::WHITE);
        note_legend(legend, Sym::OneWay, "one way: drive where the arrow points");
    }
    if t.move_cost > 1 {
        marks::stop_sign(p, c, s * 0.2);
        note_legend(
            legend,
            Sym::Stop,
            format!("stop sign: {} moves to drive through", t.move_cost),
        );
    } else if open.len() == 1 {
        marks::crater(p, c, rw * 0.7);
        note_legend(
            legend,
            Sym::DeadEnd,
            "dead end: in and back out the same side",
        );
    }
}

pub fn cell_tooltip(ui: &mut egui::Ui, scene: &Scene, cell: u32) {
    let (tile, blocker) = on_cell(scene, cell);
    match tile {
        Some((t, rot)) => {
            let turned = if rot % 4 == 0 {
                String::new()
            } else {
                format!(", turned {}°", rot as u32 % 4 * 90)
            };
            ui.label(format!("{}{turned}", t.name));
            if !t.text.is_empty() {
                ui.label(egui::RichText::new(&t.text).italics());
            }
        }
        None => {
            ui.label("No tile yet");
        }
    }
    if let Some((b, _)) = blocker {
        ui.label(egui::RichText::new(format!("Closed by a {}", b.name.to_lowercase())).strong());
        if !b.text.is_empty() {
            ui.label(egui::RichText::new(&b.text).italics());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cells_name_starts_clear_of_the_last_move_mark() {
        for s in [30.0f32, 60.0, 100.0, 160.0, 300.0] {
            let rect = Rect::from_min_size(Pos2::new(10.0, 20.0), Vec2::splat(s));
            let reach = marks::moved_reach(cell_radius(s));
            for start in [false, true] {
                let c = name_corner(rect, s, start) - rect.min;
                assert!(
                    c.x >= reach && c.y >= reach,
                    "cell {s}: name at {c:?}, mark reaches {reach}"
                );
                assert!(
                    c.x < s * 0.25 && c.y < s * 0.25,
                    "cell {s}: name at {c:?}, not in the corner"
                );
            }
        }
    }
}
