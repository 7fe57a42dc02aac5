//! The board view's camera: fitting the board to the space it is given, and panning and zooming
//! with the pointer, the wheel and the keys.

use eframe::egui::{self, Rect, Vec2};

use super::{Camera, LEGEND_W, WIDE};

impl Camera {
    /// Fits `extent` in `rect`, leaving room on the right for the legend when the view is
    /// wide enough to show it open.
    pub(super) fn fit(&mut self, rect: Rect, extent: Rect) {
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
