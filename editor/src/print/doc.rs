//! What is printed, before it is a PDF: pages of shapes in millimetres, y down from the top
//! left of the page. `pdf.rs` writes it; the Studio's Print tab paints the same pages.

use std::sync::Arc;

/// A colour, 0-255 per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    pub const WHITE: Rgb = Rgb(255, 255, 255);
    pub const GREY: Rgb = Rgb(150, 150, 150);
    pub const LIGHT: Rgb = Rgb(225, 225, 225);

    /// `#rgb` or `#rrggbb`.
    pub fn parse(s: &str) -> Option<Rgb> {
        let h = s.strip_prefix('#')?;
        let digit = |i: usize, n: usize| u8::from_str_radix(h.get(i..i + n)?, 16).ok();
        match h.len() {
            3 => Some(Rgb(digit(0, 1)? * 17, digit(1, 1)? * 17, digit(2, 1)? * 17)),
            6 => Some(Rgb(digit(0, 2)?, digit(2, 2)?, digit(4, 2)?)),
            _ => None,
        }
    }

    /// The colour as little ink would print it: mixed three quarters of the way to white.
    pub fn low_ink(self) -> Rgb {
        let f = |c: u8| (c as u16 + (255 - c as u16) * 3 / 4) as u8;
        Rgb(f(self.0), f(self.1), f(self.2))
    }

    /// Perceived lightness, 0-255.
    pub fn luma(self) -> u8 {
        ((self.0 as u32 * 299 + self.1 as u32 * 587 + self.2 as u32 * 114) / 1000) as u8
    }
}

/// A rectangle: left, top, width, height (mm).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn inset(self, d: f32) -> Rect {
        Rect::new(
            self.x + d,
            self.y + d,
            (self.w - 2.0 * d).max(0.0),
            (self.h - 2.0 * d).max(0.0),
        )
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// A line of text, already fitted: drawn from its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    pub x: f32,
    /// Baseline.
    pub y: f32,
    /// The width it was laid out in, for alignment.
    pub w: f32,
    pub align: Align,
    /// Points.
    pub size: f32,
    pub bold: bool,
    pub color: Rgb,
    pub text: String,
}

/// A PNG or JPEG from a mod's folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub bytes: Arc<Vec<u8>>,
    pub jpeg: bool,
    /// Pixel size.
    pub px: (u32, u32),
}

/// One shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A closed polygon (a rectangle is four points), filled and/or stroked.
    Shape {
        points: Vec<(f32, f32)>,
        closed: bool,
        fill: Option<Rgb>,
        /// Colour and width in mm.
        stroke: Option<(Rgb, f32)>,
        dashed: bool,
    },
    Circle {
        c: (f32, f32),
        r: f32,
        fill: Option<Rgb>,
        stroke: Option<(Rgb, f32)>,
    },
    Text(TextRun),
    Image {
        at: Rect,
        picture: Picture,
    },
    /// Items drawn through a transform (rotation in degrees about `pivot`, then translation),
    /// clipped to `clip` (in page coordinates) when given.
    Group {
        clip: Option<Rect>,
        translate: (f32, f32),
        rotate: f32,
        pivot: (f32, f32),
        items: Vec<Item>,
    },
}

impl Item {
    pub fn rect(r: Rect, fill: Option<Rgb>, stroke: Option<(Rgb, f32)>) -> Item {
        Item::Shape {
            points: vec![
                (r.x, r.y),
                (r.right(), r.y),
                (r.right(), r.bottom()),
                (r.x, r.bottom()),
            ],
            closed: true,
            fill,
            stroke,
            dashed: false,
        }
    }
    pub fn line(a: (f32, f32), b: (f32, f32), color: Rgb, width: f32) -> Item {
        Item::Shape {
            points: vec![a, b],
            closed: false,
            fill: None,
            stroke: Some((color, width)),
            dashed: false,
        }
    }
}

/// One page: its size, its trim and bleed boxes (when it has something to cut), and what
/// is on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub w: f32,
    pub h: f32,
    pub trim: Option<Rect>,
    pub bleed: Option<Rect>,
    pub items: Vec<Item>,
    /// What the page holds, for the Studio's list and messages ("Passengers, sheet 2").
    pub label: String,
}

impl Page {
    /// A `paper` page of pieces to cut: the trim box around all `trims`, the bleed box
    /// `bleed` mm around it.
    pub fn sheet(
        paper: (f32, f32),
        bleed: f32,
        trims: &[Rect],
        items: Vec<Item>,
        label: String,
    ) -> Page {
        let trim = trims.iter().copied().reduce(|a, b| {
            let x = a.x.min(b.x);
            let y = a.y.min(b.y);
            Rect::new(
                x,
                y,
                a.right().max(b.right()) - x,
                a.bottom().max(b.bottom()) - y,
            )
        });
        Page {
            w: paper.0,
            h: paper.1,
            trim,
            bleed: trim.map(|t| t.inset(-bleed)),
            items,
            label,
        }
    }
}

/// Hairline width for marks and cut lines (0.25 pt).
pub const HAIR: f32 = 0.25 * 25.4 / 72.0;
