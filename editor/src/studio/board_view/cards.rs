//! Zones of cards and the counters: the part of the table that is not the board.
//!
//! Each zone is a row headed "Name (count)", per-seat zones under their seat's name. Cards the
//! seat may see are small cards with their name, text and what their fields say as people
//! read them ([`crate::card_brief`]: "to Acorn Square or Otter Wharf", "fare 2", "VIP");
//! identical cards lie as one stack marked "×3"; the rest lie face down as one back with how
//! many there are. Every face-up card is a widget named after its card, so screen readers and
//! tests find it; face-down cards never carry their names. Above it all, what the rules write
//! for the seat to read (the view's variables) stands in a box of its own.

use std::sync::Arc;

use eframe::egui::{self, Align2, Color32, FontId, Galley, Rect, Sense, Stroke, StrokeKind, Vec2};
use farebox::content::def::{CardDef, Scope};
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
            notes(ui, scene);
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
    // An empty zone is still there (a hand may fill up), named once each, quietly.
    let empty: Vec<String> = mine()
        .filter(|(_, z)| z.count == 0)
        .filter_map(|(_, z)| scene.def.zone(&z.id).and_then(|i| scene.def.zones.get(i)))
        .map(|d| format!("{} (empty)", d.name))
        .collect();
    if !empty.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(empty.join(" · ")).weak()).wrap());
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
    // Identical cards (the same card id) lie as one stack, in the order each first shows.
    let mut stacks: Vec<(&str, Vec<usize>)> = Vec::new();
    for (ci, id) in z.cards.iter().enumerate() {
        match stacks.iter_mut().find(|(s, _)| *s == id.as_str()) {
            Some((_, at)) => at.push(ci),
            None => stacks.push((id.as_str(), vec![ci])),
        }
    }
    let deck = scene
        .def
        .zone(&z.id)
        .and_then(|i| scene.def.zones.get(i))
        .and_then(|d| d.deck);
    let faces: Vec<(Face, Vec<usize>)> = stacks
        .into_iter()
        .map(|(id, at)| (Face::new(ui, scene, z, deck, id, at.len()), at))
        .collect();
    let height = faces
        .iter()
        .map(|(f, _)| f.height)
        .fold(64.0_f32, f32::max)
        .min(190.0);
    // Cards wrap onto further rows, so a whole hand is in sight at once.
    ui.with_layout(
        egui::Layout::left_to_right(egui::Align::Min).with_main_wrap(true),
        |ui| {
            for (face, at) in faces {
                let spot = |ci: usize| Spot::Card {
                    zone: zi,
                    index: ci,
                };
                // A stack is playable when any of its cards is: then it is the first such.
                let playable = at
                    .iter()
                    .map(|&ci| spot(ci))
                    .find(|s| scene.actionable.contains(s));
                let here = playable.unwrap_or_else(|| spot(at[0]));
                let r = face.show(ui, height, playable.is_some());
                if r.clicked() {
                    out.clicked = Some(here);
                }
                if r.hovered() {
                    out.hovered = Some(here);
                }
            }
            if hidden > 0 {
                back(ui, hidden);
            }
        },
    );
    ui.add_space(4.0);
}

/// A face-up card laid out: name, text and what its fields say; `count` identical cards.
struct Face {
    name: String,
    count: usize,
    title: Arc<Galley>,
    body: Option<Arc<Galley>>,
    details: Option<Arc<Galley>>,
    /// The whole text, for the tooltip.
    lines: Vec<String>,
    height: f32,
}

/// How far each card of a stack peeks out from under the one on top.
const STACK_STEP: f32 = 3.0;

impl Face {
    fn new(
        ui: &egui::Ui,
        scene: &Scene,
        z: &ZoneView,
        deck: Option<usize>,
        id: &str,
        count: usize,
    ) -> Face {
        let c = card(scene, z, id);
        let name = card_name(scene, z, id);
        let inner = CARD_W - 12.0;
        let p = ui.painter();
        // Room on the title's line for the "×3" of a stack.
        let title_w = if count > 1 { inner - 26.0 } else { inner };
        let title = p.layout(name.clone(), FontId::proportional(13.5), INK, title_w);
        let text = c.map_or_else(String::new, |c| card_text(scene, c));
        let body = (!text.is_empty()).then(|| {
            p.layout(
                text.clone(),
                FontId::proportional(11.5),
                Color32::from_gray(60),
                inner,
            )
        });
        let brief = crate::card_brief::card_in(scene.def, deck, id);
        let details = (!brief.details.is_empty()).then(|| {
            let color = Color32::from_rgb(0x2c, 0x4a, 0x6e);
            p.layout(
                brief.details.join("\n"),
                FontId::proportional(11.5),
                color,
                inner,
            )
        });
        let stacked = if count > 1 {
            STACK_STEP * (count.min(3) - 1) as f32
        } else {
            0.0
        };
        let height = 12.0
            + stacked
            + title.size().y
            + body.as_ref().map_or(0.0, |g| g.size().y + 4.0)
            + details.as_ref().map_or(0.0, |g| g.size().y + 4.0);
        let mut lines = Vec::new();
        if count > 1 {
            lines.push(format!("{count} identical cards"));
        }
        if !text.is_empty() {
            lines.push(text);
        }
        lines.extend(brief.details);
        if let Some(c) = c.filter(|c| !c.tags.is_empty()) {
            lines.push(format!("tags: {}", c.tags.join(", ")));
        }
        Face {
            name,
            count,
            title,
            body,
            details,
            lines,
            height,
        }
    }

    /// Draws the card `height` tall (a stack: the cards under it peeking out at the top
    /// right, "×n" by the name); a card a person may act on is outlined and clickable.
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
        let under = (self.count.min(3) - 1) as f32 * STACK_STEP;
        let face = Rect::from_min_max(
            rect.min + Vec2::new(0.0, under),
            rect.max - Vec2::new(under, 0.0),
        );
        for k in (1..self.count.min(3)).rev() {
            let d = k as f32 * STACK_STEP;
            let behind = face.translate(Vec2::new(d, -d));
            p.rect_filled(behind, 6.0, CARD_FACE.gamma_multiply(0.85));
            p.rect_stroke(
                behind,
                6.0,
                Stroke::new(1.0, Color32::from_gray(120)),
                StrokeKind::Inside,
            );
        }
        p.rect_filled(face, 6.0, CARD_FACE);
        let edge = if actionable {
            Stroke::new(if r.hovered() { 4.0 } else { 3.0 }, ACTION)
        } else {
            Stroke::new(1.0, Color32::from_gray(120))
        };
        p.rect_stroke(face, 6.0, edge, StrokeKind::Inside);
        if self.count > 1 {
            let at = egui::pos2(face.max.x - 6.0, face.min.y + 5.0);
            let g = p.layout_no_wrap(
                format!("×{}", self.count),
                FontId::proportional(13.0),
                Color32::WHITE,
            );
            let pill = Align2::RIGHT_TOP
                .anchor_size(at, g.size())
                .expand2(Vec2::new(4.0, 1.0));
            p.rect_filled(pill, 7.0, CARD_BACK);
            p.galley(pill.min + Vec2::new(4.0, 1.0), g, Color32::WHITE);
        }
        let mut y = face.min.y + 6.0;
        for g in [Some(self.title), self.body, self.details]
            .into_iter()
            .flatten()
        {
            let h = g.size().y;
            p.galley(egui::pos2(face.min.x + 6.0, y), g, INK);
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

/// What the rules write for the seat looking to read: the view's variables whose names do
/// not start with `_` (those are the rules' bookkeeping). Each single one is a line in a
/// highlighted box, its name first ("Pickup spot: Art Museum: indoor, art" on the Driver's
/// screen of Where's My Ride, a secret only that seat's view holds); a numbered series of them
/// ("text 01", "text 02", …: the conversation) is a list under its name, in order.
fn notes(ui: &mut egui::Ui, scene: &Scene) {
    let shown: Vec<(&String, &Value)> = scene
        .view
        .vars
        .iter()
        .filter(|(k, v)| !k.starts_with('_') && !matches!(v, Value::Nil))
        .collect();
    if shown.is_empty() {
        return;
    }
    let mut single: Vec<(&str, String)> = Vec::new();
    let mut series: Vec<(String, Vec<String>)> = Vec::new();
    for (k, v) in shown {
        let text = match v {
            Value::Str(s) => s.clone(),
            other => other.to_string(),
        };
        match series_name(k) {
            Some(base) => match series.iter_mut().find(|(b, _)| *b == base) {
                Some((_, lines)) => lines.push(text),
                None => series.push((base, vec![text])),
            },
            None => single.push((k.as_str(), text)),
        }
    }
    if !single.is_empty() {
        egui::Frame::new()
            .fill(ACTION.gamma_multiply(0.12))
            .stroke(Stroke::new(2.0, ACTION))
            .corner_radius(6.0)
            .inner_margin(8.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                for (k, text) in &single {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(
                            egui::RichText::new(format!("{}:", capitalized(k)))
                                .size(16.0)
                                .strong(),
                        );
                        ui.add(
                            egui::Label::new(egui::RichText::new(text).size(16.0).strong()).wrap(),
                        );
                    });
                }
            });
        ui.add_space(4.0);
    }
    for (base, lines) in series {
        egui::CollapsingHeader::new(format!("{} ({})", capitalized(&base), lines.len()))
            .id_salt(("farebox-notes", &base))
            .default_open(true)
            .show(ui, |ui| {
                for l in lines {
                    ui.add(egui::Label::new(l).wrap());
                }
            });
    }
    ui.separator();
}

/// The name of the series a variable is one of: "text" for "text 07" (a name, a space and a
/// number).
fn series_name(k: &str) -> Option<String> {
    let (base, n) = k.rsplit_once(' ')?;
    (!base.is_empty() && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .then(|| base.to_string())
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
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
