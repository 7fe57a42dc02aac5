//! The board editor's grid board (Curbside): the tile palette and the brush's turn, a cell's
//! tile, name and tags in the inspector, and the board's size.

use eframe::egui::{self, Align2, Pos2, Rect, Sense, Stroke, Vec2};
use farebox::GameDef;

use super::canvas::cell_problems;
use super::{BoardEditor, Selection, Tool, split_list};
use crate::edit::{Edit, GridSide};
use crate::studio::Command;
use crate::studio::board_view;
use crate::studio::content::Content;

impl BoardEditor {
    /// Turns the brush by `q` quarter turns; with the Select tool and a cell with a tile
    /// selected, turns that tile instead.
    pub(super) fn turn(&mut self, q: u8, def: &GameDef, out: &mut Vec<Command>) {
        if self.tool == Tool::Select
            && let Some(Selection::Cell(x, y)) = self.selection
            && let Some(b) = &self.built
            && let Some(cell) = b.board.cell(x as i64, y as i64)
            && let Some(placed) = b.board.tile_at(cell)
            && let Some(t) = def.tiles.get(placed.tile as usize)
        {
            if t.rotatable {
                out.push(Command::Edit(Edit::SetCellTile {
                    x,
                    y,
                    tile: Some(t.id.clone()),
                    rotation: (placed.rot + q) % 4,
                }));
            }
            return;
        }
        self.rotation = (self.rotation + q) % 4;
    }

    /// The tiles to paint with, each drawn as it lies, and the brush's turn.
    pub(super) fn palette_ui(&mut self, ui: &mut egui::Ui, def: &GameDef, out: &mut Vec<Command>) {
        ui.separator();
        ui.heading("Tiles");
        let tiles: Vec<_> = def.tiles.iter().filter(|t| !t.blocks).collect();
        if tiles.is_empty() {
            ui.label(
                "The mod has no road tiles to paint with. Add a tile set under the list in Decks & tables.",
            );
            return;
        }
        if self.brush.as_ref().is_none_or(|b| def.tile(b).is_none()) {
            self.brush = tiles.first().map(|t| t.id.clone());
        }
        egui::Grid::new("tile-palette")
            .spacing([6.0, 6.0])
            .show(ui, |ui| {
                for (i, t) in tiles.iter().enumerate() {
                    let on = self.brush.as_deref() == Some(t.id.as_str());
                    let rot = if t.rotatable { self.rotation } else { 0 };
                    let (cell, r) = ui.allocate_exact_size(Vec2::new(64.0, 70.0), Sense::click());
                    let rect =
                        Rect::from_min_size(cell.min + Vec2::new(8.0, 0.0), Vec2::splat(48.0));
                    let p = ui.painter_at(cell);
                    p.rect_filled(rect, 4.0, board_view::TABLE);
                    board_view::paint_tile(&p, rect.center(), 44.0, t, rot);
                    if on {
                        p.rect_stroke(
                            rect,
                            4.0,
                            Stroke::new(3.0, board_view::ACTION),
                            egui::StrokeKind::Inside,
                        );
                    }
                    // The name under the tile, cut to fit.
                    let name: String = if t.name.chars().count() > 11 {
                        t.name.chars().take(10).chain(['…']).collect()
                    } else {
                        t.name.clone()
                    };
                    p.text(
                        Pos2::new(cell.center().x, rect.max.y + 3.0),
                        Align2::CENTER_TOP,
                        name,
                        egui::FontId::proportional(11.0),
                        ui.visuals().text_color(),
                    );
                    let r = r.on_hover_text(format!("{} ({})", t.name, t.id));
                    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &t.name));
                    if r.clicked() {
                        self.brush = Some(t.id.clone());
                        self.stamp = None;
                        if !matches!(self.tool, Tool::Paint) {
                            self.tool = Tool::Paint;
                        }
                    }
                    if i % 3 == 2 {
                        ui.end_row();
                    }
                }
            });
        ui.horizontal(|ui| {
            ui.label(format!("Turned {}°", self.rotation as u32 * 90));
            if ui
                .button("⟲")
                .on_hover_text("Turn left (Shift+R)")
                .clicked()
            {
                self.turn(3, def, out);
            }
            if ui.button("⟳").on_hover_text("Turn right (R)").clicked() {
                self.turn(1, def, out);
            }
        });
        ui.label(egui::RichText::new("Shift+wheel over the board turns the brush too.").weak());
    }

    /// The brush as (tile id, turns), for the Paint tool.
    pub(super) fn brush_tile(&self, def: &GameDef) -> Option<(String, u8)> {
        let id = self.brush.clone()?;
        let t = def.tile(&id).and_then(|i| def.tiles.get(i))?;
        Some((id, if t.rotatable { self.rotation } else { 0 }))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn cell_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &GameDef,
        g: &farebox::content::def::GridDef,
        x: u32,
        y: u32,
        c: &Content,
        board_rel: Option<&str>,
        out: &mut Vec<Command>,
    ) {
        ui.strong(format!("Cell {x},{y}"));
        let cell = g.cells.iter().find(|cd| cd.x == x && cd.y == y);
        if let Some(rel) = board_rel {
            for d in cell_problems(c, rel, x, y) {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("line {}: {}", d.line, d.message),
                );
            }
        }
        let tile = cell.and_then(|cd| cd.tile);
        egui::Grid::new("cell-fields").num_columns(2).show(ui, |ui| {
            ui.label("Tile");
            let shown = tile
                .and_then(|(t, _)| def.tiles.get(t))
                .map_or("none".to_string(), |t| t.name.clone());
            let mut chosen = None;
            egui::ComboBox::from_id_salt("cell-tile")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    if ui.selectable_label(tile.is_none(), "none").clicked() {
                        chosen = Some(None);
                    }
                    for t in def.tiles.iter().filter(|t| !t.blocks) {
                        if ui.selectable_label(false, &t.name).clicked() {
                            chosen = Some(Some(t.id.clone()));
                        }
                    }
                });
            if let Some(choice) = chosen {
                out.push(Command::Edit(Edit::SetCellTile {
                    x,
                    y,
                    tile: choice,
                    rotation: tile.map_or(0, |t| t.1),
                }));
            }
            ui.end_row();
            if let Some((t, rot)) = tile
                && let Some(td) = def.tiles.get(t)
            {
                ui.label("Turned");
                ui.horizontal(|ui| {
                    ui.label(format!("{}°", rot as u32 * 90));
                    if td.rotatable && ui.button("⟳").on_hover_text("Turn right (R)").clicked() {
                        out.push(Command::Edit(Edit::SetCellTile {
                            x,
                            y,
                            tile: Some(td.id.clone()),
                            rotation: (rot + 1) % 4,
                        }));
                    }
                });
                ui.end_row();
            }
            let id = cell.and_then(|cd| cd.id.clone()).unwrap_or_default();
            let tags = cell.map(|cd| cd.tags.join(", ")).unwrap_or_default();
            ui.label("Id").on_hover_text(
                "A name the rules can use for this cell (the corner starts are start-1, start-2...)",
            );
            if let Some(text) = self.field(ui, &format!("cell-id {x},{y}"), &id, 160.0) {
                out.push(Command::Edit(Edit::SetCellLabel {
                    x,
                    y,
                    id: (!text.trim().is_empty()).then(|| text.trim().to_string()),
                    tags: split_list(&tags),
                }));
            }
            ui.end_row();
            ui.label("Tags").on_hover_text("Comma-separated, e.g. start");
            if let Some(text) = self.field(ui, &format!("cell-tags {x},{y}"), &tags, 160.0) {
                out.push(Command::Edit(Edit::SetCellLabel {
                    x,
                    y,
                    id: (!id.is_empty()).then(|| id.clone()),
                    tags: split_list(&text),
                }));
            }
            ui.end_row();
        });
        if cell.is_some()
            && ui
                .button("Forget this cell")
                .on_hover_text("Takes its tile, id, tags and properties away")
                .clicked()
        {
            out.push(Command::Edit(Edit::EraseCell { x, y }));
        }
    }

    pub(super) fn grid_size_ui(
        &mut self,
        ui: &mut egui::Ui,
        w: u32,
        h: u32,
        out: &mut Vec<Command>,
    ) {
        ui.strong("Board size");
        ui.horizontal(|ui| {
            let size = format!("{w}x{h}");
            ui.label("Columns x rows");
            if let Some(text) = self.field(ui, "grid-size", &size, 70.0) {
                let parsed = text
                    .split(['x', 'X', '×', ' ', ','])
                    .filter(|s| !s.is_empty())
                    .map(|s| s.trim().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>();
                match parsed.as_deref() {
                    Ok([cw, ch]) if *cw > 0 && *ch > 0 => {
                        if (*cw, *ch) != (w, h) {
                            out.push(Command::Edit(Edit::SetGridSize {
                                width: *cw,
                                height: *ch,
                            }));
                        }
                        self.message = None;
                    }
                    _ => {
                        self.message = Some(format!(
                            "`{text}` is not a size: write columns x rows, e.g. 6x6"
                        ));
                    }
                }
            }
        });
        ui.label(egui::RichText::new("Cells outside a smaller board are forgotten.").weak());
        self.grid_sides_ui(ui, w, h, out);
    }

    /// Buttons that add or take away a column or row on each side; on the left and the top,
    /// what is on the board moves with the side (and the selected cell with it).
    fn grid_sides_ui(&mut self, ui: &mut egui::Ui, w: u32, h: u32, out: &mut Vec<Command>) {
        ui.add_space(4.0);
        ui.label("Add or remove a side (what is there moves with it):");
        egui::Grid::new("grid-sides").num_columns(2).show(ui, |ui| {
            for (side, what, n) in [
                (GridSide::Left, "column left", w),
                (GridSide::Right, "column right", w),
                (GridSide::Top, "row top", h),
                (GridSide::Bottom, "row bottom", h),
            ] {
                for by in [1, -1] {
                    let text = format!("{} {what}", if by > 0 { "+" } else { "-" });
                    let able = if by > 0 { n < 64 } else { n > 1 };
                    let hover = format!(
                        "{} a {}",
                        if by > 0 { "Add" } else { "Remove" },
                        side.words()
                    );
                    if ui
                        .add_enabled(able, egui::Button::new(text))
                        .on_hover_text(hover)
                        .clicked()
                    {
                        out.push(Command::Edit(Edit::GrowGrid { side, by }));
                        self.shift_selection(side, by);
                    }
                }
                ui.end_row();
            }
        });
    }

    /// The selected cell follows its tile when a side before it grows or shrinks (a selected
    /// rectangle is dropped: it may no longer fit).
    fn shift_selection(&mut self, side: GridSide, by: i32) {
        if matches!(side, GridSide::Left | GridSide::Top) {
            self.area = None;
        }
        let Some(Selection::Cell(x, y)) = self.selection else {
            return;
        };
        let moved = |v: u32| {
            u32::try_from(i64::from(v) + i64::from(by))
                .ok()
                .filter(|&v| v > 0)
        };
        self.selection = match side {
            GridSide::Left => moved(x).map(|x| Selection::Cell(x, y)),
            GridSide::Top => moved(y).map(|y| Selection::Cell(x, y)),
            GridSide::Right | GridSide::Bottom => self.selection.clone(),
        };
    }
}
