//! Several spaces at once on a map or a sections board: picked by dragging a box over empty
//! table or by Shift+click, moved together by dragging one of them, aligned and distributed,
//! snapped to a grid while dragging, copied and pasted with the roads between them, and
//! deleted. Each change to several spaces is one undo group, named for what it did.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke};
use farebox::GameDef;
use farebox::content::def::BoardDef;
use farebox::content::raw::RawValue;
use farebox::value::Value;

use super::graph::{
    edge_at, graph_def, local_point, snap, snap_step, space_def, space_index, space_ref,
};
use super::{BoardEditor, Built, Drag, Selection};
use crate::edit::{EdgeData, Edit, GraphAt, SpaceData};
use crate::studio::Command;
use crate::studio::board_view::{self, Table};

/// A space picked, by its graph and id.
pub type Picked = (GraphAt, String);

/// How a set of spaces is lined up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrange {
    Left,
    Centre,
    Right,
    Top,
    Middle,
    Bottom,
    /// Evenly spaced from left to right, the outermost two staying.
    Across,
    /// Evenly spaced from top to bottom, the outermost two staying.
    Down,
}

impl Arrange {
    /// The button's label.
    pub fn name(self) -> &'static str {
        match self {
            Arrange::Left => "Align left",
            Arrange::Centre => "Align centres",
            Arrange::Right => "Align right",
            Arrange::Top => "Align top",
            Arrange::Middle => "Align middles",
            Arrange::Bottom => "Align bottom",
            Arrange::Across => "Distribute across",
            Arrange::Down => "Distribute down",
        }
    }
    pub const ALL: [Arrange; 8] = [
        Arrange::Left,
        Arrange::Centre,
        Arrange::Right,
        Arrange::Top,
        Arrange::Middle,
        Arrange::Bottom,
        Arrange::Across,
        Arrange::Down,
    ];
}

/// Spaces copied, with the roads between them: positions in board units.
#[derive(Debug, Clone)]
pub struct SpaceClip {
    spaces: Vec<(GraphAt, SpaceData)>,
    /// Roads between two copied spaces of one graph: their places in `spaces`.
    edges: Vec<(usize, usize, EdgeData)>,
}

/// The spaces of `picked` the board drawn has, with their index and place (board units).
fn places(b: &Built, picked: &[Picked]) -> Vec<(Picked, u32, (f64, f64))> {
    picked
        .iter()
        .filter_map(|p| {
            let i = space_index(b, &p.0, &p.1)?;
            let s = b.board.graph.spaces.get(i as usize)?;
            Some((p.clone(), i, (s.x, s.y)))
        })
        .collect()
}

/// `n spaces` / `1 space`.
pub(super) fn spaces_n(n: usize) -> String {
    format!("{n} {}", crate::common::plural(n, "space"))
}

/// A round step near `v`: 1, 2 or 5 times a power of ten.
fn nice(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * p)
        .find(|s| *s >= v * 0.75)
        .unwrap_or(10.0 * p)
}

/// A space's props as the values a file holds.
pub(super) fn raw_of(v: &Value) -> Option<RawValue> {
    Some(match v {
        Value::Nil => return None,
        Value::Bool(b) => RawValue::Boolean(*b),
        Value::Int(i) => RawValue::Integer(*i),
        Value::Num(n) => RawValue::Float(*n),
        Value::Str(s) => RawValue::String(s.clone()),
        Value::List(l) => RawValue::Array(l.iter().filter_map(raw_of).collect()),
        Value::Map(m) => RawValue::Table(
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), raw_of(v)?)))
                .collect(),
        ),
    })
}

impl BoardEditor {
    /// The spaces the inspector and the keys act on: the picked ones, else the selected one.
    pub(super) fn picked_spaces(&self) -> Vec<Picked> {
        match &self.selection {
            Some(Selection::Space { at, id }) if self.picked.len() < 2 => {
                vec![(at.clone(), id.clone())]
            }
            _ => self.picked.clone(),
        }
    }

    /// Picks exactly these spaces (one of them is also the selection).
    pub(super) fn pick_spaces(&mut self, picked: Vec<Picked>) {
        self.selection = match picked.as_slice() {
            [(at, id)] => Some(Selection::Space {
                at: at.clone(),
                id: id.clone(),
            }),
            _ => None,
        };
        self.picked = picked;
    }

    /// The step of the snapping grid, in board units (a round twentieth of the board's span
    /// until one is set).
    pub(super) fn grid_step(&mut self, b: &Built) -> f64 {
        if self.snap.1 <= 0.0 {
            self.snap.1 = default_step(b);
        }
        self.snap.1
    }

    /// The Select tool on a map or a sections board: click a space to select it, Shift+click
    /// to add or take it out, drag a box over the table to pick every space in it (with
    /// Shift, add them), drag a picked space to move all that are picked.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn select_spaces(
        &mut self,
        ui: &egui::Ui,
        t: &Table,
        b: &Built,
        space: Option<u32>,
        over: Option<Pos2>,
        started: bool,
        primary_down: bool,
        out: &mut Vec<Command>,
    ) {
        // Shift as the press had it (a click may press, release and let Shift go in a frame).
        let shift = ui.input(|i| {
            i.events
                .iter()
                .find_map(|e| match e {
                    egui::Event::PointerButton {
                        pressed: true,
                        modifiers,
                        ..
                    } => Some(modifiers.shift),
                    _ => None,
                })
                .unwrap_or(i.modifiers.shift)
        });
        if started && let Some(p) = over {
            match space.and_then(|s| space_ref(b, s).map(|r| (s, r))) {
                Some((_, hit)) if shift => {
                    let mut now = self.picked_spaces();
                    match now.iter().position(|q| *q == hit) {
                        Some(i) => {
                            now.remove(i);
                        }
                        None => now.push(hit),
                    }
                    self.pick_spaces(now);
                }
                Some((s, hit)) => {
                    if !self.picked_spaces().contains(&hit) {
                        self.pick_spaces(vec![hit]);
                    }
                    self.drag = Some(Drag::MoveMany { from: p, grab: s });
                }
                None => {
                    self.drag = Some(Drag::Boxing {
                        from: p,
                        add: shift,
                    })
                }
            }
        }
        let Some(p) = ui.ctx().pointer_latest_pos() else {
            return;
        };
        match self.drag {
            Some(Drag::MoveMany { from, grab }) => {
                let d = self.moved_by(t, b, grab, from, p);
                let picked = places(b, &self.picked_spaces());
                if primary_down {
                    if from.distance(p) > 3.0 {
                        for (_, i, (x, y)) in &picked {
                            let Some(place) = t.places.get(*i as usize).copied().flatten() else {
                                continue;
                            };
                            let to = t.xf.p(x + d.0, y + d.1);
                            t.painter.line_segment(
                                [place.c, to],
                                Stroke::new(2.0, Color32::from_white_alpha(120)),
                            );
                            t.painter.circle_filled(
                                to,
                                place.r,
                                board_view::ACTION.gamma_multiply(0.6),
                            );
                        }
                    }
                    return;
                }
                if from.distance(p) > 3.0 {
                    let moves = picked
                        .into_iter()
                        .map(|(q, _, (x, y))| (q, (x + d.0, y + d.1)))
                        .collect();
                    self.move_to(b, moves, "Move", out);
                }
                self.drag = None;
            }
            Some(Drag::Boxing { from, add }) => {
                let rect = Rect::from_two_pos(from, p);
                if primary_down {
                    t.painter
                        .rect_filled(rect, 0.0, board_view::ACTION.gamma_multiply(0.12));
                    t.painter.rect_stroke(
                        rect,
                        0.0,
                        Stroke::new(1.5, board_view::ACTION),
                        egui::StrokeKind::Inside,
                    );
                    return;
                }
                self.drag = None;
                if rect.width() < 4.0 && rect.height() < 4.0 {
                    // A click on the table: a road under it, else nothing.
                    if !add {
                        self.picked.clear();
                        self.selection = edge_at(t, b, p);
                    }
                    return;
                }
                let mut now = if add { self.picked_spaces() } else { vec![] };
                for (i, place) in t.places.iter().enumerate() {
                    if let Some(place) = place
                        && rect.contains(place.c)
                        && let Some(r) = space_ref(b, i as u32)
                        && !now.contains(&r)
                    {
                        now.push(r);
                    }
                }
                self.pick_spaces(now);
            }
            _ => {}
        }
    }

    /// How far a drag from `from` to `to` moves the spaces, in board units: the grabbed
    /// space lands on the snapping grid when snapping is on.
    fn moved_by(&mut self, t: &Table, b: &Built, grab: u32, from: Pos2, to: Pos2) -> (f64, f64) {
        let (a, z) = (t.xf.board(from), t.xf.board(to));
        let d = (z.0 - a.0, z.1 - a.1);
        if !self.snap.0 {
            return d;
        }
        let step = self.grid_step(b);
        let Some(s) = b.board.graph.spaces.get(grab as usize) else {
            return d;
        };
        let on = |v: f64| (v / step).round() * step;
        (on(s.x + d.0) - s.x, on(s.y + d.1) - s.y)
    }

    /// Moves each space to its board point, as one undo step ("Move 3 spaces").
    fn move_to(
        &mut self,
        b: &Built,
        moves: Vec<(Picked, (f64, f64))>,
        what: &str,
        out: &mut Vec<Command>,
    ) {
        let step = snap_step(b);
        let edits: Vec<Edit> = moves
            .into_iter()
            .filter_map(|((at, id), point)| {
                let (x, y) = local_point(b, &at, point);
                let now = space_index(b, &at, &id)
                    .and_then(|i| b.board.graph.spaces.get(i as usize))
                    .map(|s| local_point(b, &at, (s.x, s.y)))?;
                let (x, y) = (snap(x, step), snap(y, step));
                ((x, y) != (snap(now.0, step), snap(now.1, step))).then_some(Edit::MoveSpace {
                    at,
                    id,
                    x,
                    y,
                })
            })
            .collect();
        if edits.is_empty() {
            return;
        }
        let label = match edits.as_slice() {
            [Edit::MoveSpace { id, .. }] if what == "Move" => format!("Move {id}"),
            _ => format!("{what} {}", spaces_n(edits.len())),
        };
        group(label, edits, out);
    }

    /// Lines the picked spaces up or spreads them evenly.
    pub(super) fn arrange(&mut self, how: Arrange, out: &mut Vec<Command>) {
        let Some(b) = self.built.take() else {
            return;
        };
        let mut ps = places(&b, &self.picked_spaces());
        let need = if matches!(how, Arrange::Across | Arrange::Down) {
            3
        } else {
            2
        };
        if ps.len() < need {
            self.message = Some(format!(
                "{} needs at least {need} spaces picked (Shift+click, or drag a box).",
                how.name()
            ));
            self.built = Some(b);
            return;
        }
        let xs = ps.iter().map(|p| p.2.0);
        let ys = ps.iter().map(|p| p.2.1);
        let (x0, x1) = (
            xs.clone().fold(f64::MAX, f64::min),
            xs.fold(f64::MIN, f64::max),
        );
        let (y0, y1) = (
            ys.clone().fold(f64::MAX, f64::min),
            ys.fold(f64::MIN, f64::max),
        );
        let n = ps.len();
        match how {
            Arrange::Across => ps.sort_by(|a, b| a.2.0.total_cmp(&b.2.0)),
            Arrange::Down => ps.sort_by(|a, b| a.2.1.total_cmp(&b.2.1)),
            _ => {}
        }
        let moves = ps
            .into_iter()
            .enumerate()
            .map(|(k, (q, _, (x, y)))| {
                let f = k as f64 / (n - 1) as f64;
                let to = match how {
                    Arrange::Left => (x0, y),
                    Arrange::Centre => ((x0 + x1) / 2.0, y),
                    Arrange::Right => (x1, y),
                    Arrange::Top => (x, y0),
                    Arrange::Middle => (x, (y0 + y1) / 2.0),
                    Arrange::Bottom => (x, y1),
                    Arrange::Across => (x0 + (x1 - x0) * f, y),
                    Arrange::Down => (x, y0 + (y1 - y0) * f),
                };
                (q, to)
            })
            .collect();
        let what = match how {
            Arrange::Across | Arrange::Down => "Distribute",
            _ => "Align",
        };
        self.move_to(&b, moves, what, out);
        self.built = Some(b);
    }

    /// Deletes every picked space (with its roads), as one undo step.
    pub(super) fn delete_spaces(&mut self, what: &str, out: &mut Vec<Command>) {
        let picked = self.picked_spaces();
        if picked.is_empty() {
            return;
        }
        let label = format!("{what} {}", spaces_n(picked.len()));
        let edits = picked
            .into_iter()
            .map(|(at, id)| Edit::DeleteSpace { at, id })
            .collect();
        group(label, edits, out);
        self.pick_spaces(vec![]);
    }

    /// Copies the picked spaces and the roads between them (also to the system clipboard,
    /// as the TOML of the spaces).
    pub(super) fn copy_spaces(&mut self, ctx: &egui::Context, def: &GameDef) {
        let picked = self.picked_spaces();
        let Some(b) = self.built.as_ref() else {
            return;
        };
        let mut spaces = Vec::new();
        for (at, id) in &picked {
            let (Some(sp), Some(i)) = (space_def(def, at, id), space_index(b, at, id)) else {
                continue;
            };
            let Some(drawn) = b.board.graph.spaces.get(i as usize) else {
                continue;
            };
            spaces.push((
                at.clone(),
                SpaceData {
                    id: sp.id.clone(),
                    name: sp.name.clone(),
                    x: drawn.x,
                    y: drawn.y,
                    tags: sp.tags.clone(),
                    props: sp
                        .props
                        .iter()
                        .filter_map(|(k, v)| Some((k.clone(), raw_of(v)?)))
                        .collect(),
                },
            ));
        }
        if spaces.is_empty() {
            return;
        }
        let mut edges = Vec::new();
        let find = |at: &GraphAt, id: &str| spaces.iter().position(|(a, s)| a == at && s.id == id);
        for (at, _) in &picked {
            let Some(g) = graph_def(def, at) else {
                continue;
            };
            for e in &g.edges {
                let (Some(f), Some(t)) = (g.spaces.get(e.from), g.spaces.get(e.to)) else {
                    continue;
                };
                if let (Some(a), Some(z)) = (find(at, &f.id), find(at, &t.id))
                    && !edges.iter().any(|(x, y, _)| (*x, *y) == (a, z))
                {
                    edges.push((
                        a,
                        z,
                        EdgeData {
                            from: f.id.clone(),
                            to: t.id.clone(),
                            directed: e.directed,
                            cost: (e.cost != 1).then_some(e.cost),
                            tags: e.tags.clone(),
                        },
                    ));
                }
            }
        }
        let clip = SpaceClip { spaces, edges };
        ctx.copy_text(clip_toml(&clip));
        self.message = Some(format!(
            "Copied {} and {} between them; Ctrl+V pastes them at the pointer.",
            spaces_n(clip.spaces.len()),
            roads_n(clip.edges.len())
        ));
        self.space_clip = Some(clip);
    }

    /// Pastes the copied spaces with their roads: their top-left at the board point under
    /// the pointer (on a sections board, into the section there), else beside the originals;
    /// each gets a new id (`<id>-2`, ...) no space of the board has. One undo step.
    pub(super) fn paste_spaces(&mut self, def: &GameDef, out: &mut Vec<Command>) {
        let (Some(clip), Some(b)) = (self.space_clip.clone(), self.built.as_ref()) else {
            self.message = Some("Copy some spaces first (Ctrl+C).".into());
            return;
        };
        let (x0, y0) = clip
            .spaces
            .iter()
            .fold((f64::MAX, f64::MAX), |(x, y), (_, s)| {
                (x.min(s.x), y.min(s.y))
            });
        let step = snap_step(b);
        let into = self.hover_board.and_then(|p| section_at(b, p));
        let shift = match self.hover_board {
            Some(p) => (p.0 - x0, p.1 - y0),
            None => {
                let d = snap(self.grid_step_now(b), step).max(step);
                (d, d)
            }
        };
        let mut taken: Vec<String> = all_ids(def);
        let mut made: Vec<(GraphAt, String)> = Vec::new();
        let mut edits = Vec::new();
        for (at, s) in &clip.spaces {
            let at = into.clone().unwrap_or_else(|| at.clone());
            let Some(id) = (2..)
                .map(|k| format!("{}-{k}", s.id))
                .find(|c| !taken.contains(c))
            else {
                continue;
            };
            taken.push(id.clone());
            let (x, y) = local_point(b, &at, (s.x + shift.0, s.y + shift.1));
            let mut space = s.clone();
            space.id = id.clone();
            space.x = snap(x, step);
            space.y = snap(y, step);
            edits.push(Edit::AddSpace {
                at: at.clone(),
                space,
            });
            made.push((at, id));
        }
        for (a, z, e) in &clip.edges {
            let (Some((at, from)), Some((at2, to))) = (made.get(*a), made.get(*z)) else {
                continue;
            };
            if at != at2 {
                continue;
            }
            let mut edge = e.clone();
            edge.from = from.clone();
            edge.to = to.clone();
            edits.push(Edit::AddEdge {
                at: at.clone(),
                edge,
            });
        }
        let label = format!(
            "Paste {} and {}",
            spaces_n(made.len()),
            roads_n(clip.edges.len())
        );
        group(label, edits, out);
        self.message = None;
        self.pick_spaces(made);
    }

    /// The snapping grid's step without setting it.
    fn grid_step_now(&self, b: &Built) -> f64 {
        if self.snap.1 > 0.0 {
            self.snap.1
        } else {
            default_step(b)
        }
    }

    /// Every space of the board drawn.
    pub(super) fn pick_all(&mut self) {
        let Some(b) = self.built.as_ref() else {
            return;
        };
        let all = (0..b.board.graph.spaces.len() as u32)
            .filter_map(|i| space_ref(b, i))
            .collect();
        self.pick_spaces(all);
    }

    /// The snapping grid, faint over the board while snapping is on.
    pub(super) fn draw_snap_grid(&mut self, t: &Table, b: &Built) {
        if !self.snap.0 {
            return;
        }
        let step = self.grid_step(b);
        let gap = t.xf.len(step);
        if gap < 6.0 {
            return;
        }
        let (a, z) = (t.xf.board(t.rect.min), t.xf.board(t.rect.max));
        let dot = Color32::from_white_alpha(50);
        let mut x = (a.0 / step).floor() * step;
        while x <= z.0 {
            let mut y = (a.1 / step).floor() * step;
            while y <= z.1 {
                t.painter.circle_filled(t.xf.p(x, y), 1.2, dot);
                y += step;
            }
            x += step;
        }
    }

    /// Snapping: on or off, and its step.
    pub(super) fn snap_ui(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        ui.checkbox(&mut self.snap.0, "Snap to grid")
            .on_hover_text("Spaces dragged land on the grid's points");
        if let Some(b) = self.built.take() {
            self.grid_step(&b);
            self.built = Some(b);
        }
        ui.horizontal(|ui| {
            ui.label("Grid step");
            ui.add(
                egui::DragValue::new(&mut self.snap.1)
                    .range(0.01..=10_000.0)
                    .speed(0.1),
            );
        });
    }

    /// The picked spaces ringed on the board.
    pub(super) fn draw_picked(&self, t: &Table, b: &Built) {
        if self.picked.len() < 2 {
            return;
        }
        for (_, i, _) in places(b, &self.picked) {
            if let Some(place) = t.places.get(i as usize).copied().flatten() {
                t.painter
                    .circle_stroke(place.c, place.r + 3.0, Stroke::new(3.0, Color32::WHITE));
                t.painter.circle_stroke(
                    place.c,
                    place.r + 6.0,
                    Stroke::new(1.5, board_view::ACTION),
                );
            }
        }
    }
}

/// A round twentieth of the span of the board's spaces.
fn default_step(b: &Built) -> f64 {
    let sp = &b.board.graph.spaces;
    let (lo, hi) = sp.iter().fold((f64::MAX, f64::MIN), |(lo, hi), s| {
        (lo.min(s.x.min(s.y)), hi.max(s.x.max(s.y)))
    });
    let span = if hi > lo { hi - lo } else { 100.0 };
    nice(span / 20.0)
}

/// The edits as one undo step named `label`.
fn group(label: String, edits: Vec<Edit>, out: &mut Vec<Command>) {
    out.push(Command::BeginGroup(label));
    out.extend(edits.into_iter().map(Command::Edit));
    out.push(Command::EndGroup);
}

fn roads_n(n: usize) -> String {
    format!("{n} {}", crate::common::plural(n, "road"))
}

/// Every space id of the board, in every section.
fn all_ids(def: &GameDef) -> Vec<String> {
    match &def.board {
        BoardDef::Graph(g) => g.spaces.iter().map(|s| s.id.clone()).collect(),
        BoardDef::Sections(s) => s
            .sections
            .iter()
            .flat_map(|sec| sec.graph.spaces.iter().map(|s| s.id.clone()))
            .collect(),
        _ => vec![],
    }
}

/// The section of a sections board a board point lies in.
fn section_at(b: &Built, (x, y): (f64, f64)) -> Option<GraphAt> {
    let BoardDef::Sections(s) = &b.def.board else {
        return None;
    };
    b.sections
        .iter()
        .find(|(_, _, _, (ox, oy))| x >= *ox && x < ox + s.size && y >= *oy && y < oy + s.size)
        .map(|(id, ..)| GraphAt::Section(id.clone()))
}

/// The copied spaces and roads as the TOML of a graph, for the system clipboard.
fn clip_toml(clip: &SpaceClip) -> String {
    let mut doc = toml_edit::DocumentMut::new();
    let mut spaces = toml_edit::ArrayOfTables::new();
    for (_, s) in &clip.spaces {
        let mut t = toml_edit::Table::new();
        t.insert("id", toml_edit::value(s.id.as_str()));
        if !s.name.is_empty() {
            t.insert("name", toml_edit::value(s.name.as_str()));
        }
        t.insert("x", toml_edit::value(s.x));
        t.insert("y", toml_edit::value(s.y));
        if !s.tags.is_empty() {
            let a: toml_edit::Array = s.tags.iter().map(String::as_str).collect();
            t.insert("tags", toml_edit::value(a));
        }
        spaces.push(t);
    }
    let mut edges = toml_edit::ArrayOfTables::new();
    for (_, _, e) in &clip.edges {
        let mut t = toml_edit::Table::new();
        t.insert("from", toml_edit::value(e.from.as_str()));
        t.insert("to", toml_edit::value(e.to.as_str()));
        if e.directed {
            t.insert("directed", toml_edit::value(true));
        }
        edges.push(t);
    }
    let mut graph = toml_edit::Table::new();
    graph.insert("spaces", toml_edit::Item::ArrayOfTables(spaces));
    if !edges.is_empty() {
        graph.insert("edges", toml_edit::Item::ArrayOfTables(edges));
    }
    doc.insert("graph", toml_edit::Item::Table(graph));
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::nice;

    #[test]
    fn grid_steps_are_round() {
        assert_eq!(nice(56.0), 50.0);
        assert_eq!(nice(0.4), 0.5);
        assert_eq!(nice(13.0), 10.0);
        assert_eq!(nice(0.0), 1.0);
    }
}
