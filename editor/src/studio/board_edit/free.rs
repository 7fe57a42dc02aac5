//! A grid selected freely, and stamps: Ctrl+click a cell with Select to add it to the
//! selection or take it out, or draw round cells with the Lasso; whatever the selection's
//! shape, copy, cut, paste, move, turn, flip and delete work on its cells alone. A selection
//! taken up as a stamp paints all its tiles at once with the Paint tool, tiled edge to edge
//! along a stroke (one undo step a stroke).

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, Vec2};
use farebox::GameDef;
use farebox::content::def::BoardDef;
use farebox::content::raw::RawValue;

use super::area::{Area, Clip, at, put, tile_of};
use super::{BoardEditor, Built, Drag};
use crate::edit::{CellRecord, Edit};
use crate::studio::Command;
use crate::studio::board_view::{self, Table};
use crate::studio::content::Content;

/// Whether the press this frame held Ctrl (or Cmd).
fn command_press(ui: &egui::Ui) -> bool {
    ui.input(|i| {
        i.events
            .iter()
            .find_map(|e| match e {
                egui::Event::PointerButton {
                    pressed: true,
                    modifiers,
                    ..
                } => Some(modifiers.command),
                _ => None,
            })
            .unwrap_or(i.modifiers.command)
    })
}

/// Whether `p` lies inside the polygon `poly` (even-odd rule).
fn inside(poly: &[Pos2], p: Pos2) -> bool {
    let mut odd = false;
    let mut j = poly.len().wrapping_sub(1);
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            odd = !odd;
        }
        j = i;
    }
    odd
}

impl BoardEditor {
    /// Ctrl+click on a cell with Select: the cell joins the selection, or leaves it.
    /// Whether the press was such a click.
    pub(super) fn toggle_cell(&mut self, ui: &egui::Ui, xy: (u32, u32)) -> bool {
        if !command_press(ui) {
            return false;
        }
        let mut cells = self.area.as_ref().map(Area::cells).unwrap_or_default();
        match cells.iter().position(|c| *c == xy) {
            Some(i) => {
                cells.remove(i);
            }
            None => cells.push(xy),
        }
        self.area = Area::of_cells(cells);
        self.selection = None;
        true
    }

    /// The Lasso: a press and drag draws a free line round cells; let go, the cells whose
    /// middles it encloses are selected (with Shift, added to the selection).
    pub(super) fn lasso(&mut self, ui: &egui::Ui, t: &Table, b: &Built, started: bool) {
        let pos = ui.ctx().pointer_latest_pos();
        if started && let Some(p) = pos {
            let add = ui.input(|i| i.modifiers.shift);
            self.drag = Some(Drag::Lasso {
                points: vec![p],
                add,
            });
        }
        let down = ui.input(|i| i.pointer.primary_down());
        if let Some(Drag::Lasso { points, .. }) = &mut self.drag {
            if let Some(p) = pos
                && points.last().is_none_or(|l| l.distance(p) > 2.0)
            {
                points.push(p);
            }
            let mut ring = points.clone();
            ring.extend(points.first().copied());
            t.painter.add(egui::Shape::line(
                ring,
                Stroke::new(2.0, board_view::ACTION),
            ));
        }
        if !down && let Some(Drag::Lasso { points, add }) = self.drag.take() {
            let mut cells = if add {
                self.area.as_ref().map(Area::cells).unwrap_or_default()
            } else {
                vec![]
            };
            if points.len() >= 3 {
                for (s, place) in t.places.iter().enumerate() {
                    if let Some(place) = place
                        && inside(&points, place.c)
                        && let Some((x, y)) = b.board.xy(s as u32)
                        && let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y))
                        && !cells.contains(&(x, y))
                    {
                        cells.push((x, y));
                    }
                }
            }
            self.area = Area::of_cells(cells);
            self.selection = None;
        }
        if let Some(a) = &self.area {
            super::area::outline(t, b, a, Color32::WHITE);
        }
    }

    /// Takes up the selection's tiles as the stamp, with the Paint tool.
    pub(super) fn take_stamp(&mut self, c: &Content) {
        let Some(a) = self.area.clone() else { return };
        let records = c.editor.grid_cells();
        let cells: Vec<((u32, u32), CellRecord)> = a
            .cells()
            .into_iter()
            .filter_map(|xy| {
                let r = records.get(&xy).filter(|r| tile_of(r).is_some())?;
                Some(((xy.0 - a.x0, xy.1 - a.y0), r.clone()))
            })
            .collect();
        if cells.is_empty() {
            self.message = Some("The selection has no tiles to stamp with.".into());
            return;
        }
        self.message = None;
        self.stamp = Some(Clip {
            w: a.w(),
            h: a.h(),
            cells,
            shape: None,
        });
        self.tool = super::Tool::Paint;
    }

    /// Paint with a stamp: a click lays every tile of the stamp with its top-left at the
    /// cell; a drag lays it again each time the pointer reaches the next place a whole
    /// stamp over from the first. Names, tags and properties of the cells stay.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn stamp_paint(
        &mut self,
        t: &Table,
        b: &Built,
        cell: Option<(u32, u32)>,
        started: bool,
        primary_down: bool,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let Some(stamp) = self.stamp.clone() else {
            return;
        };
        if let Some(xy) = cell {
            self.stamp_ghost(t, b, def, &stamp, xy);
        }
        if started && let Some(xy) = cell {
            out.push(Command::BeginGroup(format!(
                "Stamp {} x {} tiles",
                stamp.w, stamp.h
            )));
            self.drag = Some(Drag::Stamp {
                anchor: xy,
                last: None,
            });
        }
        if let Some(Drag::Stamp { anchor, last }) = self.drag
            && let Some(xy) = cell
            && (primary_down || started)
        {
            let step = |v: u32, a: u32, n: u32| {
                let d = i64::from(v) - i64::from(a);
                let n = i64::from(n.max(1));
                u32::try_from(i64::from(a) + d.div_euclid(n) * n).ok()
            };
            if let (Some(x), Some(y)) =
                (step(xy.0, anchor.0, stamp.w), step(xy.1, anchor.1, stamp.h))
                && last != Some((x, y))
            {
                self.drag = Some(Drag::Stamp {
                    anchor,
                    last: Some((x, y)),
                });
                self.lay_stamp(&stamp, (x, y), def, c, out);
            }
        }
        if matches!(self.drag, Some(Drag::Stamp { .. })) && !primary_down {
            out.push(Command::EndGroup);
            self.drag = None;
        }
    }

    /// The stamp's tiles over the board where a click would lay them.
    fn stamp_ghost(&self, t: &Table, b: &Built, def: &GameDef, stamp: &Clip, xy: (u32, u32)) {
        for ((dx, dy), rec) in &stamp.cells {
            let (Some((tile, rot)), Some(s)) = (
                tile_of(rec),
                b.board.cell(i64::from(xy.0 + dx), i64::from(xy.1 + dy)),
            ) else {
                continue;
            };
            let (Some(place), Some(tile)) = (
                t.places.get(s as usize).copied().flatten(),
                def.tile(&tile).and_then(|i| def.tiles.get(i)),
            ) else {
                continue;
            };
            let rect = Rect::from_center_size(place.c, Vec2::splat(place.r * 2.0));
            t.painter
                .rect_filled(rect, 3.0, Color32::from_white_alpha(40));
            board_view::paint_tile(&t.painter, place.c, place.r * 2.0, tile, rot);
            t.painter.rect_stroke(
                rect,
                3.0,
                Stroke::new(2.0, board_view::ACTION),
                egui::StrokeKind::Inside,
            );
        }
    }

    /// Lays the stamp's tiles with its top-left at `to` (those that fall on the board).
    fn lay_stamp(
        &mut self,
        stamp: &Clip,
        to: (u32, u32),
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let BoardDef::Grid(g) = &def.board else {
            return;
        };
        let records = c.editor.grid_cells();
        let mut cells = vec![];
        for ((dx, dy), rec) in &stamp.cells {
            let xy = (to.0 + dx, to.1 + dy);
            let Some((tile, rot)) = tile_of(rec) else {
                continue;
            };
            if xy.0 > g.width || xy.1 > g.height {
                continue;
            }
            let mut r = records.get(&xy).cloned().unwrap_or_else(|| at(&vec![], xy));
            put(&mut r, "tile", Some(RawValue::String(tile.clone())));
            put(
                &mut r,
                "rotation",
                (rot != 0).then(|| RawValue::Integer(rot.into())),
            );
            self.pending.push((xy.0, xy.1, Some((tile, rot))));
            cells.push(r);
        }
        if cells.is_empty() {
            return;
        }
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!(
                "Stamp {} at {},{}",
                super::area::cells_n(cells.len()),
                to.0,
                to.1
            ),
            clear: vec![],
            cells,
        }));
    }

    /// The stamp in the palette: its size, and a button to put it down.
    pub(super) fn stamp_ui(&mut self, ui: &mut egui::Ui) {
        let Some(s) = &self.stamp else { return };
        ui.separator();
        ui.strong(format!(
            "Stamp: {} x {} cells, {} tiles",
            s.w,
            s.h,
            s.cells.len()
        ));
        ui.label(
            egui::RichText::new("Paint lays the whole stamp; drag to lay it side by side.").weak(),
        );
        if ui.button("Drop the stamp").clicked() {
            self.stamp = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_is_inside_a_drawn_ring() {
        let ring = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(10.0, 10.0),
            Pos2::new(0.0, 10.0),
        ];
        assert!(inside(&ring, Pos2::new(5.0, 5.0)));
        assert!(!inside(&ring, Pos2::new(15.0, 5.0)));
        assert!(!inside(&ring[..2], Pos2::new(5.0, 0.0)));
    }
}
