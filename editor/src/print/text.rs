//! Fonts and text: the embedded faces, which face draws each character, how wide a run is,
//! and fitting a block of text into a box by wrapping and shrinking.
//!
//! Measuring and drawing use the same glyphs and advances (`pdf.rs` places each glyph where
//! [`Fonts::shape`] says), so text that fits here fits on paper. A character no face has is
//! drawn as nothing and reported once per card with its code point.

use std::sync::{Arc, OnceLock};

use skrifa::MetadataProvider;
use skrifa::instance::{LocationRef, Size};

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/LICENSE-DejaVu.txt`): Latin, Greek,
/// Cyrillic, box-drawing, arrows and card suits.
const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");
/// Symbola's symbol and emoji blocks (free for any use, `assets/fonts/LICENSE-Symbola.txt`):
/// the faces a mod's emoji and pictographs fall back to.
const SYMBOLS: &[u8] = include_bytes!("../../assets/fonts/Symbola-symbols.ttf");

/// The faces, in the order a character is looked for (bold text looks in the bold face
/// first, then the regular one, then symbols).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    Regular,
    Bold,
    Symbols,
}

impl Face {
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Face::Regular => REGULAR,
            Face::Bold => BOLD,
            Face::Symbols => SYMBOLS,
        }
    }
}

/// One glyph placed on a line: its face, its id in that face, and its advance in ems.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    pub face: Face,
    pub glyph: u32,
    pub advance: f32,
    /// The byte range of the character in the line's text.
    pub start: usize,
    pub end: usize,
}

/// What the faces know: glyph ids and advances per character.
pub struct Fonts {
    faces: Vec<(Face, Vec<u8>)>,
}

/// Ascent and descent of the text faces, in ems (DejaVu Sans).
pub const ASCENT: f32 = 0.76;
pub const DESCENT: f32 = 0.24;
/// Line height, in ems.
pub const LINE: f32 = 1.17;

static FONTS: OnceLock<Arc<Fonts>> = OnceLock::new();

impl Fonts {
    /// The shared faces (read once per process).
    pub fn get() -> Arc<Fonts> {
        FONTS
            .get_or_init(|| {
                Arc::new(Fonts {
                    faces: [Face::Regular, Face::Bold, Face::Symbols]
                        .into_iter()
                        .map(|f| (f, f.bytes().to_vec()))
                        .collect(),
                })
            })
            .clone()
    }

    fn lookup(&self, face: Face, ch: char) -> Option<(u32, f32)> {
        let (_, data) = self.faces.iter().find(|(f, _)| *f == face)?;
        let font = skrifa::FontRef::new(data).ok()?;
        let gid = font.charmap().map(ch)?;
        let upem = font
            .metrics(Size::unscaled(), LocationRef::default())
            .units_per_em as f32;
        let adv = font
            .glyph_metrics(Size::unscaled(), LocationRef::default())
            .advance_width(gid)
            .unwrap_or(0.0);
        Some((gid.to_u32(), adv / upem.max(1.0)))
    }

    /// The glyphs of `text` on one line; characters no face has are left out and returned.
    pub fn shape(&self, text: &str, bold: bool) -> (Vec<Placed>, Vec<char>) {
        let order: &[Face] = if bold {
            &[Face::Bold, Face::Regular, Face::Symbols]
        } else {
            &[Face::Regular, Face::Symbols]
        };
        let mut out = Vec::with_capacity(text.len());
        let mut missing = Vec::new();
        for (i, ch) in text.char_indices() {
            // Variation selectors and joiners only pick a presentation: drawn as nothing.
            if matches!(ch, '\u{FE00}'..='\u{FE0F}' | '\u{200D}') {
                continue;
            }
            let found = order
                .iter()
                .find_map(|f| self.lookup(*f, ch).map(|(g, a)| (*f, g, a)));
            match found {
                Some((face, glyph, advance)) => out.push(Placed {
                    face,
                    glyph,
                    advance,
                    start: i,
                    end: i + ch.len_utf8(),
                }),
                None if ch.is_control() => {}
                None => missing.push(ch),
            }
        }
        (out, missing)
    }

    /// The width of `text` in ems.
    pub fn width(&self, text: &str, bold: bool) -> f32 {
        self.shape(text, bold).0.iter().map(|p| p.advance).sum()
    }
}

/// A block of text fitted to a box: its lines and the size they were fitted at.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub lines: Vec<String>,
    /// Points.
    pub size: f32,
    /// True when even the smallest size allowed does not fit.
    pub overflows: bool,
}

/// Points to millimetres.
pub const PT: f32 = 25.4 / 72.0;

/// Breaks `text` into lines no wider than `width_mm` at `size` points (at spaces; a word wider
/// than the line is broken between characters). Explicit line breaks are kept.
pub fn wrap(fonts: &Fonts, text: &str, bold: bool, size: f32, width_mm: f32) -> Vec<String> {
    let em = size * PT;
    let max = (width_mm / em.max(0.01)).max(0.0);
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut line_w = 0.0f32;
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            let w = fonts.width(word, bold);
            let space = if line.is_empty() {
                0.0
            } else {
                fonts.width(" ", bold)
            };
            if line_w + space + w <= max {
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(word);
                line_w += space + w;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                line_w = 0.0;
            }
            if w <= max {
                line.push_str(word);
                line_w = w;
                continue;
            }
            // A word longer than the line: break it between characters.
            for ch in word.chars() {
                let cw = fonts.width(ch.encode_utf8(&mut [0; 4]), bold);
                if line_w + cw > max && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                line.push(ch);
                line_w += cw;
            }
        }
        lines.push(line);
    }
    lines
}

/// Fits `text` in a box `w` x `h` mm: the largest size from `size` down to `min` (half a point
/// at a time) at which the wrapped lines fit; at `min` it may still overflow.
pub fn fit(fonts: &Fonts, text: &str, bold: bool, size: f32, min: f32, w: f32, h: f32) -> Fitted {
    let fits = |lines: &[String], s: f32| {
        let tall =
            (lines.len() as f32 - 1.0).max(0.0) * LINE * s * PT + (ASCENT + DESCENT) * s * PT;
        let wide = lines
            .iter()
            .all(|l| fonts.width(l, bold) * s * PT <= w + 0.01);
        tall <= h + 0.01 && wide
    };
    let mut s = size.max(min);
    loop {
        let lines = wrap(fonts, text, bold, s, w);
        if fits(&lines, s) {
            return Fitted {
                lines,
                size: s,
                overflows: false,
            };
        }
        if s - 0.5 < min {
            return Fitted {
                lines,
                size: s,
                overflows: true,
            };
        }
        s -= 0.5;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_and_box_drawing_have_glyphs() {
        let f = Fonts::get();
        for s in ["🔥 Fire", "┌─┐ → ♠♥♦♣", "❄ ✈ ⚽ 🗿"] {
            assert!(f.shape(s, false).1.is_empty(), "{s}");
        }
        assert_eq!(f.shape("\u{E000}", false).1, vec!['\u{E000}']);
    }

    #[test]
    fn shrinks_then_overflows() {
        let f = Fonts::get();
        let short = fit(&f, "Crossroads", true, 12.0, 6.0, 40.0, 10.0);
        assert!(!short.overflows && short.size == 12.0);
        let long = "word ".repeat(200);
        let r = fit(&f, &long, false, 12.0, 6.0, 40.0, 10.0);
        assert!(r.overflows && r.size == 6.0);
    }
}
