//! Pages to a PDF with krilla: vector shapes, text as embedded font subsets (each glyph where
//! `text.rs` measured it), images, and each page's TrimBox and BleedBox.

use krilla::Document;
use krilla::geom::{PathBuilder, Point, Size, Transform};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, LineCap, LineJoin, Stroke, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};

use super::doc::{Align, Item, Page, Rect, Rgb};
use super::text::{Face, Fonts, PT};

/// Millimetres to points.
const K: f32 = 72.0 / 25.4;

struct Faces {
    regular: Option<Font>,
    bold: Option<Font>,
    symbols: Option<Font>,
}

impl Faces {
    fn of(&self, f: Face) -> Option<Font> {
        match f {
            Face::Regular => self.regular.clone(),
            Face::Bold => self.bold.clone(),
            Face::Symbols => self.symbols.clone(),
        }
    }
}

fn pt_rect(r: Rect) -> Option<krilla::geom::Rect> {
    krilla::geom::Rect::from_xywh(r.x * K, r.y * K, r.w * K, r.h * K)
}

/// Writes `pages` as a PDF.
pub fn write(pages: &[Page]) -> Result<Vec<u8>, String> {
    let mut doc = Document::new();
    let load = |f: Face| Font::new(krilla::Data::from(f.bytes()), 0);
    let faces = Faces {
        regular: load(Face::Regular),
        bold: load(Face::Bold),
        symbols: load(Face::Symbols),
    };
    let fonts = Fonts::get();
    for p in pages {
        let Some(size) = Size::from_wh(p.w * K, p.h * K) else {
            return Err(format!("page `{}` has no area", p.label));
        };
        let settings = PageSettings::new(size)
            .with_trim_box(p.trim.and_then(pt_rect))
            .with_bleed_box(p.bleed.and_then(pt_rect));
        let mut page = doc.start_page_with(settings);
        let mut s = page.surface();
        s.push_transform(&Transform::from_scale(K, K));
        for it in &p.items {
            draw(&mut s, it, &faces, &fonts);
        }
        s.pop();
        s.finish();
        page.finish();
    }
    doc.finish()
        .map_err(|e| format!("the PDF could not be written: {e:?}"))
}

fn paint(c: Rgb) -> krilla::paint::Paint {
    krilla::color::rgb::Color::new(c.0, c.1, c.2).into()
}

fn fill_of(c: Rgb) -> Fill {
    Fill {
        paint: paint(c),
        opacity: NormalizedF32::ONE,
        rule: FillRule::NonZero,
    }
}

fn stroke_of(c: Rgb, w: f32, dashed: bool) -> Stroke {
    Stroke {
        paint: paint(c),
        width: w,
        miter_limit: 4.0,
        line_cap: LineCap::Butt,
        line_join: LineJoin::Miter,
        opacity: NormalizedF32::ONE,
        dash: dashed.then(|| StrokeDash {
            array: vec![2.0, 1.5],
            offset: 0.0,
        }),
    }
}

fn draw(s: &mut Surface<'_>, it: &Item, faces: &Faces, fonts: &Fonts) {
    match it {
        Item::Shape {
            points,
            closed,
            fill,
            stroke,
            dashed,
        } => {
            let mut b = PathBuilder::new();
            let Some((first, rest)) = points.split_first() else {
                return;
            };
            b.move_to(first.0, first.1);
            for p in rest {
                b.line_to(p.0, p.1);
            }
            if *closed {
                b.close();
            }
            if let Some(path) = b.finish() {
                s.set_fill(fill.map(fill_of));
                s.set_stroke(stroke.map(|(c, w)| stroke_of(c, w, *dashed)));
                s.draw_path(&path);
            }
        }
        Item::Circle { c, r, fill, stroke } => {
            // Four cubic arcs.
            let k = 0.552_284_8 * r;
            let (x, y) = *c;
            let mut b = PathBuilder::new();
            b.move_to(x + r, y);
            b.cubic_to(x + r, y + k, x + k, y + r, x, y + r);
            b.cubic_to(x - k, y + r, x - r, y + k, x - r, y);
            b.cubic_to(x - r, y - k, x - k, y - r, x, y - r);
            b.cubic_to(x + k, y - r, x + r, y - k, x + r, y);
            b.close();
            if let Some(path) = b.finish() {
                s.set_fill(fill.map(fill_of));
                s.set_stroke(stroke.map(|(c, w)| stroke_of(c, w, false)));
                s.draw_path(&path);
            }
        }
        Item::Text(t) => {
            let (glyphs, _) = fonts.shape(&t.text, t.bold);
            let em = t.size * PT;
            let total: f32 = glyphs.iter().map(|g| g.advance).sum::<f32>() * em;
            let mut x = match t.align {
                Align::Left => t.x,
                Align::Center => t.x + (t.w - total) / 2.0,
                Align::Right => t.x + t.w - total,
            };
            s.set_stroke(None);
            s.set_fill(Some(fill_of(t.color)));
            // One call per run of glyphs from the same face.
            let mut i = 0;
            while i < glyphs.len() {
                let face = glyphs[i].face;
                let mut j = i;
                while j < glyphs.len() && glyphs[j].face == face {
                    j += 1;
                }
                let run = &glyphs[i..j];
                let base = run[0].start;
                let end = run[run.len() - 1].end;
                let kg: Vec<KrillaGlyph> = run
                    .iter()
                    .map(|g| {
                        KrillaGlyph::new(
                            GlyphId::new(g.glyph),
                            g.advance,
                            0.0,
                            0.0,
                            0.0,
                            (g.start - base)..(g.end - base),
                            None,
                        )
                    })
                    .collect();
                if let (Some(font), Some(text)) = (faces.of(face), t.text.get(base..end)) {
                    s.draw_glyphs(Point::from_xy(x, t.y), &kg, font, text, em, false);
                }
                x += run.iter().map(|g| g.advance).sum::<f32>() * em;
                i = j;
            }
        }
        Item::Image { at, picture } => {
            let data = krilla::Data::from(picture.bytes.clone());
            let img = if picture.jpeg {
                krilla::image::Image::from_jpeg(data, true)
            } else {
                krilla::image::Image::from_png(data, true)
            };
            if let (Ok(img), Some(size)) = (img, Size::from_wh(at.w, at.h)) {
                s.push_transform(&Transform::from_translate(at.x, at.y));
                s.draw_image(img, size);
                s.pop();
            }
        }
        Item::Group {
            clip,
            translate,
            rotate,
            pivot,
            items,
        } => {
            let mut pushed = 0;
            if let Some(c) = clip {
                let mut b = PathBuilder::new();
                if let Some(r) = krilla::geom::Rect::from_xywh(c.x, c.y, c.w, c.h) {
                    b.push_rect(r);
                }
                if let Some(path) = b.finish() {
                    s.push_clip_path(&path, &FillRule::NonZero);
                    pushed += 1;
                }
            }
            s.push_transform(&Transform::from_translate(translate.0, translate.1));
            pushed += 1;
            if *rotate != 0.0 {
                s.push_transform(&Transform::from_rotate_at(*rotate, pivot.0, pivot.1));
                pushed += 1;
            }
            for i in items {
                draw(s, i, faces, fonts);
            }
            for _ in 0..pushed {
                s.pop();
            }
        }
    }
}
