//! The marks drawn on boards, each a small painting routine, so the legend shows exactly
//! what the board shows.

use std::f32::consts::{PI, TAU};

use eframe::egui::{
    Align2, Color32, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2,
    epaint::{PathShape, QuadraticBezierShape},
};

use super::{ACTION, INK, ink_on, text};

pub const ASPHALT: Color32 = Color32::from_rgb(0x47, 0x4c, 0x54);
pub const PAPER: Color32 = Color32::from_rgb(0xec, 0xe6, 0xd4);
pub const EMPTY_CELL: Color32 = Color32::from_rgb(0x35, 0x47, 0x4c);
pub const RIVER: Color32 = Color32::from_rgb(0x2f, 0x86, 0xd6);
pub const FLIGHT: Color32 = Color32::from_rgb(0x8e, 0x4f, 0xc8);
/// City blocks between the roads of a section.
pub const BLOCK: Color32 = Color32::from_rgb(0xd8, 0xd2, 0xbf);
pub const STOP_RED: Color32 = Color32::from_rgb(0xc8, 0x2a, 0x2a);
const CONE_ORANGE: Color32 = Color32::from_rgb(0xf5, 0x7c, 0x00);
const STORE_GREEN: Color32 = Color32::from_rgb(0x2e, 0x7d, 0x32);
const PICKUP_BLUE: Color32 = Color32::from_rgb(0x15, 0x65, 0xc0);
const DROPOFF_PINK: Color32 = Color32::from_rgb(0xc2, 0x18, 0x5b);
const POLICE_NAVY: Color32 = Color32::from_rgb(0x1a, 0x23, 0x7e);
const CHANCE_PURPLE: Color32 = Color32::from_rgb(0x6a, 0x1b, 0x9a);
const GOLD: Color32 = Color32::from_rgb(0xff, 0xc8, 0x2e);
const TAXI_YELLOW: Color32 = Color32::from_rgb(0xff, 0xc1, 0x07);

/// What a legend line shows.
#[derive(Clone, PartialEq)]
pub enum Sym {
    Road,
    OneWay,
    Stop,
    DeadEnd,
    EmptyCell,
    Pothole,
    Cone,
    Closed,
    Start(Color32),
    Token(Color32, String),
    /// A piece carrying something (its `carrying` property): the piece's token with a dot in
    /// the colour of what it carries.
    Carrying(Color32, String, Color32),
    Space,
    Store,
    Stack,
    Pickup,
    Dropoff,
    Police,
    Stand,
    Chance,
    Perch,
    Landing,
    Bridge,
    EdgeRoad,
    EdgeRiver,
    EdgeFlight,
    EdgeOther(Color32),
    Directed,
    Section,
    Lane,
    NoPass,
    Gate(u32),
    StartGrid,
    Finish,
    TableEdge,
    TrackEnd,
    Actionable,
    /// A seat's last move, in its colour.
    Moved(Color32),
}

impl Sym {
    /// Where the symbol's line goes in the legend: what can be done first, then the board,
    /// its places, and the pieces last.
    pub fn group(&self) -> u8 {
        match self {
            Sym::Actionable | Sym::Moved(_) => 0,
            Sym::Token(..) | Sym::Carrying(..) => 4,
            Sym::Start(_) => 3,
            Sym::Pothole | Sym::Cone | Sym::Closed => 2,
            Sym::Store | Sym::Stack | Sym::Pickup | Sym::Dropoff | Sym::Police | Sym::Stand => 2,
            Sym::Chance | Sym::Perch | Sym::Landing | Sym::Bridge | Sym::Gate(_) => 2,
            _ => 1,
        }
    }
}

/// Paints a legend symbol in `r`.
pub fn paint_sym(p: &Painter, r: Rect, sym: &Sym) {
    let c = r.center();
    let h = r.width() / 2.0;
    let road = |w: f32| {
        p.line_segment(
            [c - Vec2::new(h, 0.0), c + Vec2::new(h, 0.0)],
            Stroke::new(w, ASPHALT),
        );
    };
    match sym {
        Sym::Road => {
            p.rect_filled(r, 3.0, PAPER);
            road(h * 0.8);
        }
        Sym::OneWay => {
            p.rect_filled(r, 3.0, PAPER);
            road(h * 0.8);
            arrow(p, c, Vec2::X, h * 0.45, Color32::WHITE);
        }
        Sym::Stop => stop_sign(p, c, h),
        Sym::DeadEnd => {
            p.rect_filled(r, 3.0, PAPER);
            p.line_segment([c - Vec2::new(h, 0.0), c], Stroke::new(h * 0.8, ASPHALT));
            crater(p, c, h * 0.5);
        }
        Sym::EmptyCell => empty_cell(p, r),
        Sym::Pothole => pothole(p, c, h),
        Sym::Cone => cone(p, c, h),
        Sym::Closed => no_entry(p, c, h),
        Sym::Start(col) => {
            p.rect_filled(r.shrink(2.0), 3.0, PAPER);
            start_mark(p, r.shrink(2.0), *col);
        }
        Sym::Token(col, l) => token(p, c, h * 0.85, *col, l),
        Sym::Carrying(col, l, load) => {
            token(p, c, h * 0.85, *col, l);
            load_dot(p, c, h * 0.85, *load);
        }
        Sym::Space => space(p, c, h * 0.7, Color32::WHITE),
        Sym::Store => store(p, c, h, None),
        Sym::Stack => stack(p, c, h, None),
        Sym::Pickup => pickup(p, c, h),
        Sym::Dropoff => dropoff(p, c, h),
        Sym::Police => police(p, c, h),
        Sym::Stand => stand(p, c, h),
        Sym::Chance => chance(p, c, h),
        Sym::Perch => perch(p, c, h),
        Sym::Landing => landing(p, c, h),
        Sym::Bridge => {
            river(p, r.left_center(), r.right_center(), 3.0);
            p.line_segment(
                [r.center_top(), r.center_bottom()],
                Stroke::new(6.0, ASPHALT),
            );
        }
        Sym::EdgeRoad => road(5.0),
        Sym::EdgeRiver => river(p, r.left_center(), r.right_center(), 3.0),
        Sym::EdgeFlight => {
            flight(
                p,
                r.left_center() + Vec2::new(0.0, 5.0),
                r.right_center() + Vec2::new(0.0, 5.0),
                0.35,
                Stroke::new(2.0, FLIGHT),
            );
        }
        Sym::EdgeOther(col) => {
            p.extend(Shape::dashed_line(
                &[r.left_center(), r.right_center()],
                Stroke::new(2.5, *col),
                4.0,
                3.0,
            ));
        }
        Sym::Directed => {
            road(5.0);
            arrow(p, c, Vec2::X, h * 0.6, Color32::WHITE);
        }
        Sym::Section => {
            p.rect_filled(r.shrink(1.0), 2.0, BLOCK);
            p.rect_stroke(
                r.shrink(1.0),
                2.0,
                Stroke::new(2.0, INK),
                StrokeKind::Inside,
            );
        }
        Sym::Lane => {
            p.rect_filled(r, 2.0, ASPHALT);
            p.extend(Shape::dashed_line(
                &[r.left_center(), r.right_center()],
                Stroke::new(1.5, Color32::WHITE),
                3.0,
                3.0,
            ));
        }
        Sym::NoPass => {
            p.rect_filled(r, 2.0, ASPHALT);
            p.line_segment(
                [r.left_center(), r.right_center()],
                Stroke::new(2.0, Color32::WHITE),
            );
        }
        Sym::Gate(n) => gate_badge(p, c, h, *n),
        Sym::StartGrid => {
            p.rect_filled(r, 2.0, ASPHALT);
            grid_box(p, c, h * 0.6, 0.0);
        }
        Sym::Finish => checkered(p, r.left_center(), r.right_center(), Vec2::new(0.0, h), 4),
        Sym::TableEdge => {
            p.extend(Shape::dashed_line(
                &[r.left_center(), r.right_center()],
                Stroke::new(1.5, Color32::from_gray(200)),
                4.0,
                3.0,
            ));
        }
        Sym::TrackEnd => track_end(p, c, -Vec2::Y, h),
        Sym::Moved(color) => {
            p.circle_stroke(c, h * 0.8, Stroke::new(3.0, *color));
            p.circle_stroke(c, h * 0.8 + 2.0, Stroke::new(1.0, Color32::BLACK));
        }
        Sym::Actionable => {
            p.rect_filled(r.shrink(1.0), 3.0, ACTION.gamma_multiply(0.25));
            p.rect_stroke(
                r.shrink(1.0),
                3.0,
                Stroke::new(2.5, ACTION),
                StrokeKind::Inside,
            );
        }
    }
}

/// A round piece: a coloured disc with a dark and a light ring, its letter inside.
pub fn token(p: &Painter, c: Pos2, r: f32, color: Color32, letter: &str) {
    p.circle_filled(
        c + Vec2::new(0.0, r * 0.12),
        r,
        Color32::from_black_alpha(90),
    );
    p.circle_filled(c, r, color);
    p.circle_stroke(c, r, Stroke::new((r * 0.14).clamp(1.0, 2.5), INK));
    p.circle_stroke(c, r + 1.0, Stroke::new(1.0, Color32::from_white_alpha(200)));
    // The letter always: a piece is told apart by it, even drawn small (a legend line).
    let size = (r * if letter.chars().count() > 1 {
        0.8
    } else {
        1.15
    })
    .clamp(9.0, 26.0);
    p.text(
        c,
        Align2::CENTER_CENTER,
        letter,
        eframe::egui::FontId::proportional(size),
        ink_on(color),
    );
}

/// The dot on a token of radius `r` at `c` that says it carries something of colour `load`
/// (Curbside's taxi with its fare): at the token's lower right, never smaller than can be seen.
pub fn load_dot(p: &Painter, c: Pos2, r: f32, load: Color32) {
    let d = c + Vec2::splat(r * 0.72);
    let dr = (r * 0.45).max(4.5);
    p.circle_filled(d, dr, load);
    p.circle_stroke(d, dr, Stroke::new((dr * 0.3).clamp(1.0, 2.0), INK));
    p.circle_stroke(
        d,
        dr + 1.0,
        Stroke::new(1.0, Color32::from_white_alpha(200)),
    );
}

/// A round board space.
pub fn space(p: &Painter, c: Pos2, r: f32, fill: Color32) {
    p.circle_filled(c, r, fill);
    p.circle_stroke(c, r, Stroke::new((r * 0.12).clamp(1.0, 2.5), INK));
}

/// A filled triangle centred on `c`, pointing along `dir` (a unit vector).
pub fn arrow(p: &Painter, c: Pos2, dir: Vec2, r: f32, color: Color32) {
    let n = dir.rot90();
    let pts = vec![
        c + dir * r,
        c - dir * r * 0.7 + n * r * 0.8,
        c - dir * r * 0.7 - n * r * 0.8,
    ];
    p.add(Shape::convex_polygon(pts, color, Stroke::NONE));
}

fn polygon(c: Pos2, r: f32, n: usize, turn: f32) -> Vec<Pos2> {
    (0..n)
        .map(|k| c + Vec2::angled(turn + TAU * k as f32 / n as f32) * r)
        .collect()
}

/// A red octagon; "STOP" on it when there is room.
pub fn stop_sign(p: &Painter, c: Pos2, r: f32) {
    p.add(Shape::convex_polygon(
        polygon(c, r, 8, PI / 8.0),
        STOP_RED,
        Stroke::new((r * 0.12).max(1.0), Color32::WHITE),
    ));
    text(
        p,
        c,
        Align2::CENTER_CENTER,
        "STOP",
        r * 0.62,
        Color32::WHITE,
    );
}

/// The crater a broken road ends in.
pub fn crater(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r, Color32::from_rgb(0x5d, 0x40, 0x37));
    p.circle_filled(
        c + Vec2::new(r * 0.15, r * 0.15),
        r * 0.62,
        Color32::from_rgb(0x2b, 0x1d, 0x19),
    );
    p.circle_stroke(
        c,
        r,
        Stroke::new((r * 0.15).max(1.0), Color32::from_rgb(0x8d, 0x6e, 0x63)),
    );
}

/// A pothole closing a cell.
pub fn pothole(p: &Painter, c: Pos2, r: f32) {
    let blob: Vec<Pos2> = (0..14)
        .map(|k| {
            let a = TAU * k as f32 / 14.0;
            let wobble = 1.0 + 0.12 * (a * 3.0).sin();
            c + Vec2::new(a.cos() * r * 0.95, a.sin() * r * 0.62) * wobble
        })
        .collect();
    p.add(Shape::convex_polygon(
        blob,
        Color32::from_rgb(0x3e, 0x2c, 0x25),
        Stroke::new((r * 0.1).max(1.0), Color32::from_rgb(0x9e, 0x86, 0x7a)),
    ));
    p.circle_filled(
        c + Vec2::new(-r * 0.2, r * 0.05),
        r * 0.28,
        Color32::from_rgb(0x1e, 0x14, 0x10),
    );
    p.circle_filled(
        c + Vec2::new(r * 0.35, -r * 0.05),
        r * 0.18,
        Color32::from_rgb(0x1e, 0x14, 0x10),
    );
}

/// A construction cone.
pub fn cone(p: &Painter, c: Pos2, r: f32) {
    let top = c + Vec2::new(0.0, -r * 0.95);
    let bl = c + Vec2::new(-r * 0.62, r * 0.7);
    let br = c + Vec2::new(r * 0.62, r * 0.7);
    p.add(Shape::convex_polygon(
        vec![top, br, bl],
        CONE_ORANGE,
        Stroke::new(1.0, INK),
    ));
    let at = |t: f32, side: Pos2| top + (side - top) * t;
    p.add(Shape::convex_polygon(
        vec![at(0.38, bl), at(0.38, br), at(0.62, br), at(0.62, bl)],
        Color32::WHITE,
        Stroke::NONE,
    ));
    let base = Rect::from_min_max(
        c + Vec2::new(-r * 0.85, r * 0.68),
        c + Vec2::new(r * 0.85, r * 0.9),
    );
    p.rect_filled(base, 2.0, Color32::from_rgb(0x3a, 0x3a, 0x3a));
}

/// A no-entry sign: any other kind of closed cell.
pub fn no_entry(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r * 0.9, STOP_RED);
    p.circle_stroke(c, r * 0.9, Stroke::new(1.5, Color32::WHITE));
    let bar = Rect::from_center_size(c, Vec2::new(r * 1.1, r * 0.32));
    p.rect_filled(bar, 1.0, Color32::WHITE);
}

/// A cell with no tile: darker than a tile, with a dashed edge.
pub fn empty_cell(p: &Painter, r: Rect) {
    p.rect_filled(r, 3.0, EMPTY_CELL);
    let pts = [
        r.left_top(),
        r.right_top(),
        r.right_bottom(),
        r.left_bottom(),
        r.left_top(),
    ];
    let dash = (r.width() / 10.0).max(3.0);
    p.extend(Shape::dashed_line(
        &pts,
        Stroke::new(1.0, Color32::from_gray(120)),
        dash,
        dash * 0.8,
    ));
}

/// The mark of a starting cell: a band of the seat's colour along its edge.
pub fn start_mark(p: &Painter, r: Rect, color: Color32) {
    let w = (r.width() * 0.07).max(2.0);
    p.rect_stroke(r, 3.0, Stroke::new(w, color), StrokeKind::Inside);
    p.rect_stroke(r.shrink(w), 2.0, Stroke::new(1.0, INK), StrokeKind::Inside);
}

/// A store: a green sign with its price.
pub fn store(p: &Painter, c: Pos2, r: f32, price: Option<i64>) {
    let rect = Rect::from_center_size(c, Vec2::splat(r * 1.7));
    p.rect_filled(rect, r * 0.3, STORE_GREEN);
    p.rect_stroke(
        rect,
        r * 0.3,
        Stroke::new(1.5, Color32::WHITE),
        StrokeKind::Inside,
    );
    let label = price.map_or("$".to_string(), |n| format!("${n}"));
    if text(
        p,
        c,
        Align2::CENTER_CENTER,
        &label,
        r * 0.95,
        Color32::WHITE,
    )
    .is_none()
    {
        text(p, c, Align2::CENTER_CENTER, "$", r * 1.2, Color32::WHITE);
    }
}

/// A face-down stack of cards, with how many when known and there is room.
pub fn stack(p: &Painter, c: Pos2, r: f32, count: Option<usize>) {
    let size = Vec2::new(r * 1.15, r * 1.5);
    for k in (0..3).rev() {
        let off = Vec2::new(k as f32 - 1.0, 1.0 - k as f32) * r * 0.18;
        let rect = Rect::from_center_size(c + off, size);
        p.rect_filled(rect, r * 0.15, Color32::from_rgb(0xb7, 0x1c, 0x1c));
        p.rect_stroke(
            rect,
            r * 0.15,
            Stroke::new(1.0, Color32::WHITE),
            StrokeKind::Inside,
        );
    }
    if let Some(n) = count {
        text(
            p,
            c,
            Align2::CENTER_CENTER,
            &n.to_string(),
            r * 0.9,
            Color32::WHITE,
        );
    }
}

/// A passenger waiting: a little person.
pub fn pickup(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r * 0.92, PICKUP_BLUE);
    p.circle_filled(c + Vec2::new(0.0, -r * 0.32), r * 0.24, Color32::WHITE);
    let body = Rect::from_center_size(c + Vec2::new(0.0, r * 0.28), Vec2::new(r * 0.7, r * 0.5));
    p.rect_filled(body, r * 0.22, Color32::WHITE);
}

/// A drop-off: a flag.
pub fn dropoff(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r * 0.92, Color32::WHITE);
    p.circle_stroke(c, r * 0.92, Stroke::new(1.5, DROPOFF_PINK));
    let pole = c + Vec2::new(-r * 0.3, -r * 0.6);
    p.line_segment(
        [pole, pole + Vec2::new(0.0, r * 1.2)],
        Stroke::new((r * 0.12).max(1.0), INK),
    );
    p.add(Shape::convex_polygon(
        vec![
            pole,
            pole + Vec2::new(r * 0.8, r * 0.25),
            pole + Vec2::new(0.0, r * 0.5),
        ],
        DROPOFF_PINK,
        Stroke::NONE,
    ));
}

/// The police station: a shield.
pub fn police(p: &Painter, c: Pos2, r: f32) {
    let pts = vec![
        c + Vec2::new(-r * 0.8, -r * 0.8),
        c + Vec2::new(r * 0.8, -r * 0.8),
        c + Vec2::new(r * 0.8, r * 0.1),
        c + Vec2::new(0.0, r * 0.95),
        c + Vec2::new(-r * 0.8, r * 0.1),
    ];
    p.add(Shape::convex_polygon(
        pts,
        POLICE_NAVY,
        Stroke::new(1.5, Color32::WHITE),
    ));
    p.circle_filled(c + Vec2::new(0.0, -r * 0.1), r * 0.3, GOLD);
}

/// A taxi stand: a yellow sign with a chequered band.
pub fn stand(p: &Painter, c: Pos2, r: f32) {
    let rect = Rect::from_center_size(c, Vec2::new(r * 1.9, r * 1.3));
    p.rect_filled(rect, r * 0.2, TAXI_YELLOW);
    p.rect_stroke(rect, r * 0.2, Stroke::new(1.5, INK), StrokeKind::Inside);
    let n = 5;
    let w = rect.width() / n as f32;
    for k in 0..n {
        for row in 0..2 {
            if (k + row) % 2 == 0 {
                let min = Pos2::new(rect.min.x + w * k as f32, c.y - w + w * row as f32);
                p.rect_filled(Rect::from_min_size(min, Vec2::splat(w)), 0.0, INK);
            }
        }
    }
}

/// A chance space: a question mark on purple.
pub fn chance(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r * 0.95, CHANCE_PURPLE);
    p.circle_stroke(c, r * 0.95, Stroke::new((r * 0.14).max(1.5), GOLD));
    text(p, c, Align2::CENTER_CENTER, "?", r * 1.35, GOLD);
}

/// A high perch the flying taxi lands on: a small purple peak.
pub fn perch(p: &Painter, c: Pos2, r: f32) {
    p.add(Shape::convex_polygon(
        vec![
            c + Vec2::new(0.0, -r * 0.8),
            c + Vec2::new(r * 0.8, r * 0.6),
            c + Vec2::new(-r * 0.8, r * 0.6),
        ],
        FLIGHT,
        Stroke::new(1.0, Color32::WHITE),
    ));
}

/// A landing on the river: a blue dock.
pub fn landing(p: &Painter, c: Pos2, r: f32) {
    p.circle_filled(c, r * 0.8, RIVER);
    p.circle_stroke(c, r * 0.8, Stroke::new(1.0, Color32::WHITE));
    let w = Stroke::new((r * 0.14).max(1.0), Color32::WHITE);
    for dy in [-0.2, 0.2] {
        let y = c.y + r * dy;
        p.line_segment(
            [Pos2::new(c.x - r * 0.45, y), Pos2::new(c.x + r * 0.45, y)],
            w,
        );
    }
}

/// A river between two points: a wavy blue line.
pub fn river(p: &Painter, a: Pos2, b: Pos2, width: f32) {
    let len = a.distance(b);
    if len < 1.0 {
        return;
    }
    let dir = (b - a) / len;
    let n = dir.rot90();
    let amp = (width * 0.9).max(1.5);
    let wave = (width * 6.0).max(8.0);
    let steps = ((len / wave) * 8.0).ceil().clamp(4.0, 400.0) as usize;
    let pts: Vec<Pos2> = (0..=steps)
        .map(|k| {
            let t = k as f32 / steps as f32;
            let s = (t * len / wave * TAU).sin() * amp * (t * PI).sin().max(0.0).sqrt();
            a + dir * t * len + n * s
        })
        .collect();
    p.add(Shape::line(
        pts.clone(),
        Stroke::new(width * 2.2, Color32::from_rgb(0xbb, 0xde, 0xfb)),
    ));
    p.add(Shape::line(pts, Stroke::new(width, RIVER)));
}

/// A flight path: a dashed arc bending to the left of a->b by `bend` of its length. Returns
/// the middle of the arc and its direction there.
pub fn flight(p: &Painter, a: Pos2, b: Pos2, bend: f32, stroke: Stroke) -> (Pos2, Vec2) {
    let mid = a + (b - a) * 0.5;
    let ctrl = mid + (b - a).rot90() * -bend;
    let curve =
        QuadraticBezierShape::from_points_stroke([a, ctrl, b], false, Color32::TRANSPARENT, stroke);
    let pts = curve.flatten(Some(0.5));
    let dash = (stroke.width * 3.0).max(4.0);
    p.extend(Shape::dashed_line(&pts, stroke, dash, dash * 0.7));
    let top = curve.sample(0.5);
    (top, (b - a).normalized())
}

/// A gate's size in a badge: easy gates green, hard ones red.
pub fn gate_badge(p: &Painter, c: Pos2, r: f32, size: u32) {
    let fill = match size {
        0..=2 => Color32::from_rgb(0x2e, 0x9e, 0x4f),
        3 => Color32::from_rgb(0xe0, 0xa0, 0x10),
        4 => Color32::from_rgb(0xef, 0x6c, 0x00),
        _ => Color32::from_rgb(0xc6, 0x28, 0x28),
    };
    p.circle_filled(c, r, fill);
    p.circle_stroke(c, r, Stroke::new(1.5, Color32::WHITE));
    text(
        p,
        c,
        Align2::CENTER_CENTER,
        &size.to_string(),
        r * 1.3,
        ink_on(fill),
    );
}

/// The colour of a gate bar of `size`.
pub fn gate_color(size: u32) -> Color32 {
    match size {
        0..=2 => Color32::from_rgb(0x43, 0xc0, 0x6a),
        3 => Color32::from_rgb(0xf5, 0xb8, 0x20),
        4 => Color32::from_rgb(0xff, 0x80, 0x20),
        _ => Color32::from_rgb(0xe5, 0x39, 0x35),
    }
}

/// A starting-grid box on the track, turned by `angle`.
pub fn grid_box(p: &Painter, c: Pos2, r: f32, angle: f32) {
    let rot = |v: Vec2| {
        Vec2::new(
            v.x * angle.cos() - v.y * angle.sin(),
            v.x * angle.sin() + v.y * angle.cos(),
        )
    };
    let pts: Vec<Pos2> = [
        (-1.0, -1.0),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
        (-1.0, -1.0),
    ]
    .iter()
    .map(|&(x, y)| c + rot(Vec2::new(x, y) * r))
    .collect();
    p.add(Shape::Path(PathShape::line(
        pts,
        Stroke::new((r * 0.2).clamp(1.0, 3.0), Color32::WHITE),
    )));
}

/// A chequered band from `a` to `b`, `depth` deep, of `n` squares along.
pub fn checkered(p: &Painter, a: Pos2, b: Pos2, depth: Vec2, n: usize) {
    let along = (b - a) / n as f32;
    for k in 0..n {
        for row in 0..2 {
            let o = a + along * k as f32 + depth * 0.5 * row as f32 - depth * 0.5;
            let color = if (k + row) % 2 == 0 {
                Color32::WHITE
            } else {
                INK
            };
            let pts = vec![o, o + along, o + along + depth * 0.5, o + depth * 0.5];
            p.add(Shape::convex_polygon(pts, color, Stroke::NONE));
        }
    }
}

/// Where the next track card goes: a hollow arrow along `dir`.
pub fn track_end(p: &Painter, c: Pos2, dir: Vec2, r: f32) {
    let n = dir.rot90();
    let pts = vec![
        c + dir * r,
        c - dir * r * 0.2 + n * r * 0.7,
        c - dir * r * 0.2 - n * r * 0.7,
        c + dir * r,
    ];
    p.add(Shape::line(
        pts,
        Stroke::new((r * 0.15).clamp(1.0, 3.0), Color32::from_gray(220)),
    ));
}

/// The width of the ring [`moved`] draws round a place of radius `r`.
fn moved_width(r: f32) -> f32 {
    (r * 0.12).clamp(2.5, 5.0)
}

/// How far into a grid cell of radius `r` the square [`moved`] draws reaches from its edge:
/// what is written in the cell's corner starts beyond it, so the mark never covers it.
pub fn moved_reach(r: f32) -> f32 {
    let w = moved_width(r);
    w * 0.5 + 1.0 + w + 2.0
}

/// How far from the centre of a round space of radius `r` the ring [`moved`] draws round it
/// reaches (its outer edge): the space's name is written beyond it.
pub fn moved_ring_reach(r: f32) -> f32 {
    let w = moved_width(r);
    r + w + 4.0 + (w + 2.0) * 0.5
}

/// The mark of a space where a seat's last move changed the board: a ring in the seat's
/// colour round it (a square on a grid cell), edged in black so it reads on any ground.
pub fn moved(p: &Painter, place: super::Place, color: Color32) {
    let w = moved_width(place.r);
    if place.square {
        let r = place.rect().shrink(w * 0.5 + 1.0);
        p.rect_stroke(
            r,
            3.0,
            Stroke::new(w + 2.0, Color32::BLACK),
            StrokeKind::Inside,
        );
        p.rect_stroke(
            r.shrink(1.0),
            3.0,
            Stroke::new(w, color),
            StrokeKind::Inside,
        );
    } else {
        let r = place.r + w + 4.0;
        p.circle_stroke(place.c, r, Stroke::new(w + 2.0, Color32::BLACK));
        p.circle_stroke(place.c, r, Stroke::new(w, color));
    }
}
