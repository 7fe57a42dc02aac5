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

mod area;
mod canvas;
mod finder;
mod free;
mod graph;
mod grid;
mod keys;
mod multi;
mod overlay;
mod pick;
mod sections;
mod spaces;
mod start;
mod track;

use std::sync::Arc;

use eframe::egui;
use farebox::board::Board;
use farebox::content::def::BoardDef;
use farebox::game::View;
use farebox::rng::Rng;
use farebox::{Diagnostic, GameDef};

use super::board_view::Camera;
use super::content::Content;
use super::{Command, Project};
use crate::edit::{Edit, GraphAt};
use sections::sections_ui;
use track::{preview_piece, sample_track};

pub use overlay::{PlayRun, ShowPlay};

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
    /// Grid: the brush tile over every cell joined to the one clicked that holds what it
    /// holds.
    Fill,
    /// Grid: the eyedropper; the tile of the cell clicked becomes the brush.
    Pick,
    /// Grid: a free line drawn round cells selects them.
    Lasso,
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
            Tool::Fill => "Fill",
            Tool::Pick => "Pick a tile",
            Tool::Lasso => "Lasso",
        }
    }
    fn hint(self) -> &'static str {
        match self {
            Tool::Select => {
                "Click a cell, space or road to inspect it. Spaces: Shift+click or drag a box to pick several, drag one to move them all. Cells: drag to select a rectangle, drag it from inside to move it. F1 lists the keys."
            }
            Tool::Paint => "Click or drag over cells to lay the brush tile. R turns it.",
            Tool::Erase => "Click or drag over cells to take their tiles off.",
            Tool::AddSpace => "Click the table where the new space goes.",
            Tool::Connect => "Drag from one space to another to join them by a road.",
            Tool::Delete => "Click a space or a road to delete it.",
            Tool::Fill => {
                "Click a cell: it and every cell joined to it side by side that holds the same tile (or none) get the brush tile."
            }
            Tool::Pick => "Click a cell to take up its tile, as it is turned, as the brush.",
            Tool::Lasso => {
                "Draw round cells to select them (Shift adds to the selection). With Select, Ctrl+click adds or takes out one cell."
            }
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
    /// The picked spaces being moved: where the pointer took them, and the space it took
    /// them by.
    MoveMany { from: egui::Pos2, grab: u32 },
    /// A box being dragged over the table from this point, to pick the spaces in it (`add`:
    /// to those picked already, with Shift).
    Boxing { from: egui::Pos2, add: bool },
    /// Grid: a rectangle being marked from this cell.
    Area { anchor: (u32, u32) },
    /// Grid: the marked rectangle being moved, taken at this cell.
    MoveArea { grab: (u32, u32) },
    /// Grid: a free line being drawn round cells (`add`: to the selection, with Shift).
    Lasso { points: Vec<egui::Pos2>, add: bool },
    /// Grid: a stroke of the stamp from the cell `anchor`; `last`, where it was laid last.
    Stamp {
        anchor: (u32, u32),
        last: Option<(u32, u32)>,
    },
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
    /// A mod without a board: the kind of board to add, and a grid's size.
    pub start: start::StartForm,
    /// Grid: the rectangle of cells selected (with Select, by dragging), and the cells copied.
    pub area: Option<area::Area>,
    clip: Option<area::Clip>,
    /// Grid: the tiles the Paint tool lays at once, taken up from a selection.
    stamp: Option<area::Clip>,
    /// The list of keys is shown (F1 or ?).
    pub help: bool,
    /// Grid: the cell under the pointer last frame (where Ctrl+V pastes).
    hover_cell: Option<(u32, u32)>,
    /// What the "Show play" overlay colours the board by.
    pub show_play: ShowPlay,
    /// Maps and sections: the spaces picked together (two or more; one is `selection`).
    pub picked: Vec<spaces::Picked>,
    /// Spaces copied with their roads.
    space_clip: Option<spaces::SpaceClip>,
    /// Maps and sections: snapping to a grid while dragging (on, and the step in board
    /// units; 0 until the board's own is worked out).
    pub snap: (bool, f64),
    /// What the Find field holds.
    pub find: String,
    /// A card's or row's field being set by clicking spaces.
    pub pick: Option<crate::studio::PickSpace>,
    /// The board point under the pointer last frame (where Ctrl+V pastes spaces).
    hover_board: Option<(f64, f64)>,
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
            start: start::StartForm::default(),
            area: None,
            clip: None,
            stamp: None,
            help: false,
            hover_cell: None,
            show_play: ShowPlay::Off,
            picked: Vec::new(),
            space_clip: None,
            snap: (false, 0.0),
            hover_board: None,
            find: String::new(),
            pick: None,
        }
    }
}

/// The tools each board kind offers.
fn tools(kind: &str) -> &'static [Tool] {
    match kind {
        "grid" => &[
            Tool::Select,
            Tool::Paint,
            Tool::Erase,
            Tool::Fill,
            Tool::Pick,
            Tool::Lasso,
        ],
        "graph" | "sections" => &[Tool::Select, Tool::AddSpace, Tool::Connect, Tool::Delete],
        _ => &[Tool::Select],
    }
}

impl BoardEditor {
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        p: &Project,
        c: &Content,
        play: &PlayRun,
        out: &mut Vec<Command>,
    ) {
        let Some(def) = p.def.clone() else {
            ui.label("The mod has not loaded yet.");
            return;
        };
        if matches!(def.board, BoardDef::None) {
            egui::ScrollArea::vertical().show(ui, |ui| self.start_ui(ui, c, out));
            return;
        }
        self.rebuild(&def);
        // Every edit checked: the engine's board shows what the strokes painted (or, if the
        // content is broken, the last good version, which is the truth to show).
        if self.drag.is_none() && !c.checking() {
            self.pending.clear();
        }
        // A selected rectangle that is no longer all on the grid (it shrank) is dropped.
        if let (BoardDef::Grid(g), Some(a)) = (&def.board, self.area.as_ref())
            && (a.x1 > g.width || a.y1 > g.height)
        {
            self.area = None;
        }
        // A single selection made elsewhere (a click, a new space) ends a pick of several.
        if self.picked.len() > 1 && self.selection.is_some() {
            self.picked.clear();
        }
        let kind = def.board.kind_name();
        if !tools(kind).contains(&self.tool) {
            self.tool = Tool::Select;
        }
        self.keys(ui, &def, c, out);
        let board_rel = board_file(c);
        let problems: Vec<Diagnostic> = board_rel
            .as_deref()
            .map(|rel| c.problems_in(rel).into_iter().cloned().collect())
            .unwrap_or_default();

        egui::Panel::left("board-tools")
            .resizable(true)
            .default_size(224.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.tools_ui(ui, &def, out);
                    if matches!(
                        def.board,
                        BoardDef::Grid(_) | BoardDef::Graph(_) | BoardDef::Sections(_)
                    ) {
                        self.find_ui(ui, &def);
                    }
                    overlay::control_ui(ui, &mut self.show_play, play, kind, out);
                });
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
            self.pick_banner(ui, out);
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
            let shown = play.figures.filter(|_| play.current);
            let overlay = shown.map(|f| (self.show_play, f, play.mean_win));
            self.table_ui(ui, &def, c, board_rel.as_deref(), overlay, out);
        });
        self.help_ui(ui.ctx());
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
        if ui.button("Keys (F1)").clicked() {
            self.help = !self.help;
        }
        match &def.board {
            BoardDef::Grid(_) => {
                self.stamp_ui(ui);
                self.palette_ui(ui, def, out);
            }
            BoardDef::Sections(s) => {
                self.snap_ui(ui);
                ui.separator();
                ui.heading("Sections");
                sections_ui(ui, s, out);
            }
            BoardDef::Graph(_) => self.snap_ui(ui),
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
                if let Some(a) = self.area.clone().filter(|a| a.count() > 1) {
                    ui.separator();
                    self.area_ui(ui, a, def, c, out);
                } else if let Some(Selection::Cell(x, y)) = sel {
                    ui.separator();
                    self.cell_ui(ui, def, g, x, y, c, board_rel, out);
                }
                ui.separator();
                self.grid_size_ui(ui, g.width, g.height, out);
            }
            (BoardDef::Graph(_) | BoardDef::Sections(_), _) if self.picked.len() > 1 => {
                ui.separator();
                self.spaces_ui(ui, def, out);
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

/// The open mod's board file, else the one it inherits.
fn board_file(c: &Content) -> Option<String> {
    let docs = c.editor.docs();
    docs.open_mod().content("board").into_iter().next()
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
    use eframe::egui::Pos2;

    use super::graph::{segment_distance, snap};
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
