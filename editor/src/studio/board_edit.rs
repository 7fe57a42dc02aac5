//! The board editor (the "Board" tab): the board view of the Play tab with a tool palette on
//! the left and an inspector on the right, for every board kind.
//!
//! - Grid (Curbside): paint tiles from the mod's own tiles onto cells (a stroke is one undo
//!   step), rotate the brush or a placed tile (R, Shift+R, or Shift+wheel), erase, name cells
//!   and tag them (the corner starts), and set the board's size.
//! - Graph (Critter Cab) and the spaces of a section (Taxi Derby): add spaces, drag them,
//!   connect two by dragging from one to the other, delete; a space's id, name, tags and
//!   properties and an edge's direction, cost and tags in the inspector.
//! - Sections: which sections make the city and their default order, the layout, and whether
//!   a game shuffles or turns them.
//! - Track (Dicey Curves): each piece's lanes, rows, turn, gates and tags, with a preview of
//!   the piece and of a sample track laid from the deck by the engine.
//!
//! The board drawn is the last version of the content the engine found valid, as a game would
//! start with it (sections in their default order, unturned). Edits go out as
//! [`Command::Edit`]s; a paint stroke or a drag is a group, so it undoes as one step. While an
//! edit is being checked, the cells painted by the stroke are drawn over the board at once.
//! Problems of the board file are marked on the space or cell they name.

use std::sync::Arc;

use eframe::egui::{self, Align2, Color32, Pos2, Rect, Sense, Stroke, Vec2};
use farebox::board::Board;
use farebox::content::def::{BoardDef, TrackPieceDef, TrackRole};
use farebox::game::View;
use farebox::rng::Rng;
use farebox::{Diagnostic, GameDef};

use super::board_view::{self, Camera, Scene, Table};
use super::content::{Content, record_key_at};
use super::edit::{EdgeChange, EdgeData, Edit, Gate, GraphAt, SpaceData, TrackChange};
use super::items::parse_value;
use super::{Command, Project};

/// What the left button does on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Pick a cell, space or edge to inspect; drag a space to move it.
    Select,
    /// Grid: paint the brush tile onto cells.
    Paint,
    /// Grid: take tiles off cells.
    Erase,
    /// Graph: a new space where the table is clicked.
    AddSpace,
    /// Graph: drag from one space to another to join them.
    Connect,
    /// Graph: delete the space or edge clicked.
    Delete,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Paint => "Paint",
            Tool::Erase => "Erase",
            Tool::AddSpace => "Add space",
            Tool::Connect => "Connect",
            Tool::Delete => "Delete",
        }
    }
    fn hint(self) -> &'static str {
        match self {
            Tool::Select => "Click a cell, space or road to inspect it; drag a space to move it.",
            Tool::Paint => "Click or drag over cells to lay the brush tile. R turns it.",
            Tool::Erase => "Click or drag over cells to take their tiles off.",
            Tool::AddSpace => "Click the table where the new space goes.",
            Tool::Connect => "Drag from one space to another to join them by a road.",
            Tool::Delete => "Click a space or a road to delete it.",
        }
    }
}

/// What the inspector shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    Cell(u32, u32),
    Space {
        at: GraphAt,
        id: String,
    },
    Edge {
        at: GraphAt,
        from: String,
        to: String,
    },
}

/// A cell a stroke painted: x, y, and the tile with its quarter turns (none: erased).
type Painted = (u32, u32, Option<(String, u8)>);

/// A drag under way on the board.
enum Drag {
    /// A paint or erase stroke: the cells done so far.
    Stroke,
    /// A space being moved: where the pointer took it.
    Move { at: GraphAt, id: String, index: u32 },
    /// A road being drawn from a space.
    Connect {
        at: GraphAt,
        from: String,
        index: u32,
    },
}

/// The board drawn, and what it was built from.
struct Built {
    def: Arc<GameDef>,
    /// The track sample's seed and the piece previewed (track boards).
    sample: (u64, Option<String>),
    board: Board,
    /// Sections boards: each section's id, its first space, its number of spaces and its
    /// square's top-left corner, in the default arrangement.
    sections: Vec<(String, u32, u32, (f64, f64))>,
    /// Track boards: what laying the sample did.
    track_note: Option<String>,
    view: View,
}

/// The Board tab.
pub struct BoardEditor {
    camera: Camera,
    pub tool: Tool,
    /// The tile the Paint tool lays, and its quarter turns.
    pub brush: Option<String>,
    pub rotation: u8,
    pub selection: Option<Selection>,
    drag: Option<Drag>,
    /// Cells painted by strokes whose edits the engine has not checked yet: (x, y, tile
    /// and turns), drawn over the board until it has.
    pending: Vec<Painted>,
    built: Option<Built>,
    /// Sections: the section new spaces go into when the table is clicked outside any.
    /// Track: the piece being edited.
    pub piece: Option<String>,
    /// Track: show the sample track (else the piece alone).
    pub sample: bool,
    sample_seed: u64,
    /// A text field being typed into: (what, text), written when it is left.
    typing: Option<(String, String)>,
    /// A new property's key and value being typed.
    new_prop: (String, String),
    message: Option<String>,
    /// Shift+wheel turning not yet a quarter turn.
    wheel: f32,
}

impl Default for BoardEditor {
    fn default() -> Self {
        BoardEditor {
            camera: Camera::default(),
            tool: Tool::Select,
            brush: None,
            rotation: 0,
            selection: None,
            drag: None,
            pending: Vec::new(),
            built: None,
            piece: None,
            sample: true,
            sample_seed: 1,
            typing: None,
            new_prop: (String::new(), String::new()),
            message: None,
            wheel: 0.0,
        }
    }
}

/// The tools each board kind offers.
fn tools(kind: &str) -> &'static [Tool] {
    match kind {
        "grid" => &[Tool::Select, Tool::Paint, Tool::Erase],
        "graph" | "sections" => &[Tool::Select, Tool::AddSpace, Tool::Connect, Tool::Delete],
        _ => &[Tool::Select],
    }
}

impl BoardEditor {
    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project, c: &Content, out: &mut Vec<Command>) {
        let Some(def) = p.def.clone() else {
            ui.label("The mod has not loaded yet.");
            return;
        };
        if matches!(def.board, BoardDef::None) {
            ui.label(
                "This game has no board: its table is its zones of cards. Edit the cards in Decks & tables.",
            );
            return;
        }
        self.rebuild(&def);
        // Every edit checked: the engine's board shows what the strokes painted (or, if the
        // content is broken, the last good version, which is the truth to show).
        if self.drag.is_none() && !c.checking() {
            self.pending.clear();
        }
        let kind = def.board.kind_name();
        if !tools(kind).contains(&self.tool) {
            self.tool = Tool::Select;
        }
        self.keys(ui, &def, out);
        let board_rel = board_file(c);
        let problems: Vec<Diagnostic> = board_rel
            .as_deref()
            .map(|rel| c.problems_in(rel).into_iter().cloned().collect())
            .unwrap_or_default();

        egui::Panel::left("board-tools")
            .resizable(true)
            .default_size(224.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.tools_ui(ui, &def, out));
            });
        egui::Panel::right("board-inspector")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.inspector_ui(ui, &def, c, board_rel.as_deref(), out)
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(m) = c.message.as_ref().or(self.message.as_ref()) {
                ui.colored_label(ui.visuals().warn_fg_color, m);
            }
            if !problems.is_empty() {
                let n = problems.len();
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!(
                        "The edited board has {n} {}; the board below is the last good version. Marked in red where they point at a space or cell.",
                        crate::common::plural(n, "problem")
                    ),
                );
                for d in problems.iter().take(4) {
                    ui.label(
                        egui::RichText::new(format!("line {}: {}", d.line, d.message))
                            .color(ui.visuals().error_fg_color),
                    );
                }
            }
            ui.label(egui::RichText::new(self.tool.hint()).weak());
            self.table_ui(ui, &def, c, board_rel.as_deref(), out);
        });
    }

    /// Builds the board drawn when the live definition or the track sample changed.
    fn rebuild(&mut self, def: &Arc<GameDef>) {
        let sample = (
            self.sample_seed,
            (!self.sample).then(|| self.piece.clone()).flatten(),
        );
        if let Some(b) = &self.built
            && Arc::ptr_eq(&b.def, def)
            && b.sample == sample
        {
            return;
        }
        let mut board_def = def.board.clone();
        if let BoardDef::Sections(s) = &mut board_def {
            s.shuffle = false;
            s.rotate = false;
            s.shuffle_option = None;
            s.rotate_option = None;
        }
        let mut rng = Rng::new(sample.0, 0);
        let mut board = Board::new(&board_def, &def.tiles, &Default::default(), &mut rng);
        let mut sections = Vec::new();
        if let BoardDef::Sections(s) = &board_def {
            let mut first = 0u32;
            let cols = s.columns.max(1);
            for (slot, &(si, _)) in board.arrangement.iter().enumerate() {
                let Some(sec) = s.sections.get(si as usize) else {
                    continue;
                };
                let n = sec.graph.spaces.len() as u32;
                let corner = (
                    (slot as u32 % cols) as f64 * s.size,
                    (slot as u32 / cols) as f64 * s.size,
                );
                sections.push((sec.id.clone(), first, n, corner));
                first += n;
            }
        }
        let track_note = match &board_def {
            BoardDef::Track(t) => Some(match &sample.1 {
                Some(id) => preview_piece(&mut board, t.pieces.as_slice(), id),
                None => sample_track(&mut board, def, t.pieces.as_slice(), &mut rng),
            }),
            _ => None,
        };
        let view = View {
            seat: None,
            seats: def.seat_names.len() as u8,
            active: 0,
            turn: 0,
            counters: vec![],
            vars: Default::default(),
            zones: vec![],
            pieces: vec![],
            tiles: None,
            log: vec![],
            result: None,
        };
        self.built = Some(Built {
            def: def.clone(),
            sample,
            board,
            sections,
            track_note,
            view,
        });
    }

    /// Keys: R and Shift+R turn the brush (or the selected cell's tile), Delete deletes the
    /// selection, Escape drops it. Not while a text field has the keyboard.
    fn keys(&mut self, ui: &egui::Ui, def: &GameDef, out: &mut Vec<Command>) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (r, shift, del, esc) = ui.input(|i| {
            (
                i.key_pressed(egui::Key::R),
                i.modifiers.shift,
                i.key_pressed(egui::Key::Delete) || i.key_pressed(egui::Key::Backspace),
                i.key_pressed(egui::Key::Escape),
            )
        });
        if r {
            self.turn(if shift { 3 } else { 1 }, def, out);
        }
        if esc {
            self.selection = None;
        }
        if del
            && let Some(s) = self.selection.take()
            && let Some(e) = delete_edit(&s)
        {
            out.push(Command::Edit(e));
        }
    }

    /// Turns the brush by `q` quarter turns; with the Select tool and a cell with a tile
    /// selected, turns that tile instead.
    fn turn(&mut self, q: u8, def: &GameDef, out: &mut Vec<Command>) {
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

    fn tools_ui(&mut self, ui: &mut egui::Ui, def: &GameDef, out: &mut Vec<Command>) {
        let kind = def.board.kind_name();
        ui.heading("Tools");
        for &t in tools(kind) {
            if ui
                .selectable_label(self.tool == t, t.name())
                .on_hover_text(t.hint())
                .clicked()
            {
                self.tool = t;
                self.drag = None;
            }
        }
        ui.label(egui::RichText::new("Right-drag pans, the wheel zooms.").weak());
        match &def.board {
            BoardDef::Grid(_) => self.palette_ui(ui, def, out),
            BoardDef::Sections(s) => {
                ui.separator();
                ui.heading("Sections");
                sections_ui(ui, s, out);
            }
            BoardDef::Track(t) => {
                ui.separator();
                ui.heading("Track pieces");
                for piece in &t.pieces {
                    let on = self.piece.as_deref() == Some(piece.id.as_str());
                    let label = format!("{} ({})", piece.name, piece.id);
                    if ui.selectable_label(on, label).clicked() {
                        self.piece = Some(piece.id.clone());
                    }
                }
            }
            _ => {}
        }
    }

    /// The tiles to paint with, each drawn as it lies, and the brush's turn.
    fn palette_ui(&mut self, ui: &mut egui::Ui, def: &GameDef, out: &mut Vec<Command>) {
        ui.separator();
        ui.heading("Tiles");
        let tiles: Vec<_> = def.tiles.iter().filter(|t| !t.blocks).collect();
        if tiles.is_empty() {
            ui.label("The mod has no road tiles to paint with.");
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

    /// The board, with the tool working on it.
    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &Arc<GameDef>,
        c: &Content,
        board_rel: Option<&str>,
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
        let brush = self.brush_tile(def);
        let pending = self.pending.clone();
        let table = board_view::show_editing(ui, &mut self.camera, &scene, |t| {
            draw_marks(t, &built, def, &marked, sel, &pending);
            if let Some((a, z)) = sel_edge
                && let (Some(a), Some(z)) = (t.places[a as usize], t.places[z as usize])
            {
                t.painter
                    .line_segment([a.c, z.c], Stroke::new(5.0, Color32::WHITE));
            }
        });
        if let Some(t) = table {
            self.pointer(ui, &t, &built, def, brush, out);
        }
        self.built = Some(built);
    }

    /// The brush as (tile id, turns), for the Paint tool.
    fn brush_tile(&self, def: &GameDef) -> Option<(String, u8)> {
        let id = self.brush.clone()?;
        let t = def.tile(&id).and_then(|i| def.tiles.get(i))?;
        Some((id, if t.rotatable { self.rotation } else { 0 }))
    }

    /// The space the selection is (its index in the board drawn).
    fn selection_space(&self, b: &Built) -> Option<u32> {
        match &self.selection {
            Some(Selection::Cell(x, y)) => b.board.cell(*x as i64, *y as i64),
            Some(Selection::Space { at, id }) => space_index(b, at, id),
            _ => None,
        }
    }

    /// What the pointer does on the table with the current tool.
    fn pointer(
        &mut self,
        ui: &egui::Ui,
        t: &Table,
        b: &Built,
        def: &GameDef,
        brush: Option<(String, u8)>,
        out: &mut Vec<Command>,
    ) {
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

        // Ghost of the brush over the cell under the pointer.
        if grid
            && let (Some(s), Some(place)) = (space, space.and_then(|s| t.places[s as usize]))
            && matches!(self.tool, Tool::Paint | Tool::Erase)
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

        match self.tool {
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
                if r.clicked()
                    && let Some(s) = space
                    && let Some((x, y)) = b.board.xy(s)
                {
                    self.selection = Some(Selection::Cell(x as u32, y as u32));
                }
            }
            Tool::Select => self.select_or_move(ui, t, b, space, over, started, primary_down, out),
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

    #[allow(clippy::too_many_arguments)]
    fn select_or_move(
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
        if started {
            match space.and_then(|s| space_ref(b, s).map(|r| (s, r))) {
                Some((s, (at, id))) => {
                    self.selection = Some(Selection::Space {
                        at: at.clone(),
                        id: id.clone(),
                    });
                    self.drag = Some(Drag::Move { at, id, index: s });
                }
                None => {
                    self.selection = over.and_then(|p| edge_at(t, b, p));
                }
            }
        }
        let Some(Drag::Move { at, id, index }) = &self.drag else {
            return;
        };
        let Some(p) = ui.ctx().pointer_latest_pos() else {
            return;
        };
        let Some(place) = t.places.get(*index as usize).copied().flatten() else {
            self.drag = None;
            return;
        };
        let moved = p.distance(place.c) > 3.0;
        if primary_down {
            if moved {
                // Where it is going, until the engine's board has it there.
                t.painter.line_segment(
                    [place.c, p],
                    Stroke::new(2.0, Color32::from_white_alpha(120)),
                );
                t.painter
                    .circle_filled(p, place.r, board_view::ACTION.gamma_multiply(0.6));
            }
            return;
        }
        if moved {
            let (x, y) = local_point(b, at, t.xf.board(p));
            let step = snap_step(b);
            out.push(Command::Edit(Edit::MoveSpace {
                at: at.clone(),
                id: id.clone(),
                x: snap(x, step),
                y: snap(y, step),
            }));
            out.push(Command::SealEdit);
        }
        self.drag = None;
    }

    fn add_space(&mut self, t: &Table, b: &Built, p: Pos2, out: &mut Vec<Command>) {
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

    /// The inspector: what is selected, and the board's own settings.
    fn inspector_ui(
        &mut self,
        ui: &mut egui::Ui,
        def: &GameDef,
        c: &Content,
        board_rel: Option<&str>,
        out: &mut Vec<Command>,
    ) {
        ui.heading("Inspector");
        if let Some(rel) = board_rel {
            let mod_id = &c.editor.docs().open_mod().id;
            ui.label(egui::RichText::new(format!("Board file: {rel} ({mod_id})")).weak());
        }
        let problems_here = |key: &str, id: &str| -> Vec<String> {
            board_rel
                .map(|rel| {
                    c.problems_of(rel, key, id)
                        .into_iter()
                        .map(|d| format!("line {}: {}", d.line, d.message))
                        .collect()
                })
                .unwrap_or_default()
        };
        match (&def.board, self.selection.clone()) {
            (BoardDef::Grid(g), sel) => {
                if let Some(Selection::Cell(x, y)) = sel {
                    ui.separator();
                    self.cell_ui(ui, def, g, x, y, c, board_rel, out);
                }
                ui.separator();
                self.grid_size_ui(ui, g.width, g.height, out);
            }
            (_, Some(Selection::Space { at, id })) => {
                ui.separator();
                for p in problems_here("id", &id) {
                    ui.colored_label(ui.visuals().error_fg_color, p);
                }
                self.space_ui(ui, def, &at, &id, out);
            }
            (_, Some(Selection::Edge { at, from, to })) => {
                ui.separator();
                self.edge_ui(ui, def, &at, &from, &to, out);
            }
            (BoardDef::Track(t), _) => {
                ui.separator();
                self.track_ui(ui, t.pieces.as_slice(), out);
            }
            _ => {
                ui.label("Select a space or a road on the board.");
            }
        }
    }

    /// A text field written when it is left (or Enter is pressed): what was typed, then.
    fn field(&mut self, ui: &mut egui::Ui, key: &str, shown: &str, width: f32) -> Option<String> {
        let typing = matches!(&self.typing, Some((k, _)) if k == key);
        let mut text = match (&self.typing, typing) {
            (Some((_, t)), true) => t.clone(),
            _ => shown.to_string(),
        };
        let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(width));
        if r.changed() {
            self.typing = Some((key.to_string(), text.clone()));
        }
        (r.lost_focus() && typing).then(|| {
            self.typing = None;
            text
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn cell_ui(
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

    fn grid_size_ui(&mut self, ui: &mut egui::Ui, w: u32, h: u32, out: &mut Vec<Command>) {
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
    }

    fn space_ui(
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

    fn edge_ui(
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

    /// The track piece being edited, and the choice of preview.
    fn track_ui(&mut self, ui: &mut egui::Ui, pieces: &[TrackPieceDef], out: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.sample, true, "Sample track");
            ui.selectable_value(&mut self.sample, false, "This piece alone");
            if self.sample && ui.button("Another sample").clicked() {
                self.sample_seed += 1;
            }
        });
        if self
            .piece
            .as_ref()
            .is_none_or(|id| !pieces.iter().any(|p| &p.id == id))
        {
            self.piece = pieces.first().map(|p| p.id.clone());
        }
        let Some(piece) = self
            .piece
            .as_ref()
            .and_then(|id| pieces.iter().find(|p| &p.id == id))
        else {
            ui.label("The board has no track pieces.");
            return;
        };
        let id = piece.id.clone();
        let set = |change: TrackChange, out: &mut Vec<Command>| {
            out.push(Command::Edit(Edit::SetTrackPiece {
                id: id.clone(),
                change,
            }))
        };
        ui.strong(format!("Piece {}", piece.id));
        egui::Grid::new("piece-fields")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Name");
                if let Some(text) = self.field(ui, &format!("piece-name {id}"), &piece.name, 160.0)
                {
                    set(TrackChange::Name(text), out);
                }
                ui.end_row();
                ui.label("Lanes");
                let mut lanes = piece.lanes;
                if ui
                    .add(egui::DragValue::new(&mut lanes).range(1..=6))
                    .changed()
                {
                    set(TrackChange::Lanes(lanes), out);
                }
                ui.end_row();
                ui.label("Rows");
                let mut rows = piece.rows;
                if ui
                    .add(egui::DragValue::new(&mut rows).range(1..=6))
                    .changed()
                {
                    set(TrackChange::Rows(rows), out);
                }
                ui.end_row();
                ui.label("Turn");
                let mut turn = piece.turn;
                egui::ComboBox::from_id_salt("piece-turn")
                    .selected_text(turn_name(turn))
                    .show_ui(ui, |ui| {
                        for t in [-90, -45, 0, 45, 90] {
                            ui.selectable_value(&mut turn, t, turn_name(t));
                        }
                    });
                if turn != piece.turn {
                    set(TrackChange::Turn(turn), out);
                }
                ui.end_row();
                ui.label("Tags");
                if let Some(text) = self.field(
                    ui,
                    &format!("piece-tags {id}"),
                    &piece.tags.join(", "),
                    160.0,
                ) {
                    set(TrackChange::Tags(split_list(&text)), out);
                }
                ui.end_row();
            });
        ui.strong("Gates at the exit");
        let gates: Vec<Gate> = piece
            .gates
            .iter()
            .map(|(lanes, size)| Gate {
                lanes: lanes.clone(),
                size: *size,
            })
            .collect();
        let mut changed = None;
        for (i, g) in gates.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.label("lanes");
                let shown = g
                    .lanes
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                if let Some(text) = self.field(ui, &format!("gate-lanes {id} {i}"), &shown, 60.0) {
                    let lanes: Option<Vec<u32>> =
                        split_list(&text).iter().map(|s| s.parse().ok()).collect();
                    match lanes {
                        Some(l) if !l.is_empty() && l.iter().all(|&n| n < piece.lanes) => {
                            let mut next = gates.clone();
                            next[i].lanes = l;
                            changed = Some(next);
                        }
                        _ => {
                            self.message = Some(format!(
                                "Gate lanes are lane numbers from 0 to {}, e.g. 0, 1",
                                piece.lanes.saturating_sub(1)
                            ))
                        }
                    }
                }
                ui.label("dice");
                let mut size = g.size;
                if ui
                    .add(egui::DragValue::new(&mut size).range(1..=10))
                    .changed()
                {
                    let mut next = gates.clone();
                    next[i].size = size;
                    changed = Some(next);
                }
                if ui
                    .small_button("✖")
                    .on_hover_text("Take this gate out")
                    .clicked()
                {
                    let mut next = gates.clone();
                    next.remove(i);
                    changed = Some(next);
                }
            });
        }
        if ui.button("Add a gate").clicked() {
            let taken: Vec<u32> = gates.iter().flat_map(|g| g.lanes.clone()).collect();
            let free = (0..piece.lanes).find(|l| !taken.contains(l));
            match free {
                Some(l) => {
                    let mut next = gates.clone();
                    next.push(Gate {
                        lanes: vec![l],
                        size: 2,
                    });
                    changed = Some(next);
                }
                None => self.message = Some("Every lane already has a gate.".into()),
            }
        }
        if let Some(next) = changed {
            set(TrackChange::Gates(next), out);
        }
        ui.label(
            egui::RichText::new(
                "Lane 0 is the leftmost lane seen by a driver heading for the exit. A gate asks for a combo of exactly its number of dice.",
            )
            .weak(),
        );
    }
}

/// The sections of the city, in their default order, with the layout and setup flags.
fn sections_ui(ui: &mut egui::Ui, s: &farebox::content::def::SectionsDef, out: &mut Vec<Command>) {
    let n = s.sections.len();
    for (i, sec) in s.sections.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("{}. {}", i + 1, sec.name));
            if i > 0
                && ui
                    .small_button("⬆")
                    .on_hover_text("Earlier in the city")
                    .clicked()
            {
                out.push(Command::Edit(Edit::MoveSection {
                    id: sec.id.clone(),
                    to: i - 1,
                }));
            }
            if i + 1 < n
                && ui
                    .small_button("⬇")
                    .on_hover_text("Later in the city")
                    .clicked()
            {
                out.push(Command::Edit(Edit::MoveSection {
                    id: sec.id.clone(),
                    to: i + 1,
                }));
            }
            if ui
                .small_button("✖")
                .on_hover_text("Delete this section")
                .clicked()
            {
                out.push(Command::Edit(Edit::DeleteSection { id: sec.id.clone() }));
            }
        });
    }
    if ui.button("Add a section").clicked() {
        let id = (n + 1..)
            .map(|k| format!("section-{k}"))
            .find(|id| !s.sections.iter().any(|sec| &sec.id == id))
            .unwrap_or_default();
        out.push(Command::Edit(Edit::AddSection {
            name: format!("Section {}", n + 1),
            id,
        }));
    }
    ui.horizontal(|ui| {
        ui.label("Layout");
        let (mut cols, mut rows) = (s.columns, s.rows);
        let a = ui
            .add(egui::DragValue::new(&mut cols).range(1..=8))
            .on_hover_text("columns");
        ui.label("x");
        let b = ui
            .add(egui::DragValue::new(&mut rows).range(1..=8))
            .on_hover_text("rows");
        if (a.changed() || b.changed()) && (cols, rows) != (s.columns, s.rows) {
            out.push(Command::Edit(Edit::SetSectionsLayout {
                columns: cols,
                rows,
            }));
        }
    });
    let mut shuffle = s.shuffle;
    if ui
        .checkbox(&mut shuffle, "Shuffle the order for each game")
        .changed()
    {
        out.push(Command::Edit(Edit::SetSectionsShuffle(shuffle)));
    }
    let mut rotate = s.rotate;
    if ui
        .checkbox(&mut rotate, "Turn each section at random")
        .changed()
    {
        out.push(Command::Edit(Edit::SetSectionsRotate(rotate)));
    }
    if s.shuffle_option.is_some() || s.rotate_option.is_some() {
        ui.label(
            egui::RichText::new("Game options may override these two when a game starts.").weak(),
        );
    }
    ui.label(egui::RichText::new("The board shows the default order, unturned.").weak());
}

fn turn_name(t: i32) -> String {
    match t {
        0 => "straight".into(),
        t if t < 0 => format!("{}° left", -t),
        t => format!("{t}° right"),
    }
}

/// Lays one piece alone, for its preview.
fn preview_piece(board: &mut Board, pieces: &[TrackPieceDef], id: &str) -> String {
    let Some((i, piece)) = pieces.iter().enumerate().find(|(_, p)| p.id == id) else {
        return format!("No piece `{id}`");
    };
    if let Some(t) = board.track.as_mut() {
        t.table = (3.0, 3.0);
    }
    match board.attach_track(i, piece) {
        Ok(_) => format!("{}: {} lanes, {} rows", piece.name, piece.lanes, piece.rows),
        Err(e) => format!("{} cannot be laid: {}", piece.name, e.word()),
    }
}

/// Lays a sample track: the start (where the board puts it), then the deck's other cards in
/// a seeded shuffle, each laid where it fits (the engine's own check) and left out where it
/// does not, the finish last. Says how it went.
fn sample_track(
    board: &mut Board,
    def: &GameDef,
    pieces: &[TrackPieceDef],
    rng: &mut Rng,
) -> String {
    // The deck whose cards name track pieces, each card as many times as its count.
    let mut cards: Vec<usize> = Vec::new();
    for deck in &def.decks {
        let Some(field) = deck
            .fields
            .iter()
            .find(|f| f.to.as_deref() == Some("track-pieces"))
        else {
            continue;
        };
        for card in &deck.cards {
            let piece = card
                .fields
                .get(&field.name)
                .and_then(|v| v.as_str())
                .and_then(|id| pieces.iter().position(|p| p.id == id));
            if let Some(pi) = piece {
                for _ in 0..card.count.max(1) {
                    cards.push(pi);
                }
            }
        }
    }
    if cards.is_empty() {
        cards = (0..pieces.len()).collect();
    }
    let role = |i: usize| pieces.get(i).map(|p| p.role);
    let start = cards
        .iter()
        .position(|&i| role(i) == Some(TrackRole::Start));
    let finish = cards
        .iter()
        .position(|&i| role(i) == Some(TrackRole::Finish));
    let mut middle: Vec<usize> = cards
        .iter()
        .copied()
        .filter(|&i| !matches!(role(i), Some(TrackRole::Start | TrackRole::Finish)))
        .collect();
    rng.shuffle(&mut middle);
    let mut order: Vec<usize> = start.map(|s| cards[s]).into_iter().collect();
    order.extend(middle);
    order.extend(finish.map(|f| cards[f]));
    let (mut laid, mut left) = (0, 0);
    let mut finished = false;
    let mut forced = false;
    for i in order {
        let Some(piece) = pieces.get(i) else { continue };
        let finish = piece.role == TrackRole::Finish;
        // The Finish is laid even where it does not fit, as Dicey Curves' rules do (DC-T1).
        match board.lay_track(i, piece, finish) {
            Ok((_, why)) => {
                laid += 1;
                finished |= finish;
                forced |= why.is_some();
            }
            Err(_) => left += 1,
        }
    }
    format!(
        "Sample track: {laid} cards laid, {left} did not fit{}",
        if finished && forced {
            ", the finish laid although it did not fit"
        } else if finished {
            ", the finish reached"
        } else if finish.is_some() {
            ", the finish did not fit"
        } else {
            ""
        }
    )
}

/// The graph and id of the space at index `s` of the board drawn.
fn space_ref(b: &Built, s: u32) -> Option<(GraphAt, String)> {
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

fn space_index(b: &Built, at: &GraphAt, id: &str) -> Option<u32> {
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
fn local_point(b: &Built, at: &GraphAt, (x, y): (f64, f64)) -> (f64, f64) {
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
fn snap_step(b: &Built) -> f64 {
    let sp = &b.board.graph.spaces;
    let (lo, hi) = sp.iter().fold((f64::MAX, f64::MIN), |(lo, hi), s| {
        (lo.min(s.x.min(s.y)), hi.max(s.x.max(s.y)))
    });
    let span = if hi > lo { hi - lo } else { 10.0 };
    10f64.powf((span / 200.0).log10().floor())
}

fn snap(v: f64, step: f64) -> f64 {
    let r = (v / step).round() * step;
    // Keep the written number short: 120.0, 2.35.
    (r * 1e6).round() / 1e6
}

/// The road under a screen point (a graph's own edge, or one inside a section).
fn edge_at(t: &Table, b: &Built, p: Pos2) -> Option<Selection> {
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

fn segment_distance(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let len = ab.length_sq();
    if len < 1e-6 {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

fn delete_edit(s: &Selection) -> Option<Edit> {
    match s {
        Selection::Space { at, id } => Some(Edit::DeleteSpace {
            at: at.clone(),
            id: id.clone(),
        }),
        Selection::Edge { at, from, to } => Some(Edit::DeleteEdge {
            at: at.clone(),
            from: from.clone(),
            to: to.clone(),
        }),
        Selection::Cell(x, y) => Some(Edit::SetCellTile {
            x: *x,
            y: *y,
            tile: None,
            rotation: 0,
        }),
    }
}

fn space_def<'d>(
    def: &'d GameDef,
    at: &GraphAt,
    id: &str,
) -> Option<&'d farebox::content::def::SpaceDef> {
    graph_def(def, at)?.spaces.iter().find(|s| s.id == id)
}

fn graph_def<'d>(def: &'d GameDef, at: &GraphAt) -> Option<&'d farebox::content::def::GraphDef> {
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

fn edge_def<'d>(
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

/// The open mod's board file, else the one it inherits.
fn board_file(c: &Content) -> Option<String> {
    let docs = c.editor.docs();
    docs.open_mod().content("board").into_iter().next()
}

/// The problems of the newest check that point at the grid cell `x`, `y`.
fn cell_problems<'c>(c: &'c Content, rel: &str, x: u32, y: u32) -> Vec<&'c Diagnostic> {
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
fn marked_spaces(c: &Content, rel: &str, b: &Built) -> Vec<u32> {
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
fn draw_marks(
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
                t.painter.rect_filled(rect, 2.0, super::board_view::PAPER);
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

/// "a, b ,c" as a list, empty entries left out.
fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_split_at_commas() {
        assert_eq!(
            split_list(" a, ,b "),
            vec!["a".to_string(), "b".to_string()]
        );
    }

    #[test]
    fn positions_snap_to_the_board_scale() {
        assert_eq!(snap(123.456, 1.0), 123.0);
        assert_eq!(snap(2.3456, 0.01), 2.35);
        let p = segment_distance(
            Pos2::new(5.0, 3.0),
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
        );
        assert!((p - 3.0).abs() < 1e-4);
    }
}
