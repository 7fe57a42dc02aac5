//! Track boards (Dicey Curves): the cards laid so far, each at its place and angle.
//!
//! A card is drawn as its footprint in the engine ([`CardShape`]): one card length along its
//! middle line, straight or bent on an arc, and as wide as the engine counts it, so the boxes
//! drawn for the spaces sit on the lanes and what looks like an overlap is one. Lanes are split
//! by dashed lines; gates sit on the exit edge as coloured bars with the size of the dice combo
//! they ask for, and a solid line in the last row marks where two gates meet (no changing
//! lanes there). The starting grid and the chequered finish are marked, the table's edge is
//! dashed, and a hollow arrow shows where the next card will go. Cards taken off the table
//! (removed behind the pack) are not drawn, and their spaces cannot be clicked.

use eframe::egui::{self, Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke, Vec2};
use farebox::board::{CardShape, LANE_WIDTH, LaidPiece};
use farebox::content::def::{BoardDef, TrackPieceDef, TrackRole};

use super::marks::{self, ASPHALT, Sym};
use super::{Drawn, Place, Scene, Xf, note_legend, plate_text};

fn piece_def<'d>(scene: &Scene<'d>, laid: &LaidPiece) -> Option<&'d TrackPieceDef> {
    match &scene.def.board {
        BoardDef::Track(t) => t.pieces.get(laid.piece as usize),
        _ => None,
    }
}

/// The shape of a laid card: where its middle line runs and how wide it is.
struct Geo {
    shape: CardShape,
    lanes: u32,
}

impl Geo {
    fn new(laid: &LaidPiece) -> Geo {
        Geo {
            shape: laid.shape(),
            lanes: laid.lanes.max(1),
        }
    }
    fn angle(&self, f: f64) -> f64 {
        self.shape.heading_at(f)
    }
    /// The point `f` of the way along the card, `off` to the right of its middle line.
    fn at(&self, f: f64, off: f64) -> (f64, f64) {
        self.shape.at(f, off)
    }
    fn half_width(&self) -> f64 {
        self.shape.half_width()
    }
    /// How far right of the middle line lane `l`'s edge on its left lies.
    fn lane_edge(&self, l: f64) -> f64 {
        (l - self.lanes as f64 / 2.0) * LANE_WIDTH
    }
}

/// The cards on the table (not removed), with their places along the track.
fn on_table(laid: &[LaidPiece]) -> impl Iterator<Item = (usize, &LaidPiece)> {
    laid.iter().enumerate().filter(|(_, l)| !l.removed)
}

fn table(scene: &Scene) -> Rect {
    let (w, h) = scene.board.track.as_ref().map_or((10.0, 6.0), |t| t.table);
    Rect::from_center_size(Pos2::ZERO, Vec2::new(w as f32, h as f32))
}

pub fn extent(scene: &Scene) -> Rect {
    let laid = scene
        .board
        .track
        .as_ref()
        .map_or(&[][..], |t| t.laid.as_slice());
    let mut r: Option<Rect> = None;
    for (_, l) in on_table(laid) {
        let g = Geo::new(l);
        for k in 0..=4 {
            for off in [-g.half_width(), g.half_width()] {
                let (x, y) = g.at(k as f64 / 4.0, off);
                let p = Pos2::new(x as f32, y as f32);
                r = Some(r.map_or(Rect::from_min_max(p, p), |r| {
                    r.union(Rect::from_min_max(p, p))
                }));
            }
        }
    }
    match r {
        Some(r) => {
            let r = r.expand(0.4);
            Rect::from_center_size(r.center(), r.size().max(Vec2::new(4.0, 3.0)))
        }
        None => table(scene),
    }
}

/// What the legend drawn over the board may not cover, in board units: the laid cards, as
/// boxes round points along their edges and middle lines.
pub fn solid(scene: &Scene) -> Vec<Rect> {
    let laid = scene
        .board
        .track
        .as_ref()
        .map_or(&[][..], |t| t.laid.as_slice());
    let mut out = Vec::new();
    for (_, l) in on_table(laid) {
        let g = Geo::new(l);
        let hw = g.half_width();
        for k in 0..=8 {
            for off in [-hw, 0.0, hw] {
                let (x, y) = g.at(k as f64 / 8.0, off);
                out.push(Rect::from_center_size(
                    Pos2::new(x as f32, y as f32),
                    Vec2::splat(hw as f32),
                ));
            }
        }
    }
    out
}

// One piece: one paint pass in z-order (the cards, their lanes and gates, marks, pieces, then
// labels) over the footprints worked out at its top; later layers read what earlier ones took.
pub fn draw(p: &Painter, xf: Xf, scene: &Scene, keep_off: Option<Rect>) -> Drawn {
    let mut legend = Vec::new();
    let mut places = vec![None; scene.board.graph.spaces.len()];
    let t = table(scene);
    let corners = [
        t.left_top(),
        t.right_top(),
        t.right_bottom(),
        t.left_bottom(),
        t.left_top(),
    ];
    let corners: Vec<Pos2> = corners
        .iter()
        .map(|c| xf.p(c.x as f64, c.y as f64))
        .collect();
    p.extend(Shape::dashed_line(
        &corners,
        Stroke::new(1.5, Color32::from_gray(190)),
        10.0,
        6.0,
    ));
    note_legend(&mut legend, Sym::TableEdge, "edge of the table");
    let Some(track) = scene.board.track.as_ref() else {
        return Drawn {
            places,
            legend,
            note: None,
            named: vec![],
            written: vec![],
            marks: vec![],
        };
    };
    if track.laid.is_empty() {
        let note = "No track laid yet: the track is built card by card as the race runs.";
        return Drawn {
            places,
            legend,
            note: Some(note.into()),
            named: vec![],
            written: vec![],
            marks: vec![],
        };
    }
    let pt = |(x, y): (f64, f64)| xf.p(x, y);
    let line_w = (xf.len(0.015)).clamp(1.0, 3.0);
    for (_, laid) in on_table(&track.laid) {
        let Some(d) = piece_def(scene, laid) else {
            continue;
        };
        let g = Geo::new(laid);
        let hw = g.half_width();
        const STEPS: usize = 10;
        let f = |k: usize| k as f64 / STEPS as f64;
        for k in 0..STEPS {
            let quad = vec![
                pt(g.at(f(k), -hw)),
                pt(g.at(f(k + 1), -hw)),
                pt(g.at(f(k + 1), hw)),
                pt(g.at(f(k), hw)),
            ];
            p.add(Shape::convex_polygon(
                quad,
                ASPHALT,
                Stroke::new(1.0, ASPHALT),
            ));
        }
        let edge = |off: f64| -> Vec<Pos2> { (0..=STEPS).map(|k| pt(g.at(f(k), off))).collect() };
        let white = Stroke::new(line_w, Color32::from_gray(235));
        p.add(Shape::line(edge(-hw), white));
        p.add(Shape::line(edge(hw), white));
        p.line_segment(
            [pt(g.at(0.0, -hw)), pt(g.at(0.0, hw))],
            Stroke::new(1.0, Color32::from_gray(140)),
        );
        for l in 1..g.lanes {
            p.extend(Shape::dashed_line(
                &edge(g.lane_edge(l as f64)),
                Stroke::new(line_w * 0.8, Color32::from_gray(210)),
                6.0,
                5.0,
            ));
        }
        note_legend(&mut legend, Sym::Lane, "lanes: each box is a space");
        // The spaces, lane by lane and row by row from the card's first space.
        let rows = d.rows.max(1);
        for lane in 0..d.lanes {
            for row in 0..rows {
                let s = laid.first_space + lane * rows + row;
                let Some(sp) = scene.board.graph.spaces.get(s as usize) else {
                    continue;
                };
                let c = xf.p(sp.x, sp.y);
                let fr = (row as f64 + 0.5) / rows as f64;
                let r = xf.len(0.085);
                marks::grid_box(p, c, r, g.angle(fr) as f32);
                if let Some(slot) = places.get_mut(s as usize) {
                    *slot = Some(Place {
                        c,
                        r: xf.len(0.11),
                        square: false,
                    });
                }
            }
        }
        let along = |f: f64| -> Vec2 {
            let a = g.angle(f);
            Vec2::new(a.sin() as f32, -a.cos() as f32)
        };
        match d.role {
            TrackRole::Start => {
                note_legend(&mut legend, Sym::StartGrid, "starting grid");
                let at = pt(g.at(-0.12, 0.0));
                plate_label(p, at, "START", xf.len(0.09));
            }
            TrackRole::Finish => {
                let depth = along(1.0) * xf.len(0.12);
                let a = pt(g.at(1.0, -hw)) + depth * 0.5;
                let b = pt(g.at(1.0, hw)) + depth * 0.5;
                marks::checkered(p, a, b, depth, (g.lanes * 3) as usize);
                note_legend(&mut legend, Sym::Finish, "finish line");
                plate_label(p, pt(g.at(1.2, 0.0)), "FINISH", xf.len(0.09));
            }
            TrackRole::Normal => {}
        }
    }
    // Gates and the cards' names over everything, so the next card never hides them.
    // The card plates keep off the legend over the board, the cars on the track (a car drawn
    // over a plate hid the card's name), and each other.
    let mut plates: Vec<Rect> = keep_off.into_iter().collect();
    let mut on = vec![0usize; places.len()];
    for piece in &scene.view.pieces {
        if let Some(n) = piece
            .at
            .as_deref()
            .and_then(|a| scene.board.graph.find(a))
            .and_then(|s| on.get_mut(s as usize))
        {
            *n += 1;
        }
    }
    for (s, &n) in on.iter().enumerate() {
        if let Some(Some(pl)) = places.get(s) {
            for k in 0..n {
                let (c, t) = super::token_slot(*pl, k, n);
                plates.push(Rect::from_center_size(c, Vec2::splat(t * 2.2)));
            }
        }
    }
    // Every card's gates first: no card's plate goes over them.
    let mut gates: Vec<Rect> = Vec::new();
    for (_, laid) in on_table(&track.laid) {
        let Some(d) = piece_def(scene, laid) else {
            continue;
        };
        let g = Geo::new(laid);
        let rows = d.rows.max(1);
        // Gates on the exit edge, and walls in the last row between two of them.
        let gate_of = |lane: u32| {
            d.gates
                .iter()
                .find(|(ls, _)| ls.contains(&lane))
                .map(|(_, s)| *s)
        };
        for (lanes, size) in &d.gates {
            let (Some(lo), Some(hi)) = (lanes.iter().min(), lanes.iter().max()) else {
                continue;
            };
            let a = pt(g.at(1.0, g.lane_edge(*lo as f64) + 0.02));
            let b = pt(g.at(1.0, g.lane_edge(*hi as f64 + 1.0) - 0.02));
            let w = xf.len(0.05).max(3.0);
            p.line_segment([a, b], Stroke::new(w, marks::gate_color(*size)));
            gates.push(Rect::from_two_pos(a, b).expand(w / 2.0));
            let mid = (g.lane_edge(*lo as f64) + g.lane_edge(*hi as f64 + 1.0)) / 2.0;
            let (c, r) = (pt(g.at(0.91, mid)), xf.len(0.06).max(9.0));
            marks::gate_badge(p, c, r, *size);
            gates.push(Rect::from_center_size(c, Vec2::splat(r * 2.0 + 2.0)));
            note_legend(
                &mut legend,
                Sym::Gate(*size),
                format!("gate: exactly {size} matching dice to cross"),
            );
        }
        for l in 1..d.lanes {
            if gate_of(l - 1).is_some() && gate_of(l - 1) != gate_of(l) {
                let from = (rows as f64 - 1.0) / rows as f64;
                let pts: Vec<Pos2> = (0..=4)
                    .map(|k| pt(g.at(from + (1.0 - from) * k as f64 / 4.0, g.lane_edge(l as f64))))
                    .collect();
                p.add(Shape::line(pts, Stroke::new(line_w * 1.3, Color32::WHITE)));
                note_legend(
                    &mut legend,
                    Sym::NoPass,
                    "solid line: no changing lanes here",
                );
            }
        }
    }
    plates.extend(gates.iter().copied());
    let first = plates.len();
    let mut named = Vec::new();
    for (n, laid) in on_table(&track.laid) {
        let Some(d) = piece_def(scene, laid) else {
            continue;
        };
        // The card's number and name, as actions name it ("Starting Grid (card 1)"), on a
        // plate beside the middle of the card, on the outside of a curve.
        let g = Geo::new(laid);
        card_plate(p, xf, (&g, laid), n, &d.name, &mut plates, &mut named);
    }
    let finished = track
        .laid
        .last()
        .and_then(|l| piece_def(scene, l))
        .is_some_and(|d| d.role == TrackRole::Finish);
    if !finished {
        let (x, y, h) = track.end;
        let a = h as f64 * std::f64::consts::FRAC_PI_4;
        let dir = Vec2::new(a.sin() as f32, -a.cos() as f32);
        marks::track_end(p, xf.p(x, y) + dir * xf.len(0.2), dir, xf.len(0.18));
        note_legend(&mut legend, Sym::TrackEnd, "the next card goes here");
    }
    Drawn {
        places,
        legend,
        note: None,
        named,
        written: plates.get(first..).unwrap_or_default().to_vec(),
        marks: gates,
    }
}

/// Writes "card N · name" beside a laid card, on the outside of its curve (a straight card
/// takes the side its number's parity gives, so neighbours alternate). A plate that would
/// overlap one already written (or a gate, a car or the legend) tries the other side, then the
/// number alone; a plate running off the view is moved in. One that fits nowhere is left out
/// (the space's tooltip still names the card). `taken` holds what plates keep off and the
/// plates written so far; `named` gets the card's first space and the text written.
fn card_plate(
    p: &Painter,
    xf: Xf,
    (g, laid): (&Geo, &LaidPiece),
    n: usize,
    name: &str,
    taken: &mut Vec<Rect>,
    named: &mut Vec<(u32, String)>,
) {
    let size = xf.len(0.11).min(15.0);
    if size < super::MIN_TEXT * 0.6 {
        return;
    }
    let size = size.max(super::MIN_TEXT);
    // A card that turns right has its outside on the left (a negative offset).
    let turn = g.angle(1.0) - g.angle(0.0);
    let first = if turn > 1e-6 {
        -1.0
    } else if turn < -1e-6 || n % 2 == 1 {
        1.0
    } else {
        -1.0
    };
    let full = format!("card {} · {name}", n + 1);
    let short = (n + 1).to_string();
    for (text, side) in [
        (&full, first),
        (&full, -first),
        (&short, first),
        (&short, -first),
    ] {
        let (x, y) = g.at(0.5, side * (g.half_width() + 0.16));
        let galley = p.layout_no_wrap(text.clone(), FontId::proportional(size), Color32::WHITE);
        let r = Align2::CENTER_CENTER
            .anchor_size(xf.p(x, y), galley.size())
            .expand2(Vec2::new(8.0, 4.0));
        let r = super::graph::inside(r, p.clip_rect().shrink(2.0));
        if taken.iter().any(|t| t.intersects(r)) {
            continue;
        }
        p.rect_filled(r, 6.0, Color32::from_black_alpha(190));
        p.galley(r.min + Vec2::new(8.0, 4.0), galley, Color32::WHITE);
        taken.push(r);
        named.push((laid.first_space, text.clone()));
        return;
    }
}

fn plate_label(p: &Painter, at: Pos2, s: &str, size: f32) {
    if size >= super::MIN_TEXT {
        plate_text(p, at, Align2::CENTER_CENTER, s, size.min(18.0));
    }
}

/// What a track space's tooltip adds: the card it is on and the gate in front of it.
pub fn space_tooltip(ui: &mut egui::Ui, scene: &Scene, s: u32) {
    let Some(track) = scene.board.track.as_ref() else {
        return;
    };
    let Some(sp) = scene.board.graph.spaces.get(s as usize) else {
        return;
    };
    let n = sp.props.get("piece").and_then(|v| v.as_int()).unwrap_or(-1);
    let Some(laid) = usize::try_from(n).ok().and_then(|n| track.laid.get(n)) else {
        return;
    };
    if let Some(d) = piece_def(scene, laid) {
        ui.label(format!("Card {}: {}", n + 1, d.name));
    }
    if laid.removed {
        ui.label("Taken off the table: no car can enter it");
    }
    if let Some(g) = sp.props.get("gate").and_then(|v| v.as_int()) {
        ui.label(format!(
            "In front of a gate: exactly {g} matching dice to cross"
        ));
    }
}
