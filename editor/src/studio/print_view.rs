//! The Print tab: the open mod's paper edition (`crate::print`), laid out on another thread
//! whenever the live version or the options change (an edit, a reload), a page at a time
//! painted from the same pages the PDF is written from, the warnings (text that does not
//! fit, with its card and region), and Export PDF (written on another thread to a temporary
//! file, then renamed over the chosen one).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

use egui::{Color32, Pos2, Rect as ERect, Stroke, Vec2};
use farebox::GameDef;

use super::Project;
use crate::print::doc::{Align, Item, Page, Picture, Rgb};
use crate::print::text::PT;
use crate::print::{self, A4, LETTER, Options, Printed};

/// What a layout was made from: the live version (by identity) and the options.
#[derive(Clone)]
struct Key {
    def: Arc<GameDef>,
    opts: Options,
}

impl Key {
    fn same(&self, other: &Key) -> bool {
        Arc::ptr_eq(&self.def, &other.def) && self.opts == other.opts
    }
}

type Composed = Result<Arc<Printed>, Vec<String>>;

/// A layout's pictures decoded for the preview, by the address of their bytes (one entry for
/// every copy of a card that shows the same file).
type Pictures = HashMap<usize, egui::ColorImage>;

/// The longest side a picture is shown at in the preview (a page is at most some 1,000 px).
const PREVIEW_PX: u32 = 512;

pub struct PrintPanel {
    /// Paper: A4 (else Letter).
    a4: bool,
    /// The card size typed ("poker", "63x88"); empty for the mod's own.
    card: String,
    bleed: f32,
    duplex: bool,
    layout: print::Layout,
    gutter_fold: bool,
    low_ink: bool,
    /// The page shown.
    pub page: usize,
    /// The last layout and what it was made from.
    done: Option<(Key, Composed)>,
    /// A layout being made.
    job: Option<(Key, Receiver<(Composed, Pictures)>)>,
    /// The last layout's pictures, decoded on the layout's thread, and those of them sent to
    /// the GPU so far.
    pictures: Pictures,
    textures: HashMap<usize, egui::TextureHandle>,
    /// Where Export PDF writes.
    pub out: String,
    export: Option<Receiver<Result<PathBuf, String>>>,
    /// What the last export did.
    pub export_status: String,
}

impl Default for PrintPanel {
    fn default() -> Self {
        PrintPanel {
            a4: true,
            card: String::new(),
            bleed: 3.0,
            duplex: false,
            layout: print::Layout::Auto,
            gutter_fold: false,
            low_ink: false,
            page: 0,
            done: None,
            job: None,
            pictures: Pictures::new(),
            textures: HashMap::new(),
            out: String::new(),
            export: None,
            export_status: String::new(),
        }
    }
}

impl PrintPanel {
    /// The options as set, or why the card size is not one.
    fn options(&self) -> Result<Options, String> {
        let card = match self.card.trim() {
            "" => None,
            c => Some(print::layout::card_size(c)?),
        };
        Ok(Options {
            paper: if self.a4 { A4 } else { LETTER },
            bleed: self.bleed,
            card,
            duplex: self.duplex,
            low_ink: self.low_ink,
            only: None,
            notes: None,
            layout: self.layout,
            gutter_fold: self.gutter_fold,
        })
    }

    /// The layout shown: the newest finished one.
    pub fn printed(&self) -> Option<&Printed> {
        match &self.done {
            Some((_, Ok(p))) => Some(p),
            _ => None,
        }
    }

    /// How many of the layout's pictures the preview has drawn so far.
    pub fn pictures_shown(&self) -> usize {
        self.textures.len()
    }

    /// The problems that stopped the last layout.
    pub fn errors(&self) -> &[String] {
        match &self.done {
            Some((_, Err(e))) => e,
            _ => &[],
        }
    }

    /// Picks up finished work and starts a layout when the live version or the options
    /// changed since the last one.
    fn poll(&mut self, ctx: &egui::Context, p: &Project, opts: Option<Options>) {
        if let Some((key, rx)) = &self.job
            && let Ok((result, pictures)) = rx.try_recv()
        {
            self.done = Some((key.clone(), result));
            self.pictures = pictures;
            self.textures.clear();
            self.job = None;
            let pages = self.printed().map_or(0, |p| p.pages.len());
            self.page = self.page.min(pages.saturating_sub(1));
        }
        if let Some(rx) = &self.export
            && let Ok(r) = rx.try_recv()
        {
            self.export = None;
            self.export_status = match r {
                Ok(path) => format!("Wrote {}", path.display()),
                Err(e) => e,
            };
        }
        let (Some(def), Some(opts)) = (p.def.clone(), opts) else {
            return;
        };
        let key = Key { def, opts };
        let current = self
            .job
            .as_ref()
            .map(|(k, _)| k)
            .or(self.done.as_ref().map(|(k, _)| k));
        if current.is_some_and(|k| k.same(&key)) || self.job.is_some() {
            return;
        }
        let (tx, rx) = channel();
        let (k, folder, wake) = (key.clone(), p.place.folder.clone(), ctx.clone());
        std::thread::spawn(move || {
            let r = print::compose(&k.def, &folder, &k.opts).map(Arc::new);
            let pictures = r.as_ref().map(|p| decode_pictures(p)).unwrap_or_default();
            let _ = tx.send((r, pictures));
            wake.request_repaint();
        });
        self.job = Some((key, rx));
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, p: &Project) {
        let opts = self.options();
        self.poll(ui.ctx(), p, opts.clone().ok());
        if self.out.is_empty() {
            let id = p.def.as_ref().map_or("edition", |d| d.id.as_str());
            self.out = default_out(&p.place.folder, id).display().to_string();
        }
        if p.def.is_none() {
            ui.label("The mod has not loaded: see Diagnostics.");
            return;
        }
        self.options_ui(ui, opts.err());
        ui.separator();
        let printed = match &self.done {
            Some((_, Ok(p))) => Some(p.clone()),
            _ => None,
        };
        egui::Panel::right("print-warnings")
            .resizable(true)
            .default_size(360.0)
            .show(ui, |ui| self.side_ui(ui, printed.as_ref()));
        let Some(printed) = printed else {
            if self.job.is_some() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Laying out the pages…");
                });
            }
            return;
        };
        let n = printed.pages.len();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.page > 0, egui::Button::new("Previous page"))
                .clicked()
            {
                self.page -= 1;
            }
            if ui
                .add_enabled(self.page + 1 < n, egui::Button::new("Next page"))
                .clicked()
            {
                self.page += 1;
            }
            match printed.pages.get(self.page) {
                Some(page) => ui.label(format!("Page {} of {n}: {}", self.page + 1, page.label)),
                None => ui.label("Nothing to print: the mod has no cards, tiles or board."),
            };
            if self.job.is_some() {
                ui.spinner();
            }
        });
        if let Some(page) = printed.pages.get(self.page) {
            // Pictures go to the GPU as their page is first shown.
            let mut keys = Vec::new();
            pictures_in(&page.items, &mut |pic| keys.push(picture_key(pic)));
            for k in keys {
                if let (false, Some(img)) = (self.textures.contains_key(&k), self.pictures.get(&k))
                {
                    let tex = ui.ctx().load_texture(
                        format!("print-picture-{k}"),
                        img.clone(),
                        egui::TextureOptions::LINEAR,
                    );
                    self.textures.insert(k, tex);
                }
            }
            paint_page(ui, page, &self.textures);
        }
    }

    fn options_ui(&mut self, ui: &mut egui::Ui, card_problem: Option<String>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Paper:");
            ui.selectable_value(&mut self.a4, true, "A4");
            ui.selectable_value(&mut self.a4, false, "Letter");
            ui.separator();
            ui.label("Card size:");
            ui.add(
                egui::TextEdit::singleline(&mut self.card)
                    .hint_text("the mod's")
                    .desired_width(90.0),
            )
            .on_hover_text(
                "poker, bridge, tarot, mini, or WIDTHxHEIGHT in mm; empty for the mod's",
            );
            ui.separator();
            ui.label("Bleed (mm):");
            ui.add(
                egui::DragValue::new(&mut self.bleed)
                    .range(0.0..=10.0)
                    .speed(0.1),
            );
            ui.separator();
            ui.label("Cards:");
            for l in print::Layout::ALL {
                ui.selectable_value(&mut self.layout, l, l.name())
                    .on_hover_text(match l {
                        print::Layout::Auto => "whichever fits more cards on a sheet",
                        print::Layout::Spaced => {
                            "each card with its own bleed and crop marks, for a print shop"
                        }
                        print::Layout::Butted => {
                            "cards touching, one cut between two, marks at the sheet's edges"
                        }
                    });
            }
            if ui.checkbox(&mut self.duplex, "Duplex backs").changed() && self.duplex {
                self.gutter_fold = false;
            }
            if ui
                .checkbox(&mut self.gutter_fold, "Gutter fold")
                .on_hover_text(
                    "faces on one half of a landscape sheet, backs on the other: fold, glue, cut",
                )
                .changed()
                && self.gutter_fold
            {
                self.duplex = false;
            }
            ui.checkbox(&mut self.low_ink, "Low ink");
        });
        if let Some(e) = card_problem {
            ui.colored_label(ui.visuals().error_fg_color, format!("Card size: {e}"));
        }
    }

    /// Export, then the warnings (or the errors that stopped the layout).
    fn side_ui(&mut self, ui: &mut egui::Ui, printed: Option<&Arc<Printed>>) {
        ui.horizontal(|ui| {
            ui.label("Save as:");
            ui.add(egui::TextEdit::singleline(&mut self.out).desired_width(f32::INFINITY));
        });
        let can = printed.is_some() && self.export.is_none() && !self.out.trim().is_empty();
        if ui
            .add_enabled(can, egui::Button::new("Export PDF"))
            .clicked()
            && let Some(p) = printed
        {
            self.export_status = "Writing the PDF…".to_string();
            self.export = Some(export(
                p.clone(),
                PathBuf::from(self.out.trim()),
                ui.ctx().clone(),
            ));
        }
        if !self.export_status.is_empty() {
            ui.label(&self.export_status);
        }
        ui.separator();
        let errors = self.errors().to_vec();
        egui::ScrollArea::vertical().show(ui, |ui| {
            if !errors.is_empty() {
                ui.heading(format!("Cannot print ({})", errors.len()));
                for e in &errors {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                return;
            }
            let Some(p) = printed else { return };
            ui.heading(format!("Warnings ({})", p.warnings.len()));
            if p.warnings.is_empty() {
                ui.label("Everything fits.");
            }
            for w in &p.warnings {
                ui.label(w);
            }
        });
    }
}

/// Where Export PDF writes unless told: the person's home folder, else beside the mod's
/// folder (never inside it, where the watcher would take the PDF for an edit).
fn default_out(folder: &Path, id: &str) -> PathBuf {
    std::env::home_dir()
        .filter(|h| h.is_dir())
        .unwrap_or_else(|| folder.parent().unwrap_or(folder).to_path_buf())
        .join(format!("{id}-print.pdf"))
}

/// Writes the PDF on another thread: to `FILE.part`, then renamed over `FILE`.
fn export(p: Arc<Printed>, to: PathBuf, wake: egui::Context) -> Receiver<Result<PathBuf, String>> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let r = print::pdf::write(&p.pages).and_then(|bytes| {
            let mut part = to.as_os_str().to_owned();
            part.push(".part");
            let part = PathBuf::from(part);
            std::fs::write(&part, bytes)
                .and_then(|()| std::fs::rename(&part, &to))
                .map_err(|e| format!("Cannot write {}: {e}", to.display()))
                .map(|()| to)
        });
        let _ = tx.send(r);
        wake.request_repaint();
    });
    rx
}

/// Millimetres on the page to points on the screen: a scale, then a rotation and a shift.
#[derive(Clone, Copy)]
struct Xf {
    /// [a, b, c, d, e, f]: x' = a x + c y + e, y' = b x + d y + f.
    m: [f32; 6],
}

impl Xf {
    fn apply(&self, p: (f32, f32)) -> Pos2 {
        let m = self.m;
        Pos2::new(
            m[0] * p.0 + m[2] * p.1 + m[4],
            m[1] * p.0 + m[3] * p.1 + m[5],
        )
    }
    /// This transform after `inner` (inner applies first).
    fn then(&self, inner: [f32; 6]) -> Xf {
        let (a, b) = (self.m, inner);
        Xf {
            m: [
                a[0] * b[0] + a[2] * b[1],
                a[1] * b[0] + a[3] * b[1],
                a[0] * b[2] + a[2] * b[3],
                a[1] * b[2] + a[3] * b[3],
                a[0] * b[4] + a[2] * b[5] + a[4],
                a[1] * b[4] + a[3] * b[5] + a[5],
            ],
        }
    }
    fn scale(&self) -> f32 {
        (self.m[0] * self.m[0] + self.m[1] * self.m[1]).sqrt()
    }
}

fn c32(c: Rgb) -> Color32 {
    Color32::from_rgb(c.0, c.1, c.2)
}

/// One page, white on the panel, whole in the room the panel has.
fn paint_page(ui: &mut egui::Ui, page: &Page, tex: &HashMap<usize, egui::TextureHandle>) {
    let (aw, ah) = (
        ui.available_width().max(200.0),
        ui.available_height().max(200.0),
    );
    let s = (aw / page.w).min(ah / page.h).min(4.0);
    let (resp, painter) =
        ui.allocate_painter(Vec2::new(page.w * s, page.h * s), egui::Sense::hover());
    let o = resp.rect.min;
    painter.rect_filled(resp.rect, 0.0, Color32::WHITE);
    let xf = Xf {
        m: [s, 0.0, 0.0, s, o.x, o.y],
    };
    for it in &page.items {
        paint_item(&painter, xf, it, tex);
    }
}

fn paint_item(
    painter: &egui::Painter,
    xf: Xf,
    it: &Item,
    tex: &HashMap<usize, egui::TextureHandle>,
) {
    let k = xf.scale();
    match it {
        Item::Shape {
            points,
            closed,
            fill,
            stroke,
            dashed,
        } => {
            let pts: Vec<Pos2> = points.iter().map(|p| xf.apply(*p)).collect();
            if let (Some(f), true) = (fill, *closed && pts.len() >= 3) {
                painter.add(filled(&pts, c32(*f)));
            }
            if let Some((c, w)) = stroke {
                let st = Stroke::new((w * k).max(0.5), c32(*c));
                let mut line = pts.clone();
                if *closed && let Some(first) = pts.first() {
                    line.push(*first);
                }
                if *dashed {
                    painter.extend(egui::Shape::dashed_line(&line, st, 2.0 * k, 1.5 * k));
                } else {
                    painter.add(egui::Shape::line(line, st));
                }
            }
        }
        Item::Circle { c, r, fill, stroke } => {
            let st = stroke.map_or(Stroke::NONE, |(c, w)| Stroke::new((w * k).max(0.5), c32(c)));
            painter.circle(
                xf.apply(*c),
                r * k,
                fill.map_or(Color32::TRANSPARENT, c32),
                st,
            );
        }
        Item::Text(t) => {
            let size = (t.size * PT * k).max(1.0);
            let (x, anchor) = match t.align {
                Align::Left => (t.x, egui::Align2::LEFT_BOTTOM),
                Align::Center => (t.x + t.w / 2.0, egui::Align2::CENTER_BOTTOM),
                Align::Right => (t.x + t.w, egui::Align2::RIGHT_BOTTOM),
            };
            // egui places text by its bottom, about a fifth of the size below the baseline.
            let at = xf.apply((x, t.y + 0.2 * t.size * PT));
            let font = egui::FontId::proportional(size);
            painter.text(at, anchor, &t.text, font, c32(t.color));
        }
        Item::Image { at, picture } => {
            let corners = [
                (at.x, at.y),
                (at.right(), at.y),
                (at.right(), at.bottom()),
                (at.x, at.bottom()),
            ]
            .map(|p| xf.apply(p));
            match tex.get(&picture_key(picture)) {
                // Four corners through the transform, so a turned group turns it too.
                Some(t) => {
                    let mut mesh = egui::Mesh::with_texture(t.id());
                    let uv = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
                    for (p, (u, v)) in corners.iter().zip(uv) {
                        mesh.vertices.push(egui::epaint::Vertex {
                            pos: *p,
                            uv: Pos2::new(u, v),
                            color: Color32::WHITE,
                        });
                    }
                    mesh.indices.extend([0, 1, 2, 0, 2, 3]);
                    painter.add(mesh);
                }
                // Not decodable (the PDF writer reports it): a grey box where it would go.
                None => {
                    painter.add(filled(&corners, Color32::from_gray(215)));
                }
            }
        }
        Item::Group {
            clip,
            translate,
            rotate,
            pivot,
            items,
        } => {
            let painter = match clip {
                Some(c) => {
                    let r = ERect::from_two_pos(
                        xf.apply((c.x, c.y)),
                        xf.apply((c.right(), c.bottom())),
                    );
                    painter.with_clip_rect(r.intersect(painter.clip_rect()))
                }
                None => painter.clone(),
            };
            let (sn, cs) = rotate.to_radians().sin_cos();
            // Translate, then rotate about the pivot (as the PDF does).
            let rot = [
                cs,
                sn,
                -sn,
                cs,
                pivot.0 - cs * pivot.0 + sn * pivot.1,
                pivot.1 - sn * pivot.0 - cs * pivot.1,
            ];
            let inner = xf
                .then([1.0, 0.0, 0.0, 1.0, translate.0, translate.1])
                .then(rot);
            for i in items {
                paint_item(&painter, inner, i, tex);
            }
        }
    }
}

fn picture_key(p: &Picture) -> usize {
    Arc::as_ptr(&p.bytes) as usize
}

/// Calls `f` on every picture in `items`, groups included.
fn pictures_in(items: &[Item], f: &mut dyn FnMut(&Picture)) {
    for it in items {
        match it {
            Item::Image { picture, .. } => f(picture),
            Item::Group { items, .. } => pictures_in(items, f),
            _ => {}
        }
    }
}

/// Every picture of a layout decoded, at most `PREVIEW_PX` a side; one that does not
/// decode is left out (and drawn as a grey box).
fn decode_pictures(p: &Printed) -> Pictures {
    let mut out = Pictures::new();
    for page in &p.pages {
        pictures_in(&page.items, &mut |pic| {
            let k = picture_key(pic);
            if !out.contains_key(&k)
                && let Some(img) = decode_picture(pic)
            {
                out.insert(k, img);
            }
        });
    }
    out
}

fn decode_picture(pic: &Picture) -> Option<egui::ColorImage> {
    let rgba = if pic.jpeg {
        let opts = zune_jpeg::zune_core::options::DecoderOptions::default()
            .jpeg_set_out_colorspace(zune_jpeg::zune_core::colorspace::ColorSpace::RGBA)
            .set_max_width(10_000)
            .set_max_height(10_000);
        let mut d =
            zune_jpeg::JpegDecoder::new_with_options(std::io::Cursor::new(&pic.bytes[..]), opts);
        let px = d.decode().ok()?;
        let (w, h) = d.dimensions()?;
        image::RgbaImage::from_raw(w as u32, h as u32, px)?
    } else {
        image::load_from_memory_with_format(&pic.bytes, image::ImageFormat::Png)
            .ok()?
            .to_rgba8()
    };
    let (w, h) = rgba.dimensions();
    let k = (PREVIEW_PX as f32 / w.max(h) as f32).min(1.0);
    let small = if k < 1.0 {
        image::imageops::thumbnail(
            &rgba,
            ((w as f32 * k) as u32).max(1),
            ((h as f32 * k) as u32).max(1),
        )
    } else {
        rgba
    };
    let size = [small.width() as usize, small.height() as usize];
    Some(egui::ColorImage::from_rgba_unmultiplied(
        size,
        small.as_raw(),
    ))
}

/// A filled polygon of any shape (the convex ones the most), cut into triangles by ear
/// clipping.
fn filled(pts: &[Pos2], color: Color32) -> egui::Shape {
    let mut mesh = egui::Mesh::default();
    for p in pts {
        mesh.colored_vertex(*p, color);
    }
    let area: f32 = (0..pts.len())
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            a.x * b.y - b.x * a.y
        })
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    let cross =
        |a: Pos2, b: Pos2, c: Pos2| ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) * sign;
    let mut left: Vec<u32> = (0..pts.len() as u32).collect();
    let mut guard = 0;
    while left.len() > 3 && guard < 10_000 {
        guard += 1;
        let n = left.len();
        let mut cut = None;
        for i in 0..n {
            let (ia, ib, ic) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
            let (a, b, c) = (pts[ia as usize], pts[ib as usize], pts[ic as usize]);
            if cross(a, b, c) <= 0.0 {
                continue;
            }
            let inside = left.iter().any(|&j| {
                if j == ia || j == ib || j == ic {
                    return false;
                }
                let p = pts[j as usize];
                cross(a, b, p) > 0.0 && cross(b, c, p) > 0.0 && cross(c, a, p) > 0.0
            });
            if !inside {
                cut = Some(i);
                break;
            }
        }
        // A degenerate polygon: fan the rest.
        let i = cut.unwrap_or(1);
        let (ia, ib, ic) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
        mesh.add_triangle(ia, ib, ic);
        left.remove(i);
    }
    if left.len() == 3 {
        mesh.add_triangle(left[0], left[1], left[2]);
    }
    egui::Shape::mesh(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::doc::Rect;

    fn picture(bytes: Vec<u8>, jpeg: bool) -> Picture {
        Picture {
            bytes: Arc::new(bytes),
            jpeg,
            px: (1, 1),
        }
    }

    fn layout_with(pictures: &[Picture]) -> Printed {
        let at = Rect::new(0.0, 0.0, 10.0, 10.0);
        let items = pictures
            .iter()
            .map(|p| Item::Group {
                clip: None,
                translate: (0.0, 0.0),
                rotate: 30.0,
                pivot: (0.0, 0.0),
                items: vec![Item::Image {
                    at,
                    picture: p.clone(),
                }],
            })
            .collect();
        Printed {
            pages: vec![Page::sheet(A4, 3.0, &[at], items, "sheet".into())],
            ..Printed::default()
        }
    }

    #[test]
    fn the_preview_decodes_png_and_jpeg_pictures_once_each_and_small() {
        // A 600 x 300 PNG, blue on the left half and yellow on the right.
        let mut img = image::RgbaImage::new(600, 300);
        for (x, _, p) in img.enumerate_pixels_mut() {
            *p = if x < 300 {
                image::Rgba([0, 0, 255, 255])
            } else {
                image::Rgba([255, 255, 0, 255])
            };
        }
        let mut png = Vec::new();
        image::DynamicImage::ImageRgba8(img)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        let png = picture(png, false);
        let jpeg = picture(include_bytes!("testdata/red-8x8.jpg").to_vec(), true);
        let broken = picture(b"\x89PNG\r\n\x1a\nnot really".to_vec(), false);
        // Two copies of the PNG (one card printed twice), inside turned groups.
        let p = layout_with(&[png.clone(), png.clone(), jpeg.clone(), broken]);
        let decoded = decode_pictures(&p);
        assert_eq!(decoded.len(), 2, "the broken one is left to its grey box");
        let d = &decoded[&picture_key(&png)];
        assert_eq!(d.size, [512, 256]);
        assert_eq!(d.pixels[10], Color32::from_rgb(0, 0, 255));
        assert_eq!(d.pixels[500], Color32::from_rgb(255, 255, 0));
        let j = &decoded[&picture_key(&jpeg)];
        assert_eq!(j.size, [8, 8]);
        let c = j.pixels[27];
        assert!(c.r() > 240 && c.g() < 15 && c.b() < 15, "{c:?}");
    }
}
