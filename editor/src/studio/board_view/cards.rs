//! Zones of cards and the counters: the part of the table that is not the board.
//!
//! Each zone is a row headed "Name (count)", per-seat zones under their seat's name. Cards the
//! seat may see are small cards with their name, text and fields; the rest lie face down as
//! one back with how many there are. Every face-up card is a widget named after its card, so
//! screen readers and tests find it; face-down cards never carry their names.

use std::sync::Arc;

use eframe::egui::{self, Align2, Color32, FontId, Galley, Rect, Sense, Stroke, StrokeKind, Vec2};
use farebox::content::def::{BoardDef, CardDef, Scope};
use farebox::game::ZoneView;
use farebox::value::Value;

use super::{ACTION, BoardResponse, INK, Scene, Spot, seat_color};

const CARD_W: f32 = 140.0;
const CARD_FACE: Color32 = Color32::from_rgb(0xfb, 0xf7, 0xea);
const CARD_BACK: Color32 = Color32::from_rgb(0x8e, 0x24, 0x2a);

/// The card a zone shows by its id: from the zone's own deck first, else any deck.
pub fn card<'d>(scene: &Scene<'d>, zone: &ZoneView, id: &str) -> Option<&'d CardDef> {
    let def = scene.def;
    let own = def
        .zone(&zone.id)
        .and_then(|z| def.zones.get(z))
        .and_then(|z| z.deck)
        .and_then(|d| def.decks.get(d));
    own.and_then(|d| d.cards.iter().find(|c| c.id == id))
        .or_else(|| {
            def.decks
                .iter()
                .find_map(|d| d.cards.iter().find(|c| c.id == id))
        })
}

/// A card's name as people read it (its id when it has no name).
pub fn card_name(scene: &Scene, zone: &ZoneView, id: &str) -> String {
    match card(scene, zone, id) {
        Some(c) if !c.name.is_empty() => c.name.clone(),
        _ => id.to_string(),
    }
}

/// A card field's value as people read it: a tile or track piece it names by its name.
fn field_text(scene: &Scene, v: &Value) -> String {
    let def = scene.def;
    let Some(id) = v.as_str() else {
        return v.to_string();
    };
    if let Some(t) = def.tile(id).and_then(|i| def.tiles.get(i)) {
        return t.name.clone();
    }
    if let BoardDef::Track(t) = &def.board
        && let Some(piece) = t.pieces.iter().find(|p| p.id == id)
    {
        return piece.name.clone();
    }
    id.to_string()
}

/// What a card says: its text, or else the text of the tile it stands for.
fn card_text(scene: &Scene, c: &CardDef) -> String {
    if !c.text.is_empty() {
        return c.text.clone();
    }
    let def = scene.def;
    c.fields
        .values()
        .filter_map(|v| v.as_str())
        .find_map(|id| def.tile(id).and_then(|i| def.tiles.get(i)))
        .map_or_else(String::new, |t| t.text.clone())
}

pub fn zones_ui(ui: &mut egui::Ui, scene: &Scene) -> BoardResponse {
    let mut out = BoardResponse::default();
    egui::ScrollArea::vertical()
        .id_salt("farebox-zones")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            counters(ui, scene);
            let zones: Vec<(usize, &ZoneView)> = scene
                .view
                .zones
                .iter()
                .enumerate()
                .filter(|(_, z)| shown(scene, z))
                .collect();
            // The viewer's own cards first (their hand is what they play from), then the
            // shared zones, then every other seat's.
            let mine = scene.view.seat;
            let others = (0..scene.view.seats).filter(|s| Some(*s) != mine);
            let order: Vec<Option<u8>> = mine
                .map(Some)
                .into_iter()
                .chain(std::iter::once(None))
                .chain(others.map(Some))
                .collect();
            for owner in order {
                let Some(seat) = owner else {
                    zone_group(ui, scene, &zones, None, &mut out);
                    continue;
                };
                if !zones.iter().any(|(_, z)| z.owner == Some(seat)) {
                    continue;
                }
                ui.add_space(6.0);
                let mut name = scene.def.seat_name(seat as usize);
                if scene.view.seat == Some(seat) {
                    name.push_str(" (you)");
                }
                ui.label(
                    egui::RichText::new(name)
                        .heading()
                        .color(seat_color(scene.def, seat)),
                );
                zone_group(ui, scene, &zones, Some(seat), &mut out);
            }
            if zones.is_empty() {
                ui.label(egui::RichText::new("No cards on the table.").weak());
            }
        });
    out
}

/// The zones of one owner (None: shared): a row for each that holds cards, then the empty
/// ones named on one line.
fn zone_group(
    ui: &mut egui::Ui,
    scene: &Scene,
    zones: &[(usize, &ZoneView)],
    owner: Option<u8>,
    out: &mut BoardResponse,
) {
    let mine = || zones.iter().filter(move |(_, z)| z.owner == owner);
    for &(zi, z) in mine().filter(|(_, z)| z.count > 0) {
        zone_row(ui, scene, zi, z, out);
    }
    let empty: Vec<String> = mine()
        .filter(|(_, z)| z.count == 0)
        .filter_map(|(_, z)| scene.def.zone(&z.id).and_then(|i| scene.def.zones.get(i)))
        .map(|d| d.name.clone())
        .collect();
    if !empty.is_empty() {
        ui.label(egui::RichText::new(format!("Empty: {}", empty.join(", "))).weak());
    }
}

fn shown(scene: &Scene, z: &ZoneView) -> bool {
    scene
        .def
        .zone(&z.id)
        .and_then(|i| scene.def.zones.get(i))
        .is_some_and(|d| d.shown)
}

/// The counters: one table with a column per seat, then the counters of the whole game.
fn counters(ui: &mut egui::Ui, scene: &Scene) {
    let def = scene.def;
    let scope = |id: &str| def.counter(id).and_then(|i| def.counters.get(i));
    let per_seat: Vec<_> = scene
        .view
        .counters
        .iter()
        .filter(|(id, _)| scope(id).is_some_and(|c| c.scope == Scope::Seat))
        .collect();
    if !per_seat.is_empty() {
        egui::Grid::new(ui.scope_id().with("farebox-counters"))
            .striped(true)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                ui.label("");
                for s in 0..scene.view.seats {
                    ui.label(
                        egui::RichText::new(def.seat_name(s as usize))
                            .strong()
                            .color(seat_color(def, s)),
                    );
                }
                ui.end_row();
                for (id, values) in &per_seat {
                    ui.label(scope(id).map_or(id.as_str(), |c| c.name.as_str()));
                    for v in values.iter() {
                        ui.label(egui::RichText::new(v.to_string()).monospace());
                    }
                    ui.end_row();
                }
            });
    }
    for (id, values) in &scene.view.counters {
        let Some(c) = scope(id).filter(|c| c.scope == Scope::Global) else {
            continue;
        };
        let v = values.first().copied().unwrap_or_default();
        ui.label(format!("{}: {v}", c.name));
    }
    ui.separator();
}

/// One zone: its heading and its cards, face-up cards all of one height.
fn zone_row(ui: &mut egui::Ui, scene: &Scene, zi: usize, z: &ZoneView, out: &mut BoardResponse) {
    let Some(d) = scene.def.zone(&z.id).and_then(|i| scene.def.zones.get(i)) else {
        return;
    };
    let mut head = d.name.clone();
    if let Some(o) = z.owner {
        head.push_str(&format!(" — {}", scene.def.seat_name(o as usize)));
    }
    ui.label(egui::RichText::new(format!("{head} ({})", z.count)).strong());
    let hidden = z.count.saturating_sub(z.cards.len());
    let faces: Vec<Face> = z
        .cards
        .iter()
        .map(|id| Face::new(ui, scene, z, id))
        .collect();
    let height = faces
        .iter()
        .map(|f| f.height)
        .fold(64.0_f32, f32::max)
        .min(170.0);
    // Cards wrap onto further rows, so a whole hand is in sight at once.
    ui.with_layout(
        egui::Layout::left_to_right(egui::Align::Min).with_main_wrap(true),
        |ui| {
            for (ci, face) in faces.into_iter().enumerate() {
                let spot = Spot::Card {
                    zone: zi,
                    index: ci,
                };
                let r = face.show(ui, height, scene.actionable.contains(&spot));
                if r.clicked() {
                    out.clicked = Some(spot);
                }
                if r.hovered() {
                    out.hovered = Some(spot);
                }
            }
            if hidden > 0 {
                back(ui, hidden);
            }
        },
    );
    ui.add_space(4.0);
}

/// A face-up card laid out: name, text and fields.
struct Face {
    name: String,
    title: Arc<Galley>,
    body: Option<Arc<Galley>>,
    fields: Option<Arc<Galley>>,
    /// The whole text, for the tooltip.
    lines: Vec<String>,
    height: f32,
}

impl Face {
    fn new(ui: &egui::Ui, scene: &Scene, z: &ZoneView, id: &str) -> Face {
        let c = card(scene, z, id);
        let name = card_name(scene, z, id);
        let inner = CARD_W - 12.0;
        let p = ui.painter();
        let title = p.layout(name.clone(), FontId::proportional(13.5), INK, inner);
        let text = c.map_or_else(String::new, |c| card_text(scene, c));
        let body = (!text.is_empty()).then(|| {
            p.layout(
                text.clone(),
                FontId::proportional(11.5),
                Color32::from_gray(60),
                inner,
            )
        });
        let fields: Vec<String> = c.map_or_else(Vec::new, |c| {
            c.fields
                .iter()
                .map(|(k, v)| format!("{k}: {}", field_text(scene, v)))
                .collect()
        });
        let field_galley = (!fields.is_empty()).then(|| {
            let color = Color32::from_rgb(0x2c, 0x4a, 0x6e);
            p.layout(fields.join("\n"), FontId::proportional(11.0), color, inner)
        });
        let height = 12.0
            + title.size().y
            + body.as_ref().map_or(0.0, |g| g.size().y + 4.0)
            + field_galley.as_ref().map_or(0.0, |g| g.size().y + 4.0);
        let mut lines = Vec::new();
        if !text.is_empty() {
            lines.push(text);
        }
        lines.extend(fields);
        if let Some(c) = c.filter(|c| !c.tags.is_empty()) {
            lines.push(format!("tags: {}", c.tags.join(", ")));
        }
        Face {
            name,
            title,
            body,
            fields: field_galley,
            lines,
            height,
        }
    }

    /// Draws the card `height` tall; a card a person may act on is outlined and clickable.
    fn show(self, ui: &mut egui::Ui, height: f32, actionable: bool) -> egui::Response {
        let sense = if actionable {
            Sense::click()
        } else {
            Sense::hover()
        };
        let (rect, r) = ui.allocate_exact_size(Vec2::new(CARD_W, height), sense);
        let role = if actionable {
            egui::Role::Button
        } else {
            egui::Role::Label
        };
        r.widget_info(|| egui::WidgetInfo::labeled(role, true, &self.name));
        let p = ui.painter_at(rect);
        p.rect_filled(rect, 6.0, CARD_FACE);
        let edge = if actionable {
            Stroke::new(if r.hovered() { 4.0 } else { 3.0 }, ACTION)
        } else {
            Stroke::new(1.0, Color32::from_gray(120))
        };
        p.rect_stroke(rect, 6.0, edge, StrokeKind::Inside);
        let mut y = rect.min.y + 6.0;
        for g in [Some(self.title), self.body, self.fields]
            .into_iter()
            .flatten()
        {
            let h = g.size().y;
            p.galley(egui::pos2(rect.min.x + 6.0, y), g, INK);
            y += h + 4.0;
        }
        let r = if actionable {
            r.on_hover_cursor(egui::CursorIcon::PointingHand)
        } else {
            r
        };
        if self.lines.is_empty() {
            return r;
        }
        r.on_hover_ui(|ui| {
            for l in &self.lines {
                ui.label(l);
            }
        })
    }
}

/// The face-down cards of a zone: one back with how many.
fn back(ui: &mut egui::Ui, count: usize) {
    let label = format!("{count} face down");
    let (rect, r) = ui.allocate_exact_size(Vec2::new(86.0, 64.0), Sense::hover());
    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
    let p = ui.painter_at(rect);
    if count > 1 {
        p.rect_filled(
            rect.translate(Vec2::new(3.0, -3.0)).shrink(1.0),
            6.0,
            CARD_BACK.gamma_multiply(0.7),
        );
    }
    let body = Rect::from_min_max(
        rect.min + Vec2::new(0.0, 3.0),
        rect.max - Vec2::new(3.0, 0.0),
    );
    p.rect_filled(body, 6.0, CARD_BACK);
    p.rect_stroke(
        body.shrink(4.0),
        4.0,
        Stroke::new(1.5, Color32::from_rgb(0xe8, 0xc8, 0x8a)),
        StrokeKind::Inside,
    );
    p.text(
        body.center(),
        Align2::CENTER_CENTER,
        format!("×{count}"),
        FontId::proportional(16.0),
        Color32::WHITE,
    );
    r.on_hover_text(format!("{label}: the cards are hidden"));
}
