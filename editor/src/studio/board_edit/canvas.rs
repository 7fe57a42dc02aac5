//! The board in the middle of the board editor: what each tool does with the pointer (select,
//! paint, erase, add and drag spaces, connect them), and the editor's marks drawn over the board
//! (problems in red, the selection, the cells a stroke painted).

use std::sync::Arc;

use eframe::egui::{self, Align2, Color32, Rect, Stroke, Vec2};
use farebox::{Diagnostic, GameDef};

use super::graph::{edge_at, space_index, space_ref};
use super::{BoardEditor, Built, Drag, Painted, Selection, Tool, delete_edit};
use crate::edit::{EdgeData, Edit};
use crate::studio::Command;
use crate::studio::board_view::{self, Scene, Table};
use crate::studio::content::{Content, record_key_at};

impl BoardEditor {
    /// The board, with the tool working on it.
    pub(super) fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &Arc<GameDef>,
        c: &Content,
        board_rel: Option<&str>,
        overlay: Option<(super::ShowPlay, &farebox::figures::PlayFigures, f64)>,
        out: &mut Vec<Command>,
    ) {
        // Shift+wheel turns the brush; the board must not zoom as well.
        if self.tool == Tool::Paint && ui.rect_contains_pointer(ui.available_rect_before_wrap()) {
            let d = ui.input_mut(|i| {
                if !i.modifiers.shift {
                    return 0.0;
                }
                let d = i.smooth_scroll_delta.y + i.smooth_scroll_delta.x;
                i.smooth_scroll_delta = Vec2::ZERO;
                d
            });
            self.wheel += d;
            if self.wheel > 40.0 {
                self.wheel = 0.0;
                self.turn(3, def, out);
            } else if self.wheel < -40.0 {
                self.wheel = 0.0;
                self.turn(1, def, out);
            }
        }
        let Some(built) = self.built.take() else {
            return;
        };
        let banner = built.track_note.clone();
        let scene = Scene {
            def,
            board: &built.board,
            view: &built.view,
            actionable: &[],
            banner: banner.as_deref(),
            lit: &[],
            moved: &[],
            offers: &[],
        };
        let marked = board_rel
            .map(|rel| marked_spaces(c, rel, &built))
            .unwrap_or_default();
        let sel = self.selection_space(&built);
        let sel_edge = match &self.selection {
            Some(Selection::Edge { at, from, to }) => {
                space_index(&built, at, from).zip(space_index(&built, at, to))
            }
            _ => None,
        };
        let pending = self.pending.clone();
        let table = board_view::show_editing(ui, &mut self.camera, &scene, |t| {
            if let Some((mode, f, mean)) = overlay {
                super::overlay::draw(t, &built, mode, f, mean);
            }
            draw_marks(t, &built, def, &marked, sel, &pending);
            if let Some((a, z)) = sel_edge
                && let (Some(a), Some(z)) = (t.places[a as usize], t.places[z as usize])
            {
                t.painter
                    .line_segment([a.c, z.c], Stroke::new(5.0, Color32::WHITE));
            }
        });
        if let Some(t) = table {
            // A press on the minimap moves the view, not the tool.
            let on_map = self.minimap(ui, &t);
            if !on_map || self.drag.is_some() {
                self.pointer(ui, &t, &built, def, c, out);
            }
        }
        self.built = Some(built);
    }

    /// What the pointer does on the table with the current tool.
    // One piece: one match over the current tool, each arm a few lines of the same
    // press-drag-release handling, sharing the hit test done at its top.
    pub(super) fn pointer(
        &mut self,
        ui: &egui::Ui,
        t: &Table,
        b: &Built,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let brush = self.brush_tile(def);
        let r = &t.response;
        let pos = ui.ctx().pointer_latest_pos();
        let primary_down = ui.input(|i| i.pointer.primary_down());
        // A press on the table starts the tool's work (a click may press and release
        // within one frame).
        let started = self.drag.is_none()
            && r.contains_pointer()
            && ui.input(|i| i.pointer.primary_pressed());
        let over = pos.filter(|p| t.rect.contains(*p));
        let space = over.and_then(|p| t.space_at(p));
        let grid = b.board.grid.is_some();
        let cell = space
            .and_then(|s| b.board.xy(s))
            .and_then(|(x, y)| Some((u32::try_from(x).ok()?, u32::try_from(y).ok()?)));
        self.hover_cell = cell;
        self.hover_board = over.map(|p| t.xf.board(p));
        if !grid {
            self.draw_snap_grid(t, b);
        }

        // Ghost of the brush over the cell under the pointer.
        if grid
            && let (Some(s), Some(place)) = (space, space.and_then(|s| t.places[s as usize]))
            && matches!(self.tool, Tool::Paint | Tool::Erase)
            && (self.stamp.is_none() || self.tool == Tool::Erase)
        {
            let _ = s;
            let rect = Rect::from_center_size(place.c, Vec2::splat(place.r * 2.0));
            match (&brush, self.tool) {
                (Some((id, rot)), Tool::Paint) => {
                    if let Some(tile) = def.tile(id).and_then(|i| def.tiles.get(i)) {
                        t.painter
                            .rect_filled(rect, 3.0, Color32::from_white_alpha(40));
                        board_view::paint_tile(&t.painter, place.c, place.r * 2.0, tile, *rot);
                    }
                }
                _ => {
                    t.painter
                        .rect_filled(rect, 3.0, Color32::from_black_alpha(90));
                }
            }
            t.painter.rect_stroke(
                rect,
                3.0,
                Stroke::new(2.0, board_view::ACTION),
                egui::StrokeKind::Inside,
            );
        }

        // Picking spaces for a card's or row's field: a click picks, whatever the tool.
        if self.pick.is_some() {
            if r.clicked()
                && let Some(s) = space
            {
                self.pick_click(b, s, out);
            }
            return;
        }
        match self.tool {
            Tool::Paint if grid && self.stamp.is_some() => {
                self.stamp_paint(t, b, cell, started, primary_down, def, c, out);
            }
            Tool::Lasso if grid => self.lasso(ui, t, b, started),
            Tool::Paint | Tool::Erase if grid => {
                if started && space.is_some() {
                    let label = if self.tool == Tool::Paint {
                        "Paint tiles"
                    } else {
                        "Erase tiles"
                    };
                    out.push(Command::BeginGroup(label.into()));
                    self.drag = Some(Drag::Stroke);
                }
                if matches!(self.drag, Some(Drag::Stroke))
                    && (primary_down || started)
                    && let Some(s) = space
                    && let Some((x, y)) = b.board.xy(s)
                {
                    let (x, y) = (x as u32, y as u32);
                    let tile = if self.tool == Tool::Paint {
                        brush.clone()
                    } else {
                        None
                    };
                    let now = self
                        .pending
                        .iter()
                        .rev()
                        .find(|(px, py, _)| *px == x && *py == y)
                        .map(|p| p.2.clone())
                        .unwrap_or_else(|| {
                            b.board.tile_at(s).and_then(|pl| {
                                def.tiles
                                    .get(pl.tile as usize)
                                    .map(|t| (t.id.clone(), pl.rot))
                            })
                        });
                    if now != tile {
                        self.pending.push((x, y, tile.clone()));
                        out.push(Command::Edit(Edit::SetCellTile {
                            x,
                            y,
                            rotation: tile.as_ref().map_or(0, |t| t.1),
                            tile: tile.map(|t| t.0),
                        }));
                    }
                    self.selection = Some(Selection::Cell(x, y));
                }
                if matches!(self.drag, Some(Drag::Stroke)) && !primary_down {
                    out.push(Command::EndGroup);
                    self.drag = None;
                }
            }
            Tool::Select if grid => {
                self.grid_select(ui, t, b, cell, started, primary_down, def, c, out);
            }
            Tool::Fill | Tool::Pick if grid => {
                if r.clicked()
                    && let Some(xy) = cell
                {
                    if self.tool == Tool::Fill {
                        self.fill(xy, def, c, out);
                    } else {
                        self.pick(xy, c);
                    }
                }
            }
            Tool::Select => {
                self.draw_picked(t, b);
                self.select_spaces(ui, t, b, space, over, started, primary_down, out)
            }
            Tool::AddSpace => {
                if r.clicked()
                    && let Some(p) = over
                {
                    if space.is_some() {
                        self.message = Some("There is a space there already.".into());
                    } else {
                        self.add_space(t, b, p, out);
                    }
                }
            }
            Tool::Connect => {
                if started
                    && let Some(s) = space
                    && let Some((at, id)) = space_ref(b, s)
                {
                    self.drag = Some(Drag::Connect {
                        at,
                        from: id,
                        index: s,
                    });
                }
                if let Some(Drag::Connect { at, from, index }) = &self.drag {
                    if let (Some(a), Some(p)) = (t.places[*index as usize], pos) {
                        t.painter
                            .line_segment([a.c, p], Stroke::new(4.0, board_view::ACTION));
                    }
                    if !primary_down {
                        if let Some(s) = space
                            && s != *index
                        {
                            match space_ref(b, s) {
                                Some((at2, to)) if at2 == *at => {
                                    out.push(Command::Edit(Edit::AddEdge {
                                        at: at.clone(),
                                        edge: EdgeData {
                                            from: from.clone(),
                                            to: to.clone(),
                                            directed: false,
                                            cost: None,
                                            tags: vec![],
                                        },
                                    }));
                                    self.selection = Some(Selection::Edge {
                                        at: at.clone(),
                                        from: from.clone(),
                                        to,
                                    });
                                    self.message = None;
                                }
                                _ => {
                                    self.message = Some(
                                        "Spaces of two sections join where their connectors meet; a road inside a section stays in it.".into(),
                                    );
                                }
                            }
                        }
                        self.drag = None;
                    }
                }
            }
            Tool::Delete if r.clicked() => {
                let target = match space.and_then(|s| space_ref(b, s)) {
                    Some((at, id)) => Some(Selection::Space { at, id }),
                    None => over.and_then(|p| edge_at(t, b, p)),
                };
                if let Some(e) = target.as_ref().and_then(delete_edit) {
                    out.push(Command::Edit(e));
                    self.selection = None;
                }
            }
            _ => {}
        }
    }
}

/// The problems of the newest check that point at the grid cell `x`, `y`.
pub(super) fn cell_problems<'c>(c: &'c Content, rel: &str, x: u32, y: u32) -> Vec<&'c Diagnostic> {
    let Some(text) = c.checked_text(rel) else {
        return vec![];
    };
    c.problems_in(rel)
        .into_iter()
        .filter(|d| d.line > 0)
        .filter(|d| {
            record_key_at(text, d.line, "x").as_deref() == Some(x.to_string().as_str())
                && record_key_at(text, d.line, "y").as_deref() == Some(y.to_string().as_str())
        })
        .collect()
}

/// The spaces of the board drawn that a problem of the board file points at.
pub(super) fn marked_spaces(c: &Content, rel: &str, b: &Built) -> Vec<u32> {
    let Some(text) = c.checked_text(rel) else {
        return vec![];
    };
    let mut out = Vec::new();
    for d in c.problems_in(rel).into_iter().filter(|d| d.line > 0) {
        if let Some(grid) = &b.board.grid {
            let xy = (
                record_key_at(text, d.line, "x").and_then(|v| v.parse::<i64>().ok()),
                record_key_at(text, d.line, "y").and_then(|v| v.parse::<i64>().ok()),
            );
            if let (Some(x), Some(y)) = xy
                && x >= 1
                && y >= 1
                && (x as u32) <= grid.width
                && (y as u32) <= grid.height
                && let Some(s) = b.board.cell(x, y)
            {
                out.push(s);
            }
            continue;
        }
        if let Some(id) = record_key_at(text, d.line, "id") {
            out.extend(
                b.board
                    .graph
                    .spaces
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.id == id)
                    .map(|(i, _)| i as u32),
            );
        }
    }
    out
}

/// The editor's marks over the board: problems in red, the selection, the cells a stroke
/// painted that the engine's board does not show yet.
pub(super) fn draw_marks(
    t: &Table,
    b: &Built,
    def: &GameDef,
    marked: &[u32],
    sel: Option<u32>,
    pending: &[Painted],
) {
    for &(x, y, ref tile) in pending {
        let Some(s) = b.board.cell(x as i64, y as i64) else {
            continue;
        };
        let Some(place) = t.places.get(s as usize).copied().flatten() else {
            continue;
        };
        let rect = Rect::from_center_size(place.c, Vec2::splat(place.r * 1.92));
        match tile.as_ref().and_then(|(id, rot)| {
            def.tile(id)
                .and_then(|i| def.tiles.get(i))
                .map(|t| (t, *rot))
        }) {
            Some((tile, rot)) => {
                t.painter
                    .rect_filled(rect, 2.0, crate::studio::board_view::PAPER);
                board_view::paint_tile(&t.painter, place.c, place.r * 2.0, tile, rot);
            }
            None => {
                t.painter.rect_filled(rect, 2.0, board_view::TABLE);
            }
        }
    }
    for &s in marked {
        if let Some(place) = t.places.get(s as usize).copied().flatten() {
            let stroke = Stroke::new(3.0, Color32::from_rgb(0xff, 0x4d, 0x4d));
            if place.square {
                t.painter.rect_stroke(
                    place.rect().shrink(1.0),
                    3.0,
                    stroke,
                    egui::StrokeKind::Inside,
                );
            } else {
                t.painter.circle_stroke(place.c, place.r + 5.0, stroke);
            }
            t.painter.text(
                place.c + Vec2::new(place.r, -place.r),
                Align2::CENTER_CENTER,
                "!",
                egui::FontId::proportional(14.0),
                Color32::from_rgb(0xff, 0x4d, 0x4d),
            );
        }
    }
    if let Some(place) = sel.and_then(|s| t.places.get(s as usize).copied().flatten()) {
        let stroke = Stroke::new(3.0, Color32::WHITE);
        if place.square {
            t.painter.rect_stroke(
                place.rect().shrink(3.0),
                3.0,
                stroke,
                egui::StrokeKind::Inside,
            );
        } else {
            t.painter.circle_stroke(place.c, place.r + 3.0, stroke);
        }
    }
}
