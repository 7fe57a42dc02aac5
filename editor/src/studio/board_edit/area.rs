//! Editing a grid in bulk: a rectangle of cells selected by dragging with Select; copied, cut,
//! pasted, deleted, moved (dragged from inside), turned a quarter turn and flipped; a flood
//! fill with the brush tile; and an eyedropper that takes up a cell's tile as the brush. Every
//! change is one [`Edit::PlaceCells`], so it is one undo step named for what it did, and a
//! cell keeps everything its record holds (tile and turn, name, tags, properties) wherever
//! it goes.

use std::collections::{BTreeSet, HashSet, VecDeque};

use eframe::egui::{self, Rect, Stroke};
use farebox::GameDef;
use farebox::content::def::BoardDef;
use farebox::content::raw::RawValue;

use super::{BoardEditor, Built, Drag, Selection, Tool};
use crate::edit::{CellRecord, Edit};
use crate::studio::Command;
use crate::studio::board_view::{self, Table};
use crate::studio::content::Content;

/// A rectangle of cells, its corners included (`x0 <= x1`, `y0 <= y1`), or (a free
/// selection) some of the cells in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Area {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
    /// A free selection: only these cells of the rectangle (None: all of them).
    pub only: Option<BTreeSet<(u32, u32)>>,
}

impl Area {
    /// The rectangle with these two cells at opposite corners.
    pub fn spanning(a: (u32, u32), b: (u32, u32)) -> Area {
        Area {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
            only: None,
        }
    }
    /// These cells (a rectangle when they fill their box), or None for no cells.
    pub fn of_cells(cells: impl IntoIterator<Item = (u32, u32)>) -> Option<Area> {
        let set: BTreeSet<(u32, u32)> = cells.into_iter().collect();
        let x0 = set.iter().map(|c| c.0).min()?;
        let y0 = set.iter().map(|c| c.1).min()?;
        let x1 = set.iter().map(|c| c.0).max()?;
        let y1 = set.iter().map(|c| c.1).max()?;
        let full = set.len() as u64 == u64::from(x1 - x0 + 1) * u64::from(y1 - y0 + 1);
        Some(Area {
            x0,
            y0,
            x1,
            y1,
            only: (!full).then_some(set),
        })
    }
    /// The same cells moved by `d`, if they stay at 1 or more.
    fn shifted(&self, d: (i64, i64)) -> Option<Area> {
        let cells: Option<Vec<(u32, u32)>> = self
            .cells()
            .into_iter()
            .map(|(x, y)| {
                let x = u32::try_from(i64::from(x) + d.0).ok().filter(|v| *v > 0)?;
                let y = u32::try_from(i64::from(y) + d.1).ok().filter(|v| *v > 0)?;
                Some((x, y))
            })
            .collect();
        Area::of_cells(cells?)
    }
    /// Whether only some cells of the rectangle are selected.
    pub fn is_free(&self) -> bool {
        self.only.is_some()
    }
    pub fn w(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    pub fn h(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    pub fn contains(&self, (x, y): (u32, u32)) -> bool {
        (self.x0..=self.x1).contains(&x)
            && (self.y0..=self.y1).contains(&y)
            && self.only.as_ref().is_none_or(|s| s.contains(&(x, y)))
    }
    pub fn cells(&self) -> Vec<(u32, u32)> {
        match &self.only {
            Some(s) => s.iter().copied().collect(),
            None => (self.y0..=self.y1)
                .flat_map(|y| (self.x0..=self.x1).map(move |x| (x, y)))
                .collect(),
        }
    }
    pub fn count(&self) -> u32 {
        match &self.only {
            Some(s) => s.len() as u32,
            None => self.w() * self.h(),
        }
    }
}

/// Cells copied: the rectangle's size and each record, by its place from the top-left
/// corner (0-based).
#[derive(Debug, Clone)]
pub struct Clip {
    pub(super) w: u32,
    pub(super) h: u32,
    pub(super) cells: Vec<((u32, u32), CellRecord)>,
    /// A free selection copied: the places of its cells (None: the whole rectangle).
    pub(super) shape: Option<Vec<(u32, u32)>>,
}

/// How a selection is turned or flipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// A quarter turn clockwise about its top-left corner.
    Quarter,
    /// Mirrored left to right.
    FlipAcross,
    /// Mirrored top to bottom.
    FlipDown,
}

impl Turn {
    fn words(self) -> &'static str {
        match self {
            Turn::Quarter => "Turn",
            Turn::FlipAcross => "Flip left to right",
            Turn::FlipDown => "Flip top to bottom",
        }
    }
}

/// `n cells` / `1 cell`.
pub(super) fn cells_n(n: usize) -> String {
    format!("{n} {}", crate::common::plural(n, "cell"))
}

/// The record with its `x` and `y` set.
pub(super) fn at(rec: &CellRecord, (x, y): (u32, u32)) -> CellRecord {
    let mut r: CellRecord = rec
        .iter()
        .filter(|(k, _)| k != "x" && k != "y")
        .cloned()
        .collect();
    r.insert(0, ("y".into(), RawValue::Integer(y.into())));
    r.insert(0, ("x".into(), RawValue::Integer(x.into())));
    r
}

/// Sets a key of a record (None takes it out).
pub(super) fn put(rec: &mut CellRecord, key: &str, v: Option<RawValue>) {
    rec.retain(|(k, _)| k != key);
    if let Some(v) = v {
        rec.push((key.to_string(), v));
    }
}

fn text_of<'r>(rec: &'r CellRecord, key: &str) -> Option<&'r str> {
    rec.iter().find_map(|(k, v)| match v {
        RawValue::String(s) if k == key => Some(s.as_str()),
        _ => None,
    })
}

/// A record's tile and its quarter turns.
pub(super) fn tile_of(rec: &CellRecord) -> Option<(String, u8)> {
    let t = text_of(rec, "tile")?.to_string();
    let rot = rec.iter().find_map(|(k, v)| match v {
        RawValue::Integer(r) if k == "rotation" => u8::try_from(*r).ok(),
        _ => None,
    });
    Some((t, rot.unwrap_or(0) % 4))
}

/// The grid's width and height.
fn grid_size(def: &GameDef) -> Option<(u32, u32)> {
    match &def.board {
        BoardDef::Grid(g) => Some((g.width, g.height)),
        _ => None,
    }
}

/// Gives each copied name used elsewhere on the board the first free `<name>-2`, `-3`...
fn fresh_names(cells: &mut [CellRecord], used: &mut HashSet<String>) {
    for rec in cells {
        let Some(id) = text_of(rec, "id").map(str::to_string) else {
            continue;
        };
        let new = if used.contains(&id) {
            (2..)
                .map(|n| format!("{id}-{n}"))
                .find(|c| !used.contains(c))
                .unwrap_or(id)
        } else {
            id
        };
        used.insert(new.clone());
        put(rec, "id", Some(RawValue::String(new)));
    }
}

/// The turn of a tile that lies as `tile` at `rot` does, seen mirrored (`across`: left to
/// right, else top to bottom); None when no turn of the tile looks like its mirror image.
fn mirrored_turn(def: &GameDef, tile: &str, rot: u8, across: bool) -> Option<u8> {
    let t = def.tile(tile).and_then(|i| def.tiles.get(i))?;
    // Sides N, E, S, W are 0..4: across swaps E and W, down swaps N and S.
    let m = |s: usize| match (across, s) {
        (true, 1) => 3,
        (true, 3) => 1,
        (false, 0) => 2,
        (false, 2) => 0,
        (_, s) => s,
    };
    let now = t.links_turned(rot);
    let mut want = [0u8; 4];
    for (from, mask) in now.iter().enumerate() {
        let mut to = 0u8;
        for s in 0..4 {
            if mask & (1 << s) != 0 {
                to |= 1 << m(s);
            }
        }
        want[m(from)] = to;
    }
    let turns: Vec<u8> = if t.rotatable {
        vec![0, 1, 2, 3]
    } else {
        vec![rot]
    };
    turns.into_iter().find(|&r| t.links_turned(r) == want)
}

impl BoardEditor {
    /// Copies the selected rectangle; its cells are also put on the system clipboard as
    /// the TOML they are written as.
    pub(super) fn copy_area(&mut self, ctx: &egui::Context, c: &Content) -> bool {
        let Some(a) = self.area.clone() else {
            return false;
        };
        let records = c.editor.grid_cells();
        let cells: Vec<((u32, u32), CellRecord)> = a
            .cells()
            .into_iter()
            .filter_map(|xy| {
                records
                    .get(&xy)
                    .map(|r| ((xy.0 - a.x0, xy.1 - a.y0), r.clone()))
            })
            .collect();
        let text: String = cells
            .iter()
            .map(|(_, r)| {
                let fields: Vec<String> = r.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                format!("{{ {} }}\n", fields.join(", "))
            })
            .collect();
        ctx.copy_text(text);
        let what = if a.is_free() {
            cells_n(a.count() as usize)
        } else {
            format!("{} x {} cells", a.w(), a.h())
        };
        self.message = Some(format!(
            "Copied {what} ({} with something on them). Ctrl+V pastes them at the cell under the pointer.",
            cells.len()
        ));
        let shape = a.is_free().then(|| {
            a.cells()
                .into_iter()
                .map(|(x, y)| (x - a.x0, y - a.y0))
                .collect()
        });
        self.clip = Some(Clip {
            w: a.w(),
            h: a.h(),
            cells,
            shape,
        });
        true
    }

    /// Empties the selected rectangle (tiles, names, tags, properties); `what` names the step.
    pub(super) fn clear_area(&mut self, what: &str, out: &mut Vec<Command>) {
        let Some(a) = self.area.as_ref() else { return };
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!("{what} {}", cells_n(a.count() as usize)),
            clear: a.cells(),
            cells: vec![],
        }));
    }

    /// Pastes the copied cells with their top-left corner at `to`; the pasted rectangle is
    /// selected. Names used elsewhere on the board are made new.
    pub(super) fn paste(
        &mut self,
        to: (u32, u32),
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let (Some(clip), Some((w, h))) = (self.clip.clone(), grid_size(def)) else {
            self.message = Some("Nothing copied yet: select cells and press Ctrl+C.".into());
            return;
        };
        let target = match &clip.shape {
            Some(shape) => Area::of_cells(shape.iter().map(|(dx, dy)| (to.0 + dx, to.1 + dy))),
            None => Some(Area::spanning(to, (to.0 + clip.w - 1, to.1 + clip.h - 1))),
        };
        let Some(target) = target else { return };
        if target.x1 > w || target.y1 > h {
            self.message = Some(format!(
                "The copy is {} x {} cells and does not fit at {},{} on the {w} x {h} board.",
                clip.w, clip.h, to.0, to.1
            ));
            return;
        }
        let mut used: HashSet<String> = c
            .editor
            .grid_cells()
            .iter()
            .filter(|(xy, _)| !target.contains(**xy))
            .filter_map(|(_, r)| text_of(r, "id").map(str::to_string))
            .collect();
        let mut cells: Vec<CellRecord> = clip
            .cells
            .iter()
            .map(|((dx, dy), r)| at(r, (to.0 + dx, to.1 + dy)))
            .collect();
        fresh_names(&mut cells, &mut used);
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!(
                "Paste {} at {},{}",
                cells_n(target.count() as usize),
                to.0,
                to.1
            ),
            clear: target.cells(),
            cells,
        }));
        self.selection = Some(Selection::Cell(target.x0, target.y0));
        self.area = Some(target);
        self.message = None;
    }

    /// Moves the selected rectangle by `(dx, dy)` cells; it lands whole, over what was there.
    fn move_area(&mut self, d: (i64, i64), def: &GameDef, c: &Content, out: &mut Vec<Command>) {
        let (Some(a), Some((w, h))) = (self.area.clone(), grid_size(def)) else {
            return;
        };
        let Some(target) = a.shifted(d).filter(|t| t.x1 <= w && t.y1 <= h) else {
            self.message = Some("The selection would leave the board there.".into());
            return;
        };
        let records = c.editor.grid_cells();
        let shift = |v: u32, d: i64| u32::try_from(i64::from(v) + d).ok();
        let cells: Vec<CellRecord> = a
            .cells()
            .into_iter()
            .filter_map(|(x, y)| {
                let to = (shift(x, d.0)?, shift(y, d.1)?);
                records.get(&(x, y)).map(|r| at(r, to))
            })
            .collect();
        let mut clear = a.cells();
        clear.extend(target.cells());
        let (x0, y0) = (target.x0, target.y0);
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!("Move {} to {x0},{y0}", cells_n(a.count() as usize)),
            clear,
            cells,
        }));
        self.area = Some(target);
        self.selection = Some(Selection::Cell(x0, y0));
    }

    /// Turns or flips the selected rectangle in place (a quarter turn keeps its top-left
    /// corner and swaps its width and height); each tile turns with it, a flipped tile takes
    /// the turn that looks like its mirror image.
    pub(super) fn turn_area(
        &mut self,
        how: Turn,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let (Some(a), Some((w, h))) = (self.area.clone(), grid_size(def)) else {
            return;
        };
        let place = |(x, y): (u32, u32)| {
            let (i, j) = (x - a.x0, y - a.y0);
            match how {
                Turn::Quarter => (a.x0 + (a.h() - 1 - j), a.y0 + i),
                Turn::FlipAcross => (a.x0 + (a.w() - 1 - i), y),
                Turn::FlipDown => (x, a.y0 + (a.h() - 1 - j)),
            }
        };
        let Some(target) = Area::of_cells(a.cells().into_iter().map(place)) else {
            return;
        };
        if target.x1 > w || target.y1 > h {
            self.message = Some(format!(
                "Turned, the {} x {} selection would leave the board; move it first.",
                a.w(),
                a.h()
            ));
            return;
        }
        let records = c.editor.grid_cells();
        let mut kept = 0;
        let mut cells = vec![];
        for (x, y) in a.cells() {
            let Some(r) = records.get(&(x, y)) else {
                continue;
            };
            let mut rec = at(r, place((x, y)));
            if let Some((tile, rot)) = tile_of(r) {
                let rotatable = def
                    .tile(&tile)
                    .and_then(|i| def.tiles.get(i))
                    .is_some_and(|t| t.rotatable);
                let new = match how {
                    Turn::Quarter if rotatable => (rot + 1) % 4,
                    Turn::Quarter => rot,
                    _ => match mirrored_turn(def, &tile, rot, how == Turn::FlipAcross) {
                        Some(r) => r,
                        None => {
                            kept += 1;
                            rot
                        }
                    },
                };
                put(
                    &mut rec,
                    "rotation",
                    (new != 0).then(|| RawValue::Integer(new.into())),
                );
            }
            cells.push(rec);
        }
        let mut clear = a.cells();
        clear.extend(target.cells());
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!("{} {}", how.words(), cells_n(a.count() as usize)),
            clear,
            cells,
        }));
        self.area = Some(target);
        self.message = (kept > 0).then(|| {
            format!(
                "{kept} {} no turn that is {} mirror image and kept {} turn.",
                if kept == 1 { "tile has" } else { "tiles have" },
                if kept == 1 { "its" } else { "their" },
                if kept == 1 { "its" } else { "their" },
            )
        });
    }

    /// Fills the cells joined to `from` (side by side) that hold what it holds, with the
    /// brush tile at its turn; names, tags and properties stay.
    pub(super) fn fill(
        &mut self,
        from: (u32, u32),
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        let (Some(brush), Some((w, h))) = (self.brush.clone(), grid_size(def)) else {
            self.message = Some("Pick a tile in the palette to fill with.".into());
            return;
        };
        let rotatable = def
            .tile(&brush)
            .and_then(|i| def.tiles.get(i))
            .is_some_and(|t| t.rotatable);
        let rot = if rotatable { self.rotation } else { 0 };
        let records = c.editor.grid_cells();
        let what = |xy: &(u32, u32)| records.get(xy).and_then(tile_of);
        let start = what(&from);
        if start.as_ref() == Some(&(brush.clone(), rot)) {
            return;
        }
        let mut seen: HashSet<(u32, u32)> = HashSet::from([from]);
        let mut todo = VecDeque::from([from]);
        let mut cells = vec![];
        while let Some((x, y)) = todo.pop_front() {
            let mut rec = records
                .get(&(x, y))
                .cloned()
                .unwrap_or_else(|| at(&vec![], (x, y)));
            put(&mut rec, "tile", Some(RawValue::String(brush.clone())));
            put(
                &mut rec,
                "rotation",
                (rot != 0).then(|| RawValue::Integer(rot.into())),
            );
            cells.push(rec);
            let near = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for n in near {
                let inside = (1..=w).contains(&n.0) && (1..=h).contains(&n.1);
                if inside && !seen.contains(&n) && what(&n) == start {
                    seen.insert(n);
                    todo.push_back(n);
                }
            }
        }
        out.push(Command::Edit(Edit::PlaceCells {
            what: format!("Fill {} with {brush}", cells_n(cells.len())),
            clear: vec![],
            cells,
        }));
    }

    /// The eyedropper: the tile on `cell`, at its turn, becomes the brush, and Paint the tool.
    pub(super) fn pick(&mut self, cell: (u32, u32), c: &Content) {
        match c.editor.grid_cells().get(&cell).and_then(tile_of) {
            Some((tile, rot)) => {
                self.brush = Some(tile);
                self.rotation = rot;
                self.tool = Tool::Paint;
                self.message = None;
            }
            None => {
                self.message = Some(format!("No tile on {},{} to pick up.", cell.0, cell.1));
            }
        }
    }

    /// Select on a grid: a press and drag marks a rectangle (a click, one cell); a drag from
    /// inside a marked selection of several cells moves it where it is let go; Ctrl+click
    /// adds a cell to the selection or takes it out.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn grid_select(
        &mut self,
        ui: &egui::Ui,
        t: &Table,
        b: &Built,
        cell: Option<(u32, u32)>,
        started: bool,
        primary_down: bool,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        if started && let Some(xy) = cell {
            let inside = self
                .area
                .as_ref()
                .is_some_and(|a| a.contains(xy) && a.count() > 1);
            if self.toggle_cell(ui, xy) {
                // Ctrl+click: the cell added to the selection or taken out of it.
            } else if inside {
                self.drag = Some(Drag::MoveArea { grab: xy });
            } else {
                self.drag = Some(Drag::Area { anchor: xy });
                self.area = Some(Area::spanning(xy, xy));
                self.selection = Some(Selection::Cell(xy.0, xy.1));
            }
        }
        match self.drag {
            Some(Drag::Area { anchor }) => {
                if let Some(xy) = cell {
                    self.area = Some(Area::spanning(anchor, xy));
                }
                if !primary_down {
                    self.drag = None;
                }
            }
            Some(Drag::MoveArea { grab }) => {
                let d = cell.map(|xy| {
                    (
                        i64::from(xy.0) - i64::from(grab.0),
                        i64::from(xy.1) - i64::from(grab.1),
                    )
                });
                if let (Some(a), Some(d)) = (self.area.as_ref(), d)
                    && let Some(moved) = a.shifted(d)
                {
                    outline(t, b, &moved, board_view::ACTION);
                }
                if !primary_down {
                    self.drag = None;
                    if let Some(d) = d.filter(|d| *d != (0, 0)) {
                        self.move_area(d, def, c, out);
                    }
                }
            }
            _ => {}
        }
        if let Some(a) = &self.area {
            outline(t, b, a, egui::Color32::WHITE);
        }
    }
}

impl BoardEditor {
    /// The inspector of a selected rectangle: what it holds, and buttons for what the keys do.
    pub(super) fn area_ui(
        &mut self,
        ui: &mut egui::Ui,
        a: Area,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        if a.is_free() {
            ui.strong(format!(
                "Selected: {}, within {},{} to {},{}",
                cells_n(a.count() as usize),
                a.x0,
                a.y0,
                a.x1,
                a.y1
            ));
        } else {
            ui.strong(format!(
                "Selected: {} x {} cells, {},{} to {},{}",
                a.w(),
                a.h(),
                a.x0,
                a.y0,
                a.x1,
                a.y1
            ));
        }
        let records = c.editor.grid_cells();
        let (mut tiles, mut named) = (0, 0);
        for xy in a.cells() {
            if let Some(r) = records.get(&xy) {
                tiles += usize::from(tile_of(r).is_some());
                named += usize::from(text_of(r, "id").is_some());
            }
        }
        ui.label(format!("{tiles} with a tile, {named} named."));
        ui.horizontal_wrapped(|ui| {
            if ui.button("Copy").on_hover_text("Ctrl+C").clicked() {
                self.copy_area(ui.ctx(), c);
            }
            if ui.button("Cut").on_hover_text("Ctrl+X").clicked() && self.copy_area(ui.ctx(), c) {
                self.clear_area("Cut", out);
            }
            let paste = ui
                .add_enabled(self.clip.is_some(), egui::Button::new("Paste here"))
                .on_hover_text(
                    "Ctrl+V pastes at the cell under the pointer; this, at the selection's corner",
                );
            if paste.clicked() {
                self.paste((a.x0, a.y0), def, c, out);
            }
            if ui.button("Empty").on_hover_text("Delete").clicked() {
                self.clear_area("Delete", out);
            }
            if ui
                .button("Use as stamp")
                .on_hover_text("Paint with every tile of the selection at once")
                .clicked()
            {
                self.take_stamp(c);
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (how, text, key) in [
                (Turn::Quarter, "Turn", "R"),
                (Turn::FlipAcross, "Flip across", "H"),
                (Turn::FlipDown, "Flip down", "V"),
            ] {
                if ui
                    .button(text)
                    .on_hover_text(format!("{} ({key})", how.words()))
                    .clicked()
                {
                    self.turn_area(how, def, c, out);
                }
            }
        });
        ui.label(
            egui::RichText::new(
                "Drag the selection from inside to move it; it lands whole, over what was there.",
            )
            .weak(),
        );
    }
}

/// A rectangle drawn round the cells of `a` (those on the board); round each of them, for a
/// free selection.
pub(super) fn outline(t: &Table, b: &Built, a: &Area, color: egui::Color32) {
    let rect_of = |x: u32, y: u32| {
        let s = b.board.cell(i64::from(x), i64::from(y))?;
        let p = t.places.get(s as usize).copied().flatten()?;
        Some(Rect::from_center_size(p.c, egui::Vec2::splat(p.r * 2.0)))
    };
    if a.is_free() {
        for (x, y) in a.cells() {
            if let Some(r) = rect_of(x, y) {
                t.painter.rect_filled(r, 2.0, color.gamma_multiply(0.18));
                t.painter.rect_stroke(
                    r.shrink(1.0),
                    2.0,
                    Stroke::new(2.0, color),
                    egui::StrokeKind::Inside,
                );
            }
        }
        return;
    }
    if let (Some(lo), Some(hi)) = (rect_of(a.x0, a.y0), rect_of(a.x1, a.y1)) {
        t.painter.rect_stroke(
            lo.union(hi),
            2.0,
            Stroke::new(3.0, color),
            egui::StrokeKind::Outside,
        );
    }
}
