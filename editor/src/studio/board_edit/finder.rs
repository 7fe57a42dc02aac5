//! Finding one's way on a large board: a minimap in the bottom-left corner of the table while
//! part of the board is out of view (the whole board small, the part in view framed; a click
//! or drag there moves the view), and a search for a space, a cell or a tag by name whose
//! results, picked, select the place and bring it to the middle of the view.

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke};
use farebox::GameDef;
use farebox::content::def::BoardDef;

use super::graph::space_index;
use super::{BoardEditor, Built, Selection};
use crate::edit::GraphAt;
use crate::studio::board_view::{self, Table};

/// The most results listed.
const MOST: usize = 30;

/// A place the search found: what the list says, and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub label: String,
    pub what: Selection,
}

/// The places of the board whose id, name or a tag holds `query` (any case); a grid cell
/// also by its `x,y`.
pub fn search(def: &GameDef, query: &str) -> Vec<Found> {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return vec![];
    }
    let hit = |s: &str| s.to_lowercase().contains(&q);
    let tags_of = |tags: &[String]| {
        if tags.is_empty() {
            String::new()
        } else {
            format!(" · {}", tags.join(", "))
        }
    };
    let mut out = Vec::new();
    let mut spaces = |at: GraphAt, g: &farebox::content::def::GraphDef| {
        for s in &g.spaces {
            if hit(&s.id) || hit(&s.name) || s.tags.iter().any(|t| hit(t)) {
                let name = if s.name.is_empty() { &s.id } else { &s.name };
                out.push(Found {
                    label: format!("{name} ({}){}", s.id, tags_of(&s.tags)),
                    what: Selection::Space {
                        at: at.clone(),
                        id: s.id.clone(),
                    },
                });
            }
        }
    };
    match &def.board {
        BoardDef::Graph(g) => spaces(GraphAt::Board, g),
        BoardDef::Sections(s) => {
            for sec in &s.sections {
                spaces(GraphAt::Section(sec.id.clone()), &sec.graph);
            }
        }
        BoardDef::Grid(g) => {
            for c in &g.cells {
                let xy = format!("{},{}", c.x, c.y);
                let named = c.id.as_deref().is_some_and(hit);
                if named || c.tags.iter().any(|t| hit(t)) || xy == q {
                    let name = c.id.as_deref().unwrap_or("cell");
                    out.push(Found {
                        label: format!("{name} ({xy}){}", tags_of(&c.tags)),
                        what: Selection::Cell(c.x, c.y),
                    });
                }
            }
            let plain = q.split_once(',').and_then(|(x, y)| {
                Some((x.trim().parse::<u32>().ok()?, y.trim().parse::<u32>().ok()?))
            });
            if let Some((x, y)) = plain
                && (1..=g.width).contains(&x)
                && (1..=g.height).contains(&y)
                && !out.iter().any(|f| f.what == Selection::Cell(x, y))
            {
                out.push(Found {
                    label: format!("cell ({x},{y})"),
                    what: Selection::Cell(x, y),
                });
            }
        }
        _ => {}
    }
    out
}

/// Where a found place is, in board units.
fn point_of(b: &Built, what: &Selection) -> Option<Pos2> {
    match what {
        Selection::Cell(x, y) => Some(Pos2::new(*x as f32, *y as f32)),
        Selection::Space { at, id } => {
            let s = b.board.graph.spaces.get(space_index(b, at, id)? as usize)?;
            Some(Pos2::new(s.x as f32, s.y as f32))
        }
        Selection::Edge { .. } => None,
    }
}

impl BoardEditor {
    /// The search field and its results, in the tools panel.
    pub(super) fn find_ui(&mut self, ui: &mut egui::Ui, def: &GameDef) {
        ui.separator();
        let l = ui.heading("Find");
        ui.add(
            egui::TextEdit::singleline(&mut self.find)
                .hint_text("a space, cell or tag")
                .desired_width(ui.available_width() - 8.0),
        )
        .labelled_by(l.id);
        let found = search(def, &self.find);
        if !self.find.trim().is_empty() && found.is_empty() {
            ui.label(egui::RichText::new("Nothing on the board is called that.").weak());
        }
        for f in found.iter().take(MOST) {
            let on = self.selection.as_ref() == Some(&f.what);
            if ui.selectable_label(on, &f.label).clicked() {
                self.go_to(&f.what);
            }
        }
        if found.len() > MOST {
            ui.label(
                egui::RichText::new(format!(
                    "and {} more; type more of the name.",
                    found.len() - MOST
                ))
                .weak(),
            );
        }
    }

    /// Selects a found place and brings it to the middle of the view.
    fn go_to(&mut self, what: &Selection) {
        self.picked.clear();
        self.area = None;
        self.selection = Some(what.clone());
        if let Some(p) = self.built.as_ref().and_then(|b| point_of(b, what)) {
            self.camera.look_at(p);
        }
    }

    /// The minimap, while part of the board is out of view: the board small in the bottom-left
    /// corner of the table with the part in view framed; a click or drag there moves the view.
    /// Whether the pointer is on it (the tool then leaves the press alone).
    pub(super) fn minimap(&mut self, ui: &egui::Ui, t: &Table) -> bool {
        let extent = t.extent();
        let (a, z) = (t.xf.board(t.rect.min), t.xf.board(t.rect.max));
        let seen = Rect::from_min_max(
            Pos2::new(a.0 as f32, a.1 as f32),
            Pos2::new(z.0 as f32, z.1 as f32),
        );
        let slack = extent.size().max_elem() * 0.01;
        if seen.expand(slack).contains_rect(extent) || extent.width() <= 0.0 {
            return false;
        }
        let k = (180.0 / extent.width()).min(120.0 / extent.height());
        let size = extent.size() * k;
        let map = Rect::from_min_size(
            Pos2::new(t.rect.min.x + 10.0, t.rect.max.y - 10.0 - size.y),
            size,
        );
        let to_map = |p: Pos2| map.min + (p - extent.min) * k;
        let frame = map.expand(5.0);
        // Over the board's names, which are drawn above the table.
        let painter = ui
            .ctx()
            .layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                ui.scope_id().with("board-minimap-layer"),
            ))
            .with_clip_rect(t.rect);
        painter.rect_filled(frame, 4.0, Color32::from_rgb(0x1b, 0x24, 0x27));
        painter.rect_filled(map, 2.0, board_view::PAPER.gamma_multiply(0.35));
        painter.rect_stroke(
            frame,
            4.0,
            Stroke::new(1.0, Color32::from_white_alpha(110)),
            egui::StrokeKind::Inside,
        );
        for place in t.places.iter().flatten() {
            let (x, y) = t.xf.board(place.c);
            let p = to_map(Pos2::new(x as f32, y as f32));
            if map.expand(1.0).contains(p) {
                painter.circle_filled(p, 1.5, board_view::PAPER);
            }
        }
        let view = Rect::from_min_max(to_map(seen.min), to_map(seen.max)).intersect(frame);
        painter.rect_filled(view, 1.0, board_view::ACTION.gamma_multiply(0.15));
        painter.rect_stroke(
            view,
            1.0,
            Stroke::new(2.0, board_view::ACTION),
            egui::StrokeKind::Inside,
        );
        let r = ui.interact(
            frame,
            ui.scope_id().with("board-minimap"),
            Sense::click_and_drag(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "Minimap"));
        let r = r.on_hover_text("The whole board; click or drag to move the view there.");
        if (r.clicked() || r.dragged())
            && let Some(p) = r.interact_pointer_pos()
        {
            self.camera
                .look_at(extent.min + (p.clamp(map.min, map.max) - map.min) / k);
        }
        r.hovered() || r.dragged() || r.is_pointer_button_down_on()
    }

    /// The board point at the middle of the view.
    pub fn view_center(&self) -> (f32, f32) {
        let c = self.camera.center();
        (c.x, c.y)
    }
}
