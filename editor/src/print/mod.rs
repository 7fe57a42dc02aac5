//! A paper edition of a mod (`farebox print`, the Studio's Print tab): card faces through
//! the mod's templates (`layout.rs`) or a plain default, card backs, tiles, boards at the
//! mod's scale split over pages, lookup tables and the player aid, as pages of shapes
//! (`doc.rs`) written to a PDF with true trim and bleed boxes (`pdf.rs`).
//! docs/architecture/print.md describes the whole; mods/README.md the layout file.

pub mod boards;
pub mod cards;
pub mod doc;
pub mod layout;
pub mod pdf;
pub mod pieces;
pub mod sheets;
pub mod text;

use std::path::{Path, PathBuf};

use farebox::GameDef;

use doc::Page;
use layout::PrintFile;

/// Paper sizes in mm.
pub const A4: (f32, f32) = (210.0, 297.0);
pub const LETTER: (f32, f32) = (215.9, 279.4);
/// What a home printer cannot reach at each edge of the paper.
pub const MARGIN: f32 = 5.0;
/// The safe zone: text stays this far inside the trim.
pub const SAFE: f32 = 3.0;
/// The most card faces one print makes (copies counted): a bound on time and memory.
pub const MAX_CARDS: usize = 20_000;
/// The most pages one print makes.
pub const MAX_PAGES: usize = 5_000;

/// How to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub paper: (f32, f32),
    /// Millimetres of bleed around each card and tile.
    pub bleed: f32,
    /// A card size for every deck, over the mod's.
    pub card: Option<(f32, f32)>,
    /// A back sheet after each sheet of faces, mirrored for long-edge duplex.
    pub duplex: bool,
    /// Pale fills and no full-bleed colour.
    pub low_ink: bool,
    /// Card ids to print (a `--changed-since` selection); None prints all.
    pub only: Option<std::collections::BTreeSet<String>>,
    /// Lines printed under a card, outside its trim (a run's figures for a playtest), by
    /// `deck/id`; each sheet's rows are spaced to leave room for them.
    pub notes: Option<std::collections::BTreeMap<String, Vec<String>>>,
    /// How cards sit on a sheet.
    pub layout: Layout,
    /// Faces on one half of a landscape sheet and their backs mirrored on the other, to fold
    /// down the middle and glue before cutting.
    pub gutter_fold: bool,
}

/// How cards sit on a sheet. `Spaced`: each card has its own bleed and crop marks all
/// round, what a print shop or a cutting machine wants. `Butted`: cards touch, so one cut
/// separates two; the bleed is only round the block and the crop marks only at the sheet's
/// edges, which fits nine poker cards on A4 with bleed where spaced fits four. `Auto` takes
/// whichever fits more cards on a sheet (spaced when notes are printed under the cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    #[default]
    Auto,
    Spaced,
    Butted,
}

impl Layout {
    pub const ALL: [Layout; 3] = [Layout::Auto, Layout::Spaced, Layout::Butted];

    pub fn name(self) -> &'static str {
        match self {
            Layout::Auto => "auto",
            Layout::Spaced => "spaced",
            Layout::Butted => "butted",
        }
    }

    pub fn parse(s: &str) -> Result<Layout, String> {
        Layout::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("`{s}` is not a card layout: give auto, spaced or butted"))
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            paper: A4,
            bleed: 3.0,
            card: None,
            duplex: false,
            low_ink: false,
            only: None,
            notes: None,
            layout: Layout::Auto,
            gutter_fold: false,
        }
    }
}

/// A card as printed: which deck, its id and content hash, and where its face is.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintedCard {
    pub deck: String,
    pub id: String,
    pub hash: String,
    pub page: usize,
    pub trim: doc::Rect,
}

/// The printed edition: its pages, its cards, and what did not print well.
#[derive(Debug, Clone, Default)]
pub struct Printed {
    pub pages: Vec<Page>,
    pub cards: Vec<PrintedCard>,
    pub warnings: Vec<String>,
}

/// Everything the composers need.
pub struct Ctx<'a> {
    pub def: &'a GameDef,
    pub folder: &'a Path,
    pub file: PrintFile,
    /// The print file's path as shown in messages.
    pub file_path: String,
    /// Its text, for line numbers.
    pub file_text: String,
    pub opts: &'a Options,
    pub fonts: std::sync::Arc<text::Fonts>,
    pub warnings: Vec<String>,
    /// Pictures read so far, by their path in the mod: a deck showing one file on every card
    /// reads it once and shares it.
    pub pictures:
        std::cell::RefCell<std::collections::HashMap<String, Result<doc::Picture, String>>>,
}

impl Ctx<'_> {
    pub fn warn(&mut self, w: String) {
        // One print of a broken mod could repeat a warning per card: keep the first 200.
        if self.warnings.len() < 200 {
            self.warnings.push(w);
        } else if self.warnings.len() == 200 {
            self.warnings
                .push("more warnings follow; fix these first".to_string());
        }
    }
    /// `file:line` of a byte offset of the print file.
    pub fn at(&self, span: std::ops::Range<usize>) -> String {
        format!(
            "{}:{}",
            self.file_path,
            layout::line_of(&self.file_text, span.start)
        )
    }
    pub fn ink(&self, c: doc::Rgb) -> doc::Rgb {
        if self.opts.low_ink { c.low_ink() } else { c }
    }
}

/// Lays out the whole edition of `def` (its files in `folder`).
pub fn compose(def: &GameDef, folder: &Path, opts: &Options) -> Result<Printed, Vec<String>> {
    let (file, file_path, file_text) = match &def.print {
        Some(src) => match layout::read(def, &src.text) {
            Ok(f) => (f, src.path.clone(), src.text.clone()),
            Err(problems) => {
                return Err(problems
                    .into_iter()
                    .map(|p| format!("{}:{}: error: {}", src.path, p.line, p.message))
                    .collect());
            }
        },
        None => (PrintFile::default(), String::new(), String::new()),
    };
    let mut ctx = Ctx {
        def,
        folder,
        file,
        file_path,
        file_text,
        opts,
        fonts: text::Fonts::get(),
        warnings: Vec::new(),
        pictures: Default::default(),
    };
    let mut out = Printed::default();
    cards::print_decks(&mut ctx, &mut out)?;
    if opts.only.is_none() {
        boards::print_tiles(&mut ctx, &mut out)?;
        boards::print_board(&mut ctx, &mut out)?;
        pieces::print_pieces(&mut ctx, &mut out);
        sheets::print_tables(&mut ctx, &mut out);
        sheets::print_aid(&mut ctx, &mut out);
    }
    if out.pages.len() > MAX_PAGES {
        return Err(vec![format!(
            "the edition would have {} pages; a print makes at most {MAX_PAGES}",
            out.pages.len()
        )]);
    }
    out.warnings = ctx.warnings;
    Ok(out)
}

/// A path in the mod's folder named by the print file: relative, never leaving the folder.
pub fn mod_path(folder: &Path, rel: &str) -> Result<PathBuf, String> {
    let p = Path::new(rel);
    if rel.is_empty()
        || p.is_absolute()
        || p.components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(format!(
            "`{rel}` is not a path inside the mod's folder (write it relative, without `..`)"
        ));
    }
    Ok(folder.join(p))
}
