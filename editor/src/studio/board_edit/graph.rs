//! The board editor's spaces and edges, for a graph board (Critter Cab) and for the spaces of a
//! section (Taxi Derby): adding a space, a space and an edge in the inspector, and finding the
//! space or edge under the pointer in the board drawn.

use eframe::egui::{self, Pos2};
use farebox::GameDef;
use farebox::content::def::BoardDef;

use super::{BoardEditor, Built, Selection, split_list};
use crate::edit::{EdgeChange, Edit, GraphAt, SpaceData};
use crate::studio::Command;
use crate::studio::board_view::Table;
use crate::studio::items::parse_value;

impl BoardEditor {
    /// The space the selection is (its index in the board drawn).
    pub(super) fn selection_space(&self, b: &Built) -> Option<u32> {
        match &self.selection {
            Some(Selection::Cell(x, y)) => b.board.cell(*x as i64, *y as i64),
            Some(Selection::Space { at, id }) => space_index(b, at, id),
            _ => None,
        }
    }

    pub(super) fn add_space(&mut self, t: &Table, b: &Built, p: Pos2, out: &mut Vec<Command>) {
        let point = t.xf.board(p);
        let at = match &b.def.board {
            BoardDef::Sections(s) => {
                let Some(sec) = b.sections.iter().find(|(_, _, _, (ox, oy))| {
                    point.0 >= *ox
                        && point.0 < ox + s.size
                        && point.1 >= *oy
                        && point.1 < oy + s.size
                }) else {
                    self.message = Some("Click inside a section to add a space to it.".into());
                    return;
                };
                GraphAt::Section(sec.0.clone())
            }
            _ => GraphAt::Board,
        };
        let (x, y) = local_point(b, &at, point);
        let step = snap_step(b);
        let taken: Vec<&str> = b.board.graph.spaces.iter().map(|s| s.id.as_str()).collect();
        let id = (1..)
            .map(|n| format!("space-{n}"))
            .find(|id| !taken.contains(&id.as_str()))
            .unwrap_or_default();
        out.push(Command::Edit(Edit::AddSpace {
            at: at.clone(),
            space: SpaceData {
                id: id.clone(),
                name: String::new(),
                x: snap(x, step),
                y: snap(y, step),
                tags: vec![],
                props: vec![],
            },
        }));
        self.selection = Some(Selection::Space { at, id });
        self.message = None;
    }

    pub(super) fn space_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &GameDef,
        at: &GraphAt,
        id: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(sp) = space_def(def, at, id) else {
            ui.label(format!("Space `{id}` (not in the checked board yet)"));
            return;
        };
        let where_ = match at {
            GraphAt::Board => String::new(),
            GraphAt::Section(s) => format!(" in section {s}"),
        };
        ui.strong(format!("Space {id}{where_}"));
        if ui
            .button("Duplicate")
            .on_hover_text("A copy of this space (name, tags, properties) beside it, without its roads (Ctrl+D)")
            .clicked()
        {
            self.duplicate_space(def, at, id, out);
        }
        egui::Grid::new("space-fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Id");
                if let Some(text) = self.field(ui, &format!("space-id {id}"), id, 170.0) {
                    let text = text.trim().to_string();
                    if !text.is_empty() && text != id {
                        out.push(Command::Edit(Edit::RenameSpace {
                            at: at.clone(),
                            id: id.to_string(),
                            new_id: text.clone(),
                        }));
                        self.selection = Some(Selection::Space {
                            at: at.clone(),
                            id: text,
                        });
                    }
                }
                ui.end_row();
                ui.label("Name");
                if let Some(text) = self.field(ui, &format!("space-name {id}"), &sp.name, 170.0) {
                    out.push(Command::Edit(Edit::SetSpaceName {
                        at: at.clone(),
                        id: id.to_string(),
                        name: text,
                    }));
                    out.push(Command::SealEdit);
                }
                ui.end_row();
                ui.label("Tags");
                let tags = sp.tags.join(", ");
                if let Some(text) = self.field(ui, &format!("space-tags {id}"), &tags, 170.0) {
                    out.push(Command::Edit(Edit::SetSpaceTags {
                        at: at.clone(),
                        id: id.to_string(),
                        tags: split_list(&text),
                    }));
                }
                ui.end_row();
                ui.label("Position");
                ui.label(format!("{}, {}", sp.x, sp.y));
                ui.end_row();
            });
        ui.strong("Properties");
        // One line per property: its key, its value (written when the field is left), and a
        // button taking it out; then a line to add one.
        let value_w = (ui.available_width() - 110.0).max(80.0);
        for (k, v) in &sp.props {
            ui.horizontal(|ui| {
                ui.add_sized([70.0, 18.0], egui::Label::new(k.as_str()).truncate());
                let shown = v.to_string();
                if let Some(text) = self.field(ui, &format!("prop {id} {k}"), &shown, value_w) {
                    match parse_value(&text) {
                        Some(v) => out.push(Command::Edit(Edit::SetSpaceProp {
                            at: at.clone(),
                            id: id.to_string(),
                            key: k.clone(),
                            value: Some(v),
                        })),
                        None => self.message = Some(format!("`{text}` is not a value")),
                    }
                }
                if ui
                    .small_button("✖")
                    .on_hover_text("Take this property out")
                    .clicked()
                {
                    out.push(Command::Edit(Edit::SetSpaceProp {
                        at: at.clone(),
                        id: id.to_string(),
                        key: k.clone(),
                        value: None,
                    }));
                }
            });
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.new_prop.0)
                    .hint_text("key")
                    .desired_width(66.0),
            );
            ui.add(
                egui::TextEdit::singleline(&mut self.new_prop.1)
                    .hint_text("value")
                    .desired_width(value_w - 30.0),
            );
            if ui.button("Add").clicked() && !self.new_prop.0.trim().is_empty() {
                match parse_value(&self.new_prop.1) {
                    Some(v) => {
                        out.push(Command::Edit(Edit::SetSpaceProp {
                            at: at.clone(),
                            id: id.to_string(),
                            key: self.new_prop.0.trim().to_string(),
                            value: Some(v),
                        }));
                        self.new_prop = (String::new(), String::new());
                    }
                    None => self.message = Some(format!("`{}` is not a value", self.new_prop.1)),
                }
            }
        });
        ui.label(
            egui::RichText::new("Values are written as in TOML: 3, 2.5, true, or text.").weak(),
        );
        if ui.button("Delete this space").clicked() {
            out.push(Command::Edit(Edit::DeleteSpace {
                at: at.clone(),
                id: id.to_string(),
            }));
            self.selection = None;
        }
    }

    pub(super) fn edge_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &GameDef,
        at: &GraphAt,
        from: &str,
        to: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(e) = edge_def(def, at, from, to) else {
            ui.label(format!("Road {from} – {to} (not in the checked board yet)"));
            return;
        };
        ui.strong(format!("Road {from} – {to}"));
        let set = |change: EdgeChange, out: &mut Vec<Command>| {
            out.push(Command::Edit(Edit::SetEdge {
                at: at.clone(),
                from: from.to_string(),
                to: to.to_string(),
                change,
            }))
        };
        let mut one_way = e.directed;
        if ui
            .checkbox(&mut one_way, format!("One way, from {from} to {to}"))
            .changed()
        {
            set(EdgeChange::Directed(one_way), out);
        }
        ui.horizontal(|ui| {
            ui.label("Cost");
            if let Some(text) = self.field(
                ui,
                &format!("edge-cost {from} {to}"),
                &e.cost.to_string(),
                50.0,
            ) {
                match text.trim().parse::<u32>() {
                    Ok(n) if n >= 1 => set(EdgeChange::Cost((n != 1).then_some(n)), out),
                    _ => self.message = Some(format!("A cost is a whole number from 1: `{text}`")),
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("Tags");
            let tags = e.tags.join(", ");
            if let Some(text) = self.field(ui, &format!("edge-tags {from} {to}"), &tags, 160.0) {
                set(EdgeChange::Tags(split_list(&text)), out);
            }
        });
        ui.label(
            egui::RichText::new("Tags limit who may use the road, e.g. river or flight.").weak(),
        );
        if ui.button("Delete this road").clicked() {
            out.push(Command::Edit(Edit::DeleteEdge {
                at: at.clone(),
                from: from.to_string(),
                to: to.to_string(),
            }));
            self.selection = None;
        }
    }
}

/// The graph and id of the space at index `s` of the board drawn.
pub(super) fn space_ref(b: &Built, s: u32) -> Option<(GraphAt, String)> {
    let sp = b.board.graph.spaces.get(s as usize)?;
    match &b.def.board {
        BoardDef::Graph(_) => Some((GraphAt::Board, sp.id.clone())),
        BoardDef::Sections(_) => b
            .sections
            .iter()
            .find(|(_, first, n, _)| s >= *first && s < first + n)
            .map(|(id, ..)| (GraphAt::Section(id.clone()), sp.id.clone())),
        _ => None,
    }
}

pub(super) fn space_index(b: &Built, at: &GraphAt, id: &str) -> Option<u32> {
    match at {
        GraphAt::Board => b.board.graph.find(id),
        GraphAt::Section(sec) => {
            let (_, first, n, _) = b.sections.iter().find(|(s, ..)| s == sec)?;
            (*first..first + n).find(|&i| {
                b.board
                    .graph
                    .spaces
                    .get(i as usize)
                    .is_some_and(|s| s.id == id)
            })
        }
    }
}

/// A board point in the coordinates of the graph a space of `at` is written in.
pub(super) fn local_point(b: &Built, at: &GraphAt, (x, y): (f64, f64)) -> (f64, f64) {
    match at {
        GraphAt::Board => (x, y),
        GraphAt::Section(sec) => match b.sections.iter().find(|(s, ..)| s == sec) {
            Some((_, _, _, (ox, oy))) => (x - ox, y - oy),
            None => (x, y),
        },
    }
}

/// Positions are rounded to a step that suits the board's units (a whole unit on a map a
/// thousand wide, a hundredth in a section a few units wide).
pub(super) fn snap_step(b: &Built) -> f64 {
    let sp = &b.board.graph.spaces;
    let (lo, hi) = sp.iter().fold((f64::MAX, f64::MIN), |(lo, hi), s| {
        (lo.min(s.x.min(s.y)), hi.max(s.x.max(s.y)))
    });
    let span = if hi > lo { hi - lo } else { 10.0 };
    10f64.powf((span / 200.0).log10().floor())
}

pub(super) fn snap(v: f64, step: f64) -> f64 {
    let r = (v / step).round() * step;
    // Keep the written number short: 120.0, 2.35.
    (r * 1e6).round() / 1e6
}

/// The road under a screen point (a graph's own edge, or one inside a section).
pub(super) fn edge_at(t: &Table, b: &Built, p: Pos2) -> Option<Selection> {
    let mut best: Option<(f32, Selection)> = None;
    for e in &b.board.graph.edges {
        let (Some(a), Some(z)) = (
            t.places.get(e.from as usize).copied().flatten(),
            t.places.get(e.to as usize).copied().flatten(),
        ) else {
            continue;
        };
        let d = segment_distance(p, a.c, z.c);
        if d > 7.0 || best.as_ref().is_some_and(|(bd, _)| *bd <= d) {
            continue;
        }
        let (Some((at, from)), Some((at2, to))) = (space_ref(b, e.from), space_ref(b, e.to)) else {
            continue;
        };
        if at != at2 {
            continue;
        }
        best = Some((d, Selection::Edge { at, from, to }));
    }
    best.map(|(_, s)| s)
}

pub(super) fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let len = ab.length_sq();
    if len < 1e-6 {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

pub(super) fn space_def<'d>(
    def: &'d GameDef,
    at: &GraphAt,
    id: &str,
) -> Option<&'d farebox::content::def::SpaceDef> {
    graph_def(def, at)?.spaces.iter().find(|s| s.id == id)
}

pub(super) fn graph_def<'d>(
    def: &'d GameDef,
    at: &GraphAt,
) -> Option<&'d farebox::content::def::GraphDef> {
    match (&def.board, at) {
        (BoardDef::Graph(g), GraphAt::Board) => Some(g),
        (BoardDef::Sections(s), GraphAt::Section(id)) => s
            .sections
            .iter()
            .find(|sec| &sec.id == id)
            .map(|sec| &sec.graph),
        _ => None,
    }
}

pub(super) fn edge_def<'d>(
    def: &'d GameDef,
    at: &GraphAt,
    from: &str,
    to: &str,
) -> Option<&'d farebox::content::def::EdgeDef> {
    let g = graph_def(def, at)?;
    let idx = |id: &str| g.spaces.iter().position(|s| s.id == id);
    let (f, t) = (idx(from)?, idx(to)?);
    g.edges
        .iter()
        .find(|e| (e.from == f && e.to == t) || (!e.directed && e.from == t && e.to == f))
}

impl BoardEditor {
    /// A copy of the space `id` beside it (a twentieth of the board's span to the right and
    /// down, or back where that leaves its section), under the first free `<id>-2`,
    /// `<id>-3`..., selected.
    pub(super) fn duplicate_space(
        &mut self,
        def: &GameDef,
        at: &GraphAt,
        id: &str,
        out: &mut Vec<Command>,
    ) {
        let Some(sp) = space_def(def, at, id) else {
            return;
        };
        let all: Vec<&str> = match &def.board {
            BoardDef::Graph(g) => g.spaces.iter().map(|s| s.id.as_str()).collect(),
            BoardDef::Sections(s) => s
                .sections
                .iter()
                .flat_map(|sec| sec.graph.spaces.iter().map(|s| s.id.as_str()))
                .collect(),
            _ => vec![],
        };
        let Some(new_id) = (2..)
            .map(|k| format!("{id}-{k}"))
            .find(|c| !all.contains(&c.as_str()))
        else {
            return;
        };
        let (span, room) = match &def.board {
            BoardDef::Sections(s) => (s.size, Some(s.size)),
            _ => {
                let g = graph_def(def, at);
                let (lo, hi) = g
                    .map(|g| {
                        g.spaces.iter().fold((f64::MAX, f64::MIN), |(lo, hi), s| {
                            (lo.min(s.x.min(s.y)), hi.max(s.x.max(s.y)))
                        })
                    })
                    .unwrap_or((0.0, 0.0));
                (if hi > lo { hi - lo } else { 100.0 }, None)
            }
        };
        let step = self.built.as_ref().map_or(1.0, snap_step);
        let d = snap(span / 20.0, step).max(step);
        // Inside a section the copy stays inside it.
        let off = |v: f64| match room {
            Some(size) if v + d > size => -d,
            _ => d,
        };
        out.push(Command::Edit(Edit::DuplicateSpace {
            at: at.clone(),
            id: id.to_string(),
            new_id: new_id.clone(),
            dx: off(sp.x),
            dy: off(sp.y),
        }));
        self.selection = Some(Selection::Space {
            at: at.clone(),
            id: new_id,
        });
    }
}
