//! `farebox print`, through the command line, with the PDF read back: page boxes, card trims
//! from the crop marks, duplex backs mirrored, a paginated board's overlaps alike on both
//! pages (rendered with pdftoppm), every bundled game printing cleanly, hostile layouts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use lopdf::{Document, Object, content::Content};

#[path = "../../tests/common/run.rs"]
mod run;
use run::{farebox, s};

const GAMES: [&str; 5] = [
    "curbside",
    "taxi-derby",
    "dicey-curves",
    "critter-cab",
    "wheres-my-ride",
];
const MM: f32 = 25.4 / 72.0;

fn scratch(name: &str) -> PathBuf {
    run::scratch_in("print", name)
}

fn mods() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods")
}

fn rect(doc: &Document, page: lopdf::ObjectId, key: &[u8]) -> Option<[f32; 4]> {
    let d = doc.get_dictionary(page).ok()?;
    let a = d.get(key).ok()?.as_array().ok()?;
    let n: Vec<f32> = a.iter().map(|o| o.as_float().unwrap()).collect();
    Some([n[0] * MM, n[1] * MM, n[2] * MM, n[3] * MM])
}

/// Stroked two-point lines of a page, in mm with y down: (x0, y0, x1, y1).
fn lines(doc: &Document, page: lopdf::ObjectId, page_h: f32) -> Vec<[f32; 4]> {
    let content = Content::decode(&doc.get_page_content(page)).unwrap();
    let mut ctm = [1.0f32, 0.0, 0.0, 1.0, 0.0, 0.0];
    let mut stack = Vec::new();
    let mut path: Vec<(f32, f32)> = Vec::new();
    let mut out = Vec::new();
    let num = |o: &Object| o.as_float().unwrap();
    for op in content.operations {
        let a = &op.operands;
        match op.operator.as_str() {
            "q" => stack.push(ctm),
            "Q" => ctm = stack.pop().unwrap_or(ctm),
            "cm" => {
                let m: Vec<f32> = a.iter().map(num).collect();
                let c = ctm;
                ctm = [
                    m[0] * c[0] + m[1] * c[2],
                    m[0] * c[1] + m[1] * c[3],
                    m[2] * c[0] + m[3] * c[2],
                    m[2] * c[1] + m[3] * c[3],
                    m[4] * c[0] + m[5] * c[2] + c[4],
                    m[4] * c[1] + m[5] * c[3] + c[5],
                ];
            }
            "m" | "l" => {
                let (x, y) = (num(&a[0]), num(&a[1]));
                let p = (
                    x * ctm[0] + y * ctm[2] + ctm[4],
                    x * ctm[1] + y * ctm[3] + ctm[5],
                );
                if op.operator == "m" {
                    path.clear();
                }
                path.push(p);
            }
            "S" => {
                if path.len() == 2 {
                    let (p, q) = (path[0], path[1]);
                    out.push([p.0 * MM, page_h - p.1 * MM, q.0 * MM, page_h - q.1 * MM]);
                }
                path.clear();
            }
            "n" | "f" | "B" | "b" | "re" => path.clear(),
            _ => {}
        }
    }
    out
}

/// Crop marks: short vertical lines (x, y0, y1) and horizontal ones (y, x0, x1).
fn marks(all: &[[f32; 4]]) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    marks_from(all, 3.0)
}

/// Axis-aligned lines longer than `shortest` mm and shorter than 4: vertical (x, y0, y1)
/// and horizontal (y, x0, x1).
fn marks_from(all: &[[f32; 4]], shortest: f32) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let short = |a: f32, b: f32| (a - b).abs() > shortest && (a - b).abs() < 4.0;
    let mut v = Vec::new();
    let mut h = Vec::new();
    for l in all {
        if (l[0] - l[2]).abs() < 0.01 && short(l[1], l[3]) {
            v.push([l[0], l[1].min(l[3]), l[1].max(l[3])]);
        } else if (l[1] - l[3]).abs() < 0.01 && short(l[0], l[2]) {
            h.push([l[1], l[0].min(l[2]), l[0].max(l[2])]);
        }
    }
    (v, h)
}

fn distinct(mut xs: Vec<f32>) -> Vec<f32> {
    xs.sort_by(f32::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    xs
}

fn print(args: &[&str]) -> run::Run {
    let r = farebox(&[&["print"], args].concat());
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    r
}

#[test]
fn every_bundled_game_prints_with_no_warning_and_true_boxes() {
    let dir = scratch("games");
    for g in GAMES {
        let out = dir.join(format!("{g}.pdf"));
        let r = print(&[g, "--out", &s(&out)]);
        assert!(r.out.contains(" 0 warnings"), "{g}: {}{}", r.out, r.err);
        assert!(r.err.is_empty(), "{g}: {}", r.err);
        let doc = Document::load(&out).unwrap();
        let mut boxed = 0;
        for (_, id) in doc.get_pages() {
            let media = rect(&doc, id, b"MediaBox").unwrap();
            assert!((media[2] - 210.0).abs() < 0.1 && (media[3] - 297.0).abs() < 0.1);
            if let (Some(t), Some(b)) = (rect(&doc, id, b"TrimBox"), rect(&doc, id, b"BleedBox")) {
                boxed += 1;
                assert!(
                    b[0] <= t[0] + 0.01
                        && b[1] <= t[1] + 0.01
                        && b[2] >= t[2] - 0.01
                        && b[3] >= t[3] - 0.01
                );
                assert!(b[0] >= -0.01 && b[2] <= media[2] + 0.01 && b[3] <= media[3] + 0.01);
            }
        }
        assert!(boxed > 0, "{g}: no page has a trim box");
        // The card list beside it names every card with its hash.
        let list = std::fs::read_to_string(format!("{}.cards.json", s(&out))).unwrap();
        assert!(list.contains("\"hash\""), "{g}");
    }
}

/// Each card's trim, read from its crop marks, is its declared size within 0.1 mm.
#[test]
fn card_trims_match_their_size() {
    let dir = scratch("trims");
    for (bleed, card, w, h) in [
        ("3", "poker", 63.0, 88.0),
        ("0", "poker", 63.0, 88.0),
        ("2", "50x70", 50.0, 70.0),
    ] {
        let out = dir.join(format!("c{bleed}.pdf"));
        print(&[
            "critter-cab",
            "--out",
            &s(&out),
            "--bleed",
            bleed,
            "--card",
            card,
            "--layout",
            "spaced",
        ]);
        let doc = Document::load(&out).unwrap();
        let (_, page) = doc.get_pages().into_iter().next().unwrap();
        let (v, hz) = marks(&lines(&doc, page, 297.0));
        let b: f32 = bleed.parse().unwrap();
        for (xs, size) in [
            (distinct(v.iter().map(|m| m[0]).collect()), w),
            (distinct(hz.iter().map(|m| m[0]).collect()), h),
        ] {
            assert!(xs.len() >= 2, "{xs:?}");
            let mut saw = false;
            for p in xs.windows(2) {
                let d = p[1] - p[0];
                // Between marks: a card's trim, or the gap of two bleeds between cards.
                let card = (d - size).abs() < 0.1;
                saw |= card;
                assert!(
                    card || (b > 0.0 && (d - 2.0 * b).abs() < 0.1),
                    "{d} in {xs:?} ({bleed} mm bleed)"
                );
            }
            assert!(saw, "{xs:?}");
        }
        // The trim box holds the trims; the bleed box is the bleed around it.
        let t = rect(&doc, page, b"TrimBox").unwrap();
        let bb = rect(&doc, page, b"BleedBox").unwrap();
        assert!((t[0] - bb[0] - b).abs() < 0.1 && (bb[2] - t[2] - b).abs() < 0.1);
    }
}

/// Crop marks, with those shortened at the paper's margin (at least 1.5 mm).
fn all_marks(all: &[[f32; 4]]) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    marks_from(all, 1.4)
}

/// By default nine poker cards share an A4 sheet with their 3 mm bleed: butted, one cut
/// between two cards, the bleed round the block and the crop marks at the sheet's edges,
/// none over a card.
#[test]
fn nine_poker_cards_fit_an_a4_sheet_with_bleed() {
    let dir = scratch("butted");
    let out = dir.join("b.pdf");
    let r = print(&["critter-cab", "--out", &s(&out), "--card", "poker"]);
    let doc = Document::load(&out).unwrap();
    // A full sheet: its trim box holds three by three cards, the bleed box 3 mm round it.
    let trims: Vec<_> = doc
        .get_pages()
        .into_values()
        .filter_map(|p| Some((p, rect(&doc, p, b"TrimBox")?)))
        .collect();
    let (page, t) = *trims
        .iter()
        .find(|(_, t)| {
            (t[2] - t[0] - 3.0 * 63.0).abs() < 0.1 && (t[3] - t[1] - 3.0 * 88.0).abs() < 0.1
        })
        .unwrap_or_else(|| panic!("no sheet of 3 x 3 cards: {trims:?}\n{}", r.out));
    let bb = rect(&doc, page, b"BleedBox").unwrap();
    assert!((t[0] - bb[0] - 3.0).abs() < 0.1 && (bb[3] - t[3] - 3.0).abs() < 0.1);
    // Marks at every cut: four across, four down, each trim its size. (Lines inside the
    // trim box are the cards' own drawing.)
    let inside = |x0: f32, y0: f32, x1: f32, y1: f32| {
        x0 >= t[0] - 0.01
            && x1 <= t[2] + 0.01
            && y0 >= 297.0 - t[3] - 0.01
            && y1 <= 297.0 - t[1] + 0.01
    };
    let (all_v, all_hz) = all_marks(&lines(&doc, page, 297.0));
    let outside_v = all_v.iter().filter(|m| !inside(m[0], m[1], m[0], m[2]));
    let outside_hz = all_hz.iter().filter(|m| !inside(m[1], m[0], m[2], m[0]));
    let xs = distinct(outside_v.map(|m| m[0]).collect());
    let ys = distinct(outside_hz.map(|m| m[0]).collect());
    // Every short line on a cut is a mark, and lies outside the cards (none over a corner).
    let on = |cuts: &[f32], x: f32| cuts.iter().any(|c| (c - x).abs() < 0.05);
    let v: Vec<_> = all_v.into_iter().filter(|m| on(&xs, m[0])).collect();
    let hz: Vec<_> = all_hz.into_iter().filter(|m| on(&ys, m[0])).collect();
    assert_eq!(xs.len(), 4, "{xs:?}");
    assert_eq!(ys.len(), 4, "{ys:?}");
    for p in xs.windows(2) {
        assert!((p[1] - p[0] - 63.0).abs() < 0.1, "{xs:?}");
    }
    for p in ys.windows(2) {
        assert!((p[1] - p[0] - 88.0).abs() < 0.1, "{ys:?}");
    }
    // Every mark lies outside the block's bleed and on the paper's printable part.
    let (x0, x1) = (xs[0] - 3.0, xs[3] + 3.0);
    let (y0, y1) = (ys[0] - 3.0, ys[3] + 3.0);
    for m in &v {
        assert!(
            m[2] <= y0 + 0.01 || m[1] >= y1 - 0.01,
            "{m:?} over the cards' bleed"
        );
        assert!(m[1] >= 4.99 && m[2] <= 297.0 - 4.99, "{m:?}");
    }
    for m in &hz {
        assert!(
            m[2] <= x0 + 0.01 || m[1] >= x1 - 0.01,
            "{m:?} over the cards' bleed"
        );
        assert!(m[1] >= 4.99 && m[2] <= 210.0 - 4.99, "{m:?}");
    }
    // Spaced, as a print shop wants it, four fit.
    let spaced = dir.join("s.pdf");
    print(&[
        "critter-cab",
        "--out",
        &s(&spaced),
        "--card",
        "poker",
        "--layout",
        "spaced",
    ]);
    let doc = Document::load(&spaced).unwrap();
    let (_, page) = doc.get_pages().into_iter().next().unwrap();
    let t = rect(&doc, page, b"TrimBox").unwrap();
    assert!((t[2] - t[0] - (2.0 * 63.0 + 6.0)).abs() < 0.1, "{t:?}");
}

/// A gutter fold: landscape sheets with the faces on the left half and each back at its
/// face's mirror image across the fold, a dashed fold line down the middle.
#[test]
fn gutter_fold_backs_mirror_their_faces_across_the_fold() {
    let dir = scratch("gutter");
    let out = dir.join("g.pdf");
    print(&["curbside", "--out", &s(&out), "--gutter-fold"]);
    let doc = Document::load(&out).unwrap();
    let (_, page) = doc.get_pages().into_iter().next().unwrap();
    let media = rect(&doc, page, b"MediaBox").unwrap();
    assert!(
        (media[2] - 297.0).abs() < 0.1 && (media[3] - 210.0).abs() < 0.1,
        "{media:?}"
    );
    let all = lines(&doc, page, 210.0);
    let (v, _) = all_marks(&all);
    let xs = distinct(v.iter().map(|m| m[0]).collect());
    assert!(xs.len() >= 4, "{xs:?}");
    // Faces on the left, backs on the right, each cut mirrored across the middle.
    assert!(
        xs.iter().filter(|x| **x < 148.5 - 3.0).count() >= 2,
        "{xs:?}"
    );
    for x in &xs {
        assert!(
            xs.iter().any(|y| (297.0 - x - y).abs() < 0.1),
            "{x} has no mirror in {xs:?}"
        );
        assert!((x - 148.5).abs() > 3.0, "a cut at {x} on the fold");
    }
    // The fold line runs down the middle.
    assert!(
        all.iter().any(|l| (l[0] - 148.5).abs() < 0.01
            && (l[2] - 148.5).abs() < 0.01
            && (l[1] - l[3]).abs() > 150.0),
        "no fold line"
    );
    // Not with duplex.
    let r = farebox(&[
        "print",
        "curbside",
        "--out",
        &s(&dir.join("d.pdf")),
        "--gutter-fold",
        "--duplex",
    ]);
    assert_ne!(r.code, 0);
}

/// With --duplex each back sheet's marks are its front's mirrored about the page's middle.
#[test]
fn duplex_backs_mirror_their_fronts() {
    let dir = scratch("duplex");
    let out = dir.join("d.pdf");
    print(&["curbside", "--out", &s(&out), "--duplex", "--bleed", "0"]);
    let doc = Document::load(&out).unwrap();
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    let key =
        |m: &[f32; 3]| (m[0] * 10.0).round() as i64 * 1_000_000 + (m[1] * 10.0).round() as i64;
    let mut asymmetric = 0;
    let mut pairs = 0;
    for pair in pages.chunks(2) {
        let [front, back] = pair else { break };
        let (fv, _) = marks(&lines(&doc, *front, 297.0));
        let (bv, _) = marks(&lines(&doc, *back, 297.0));
        if fv.is_empty() {
            break; // past the card sheets
        }
        pairs += 1;
        let mirrored: Vec<[f32; 3]> = fv.iter().map(|m| [210.0 - m[0], m[1], m[2]]).collect();
        let mut a: Vec<i64> = mirrored.iter().map(key).collect();
        let mut b: Vec<i64> = bv.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() <= 1_000_001,
                "back marks are not the front's mirrored"
            );
        }
        let mut own: Vec<i64> = fv.iter().map(key).collect();
        own.sort();
        if own != a {
            asymmetric += 1;
        }
    }
    assert!(pairs > 3);
    // A sheet whose last row is partly filled: mirroring moves its backs.
    assert!(asymmetric > 0, "no sheet tells mirrored from unmirrored");
}

fn gray(pdf: &Path, page: usize, dpi: u32) -> (usize, usize, Vec<u8>) {
    let prefix = pdf.with_extension(format!("p{page}"));
    let st = std::process::Command::new("pdftoppm")
        .args([
            "-gray",
            "-r",
            &dpi.to_string(),
            "-f",
            &page.to_string(),
            "-l",
            &page.to_string(),
            "-singlefile",
        ])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .expect("pdftoppm (poppler-utils) renders the pages");
    assert!(st.success());
    let bytes = std::fs::read(prefix.with_extension(format!("p{page}.pgm"))).unwrap();
    // P5 header: "P5\nW H\n255\n".
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let st = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[st..i]).into_owned());
    }
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[i + 1..].to_vec())
}

/// A board two pages wide: the strip both pages show renders the same on each, pixel for
/// pixel (the pages step over the board by whole inches, so the strip falls on the same
/// fraction of a pixel on both).
#[test]
fn a_paginated_boards_overlap_is_the_same_on_both_pages() {
    let dir = scratch("board");
    let out = dir.join("b.pdf");
    print(&["critter-cab", "--out", &s(&out)]);
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(mods().join("critter-cab")),
        &farebox::source::FolderResolver::new(mods()),
    )
    .unwrap();
    let p = farebox_editor::print::compose(&def, &mods().join("critter-cab"), &Default::default())
        .unwrap();
    let a = p
        .pages
        .iter()
        .position(|p| p.label.ends_with("part A1"))
        .unwrap();
    let b = p
        .pages
        .iter()
        .position(|p| p.label.ends_with("part B1"))
        .unwrap();
    let ta = p.pages[a].trim.unwrap();
    let tb = p.pages[b].trim.unwrap();
    let step = farebox_editor::print::boards::step(ta.w);
    assert!(ta.w - step >= farebox_editor::print::boards::OVERLAP);
    let dpi = 100;
    let px = |mm: f32| (mm / 25.4 * dpi as f32).round() as usize;
    let (w, h, ia) = gray(&out, a + 1, dpi);
    let (_, _, ib) = gray(&out, b + 1, dpi);
    let strip = |img: &[u8], x0: f32| -> Vec<u8> {
        let mut v = Vec::new();
        for y in px(ta.y + 2.0)..px(ta.bottom().min(tb.bottom()) - 2.0).min(h - 1) {
            for x in px(x0 + 1.0)..px(x0 + ta.w - step - 1.0).min(w - 1) {
                v.push(img[y * w + x]);
            }
        }
        v
    };
    let diff = |p: &[u8], q: &[u8]| {
        p.iter()
            .zip(q)
            .map(|(a, b)| (*a as f64 - *b as f64).abs())
            .sum::<f64>()
            / p.len() as f64
    };
    let sa = strip(&ia, ta.x + step);
    let same = diff(&sa, &strip(&ib, tb.x));
    assert!(same < 0.05, "overlap differs by {same} grey levels a pixel");
    // And the strip is not blank: some other strip of page A differs from it.
    let other = strip(&ia, ta.x + step / 2.0);
    assert!(diff(&sa, &other) > same + 1.0);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// A copy of Curbside with its print file replaced.
fn curbside_with(name: &str, print_toml: &str) -> PathBuf {
    let d = scratch(name).join("curbside");
    copy_dir(&mods().join("curbside"), &d);
    std::fs::write(d.join("print.toml"), print_toml).unwrap();
    d
}

#[test]
fn hostile_layouts_get_clear_messages() {
    // A huge card: refused with the file and line.
    let m = curbside_with(
        "huge",
        "card = \"poker\"\n\n[decks.passengers]\ncard = \"5000x5000\"\n",
    );
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err
            .contains("print.toml:4: error: card size `5000x5000` is outside"),
        "{}",
        r.err
    );
    // A misspelt deck and field.
    let m = curbside_with(
        "names",
        "[decks.pasengers]\n\n[decks.passengers]\n[[decks.passengers.regions]]\nx = 3.0\ny = 3.0\nw = 50.0\nh = 10.0\ntext = \"{nmae}\"\n",
    );
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert!(
        r.err.contains("no deck `pasengers`") && r.err.contains("did you mean"),
        "{}",
        r.err
    );
    assert!(
        r.err
            .contains("print.toml:4: error: region 1 names `{nmae}`"),
        "{}",
        r.err
    );
    // A missing image and a character no font has: warnings naming the line and the card.
    let m = curbside_with(
        "image",
        "[decks.passengers]\n[[decks.passengers.regions]]\nx = 3.0\ny = 3.0\nw = 50.0\nh = 30.0\nimage = \"art/{id}.png\"\n[[decks.passengers.regions]]\nx = 3.0\ny = 40.0\nw = 50.0\nh = 30.0\ntext = \"\u{E000} {name}\"\n",
    );
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.err
            .contains("print.toml:2: card `p01`: cannot read image `art/p01.png`"),
        "{}",
        r.err
    );
    assert!(
        r.err.contains("print.toml:8: card `p01`: no font has") && r.err.contains("U+E000"),
        "{}",
        r.err
    );
    // An image path leaving the mod.
    let m = curbside_with(
        "escape",
        "[decks.passengers]\n[[decks.passengers.regions]]\nx = 3.0\ny = 3.0\nw = 50.0\nh = 30.0\nimage = \"../../{id}.png\"\n",
    );
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert!(
        r.err.contains("is not a path inside the mod's folder"),
        "{}",
        r.err
    );
    // Text that cannot fit: reported with the card and region.
    let m = curbside_with(
        "overflow",
        "[decks.passengers]\n[[decks.passengers.regions]]\nx = 3.0\ny = 3.0\nw = 10.0\nh = 5.0\ntext = \"{text}\"\nsize = 9.0\nmin = 8.0\n",
    );
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert!(
        r.err
            .contains("card `p01` of deck `passengers`: the text of region 1 does not fit at 8 pt"),
        "{}",
        r.err
    );
}

#[test]
fn thousands_of_cards_are_bounded() {
    let m = curbside_with("many", "");
    let deck = m.join("decks/passengers.toml");
    // A deck of `n` cards of 1,000 copies each (the most one card may have).
    let many = |n: usize| {
        let mut t = String::from("id = \"passengers\"\nname = \"Passenger cards\"\n");
        for i in 1..=n {
            t.push_str(&format!("\n[[cards]]\nid = \"p{i:02}\"\nname = \"Rider {i}\"\ntext = \"Take me home.\"\ncount = 1000\n"));
        }
        t
    };
    // 3,000 copies print; 25,000 are refused at once.
    std::fs::write(&deck, many(3)).unwrap();
    let t = std::time::Instant::now();
    let r = farebox(&[
        "print",
        &s(&m),
        "--out",
        &s(&m.join("o.pdf")),
        "--bleed",
        "0",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(t.elapsed().as_secs() < 120, "{:?}", t.elapsed());
    std::fs::write(&deck, many(25)).unwrap();
    let t = std::time::Instant::now();
    let r = farebox(&["print", &s(&m), "--out", &s(&m.join("o.pdf"))]);
    assert_eq!(r.code, 1);
    // The loader's own bound comes first, naming the deck's file and line.
    assert!(
        r.err.contains("passengers.toml:1:") && r.err.contains("more than 20000 cards"),
        "{}",
        r.err
    );
    assert!(t.elapsed().as_secs() < 10);
}

#[test]
fn changed_since_prints_only_changed_cards() {
    let m = curbside_with("changed", "");
    std::fs::remove_file(m.join("print.toml")).unwrap();
    let text = std::fs::read_to_string(m.join("mod.toml")).unwrap();
    std::fs::write(
        m.join("mod.toml"),
        text.replace("print = \"print.toml\"\n", ""),
    )
    .unwrap();
    let old = m.join("old.pdf");
    print(&[&s(&m), "--out", &s(&old)]);
    let r = farebox(&[
        "print",
        &s(&m),
        "--out",
        &s(&m.join("same.pdf")),
        "--changed-since",
        &s(&old),
    ]);
    assert!(r.err.contains("no card changed"), "{}", r.err);
    let deck = m.join("decks/passengers.toml");
    let d = std::fs::read_to_string(&deck).unwrap();
    std::fs::write(
        &deck,
        d.replace("Just get me home.", "Just get me home, quickly."),
    )
    .unwrap();
    let r = print(&[
        &s(&m),
        "--out",
        &s(&m.join("new.pdf")),
        "--changed-since",
        &s(&old),
    ]);
    assert!(r.out.contains(", 1 card,"), "{}", r.out);
}

/// The outline points of a ganged piece, on the page (mm).
fn group_points(item: &farebox_editor::print::doc::Item) -> Vec<(f32, f32)> {
    use farebox_editor::print::doc::Item;
    let Item::Group {
        translate, items, ..
    } = item
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for i in items {
        if let Item::Shape {
            points,
            closed: true,
            ..
        } = i
        {
            out.extend(
                points
                    .iter()
                    .map(|p| (p.0 + translate.0, p.1 + translate.1)),
            );
        }
    }
    out
}

/// Dicey Curves' track pieces share sheets: every copy printed once, at its true size, none
/// over another, on a few pages rather than one each.
#[test]
fn track_pieces_share_sheets() {
    let folder = mods().join("dicey-curves");
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&folder),
        &farebox::source::FolderResolver::new(mods()),
    )
    .unwrap();
    let farebox::content::def::BoardDef::Track(track) = &def.board else {
        panic!("Dicey Curves has a track");
    };
    // How many copies of the pieces the decks hold (at least one of each).
    let copies: u32 = track
        .pieces
        .iter()
        .map(|p| {
            def.decks
                .iter()
                .flat_map(|d| &d.cards)
                .filter(|c| {
                    c.fields
                        .values()
                        .any(|v| matches!(v, farebox::value::Value::Str(s) if s == &p.id))
                })
                .map(|c| c.count)
                .sum::<u32>()
                .max(1)
        })
        .sum();
    assert!(copies > 30, "{copies}");
    let p = farebox_editor::print::compose(&def, &folder, &Default::default()).unwrap();
    let sheets: Vec<_> = p
        .pages
        .iter()
        .filter(|p| p.label.contains("track pieces, sheet"))
        .collect();
    assert!(
        !sheets.is_empty() && sheets.len() * 3 <= copies as usize,
        "{} sheets for {copies} pieces",
        sheets.len()
    );
    let mut printed = 0;
    for s in &sheets {
        let mut boxes: Vec<[f32; 4]> = Vec::new();
        for it in &s.items {
            let pts = group_points(it);
            if pts.is_empty() {
                continue;
            }
            printed += 1;
            let b = pts
                .iter()
                .fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |b, p| {
                    [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)]
                });
            // Inside what a home printer reaches.
            assert!(b[0] >= 5.0 && b[1] >= 5.0 && b[2] <= s.w - 5.0 && b[3] <= s.h - 5.0);
            for o in &boxes {
                let apart = b[0] >= o[2] || o[0] >= b[2] || b[1] >= o[3] || o[1] >= b[3];
                assert!(apart, "{}: pieces {b:?} and {o:?} overlap", s.label);
            }
            boxes.push(b);
        }
    }
    assert_eq!(printed, copies as usize);
    // True size: a straight piece is one card length (mm_per_unit, 90 mm) long.
    let straight = track.pieces.iter().find(|p| p.turn == 0).unwrap();
    let lengths: Vec<f32> = sheets
        .iter()
        .flat_map(|s| s.items.iter())
        .map(group_points)
        .filter(|pts| !pts.is_empty())
        .map(|pts| {
            let ys: Vec<f32> = pts.iter().map(|p| p.1).collect();
            let xs: Vec<f32> = pts.iter().map(|p| p.0).collect();
            let span = |v: &[f32]| {
                v.iter().copied().fold(f32::MIN, f32::max)
                    - v.iter().copied().fold(f32::MAX, f32::min)
            };
            span(&xs).max(span(&ys))
        })
        .collect();
    assert!(
        lengths.iter().any(|l| (l - 90.0).abs() < 0.5),
        "no piece {} mm long: {lengths:?}",
        straight.name
    );
}

/// `--figures`: under each card, outside its bleed, the win rates of the seats that held and
/// played it, the same figures `farebox sim` gives for the same seeded run.
#[test]
fn figures_print_under_each_card_as_sim_counts_them() {
    let dir = scratch("figures");
    let out = dir.join("f.pdf");
    let r = print(&[
        "curbside",
        "--out",
        &s(&out),
        "--figures",
        "--games",
        "60",
        "--seed",
        "5",
    ]);
    assert!(r.err.contains("figures from 60 games"), "{}", r.err);
    let sim = farebox(&["sim", "curbside", "--games", "60", "--seed", "5", "--json"]);
    assert_eq!(sim.code, 0, "{}", sim.err);
    let v: serde_json::Value = serde_json::from_str(&sim.out).unwrap();
    let (id, f) = v["cards"].as_object().unwrap().iter().next().unwrap();
    let pct = |k: &str| {
        let r = f[k].as_f64().unwrap();
        let i = f[format!("{k}_interval")].as_array().unwrap();
        format!(
            "{:.1}% ({:.1}-{:.1}%)",
            r * 100.0,
            i[0].as_f64().unwrap() * 100.0,
            i[1].as_f64().unwrap() * 100.0
        )
    };
    let held = format!(
        "held: won {} of {} seats",
        pct("win_rate_held"),
        f["seats_held"]
    );
    // The PDF's text, read back with poppler.
    let text = std::process::Command::new("pdftotext")
        .arg(&out)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) reads the PDF");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains(&held), "no `{held}` for {id} in the PDF");
    assert!(text.contains("60 games, random, seed 5"));
    // Without --figures, none.
    let plain = dir.join("p.pdf");
    print(&["curbside", "--out", &s(&plain)]);
    let t = std::process::Command::new("pdftotext")
        .arg(&plain)
        .arg("-")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&t.stdout).contains("held: won"));
    // The run's settings mean nothing without --figures: refused, not ignored.
    let r = farebox(&["print", "curbside", "--out", &s(&plain), "--games", "5"]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(r.err.contains("--figures"), "{}", r.err);
    // Where they go: below the card's bleed, within its width, clear of the next row's.
    let folder = mods().join("curbside");
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&folder),
        &farebox::source::FolderResolver::new(mods()),
    )
    .unwrap();
    let notes = def
        .decks
        .iter()
        .flat_map(|d| d.cards.iter().map(move |c| (d, c)))
        .map(|(d, c)| (format!("{}/{}", d.id, c.id), vec![format!("note {}", c.id)]))
        .collect();
    let opts = farebox_editor::print::Options {
        notes: Some(notes),
        ..Default::default()
    };
    let p = farebox_editor::print::compose(&def, &folder, &opts).unwrap();
    let b = opts.bleed;
    let mut checked = 0;
    for c in &p.cards {
        let page = &p.pages[c.page];
        let runs: Vec<_> = page
            .items
            .iter()
            .filter_map(|i| match i {
                farebox_editor::print::doc::Item::Text(t) if t.text == format!("note {}", c.id) => {
                    Some(t)
                }
                _ => None,
            })
            .filter(|t| t.x >= c.trim.x && t.x + t.w <= c.trim.right())
            .collect();
        let below = runs
            .iter()
            .any(|t| t.y > c.trim.bottom() + b && t.y < c.trim.bottom() + b + 7.0);
        assert!(below, "card {} has no note under its bleed", c.id);
        for o in &p.cards {
            if o.page == c.page {
                assert!(
                    !(runs.iter().any(|t| t.y > o.trim.y - b
                        && t.y < o.trim.bottom() + b
                        && t.x < o.trim.right()
                        && t.x + t.w > o.trim.x)),
                    "a note of {} lies on {}",
                    c.id,
                    o.id
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 10);
}

/// On a map board, each space's name sits on a patch of the board's ground, so the roads
/// under it do not run through its letters; and it is at least 6 pt.
#[test]
fn board_labels_sit_on_the_ground_not_on_the_roads() {
    use farebox_editor::print::doc::Item;
    let folder = mods().join("taxi-derby");
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&folder),
        &farebox::source::FolderResolver::new(mods()),
    )
    .unwrap();
    let p = farebox_editor::print::compose(&def, &folder, &Default::default()).unwrap();
    let page = p
        .pages
        .iter()
        .find(|p| p.label.contains("section Harbor"))
        .unwrap();
    let Some(Item::Group { items, .. }) = page.items.first() else {
        panic!("the section is one drawing");
    };
    let mut labels = 0;
    for (i, it) in items.iter().enumerate() {
        let Item::Text(t) = it else { continue };
        if t.text != "Pier Lane, 1st block" && t.text != "Anchor Street Taxi Rank" {
            continue;
        }
        labels += 1;
        assert!(t.size >= 6.0, "{} at {} pt", t.text, t.size);
        let patched = matches!(&items[i - 1], Item::Shape { points, fill: Some(_), .. }
            if points.len() == 4
                && points.iter().map(|q| q.0).fold(f32::MAX, f32::min) < t.x + t.w / 2.0 - 5.0
                && points.iter().map(|q| q.0).fold(f32::MIN, f32::max) > t.x + t.w / 2.0 + 5.0
                && points.iter().map(|q| q.1).fold(f32::MAX, f32::min) < t.y - 1.0
                && points.iter().map(|q| q.1).fold(f32::MIN, f32::max) > t.y);
        assert!(patched, "`{}` has no patch of ground under it", t.text);
    }
    assert_eq!(labels, 2);
}

/// Pieces print as tokens to cut out, a set per seat in the seat's colour for the most
/// seats the game takes; each counter gets a marker per seat and a numbered track.
#[test]
fn pieces_and_counters_print_as_tokens_markers_and_tracks() {
    use farebox_editor::print::doc::Item;
    let folder = mods().join("critter-cab");
    let def = farebox::content::load_mod(
        &farebox::source::FsSource::new(&folder),
        &farebox::source::FolderResolver::new(mods()),
    )
    .unwrap();
    let p = farebox_editor::print::compose(&def, &folder, &Default::default()).unwrap();
    let page = |label: &str| {
        p.pages
            .iter()
            .find(|pg| pg.label.contains(label))
            .unwrap_or_else(|| panic!("no page of {label}"))
    };
    let discs = |items: &[Item]| -> Vec<(f32, Option<farebox_editor::print::doc::Rgb>)> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Circle {
                    r, fill, stroke, ..
                } if stroke.is_some() => Some((*r, *fill)),
                _ => None,
            })
            .collect()
    };
    let texts = |items: &[Item]| -> Vec<String> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect()
    };
    // Critter Cab: one cab figure per seat, up to four seats, each its own colour.
    let pieces = page("pieces, sheet 1");
    let cabs = discs(&pieces.items);
    let seats = def.players.1 as usize;
    let per_seat: usize = def
        .pieces
        .iter()
        .map(|x| x.count as usize * if x.per_seat { seats } else { 1 })
        .sum();
    assert_eq!(cabs.len(), per_seat, "{cabs:?}");
    let mut fills: Vec<_> = cabs.iter().filter_map(|c| c.1).collect();
    fills.dedup();
    assert!(fills.len() >= seats, "{fills:?}");
    let words = texts(&pieces.items).join(" ");
    for s in 0..seats {
        assert!(words.contains(&def.seat_name(s)), "{words}");
    }
    // Coins: a marker per seat, and a track that starts at 0.
    let markers = discs(&page("counter markers").items);
    let coins = def.counters.iter().find(|c| c.id == "coins").unwrap();
    assert!(markers.len() >= seats, "{markers:?}");
    let tracks = texts(&page("counter tracks").items);
    assert!(
        tracks.iter().any(|t| t.starts_with(&coins.name)),
        "{tracks:?}"
    );
    for n in 0..50 {
        assert!(tracks.contains(&n.to_string()), "no box {n}");
    }
}
