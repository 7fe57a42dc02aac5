//! The board view: a game's table drawn from its content, for every board kind.
//!
//! [`show`] draws the board in the space it is given: a grid of road tiles (Curbside), city
//! sections (Taxi Derby), a race track laid card by card (Dicey Curves) or a map of spaces and
//! routes (Critter Cab). A game without a board gets its zones of cards instead ([`zones_ui`]).
//! Everything comes from the mod's content and the seat's [`View`], so a seat is shown only
//! what it may see.
//!
//! The board lives in board units (a grid cell, a card length, the mod's map units); a
//! [`Camera`] maps them to the screen and lets people pan and zoom. Each kind of board is drawn
//! by its own module, which reports where every space landed on screen; this module then puts
//! the pieces on their spaces, makes the spaces people may act on clickable widgets, shows
//! tooltips and draws the legend. Small text is left out rather than drawn illegibly small.

use eframe::egui::{
    self, Align2, Color32, FontId, Painter, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2,
};
use farebox::content::def::BoardDef;
use farebox::value::Value;
use farebox::{GameDef, board::Board, game::View};

mod camera;
mod cards;
mod graph;
mod grid;
mod marks;
mod pieces;
mod track;

pub(crate) use grid::paint_tile;
pub(crate) use marks::PAPER;

pub(crate) use crate::colors as color;
use camera::{navigate, rect_key};
pub(crate) use color::{ink_on, prop_color};
pub use color::{name_color, seat_color};
use marks::Sym;
pub(crate) use pieces::token_slot;
use pieces::{draw_pieces, piece_tooltip, space_tooltip};

/// Something on the table a person can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spot {
    /// A board space (grid cell, graph/section space, track space): index into board.graph.spaces.
    Space(u32),
    /// A card shown in a zone: `zone` indexes view.zones, `index` indexes that ZoneView's `cards`.
    Card { zone: usize, index: usize },
}

/// What one board view shows.
pub struct Scene<'a> {
    pub def: &'a GameDef,
    pub board: &'a Board,
    /// What the seat looking may see (the engine's per-seat view): pieces, zones, counters, grid tiles.
    pub view: &'a View,
    /// Spots where the person looking can take a legal action now: drawn highlighted and clickable.
    pub actionable: &'a [Spot],
    /// A banner shown over the board, e.g. "Content only: this game's rules are not written yet".
    pub banner: Option<&'a str>,
    /// Spots of the action under the pointer or chosen with the keyboard: marked brighter.
    pub lit: &'a [Spot],
    /// Each seat's last move, marked on the board in the seat's colour.
    pub moved: &'a [MoveMark],
    /// The labels of the actions at each spot, for the spot's tooltip.
    pub offers: &'a [(Spot, String)],
}

/// Where a seat's last move changed the board, marked in its colour.
#[derive(Debug, Clone)]
pub struct MoveMark {
    pub color: Color32,
    /// "Red's last move: Place a Straightaway at 3,4".
    pub what: String,
    pub spaces: Vec<u32>,
}

impl<'a> Scene<'a> {
    /// A scene with nothing to act on, lit or marked.
    pub fn plain(
        def: &'a GameDef,
        board: &'a Board,
        view: &'a View,
        banner: Option<&'a str>,
    ) -> Scene<'a> {
        Scene {
            def,
            board,
            view,
            actionable: &[],
            banner,
            lit: &[],
            moved: &[],
            offers: &[],
        }
    }
}

/// Pan and zoom of one board view (drag to pan, wheel / pinch to zoom around the pointer,
/// double-click empty table or the small "Fit" button to fit the board). Fits the board on
/// first show and whenever the board's kind or extent changes.
#[derive(Default)]
pub struct Camera {
    /// The board point shown at the middle of the view.
    center: Vec2,
    /// Screen points per board unit.
    scale: f32,
    /// The scale that fits the whole board, which bounds zooming.
    fit_scale: f32,
    /// The board kind and extent last fitted: a change of either fits again.
    fitted: Option<(&'static str, [i64; 4])>,
    /// Room kept free above the board when fitting it (under a banner).
    top: f32,
    /// An editor's table: the legend starts closed and the board is fitted without room
    /// for it, since the editor's panels already take the sides.
    editing: bool,
    /// Where the legend's box was drawn last frame, over the board: the names written on the
    /// board keep off it (a name under it could not be read).
    legend: Option<Rect>,
    /// The board's parts the legend may not cover (board units): its spaces, sections, cards.
    solid: Vec<Rect>,
    /// The person panned or zoomed since the last fit: the board is no longer fitted unasked.
    moved: bool,
    /// The view's size at the last fit.
    fit_view: Vec2,
    /// The legend's corner (its width and height from the view's top right) the last fit kept
    /// the board's parts clear of, if it had been drawn.
    fit_legend: Option<Vec2>,
}

/// What happened on the table this frame.
#[derive(Default, Debug, Clone)]
pub struct BoardResponse {
    pub clicked: Option<Spot>,
    pub hovered: Option<Spot>,
    /// The spaces whose names are written on the board, with the name written.
    pub named: Vec<(u32, String)>,
    /// Where the names (and a track's card plates) were written, on screen.
    pub written: Vec<Rect>,
    /// Where the legend's box is, on screen, when it is drawn over the board.
    pub legend: Option<Rect>,
    /// The board's view on screen, and the board's extent in it (as fitted, panned, zoomed),
    /// when there is a board.
    pub view: Option<Rect>,
    pub board: Option<Rect>,
    /// The marks a track's card plates keep clear of (its gates' bars and badges), on screen.
    pub marks: Vec<Rect>,
    /// Where the pieces' tokens are, on screen.
    pub tokens: Vec<Rect>,
    /// The rings marking last moves round round spaces: the space, the ring's centre and
    /// how far out it reaches, on screen.
    pub rings: Vec<(u32, Pos2, f32)>,
}

/// Text smaller than this (in screen points) is not drawn.
pub(crate) const MIN_TEXT: f32 = 11.0;
/// The table under the board: a calm, dark blue-green.
pub(crate) const TABLE: Color32 = Color32::from_rgb(0x2b, 0x3a, 0x3e);
/// Marks of the spots a person may act on.
pub(crate) const ACTION: Color32 = Color32::from_rgb(0x3d, 0xe8, 0xff);
pub(crate) use crate::colors::INK;
/// Views at least this wide show the legend open, beside the fitted board.
const WIDE: f32 = 760.0;
/// The room the open legend takes.
const LEGEND_W: f32 = 250.0;
/// A piece of no seat and no colour of its own.
const NEUTRAL: Color32 = Color32::from_rgb(0x9a, 0xa0, 0xa6);

/// Maps board units to screen points.
#[derive(Clone, Copy)]
pub(crate) struct Xf {
    /// Where the board's origin lands on screen.
    origin: Pos2,
    /// Screen points per board unit.
    pub scale: f32,
}

impl Xf {
    pub fn p(&self, x: f64, y: f64) -> Pos2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.scale
    }
    pub fn len(&self, d: f64) -> f32 {
        d as f32 * self.scale
    }
    /// The board point under a screen point.
    pub fn board(&self, p: Pos2) -> (f64, f64) {
        let v = (p - self.origin) / self.scale;
        (v.x as f64, v.y as f64)
    }
}

/// Where a space landed on screen: pieces stand there and the pointer finds it there.
#[derive(Clone, Copy)]
pub(crate) struct Place {
    pub c: Pos2,
    /// Half the size of the space.
    pub r: f32,
    /// A square cell (grid) rather than a round space.
    pub square: bool,
}

impl Place {
    pub fn rect(&self) -> Rect {
        Rect::from_center_size(self.c, Vec2::splat(self.r * 2.0))
    }
    fn hit(&self, p: Pos2) -> Option<f32> {
        let d = p.distance(self.c);
        let inside = if self.square {
            self.rect().contains(p)
        } else {
            d <= self.r * 1.15
        };
        inside.then_some(d)
    }
}

/// What a board module hands back: where each space is, and what its legend explains.
pub(crate) struct Drawn {
    pub places: Vec<Option<Place>>,
    pub legend: Vec<(Sym, String)>,
    /// A line written in the middle of the table (e.g. no track laid yet).
    pub note: Option<String>,
    /// The spaces whose names were written, with the name written.
    pub named: Vec<(u32, String)>,
    /// Where names were written beside their spaces (and a track's card plates), on screen;
    /// a grid's cell names, inside their cells, are not listed.
    pub written: Vec<Rect>,
    /// What names keep clear of besides each other (a track's gates), on screen.
    pub marks: Vec<Rect>,
}

/// Adds a legend line once.
pub(crate) fn note_legend(legend: &mut Vec<(Sym, String)>, sym: Sym, text: impl Into<String>) {
    let text = text.into();
    if !legend.iter().any(|(_, t)| *t == text) {
        legend.push((sym, text));
    }
}

/// The table as laid out this frame: what an editor needs to draw over it and to find what
/// the pointer is on.
pub(crate) struct Table {
    /// The table's own response: drags, clicks and hovers on it.
    pub response: egui::Response,
    pub rect: Rect,
    pub xf: Xf,
    /// Where each space landed on screen (indexed like `board.graph.spaces`).
    pub places: Vec<Option<Place>>,
    pub painter: Painter,
    extent: Rect,
    legend: Vec<(Sym, String)>,
    note: Option<String>,
    named: Vec<(u32, String)>,
    written: Vec<Rect>,
    marks: Vec<Rect>,
    /// The board's extent on screen.
    board: Rect,
}

impl Table {
    /// The board's extent, in board units.
    pub fn extent(&self) -> Rect {
        self.extent
    }

    /// The space under a screen point, the nearest when they overlap.
    pub fn space_at(&self, p: Pos2) -> Option<u32> {
        self.places
            .iter()
            .enumerate()
            .filter_map(|(i, pl)| pl.and_then(|pl| pl.hit(p)).map(|d| (i, d)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i as u32)
    }
}

/// Allocates the table, moves the camera and draws the board. An editor's table pans with
/// the right or middle button only: the left button is the editor's tool.
fn lay_table(ui: &mut egui::Ui, camera: &mut Camera, scene: &Scene, editing: bool) -> Table {
    camera.editing = editing;
    let (rect, bg) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let extent = match scene.board.kind {
        "grid" => grid::extent(scene),
        "track" => track::extent(scene),
        _ => graph::extent(scene),
    };
    camera.top = if scene.banner.is_some() { 36.0 } else { 0.0 };
    camera.solid = match scene.board.kind {
        "grid" => vec![extent],
        "track" => track::solid(scene),
        _ => graph::solid(scene),
    };
    let key = (scene.board.kind, rect_key(extent));
    if camera.refit(rect, key) {
        camera.fit(rect, extent);
        camera.fitted = Some(key);
    }
    navigate(ui, camera, &bg, rect, extent, editing);
    let xf = Xf {
        origin: rect.center() - camera.center * camera.scale,
        scale: camera.scale,
    };
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, TABLE);
    // Names keep off the legend drawn over the board (where it was last frame).
    let keep_off = camera.legend.filter(|l| l.intersects(rect));
    let drawn = match scene.board.kind {
        "grid" => grid::draw(&painter, xf, scene),
        "track" => track::draw(&painter, xf, scene, keep_off),
        _ => graph::draw(&painter, xf, scene, keep_off),
    };
    let board = Rect::from_min_max(
        xf.p(extent.min.x as f64, extent.min.y as f64),
        xf.p(extent.max.x as f64, extent.max.y as f64),
    );
    Table {
        response: bg,
        rect,
        xf,
        places: drawn.places,
        painter,
        extent,
        legend: drawn.legend,
        note: drawn.note,
        named: drawn.named,
        written: drawn.written,
        marks: drawn.marks,
        board,
    }
}

/// Draws the board for an editor (no pieces, no tooltips, no actions) and hands back the
/// table, for the editor to draw its marks over it and read the pointer. `None` for a game
/// without a board.
pub(crate) fn show_editing(
    ui: &mut egui::Ui,
    camera: &mut Camera,
    scene: &Scene,
    overlay_ui: impl FnOnce(&Table),
) -> Option<Table> {
    if matches!(scene.def.board, BoardDef::None) || scene.board.kind == "none" {
        return None;
    }
    let mut t = lay_table(ui, camera, scene, true);
    // Every space is named for screen readers and tests; the table keeps the clicks.
    let id = ui.scope_id().with("farebox-board-edit");
    for (s, place) in t.places.iter().enumerate() {
        if let Some(place) = place {
            let r = ui.interact(place.rect(), id.with(s), Sense::hover());
            let label = space_label(scene, s as u32);
            r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
        }
    }
    overlay_ui(&t);
    // Painted text is invisible to screen readers: the note and the banner are named nodes too.
    if let Some(note) = &t.note {
        plate_text(
            &t.painter,
            t.rect.center(),
            Align2::CENTER_CENTER,
            note,
            16.0,
        );
        let r = Rect::from_center_size(t.rect.center(), Vec2::new(200.0, 20.0));
        let r = ui.interact(r, id.with("note"), Sense::hover());
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, note));
    }
    // At the bottom: the top right is the legend's.
    if let Some(b) = scene.banner {
        let at = t.rect.center_bottom() - Vec2::new(0.0, 12.0);
        plate_text(&t.painter, at, Align2::CENTER_BOTTOM, b, 15.0);
        let r = Rect::from_center_size(at - Vec2::new(0.0, 10.0), Vec2::new(200.0, 20.0));
        let r = ui.interact(r, id.with("banner"), Sense::hover());
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, b));
    }
    let mut legend = std::mem::take(&mut t.legend);
    legend.sort_by_key(|(sym, _)| sym.group());
    overlay(ui, camera, t.rect, t.extent, &legend);
    Some(t)
}

/// Draws the board in the available rect of `ui`.
// One piece: one immediate-mode pass: the camera takes this frame's input, the scene is painted
// with it, and the response is built from the same frame's hover and click.
pub fn show(ui: &mut egui::Ui, camera: &mut Camera, scene: &Scene) -> BoardResponse {
    if matches!(scene.def.board, BoardDef::None) || scene.board.kind == "none" {
        if let Some(b) = scene.banner {
            ui.label(egui::RichText::new(b).strong());
        }
        return zones_ui(ui, scene);
    }
    let id = ui.scope_id().with("farebox-board");
    let table = lay_table(ui, camera, scene, false);
    let Table {
        response: bg,
        rect,
        xf: _,
        places,
        painter,
        extent,
        legend,
        note,
        named,
        written,
        marks,
        board,
    } = table;
    let drawn = Drawn {
        places,
        legend: vec![],
        note,
        named,
        written,
        marks,
    };
    let mut legend = legend;

    // The spots a person may act on: highlighted, and each a widget of its own.
    let mut clicked = None;
    let mut hovered_widget = None;
    for spot in scene.actionable {
        let Spot::Space(s) = *spot else { continue };
        let Some(place) = drawn.places.get(s as usize).copied().flatten() else {
            continue;
        };
        let r = ui.interact(place.rect(), id.with(("spot", s)), Sense::click());
        let label = space_label(scene, s);
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
        // Boards of spaces mark the spots themselves, under the spaces' names, the lit ones
        // brighter (see `graph::draw`); here only the one under the pointer is marked again
        // (a crowd of lit spots marked over their names hid them).
        let hot = r.hovered() || scene.lit.contains(spot);
        if r.hovered() || !graph::marks_actionable(scene) {
            highlight(&painter, place, hot);
        }
        if r.clicked() {
            clicked = Some(*spot);
        }
        if r.hovered() {
            hovered_widget = Some(r);
        }
    }
    if scene.actionable.iter().any(|s| matches!(s, Spot::Space(_))) {
        note_legend(&mut legend, Sym::Actionable, "you can act here: click");
    }

    // Each seat's last move, under the pieces.
    let mut rings = Vec::new();
    for m in scene.moved {
        for &s in &m.spaces {
            if let Some(place) = drawn.places.get(s as usize).copied().flatten() {
                marks::moved(&painter, place, m.color);
                if !place.square {
                    rings.push((s, place.c, marks::moved_ring_reach(place.r)));
                }
            }
        }
        if !m.spaces.is_empty() {
            note_legend(&mut legend, Sym::Moved(m.color), &m.what);
        }
    }

    let tokens = draw_pieces(&painter, scene, &drawn.places, &mut legend);

    // What the pointer is over: a piece first, then a space.
    let pointer = ui
        .ctx()
        .pointer_hover_pos()
        .filter(|p| rect.contains(*p) && ui.rect_contains_pointer(rect));
    let token = pointer.and_then(|p| {
        tokens
            .iter()
            .filter(|t| t.0.distance(p) <= t.1)
            .min_by(|a, b| a.0.distance(p).total_cmp(&b.0.distance(p)))
            .map(|t| t.2)
    });
    let hovered = pointer.and_then(|p| {
        drawn
            .places
            .iter()
            .enumerate()
            .filter_map(|(i, pl)| pl.and_then(|pl| pl.hit(p)).map(|d| (i, d)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| Spot::Space(i as u32))
    });
    // Over the legend or the Fit button, the board is not what the pointer points at.
    let tip_on = match hovered_widget {
        Some(r) => Some(r),
        None if bg.hovered() => Some(bg.clone()),
        None => None,
    };
    let hovered = hovered.filter(|_| tip_on.is_some());
    if let Some(r) = tip_on
        && (token.is_some() || hovered.is_some())
    {
        r.on_hover_ui_at_pointer(|ui| {
            if let Some(t) = token {
                piece_tooltip(ui, scene, t);
                ui.separator();
            }
            if let Some(Spot::Space(s)) = hovered {
                space_tooltip(ui, scene, s);
                offers_tooltip(ui, scene, Spot::Space(s));
            }
        });
    }

    if let Some(note) = &drawn.note {
        plate_text(&painter, rect.center(), Align2::CENTER_CENTER, note, 16.0);
    }
    if let Some(b) = scene.banner {
        let at = rect.center_top() + Vec2::new(0.0, 12.0);
        plate_text(&painter, at, Align2::CENTER_TOP, b, 15.0);
        // Painted text is invisible to screen readers: the banner is a named node too.
        let r = ui.interact(
            Rect::from_center_size(at + Vec2::new(0.0, 10.0), Vec2::new(200.0, 20.0)),
            id.with("banner"),
            Sense::hover(),
        );
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, b));
    }
    legend.sort_by_key(|(sym, _)| sym.group());
    overlay(ui, camera, rect, extent, &legend);
    BoardResponse {
        clicked,
        hovered,
        named: drawn.named,
        written: drawn.written,
        legend: camera.legend,
        view: Some(rect),
        board: Some(board),
        marks: drawn.marks,
        tokens: tokens
            .iter()
            .map(|&(c, r, _)| Rect::from_center_size(c, Vec2::splat(r * 2.0)))
            .collect(),
        rings,
    }
}

/// The actions a person may take at a spot, under its tooltip.
fn offers_tooltip(ui: &mut egui::Ui, scene: &Scene, spot: Spot) {
    let here: Vec<&str> = scene
        .offers
        .iter()
        .filter(|(s, _)| *s == spot)
        .map(|(_, l)| l.as_str())
        .collect();
    if here.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new("You can:").strong());
    const SHOWN: usize = 8;
    for l in here.iter().take(SHOWN) {
        ui.label(format!("• {l}"));
    }
    if here.len() > SHOWN {
        ui.weak(format!("and {} more", here.len() - SHOWN));
    }
}

/// Draws the zones (hands, decks, discard piles, face-up rows) as rows of cards, and the
/// counters per seat. Used beside the board, and as the whole table for games with no board.
pub fn zones_ui(ui: &mut egui::Ui, scene: &Scene) -> BoardResponse {
    cards::zones_ui(ui, scene)
}

/// Writes `text` at `size` points, or nothing if that is too small to read. Sizes above 26
/// points are held there.
pub(crate) fn text(
    p: &Painter,
    at: Pos2,
    anchor: Align2,
    s: &str,
    size: f32,
    color: Color32,
) -> Option<Rect> {
    if size < MIN_TEXT || s.is_empty() {
        return None;
    }
    Some(p.text(at, anchor, s, FontId::proportional(size.min(26.0)), color))
}

/// Text on a dark rounded plate, readable on any background.
pub(crate) fn plate_text(p: &Painter, at: Pos2, anchor: Align2, s: &str, size: f32) {
    let size = size.max(MIN_TEXT);
    let galley = p.layout(
        s.to_string(),
        FontId::proportional(size),
        Color32::WHITE,
        (p.clip_rect().width() - 40.0).max(100.0),
    );
    let r = anchor.anchor_size(at, galley.size());
    p.rect_filled(
        r.expand2(Vec2::new(8.0, 4.0)),
        6.0,
        Color32::from_black_alpha(190),
    );
    p.galley(r.min, galley, Color32::WHITE);
}

/// Properties as lines "name: value", leaving out the rules' own (names starting with `_`).
pub(crate) fn props_lines(props: &std::collections::BTreeMap<String, Value>) -> Vec<String> {
    props
        .iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect()
}

/// The highlight of a spot a person may act on.
pub(crate) fn highlight(p: &Painter, place: Place, hot: bool) {
    let fill = ACTION.gamma_multiply(if hot { 0.45 } else { 0.18 });
    let stroke = Stroke::new(if hot { 4.0 } else { 3.0 }, ACTION);
    if place.square {
        let r = place.rect().shrink(2.0);
        p.rect_filled(r, 4.0, fill);
        p.rect_stroke(r, 4.0, stroke, StrokeKind::Inside);
    } else {
        p.circle_filled(place.c, place.r + 3.0, fill);
        p.circle_stroke(place.c, place.r + 3.0, stroke);
    }
}

/// The label a space's widget carries and the board writes: "x,y" for a grid cell, else its
/// name (or its id). Spaces that share a name are told apart as rules tell them apart in
/// their labels: by the number their id ends with ("Fernway 2" for `fernway-2`), else by
/// their id.
pub(crate) fn space_label(scene: &Scene, s: u32) -> String {
    board_space_name(scene.board, s)
}

/// [`space_label`] from the board alone.
pub fn board_space_name(board: &Board, s: u32) -> String {
    if let Some((x, y)) = board.xy(s) {
        return format!("{x},{y}");
    }
    let spaces = &board.graph.spaces;
    let Some(sp) = spaces.get(s as usize) else {
        return format!("space {s}");
    };
    if sp.name.is_empty() {
        return sp.id.clone();
    }
    let shared = spaces
        .iter()
        .enumerate()
        .any(|(i, o)| i != s as usize && o.name == sp.name);
    if !shared {
        return sp.name.clone();
    }
    let number = sp
        .id
        .rsplit_once('-')
        .map(|(_, n)| n)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    match number {
        Some(n) => format!("{} {n}", sp.name),
        None => format!("{} ({})", sp.name, sp.id),
    }
}

/// The "Fit" button and the legend, over the board.
fn overlay(
    ui: &mut egui::Ui,
    camera: &mut Camera,
    rect: Rect,
    extent: Rect,
    legend: &[(Sym, String)],
) {
    let fit = Rect::from_min_size(rect.min + Vec2::splat(8.0), Vec2::new(40.0, 22.0));
    if ui
        .put(fit, egui::Button::new("Fit").small())
        .on_hover_text("Fit the whole board in view (or double-click the table)")
        .clicked()
    {
        camera.fit(rect, extent);
    }
    camera.legend = None;
    if legend.is_empty() {
        return;
    }
    let area = Rect::from_min_max(
        Pos2::new(
            rect.max.x - (LEGEND_W + 10.0).min(rect.width() * 0.6),
            rect.min.y + 8.0,
        ),
        Pos2::new(rect.max.x - 8.0, rect.max.y - 8.0),
    );
    let mut child = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(area)
            .layout(egui::Layout::top_down(egui::Align::Max)),
    );
    let shown = egui::Frame::popup(child.style())
        .fill(child.visuals().window_fill().gamma_multiply(0.94))
        .show(&mut child, |ui| {
            egui::CollapsingHeader::new("Legend")
                .id_salt(ui.scope_id().with(("farebox-legend", camera.editing)))
                .default_open(rect.width() > WIDE && !camera.editing)
                .show(ui, |ui| {
                    ui.set_max_width(area.width() - 24.0);
                    for (sym, line) in legend {
                        ui.horizontal(|ui| {
                            let (r, _) = ui.allocate_exact_size(Vec2::splat(20.0), Sense::hover());
                            marks::paint_sym(ui.painter(), r, sym);
                            ui.add(egui::Label::new(egui::RichText::new(line).size(12.0)).wrap());
                        });
                    }
                });
        });
    camera.legend = Some(shown.response.rect);
}

#[cfg(test)]
mod tests;
