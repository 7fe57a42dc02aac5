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

use std::collections::HashMap;

use eframe::egui::{
    self, Align2, Color32, FontId, Painter, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2,
};
use farebox::content::def::BoardDef;
use farebox::value::Value;
use farebox::{GameDef, board::Board, game::View};

mod cards;
mod graph;
mod grid;
mod marks;
mod track;

pub(crate) use grid::paint_tile;
pub(crate) use marks::PAPER;

use marks::Sym;

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
}

/// What happened on the table this frame.
#[derive(Default, Debug, Clone)]
pub struct BoardResponse {
    pub clicked: Option<Spot>,
    pub hovered: Option<Spot>,
    /// The spaces whose names are written on the board, with the name written.
    pub named: Vec<(u32, String)>,
}

/// Text smaller than this (in screen points) is not drawn.
pub(crate) const MIN_TEXT: f32 = 11.0;
/// The table under the board: a calm, dark blue-green.
pub(crate) const TABLE: Color32 = Color32::from_rgb(0x2b, 0x3a, 0x3e);
/// Marks of the spots a person may act on.
pub(crate) const ACTION: Color32 = Color32::from_rgb(0x3d, 0xe8, 0xff);
/// Ink: text and outlines on light surfaces.
pub(crate) const INK: Color32 = Color32::from_rgb(0x22, 0x24, 0x28);
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
}

impl Table {
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
    let key = (scene.board.kind, rect_key(extent));
    if camera.fitted != Some(key) || camera.scale <= 0.0 {
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
    let drawn = match scene.board.kind {
        "grid" => grid::draw(&painter, xf, scene),
        "track" => track::draw(&painter, xf, scene),
        _ => graph::draw(&painter, xf, scene),
    };
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
    if let Some(note) = &t.note {
        plate_text(
            &t.painter,
            t.rect.center(),
            Align2::CENTER_CENTER,
            note,
            16.0,
        );
    }
    // At the bottom: the top right is the legend's.
    if let Some(b) = scene.banner {
        let at = t.rect.center_bottom() - Vec2::new(0.0, 12.0);
        plate_text(&t.painter, at, Align2::CENTER_BOTTOM, b, 15.0);
    }
    let mut legend = std::mem::take(&mut t.legend);
    legend.sort_by_key(|(sym, _)| sym.group());
    overlay(ui, camera, t.rect, t.extent, &legend);
    Some(t)
}

/// Draws the board in the available rect of `ui`.
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
    } = table;
    let drawn = Drawn {
        places,
        legend: vec![],
        note,
        named,
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
        // Boards of spaces mark the spots themselves, under the spaces' names (see
        // `graph::draw`); here only the one under the pointer, or of the action under the
        // pointer, is marked again, brighter.
        let hot = r.hovered() || scene.lit.contains(spot);
        if hot || !graph::marks_actionable(scene) {
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
    for m in scene.moved {
        for &s in &m.spaces {
            if let Some(place) = drawn.places.get(s as usize).copied().flatten() {
                marks::moved(&painter, place, m.color);
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

/// The colour of a seat's pieces and labels: the colour a seat's name says ("Yellow", "Red"),
/// else one of a set of distinct colours that no other seat's name has taken.
pub fn seat_color(def: &GameDef, seat: u8) -> egui::Color32 {
    const PALETTE: [Color32; 8] = [
        Color32::from_rgb(0xe4, 0x57, 0x2e),
        Color32::from_rgb(0x3a, 0x7b, 0xe8),
        Color32::from_rgb(0x3c, 0xb0, 0x5a),
        Color32::from_rgb(0xa0, 0x62, 0xe0),
        Color32::from_rgb(0xf2, 0xc3, 0x18),
        Color32::from_rgb(0x1a, 0xb3, 0xa6),
        Color32::from_rgb(0xee, 0x6a, 0xae),
        Color32::from_rgb(0xb0, 0x7a, 0x45),
    ];
    let seats = def.seat_names.len().max(seat as usize + 1);
    let named: Vec<Option<Color32>> = (0..seats).map(|s| name_color(&def.seat_name(s))).collect();
    if let Some(Some(c)) = named.get(seat as usize) {
        return *c;
    }
    // Seats without a colour in their name take palette colours in seat order, skipping
    // colours close to one a name has taken.
    let mut taken: Vec<Color32> = named.iter().flatten().copied().collect();
    let mut pick = PALETTE[seat as usize % PALETTE.len()];
    for s in 0..=seat as usize {
        if named.get(s).copied().flatten().is_some() {
            continue;
        }
        let free = PALETTE
            .iter()
            .copied()
            .find(|c| taken.iter().all(|t| color_distance(*c, *t) > 90.0));
        pick = free.unwrap_or(PALETTE[s % PALETTE.len()]);
        taken.push(pick);
    }
    pick
}

/// The colour a name says, if one of its words is a colour ("Yellow", "red", "Sky Blue").
pub fn name_color(name: &str) -> Option<Color32> {
    name.split(|c: char| !c.is_alphanumeric())
        .rev()
        .find_map(|w| color_word(&w.to_lowercase()))
}

fn color_word(w: &str) -> Option<Color32> {
    let rgb = |r, g, b| Some(Color32::from_rgb(r, g, b));
    match w {
        "yellow" => rgb(0xf2, 0xc3, 0x18),
        "red" => rgb(0xe0, 0x3c, 0x3c),
        "blue" => rgb(0x3a, 0x7b, 0xe8),
        "green" => rgb(0x3c, 0xb0, 0x5a),
        "orange" => rgb(0xf0, 0x85, 0x1e),
        "purple" | "violet" => rgb(0x9b, 0x5c, 0xe0),
        "pink" => rgb(0xf0, 0x7c, 0xb8),
        "teal" => rgb(0x1a, 0xb3, 0xa6),
        "cyan" => rgb(0x2a, 0xc4, 0xe0),
        "magenta" => rgb(0xd0, 0x3c, 0xb0),
        "white" => rgb(0xf4, 0xf4, 0xf0),
        "black" => rgb(0x26, 0x26, 0x2a),
        "brown" => rgb(0x9a, 0x64, 0x38),
        "grey" | "gray" | "silver" => rgb(0xa8, 0xae, 0xb4),
        "gold" => rgb(0xd8, 0xa8, 0x20),
        "lime" => rgb(0x9c, 0xd0, 0x3c),
        "navy" => rgb(0x2c, 0x44, 0x8c),
        _ => None,
    }
}

fn color_distance(a: Color32, b: Color32) -> f32 {
    let d = |x: u8, y: u8| (x as f32 - y as f32).powi(2);
    (d(a.r(), b.r()) + d(a.g(), b.g()) + d(a.b(), b.b())).sqrt()
}

/// A "#rrggbb" colour.
fn hex_color(s: &str) -> Option<Color32> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let byte = |i: usize| h.get(i..i + 2).and_then(|b| u8::from_str_radix(b, 16).ok());
    Some(Color32::from_rgb(byte(0)?, byte(2)?, byte(4)?))
}

/// The colour a space or piece carries in its properties: `hex`, else a colour word in
/// `color`. A colour word that is a seat's name gives that seat's colour.
pub(crate) fn prop_color(
    def: &GameDef,
    props: &std::collections::BTreeMap<String, Value>,
) -> Option<Color32> {
    if let Some(c) = props
        .get("hex")
        .and_then(|v| v.as_str())
        .and_then(hex_color)
    {
        return Some(c);
    }
    let word = props.get("color").and_then(|v| v.as_str())?;
    let seat = (0..def.seat_names.len()).find(|&s| def.seat_name(s).eq_ignore_ascii_case(word));
    match seat {
        Some(s) => Some(seat_color(def, s as u8)),
        None => name_color(word),
    }
}

/// Black or white, whichever reads better on `bg`.
pub(crate) fn ink_on(bg: Color32) -> Color32 {
    let l = 0.299 * bg.r() as f32 + 0.587 * bg.g() as f32 + 0.114 * bg.b() as f32;
    if l > 150.0 { INK } else { Color32::WHITE }
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

impl Camera {
    /// Fits `extent` in `rect`, leaving room on the right for the legend when the view is
    /// wide enough to show it open.
    fn fit(&mut self, rect: Rect, extent: Rect) {
        let legend = if rect.width() > WIDE && !self.editing {
            LEGEND_W
        } else {
            0.0
        };
        let avail =
            (rect.size() - Vec2::new(48.0 + legend, 48.0 + self.top)).max(Vec2::splat(40.0));
        let scale = (avail.x / extent.width().max(1e-3)).min(avail.y / extent.height().max(1e-3));
        self.scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        self.fit_scale = self.scale;
        self.center = extent.center().to_vec2() + Vec2::new(legend, -self.top) / 2.0 / self.scale;
    }
}

/// An extent as whole thousandths, to notice when it changes.
fn rect_key(r: Rect) -> [i64; 4] {
    [r.min.x, r.min.y, r.max.x, r.max.y].map(|v| (v * 1000.0).round() as i64)
}

/// Drag to pan (in an editor: with the right or middle button), wheel or pinch to zoom around
/// the pointer, double-click to fit.
fn navigate(
    ui: &egui::Ui,
    camera: &mut Camera,
    bg: &egui::Response,
    rect: Rect,
    extent: Rect,
    editing: bool,
) {
    let panning = if editing {
        bg.dragged_by(egui::PointerButton::Secondary) || bg.dragged_by(egui::PointerButton::Middle)
    } else {
        bg.dragged()
    };
    if panning {
        camera.center -= bg.drag_delta() / camera.scale;
    }
    if bg.double_clicked() {
        camera.fit(rect, extent);
    }
    let Some(p) = ui.ctx().pointer_hover_pos() else {
        return;
    };
    if !rect.contains(p) || !ui.rect_contains_pointer(rect) {
        return;
    }
    let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
    let factor = zoom * (scroll * 0.0025).exp();
    if (factor - 1.0).abs() > 1e-4 {
        ui.input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
        let before = camera.center + (p - rect.center()) / camera.scale;
        let lo = camera.fit_scale * 0.3;
        let hi = camera.fit_scale * 25.0;
        camera.scale = (camera.scale * factor).clamp(lo.min(hi), hi.max(lo));
        camera.center = before - (p - rect.center()) / camera.scale;
    }
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

/// The colour of a piece: its seat's, else the colour its properties name, else grey.
fn piece_color(scene: &Scene, p: &farebox::game::PieceView) -> Color32 {
    match p.owner {
        Some(o) => seat_color(scene.def, o),
        None => prop_color(scene.def, &p.props)
            .or_else(|| kind_color(scene.def, &p.kind))
            .unwrap_or(NEUTRAL),
    }
}

/// The colour every piece of a kind has (a red racer), from the kind's properties.
fn kind_color(def: &GameDef, kind: &str) -> Option<Color32> {
    let d = def.piece(kind).and_then(|i| def.pieces.get(i))?;
    prop_color(def, &d.props)
}

/// The name of a piece's kind ("Passenger meeple").
fn kind_name<'d>(def: &'d GameDef, kind: &'d str) -> &'d str {
    def.piece(kind)
        .and_then(|i| def.pieces.get(i))
        .map_or(kind, |d| d.name.as_str())
}

/// Draws every piece on the board on its space, spread out when several share one. Returns
/// each token's centre, radius and piece index, for the pointer.
fn draw_pieces(
    painter: &Painter,
    scene: &Scene,
    places: &[Option<Place>],
    legend: &mut Vec<(Sym, String)>,
) -> Vec<(Pos2, f32, usize)> {
    let ids: HashMap<&str, usize> = scene
        .board
        .graph
        .spaces
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i))
        .collect();
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); places.len()];
    for (k, p) in scene.view.pieces.iter().enumerate() {
        if let Some(&i) = p.at.as_deref().and_then(|a| ids.get(a))
            && let Some(list) = on.get_mut(i)
        {
            list.push(k);
        }
    }
    let mut out = Vec::new();
    for (i, here) in on.iter().enumerate() {
        let Some(place) = places.get(i).copied().flatten() else {
            continue;
        };
        for (slot, &k) in here.iter().enumerate() {
            let Some(p) = scene.view.pieces.get(k) else {
                continue;
            };
            let (c, r) = token_slot(place, slot, here.len());
            let color = piece_color(scene, p);
            let letter = piece_letter(scene, p);
            marks::token(painter, c, r, color, &letter);
            out.push((c, r, k));
            let what = match p.owner {
                Some(o) => format!(
                    "{}'s {}",
                    scene.def.seat_name(o as usize),
                    kind_name(scene.def, &p.kind).to_lowercase()
                ),
                None if prop_color(scene.def, &p.props).is_some() => {
                    format!("{} (in its own colour)", kind_name(scene.def, &p.kind))
                }
                None => kind_name(scene.def, &p.kind).to_string(),
            };
            let key = match p.owner {
                Some(_) => color,
                None => kind_color(scene.def, &p.kind).unwrap_or(NEUTRAL),
            };
            let sym = Sym::Token(key, letter);
            note_legend(legend, sym, what);
        }
    }
    out
}

/// The least radius of a piece on the board, in screen points: big enough for its letter to
/// be read (Taxi Derby's patrol car on a plain road space, Critter Cab's cabs at Fit zoom),
/// however small the space under it is drawn.
pub(crate) const MIN_TOKEN_R: f32 = 10.0;

/// Where the `slot`th of `n` tokens on a space goes, and its radius. On a grid cell they take
/// the corners first, clear of the roads through the middle. A token is never smaller than
/// [`MIN_TOKEN_R`]; several on a small space spread out round it so each stays in sight.
pub(crate) fn token_slot(place: Place, slot: usize, n: usize) -> (Pos2, f32) {
    let r = place.r;
    if place.square {
        if n <= 4 {
            // Top right first: the cell's name is in the top left corner.
            let corners = [(1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0)];
            let (dx, dy) = corners[slot % 4];
            let t = (r * 0.3).max(MIN_TOKEN_R);
            let off = (r * 0.52).max(t * 1.05);
            return (place.c + Vec2::new(dx, dy) * off, t);
        }
        let t = (r * 0.26).max(MIN_TOKEN_R);
        let a = std::f32::consts::TAU * slot as f32 / n as f32;
        let ring = (r * 0.58).max(spread(t, n));
        return (place.c + Vec2::angled(a) * ring, t);
    }
    if n == 1 {
        return (place.c, (r * 0.78).max(MIN_TOKEN_R));
    }
    let t = (r * if n <= 3 { 0.6 } else { 0.48 }).max(MIN_TOKEN_R);
    let a = std::f32::consts::TAU * slot as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
    let ring = (r * if n <= 3 { 0.75 } else { 0.95 }).max(spread(t, n));
    (place.c + Vec2::angled(a) * ring, t)
}

/// The radius of a ring on which `n` tokens of radius `t` overlap by a fifth at most.
fn spread(t: f32, n: usize) -> f32 {
    let half = std::f32::consts::PI / n.max(2) as f32;
    0.8 * t / half.sin()
}

/// The mark on a piece: a `glyph` or `letter` its properties (or its kind's) give, else the
/// first letter of its seat's name, else of its kind's name.
fn piece_letter(scene: &Scene, p: &farebox::game::PieceView) -> String {
    let kind_props = scene
        .def
        .piece(&p.kind)
        .and_then(|i| scene.def.pieces.get(i))
        .map(|d| &d.props);
    let given = ["glyph", "letter"].iter().find_map(|k| {
        p.props
            .get(*k)
            .or_else(|| kind_props.and_then(|pr| pr.get(*k)))
            .and_then(|v| v.as_str())
            .filter(|s| !s.is_empty())
    });
    if let Some(g) = given {
        return g.chars().take(2).collect();
    }
    let word = match p.owner {
        Some(o) => scene.def.seat_name(o as usize),
        None => kind_name(scene.def, &p.kind).to_string(),
    };
    word.chars().take(1).collect()
}

fn piece_tooltip(ui: &mut egui::Ui, scene: &Scene, k: usize) {
    let Some(p) = scene.view.pieces.get(k) else {
        return;
    };
    let kind = kind_name(scene.def, &p.kind);
    match p.owner {
        Some(o) => ui.label(
            egui::RichText::new(format!("{kind} ({})", scene.def.seat_name(o as usize)))
                .strong()
                .color(seat_color(scene.def, o)),
        ),
        None => ui.label(egui::RichText::new(kind).strong()),
    };
    // The kind's own properties, then the piece's, which win.
    let mut props = scene
        .def
        .piece(&p.kind)
        .and_then(|i| scene.def.pieces.get(i))
        .map(|d| d.props.clone())
        .unwrap_or_default();
    props.extend(p.props.iter().map(|(k, v)| (k.clone(), v.clone())));
    for line in props_lines(&props) {
        ui.label(line);
    }
}

fn space_tooltip(ui: &mut egui::Ui, scene: &Scene, s: u32) {
    let Some(sp) = scene.board.graph.spaces.get(s as usize) else {
        return;
    };
    // The title differs from the name the space's widget carries, so the two are never
    // mistaken for each other.
    if scene.board.grid.is_some() {
        let title = format!("Cell {}", space_label(scene, s));
        ui.label(egui::RichText::new(title).strong());
        if !sp.id.contains(',') {
            ui.label(format!("id: {}", sp.id));
        }
        grid::cell_tooltip(ui, scene, s);
    } else if sp.name.is_empty() || sp.name == sp.id {
        ui.label(egui::RichText::new(format!("Space {}", sp.id)).strong());
    } else {
        ui.label(egui::RichText::new(format!("{} — {}", sp.name, sp.id)).strong());
    }
    if !sp.tags.is_empty() {
        ui.label(format!("tags: {}", sp.tags.join(", ")));
    }
    for line in props_lines(&sp.props) {
        ui.label(line);
    }
    // Properties that name a zone (a store's stock, a taxi rank's stack) show what is in it.
    for v in sp.props.values() {
        let Some(zid) = v.as_str() else { continue };
        for z in scene.view.zones.iter().filter(|z| z.id == zid) {
            let name = scene
                .def
                .zone(zid)
                .and_then(|i| scene.def.zones.get(i))
                .map_or(zid, |d| d.name.as_str());
            let deck = scene
                .def
                .zone(zid)
                .and_then(|i| scene.def.zones.get(i))
                .and_then(|d| d.deck);
            let shown: Vec<String> = crate::card_brief::cards_in(scene.def, deck, &z.cards)
                .iter()
                .map(|g| g.text())
                .collect();
            ui.label(format!(
                "{name}: {} card{}",
                z.count,
                if z.count == 1 { "" } else { "s" }
            ));
            for line in shown {
                ui.label(format!("  {line}"));
            }
        }
    }
    if scene.board.kind == "track" {
        track::space_tooltip(ui, scene, s);
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
    egui::Frame::popup(child.style())
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
}

#[cfg(test)]
mod tests;
