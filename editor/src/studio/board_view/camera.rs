//! The board view's camera: fitting the board to the space it is given, and panning and zooming
//! with the pointer, the wheel and the keys.

use eframe::egui::{self, Pos2, Rect, Vec2};

use super::{Camera, LEGEND_W, WIDE};

/// Room kept free round the fitted board, in screen points.
const MARGIN: f32 = 24.0;

impl Camera {
    /// Shows the board point `p` (board units) at the middle of the view, at its zoom.
    pub(crate) fn look_at(&mut self, p: Pos2) {
        self.center = p.to_vec2();
        self.moved = true;
    }

    /// The board point at the middle of the view.
    pub fn center(&self) -> Pos2 {
        self.center.to_pos2()
    }

    /// Fits `extent` in `rect` as large as it goes without the legend over the board's parts
    /// (`self.solid`, in board units): across the whole view where the legend's corner is
    /// empty (the board moved down or left within the room it leaves), else beside the legend
    /// or below it, whichever leaves the board larger. Before the legend has been drawn once,
    /// a view wide enough to show it open keeps its width free on the right. An editor's
    /// table keeps no room for its legend, which starts closed.
    pub(super) fn fit(&mut self, rect: Rect, extent: Rect) {
        let inner = Rect::from_min_max(
            rect.min + Vec2::new(MARGIN, MARGIN + self.top),
            rect.max - Vec2::splat(MARGIN),
        );
        let legend = self.legend.filter(|_| !self.editing).map(|l| {
            Vec2::new(
                (rect.max.x - l.min.x).clamp(0.0, rect.width()),
                (l.max.y - rect.min.y).clamp(0.0, rect.height()),
            )
        });
        let scale_in = |a: Rect| {
            let s = (a.width().max(40.0) / extent.width().max(1e-3))
                .min(a.height().max(40.0) / extent.height().max(1e-3));
            if s.is_finite() && s > 0.0 { s } else { 1.0 }
        };
        // The board's box at scale `s` centred in `a`.
        let centred = |a: Rect, s: f32| Rect::from_center_size(a.center(), extent.size() * s);
        let (scale, placed) = match legend {
            None => {
                let right = if rect.width() > WIDE && !self.editing {
                    LEGEND_W
                } else {
                    0.0
                };
                let a = Rect::from_min_max(inner.min, inner.max - Vec2::new(right, 0.0));
                let s = scale_in(a);
                (s, centred(a, s))
            }
            Some(size) => {
                let corner = Rect::from_min_max(
                    Pos2::new(rect.max.x - size.x, rect.min.y),
                    Pos2::new(rect.max.x, rect.min.y + size.y),
                )
                .expand(6.0);
                let beside = Rect::from_min_max(
                    inner.min,
                    Pos2::new(inner.max.x.min(corner.min.x), inner.max.y),
                );
                let below = Rect::from_min_max(
                    Pos2::new(inner.min.x, inner.min.y.max(corner.max.y)),
                    inner.max,
                );
                let (sb, sl) = (scale_in(beside), scale_in(below));
                let fallback = if sb >= sl {
                    (sb, centred(beside, sb))
                } else {
                    (sl, centred(below, sl))
                };
                self.clear_of(corner, inner, extent, fallback.0)
                    .unwrap_or(fallback)
            }
        };
        self.scale = scale;
        self.fit_scale = scale;
        // The board point at the middle of the view.
        self.center = extent.center().to_vec2() + (rect.center() - placed.center()) / scale;
        self.moved = false;
        self.fit_view = rect.size();
        self.fit_legend = legend;
    }

    /// The largest scale above `least` at which the board, somewhere in `inner`, has none of
    /// its parts under `corner` (the legend), with the board's box on screen.
    fn clear_of(&self, corner: Rect, inner: Rect, extent: Rect, least: f32) -> Option<(f32, Rect)> {
        let mut s = {
            let w = inner.width() / extent.width().max(1e-3);
            let h = inner.height() / extent.height().max(1e-3);
            w.min(h)
        };
        if !s.is_finite() || s <= 0.0 {
            return None;
        }
        while s > least * 1.01 {
            let size = extent.size() * s;
            let slack = (inner.size() - size).max(Vec2::ZERO);
            // From the middle towards the bottom left, away from the legend's corner.
            for ky in 0..=4 {
                for kx in 0..=4 {
                    let min = inner.min
                        + Vec2::new(
                            slack.x * (0.5 - kx as f32 / 8.0),
                            slack.y * (0.5 + ky as f32 / 8.0),
                        );
                    let placed = Rect::from_min_size(min, size);
                    let on_screen = |r: &Rect| {
                        Rect::from_min_max(
                            min + (r.min - extent.min) * s,
                            min + (r.max - extent.min) * s,
                        )
                    };
                    if !self.solid.iter().any(|r| on_screen(r).intersects(corner)) {
                        return Some((s, placed));
                    }
                }
            }
            s *= 0.97;
        }
        None
    }

    /// Whether the board should be fitted again this frame, unasked: it never was, its kind
    /// or extent changed, or, while the person has not panned or zoomed since the last fit,
    /// the view changed size or the legend grew beyond the box last fitted round.
    pub(super) fn refit(&self, rect: Rect, key: (&'static str, [i64; 4])) -> bool {
        if self.fitted != Some(key) || self.scale <= 0.0 {
            return true;
        }
        if self.moved {
            return false;
        }
        let resized = (rect.size() - self.fit_view).length() > 0.5;
        let grew = match (self.legend.filter(|_| !self.editing), self.fit_legend) {
            (Some(l), Some(f)) => {
                rect.max.x - l.min.x > f.x + 0.5 || l.max.y - rect.min.y > f.y + 0.5
            }
            (Some(_), None) => true,
            _ => false,
        };
        resized || grew
    }
}

/// An extent as whole thousandths, to notice when it changes.
pub(super) fn rect_key(r: Rect) -> [i64; 4] {
    [r.min.x, r.min.y, r.max.x, r.max.y].map(|v| (v * 1000.0).round() as i64)
}

/// Drag to pan (in an editor: with the right or middle button), wheel or pinch to zoom around
/// the pointer, double-click to fit.
pub(super) fn navigate(
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
        camera.moved = true;
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
        camera.moved = true;
    }
}
