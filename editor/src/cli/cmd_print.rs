//! `farebox print`: a mod's paper edition as a PDF (see `crate::print`), the list of its cards
//! and their hashes beside it (`FILE.pdf.cards.json`, read back by `--changed-since`), and
//! with `--png-dir` one PNG per card.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::cli::PrintArgs;
use crate::common::{
    Fail, Io, MAX_SHOWN, clean_report, load_located, locate, plural, seat_count, setup, shown,
    shown_path, split_list,
};
use crate::print::doc::{Item, Page, Rect};
use crate::print::{self, A4, LETTER, Options, Printed};
use crate::runs::rate_text;

/// The card list written beside a PDF: deck, id and content hash of each card printed.
fn manifest_path(pdf: &Path) -> std::path::PathBuf {
    let mut s = pdf.as_os_str().to_owned();
    s.push(".cards.json");
    s.into()
}

fn write_manifest(pdf: &Path, p: &Printed) -> Result<(), String> {
    let mut seen = BTreeMap::new();
    for c in &p.cards {
        seen.insert(
            format!("{}/{}", c.deck, c.id),
            serde_json::json!({ "deck": c.deck, "id": c.id, "hash": c.hash }),
        );
    }
    let list: Vec<_> = seen.into_values().collect();
    let text = serde_json::to_string_pretty(&serde_json::json!({ "cards": list }))
        .map_err(|e| e.to_string())?;
    write_atomic(&manifest_path(pdf), text.as_bytes())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = std::path::PathBuf::from(part);
    std::fs::write(&part, bytes)
        .and_then(|()| std::fs::rename(&part, path))
        .map_err(|e| format!("cannot write {}: {e}", shown_path(path)))
}

/// The (deck/id, hash) pairs of an earlier print.
fn read_manifest(pdf: &Path) -> Result<BTreeMap<String, String>, Fail> {
    let m = manifest_path(pdf);
    let text = std::fs::read_to_string(&m).map_err(|e| {
        Fail::Usage(format!(
            "cannot read {} ({e}): --changed-since needs the card list `farebox print` wrote beside the earlier PDF",
            shown_path(&m)
        ))
    })?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Fail::Usage(format!("{}: not a card list: {e}", shown_path(&m))))?;
    let mut out = BTreeMap::new();
    for c in v["cards"].as_array().into_iter().flatten() {
        if let (Some(d), Some(i), Some(h)) =
            (c["deck"].as_str(), c["id"].as_str(), c["hash"].as_str())
        {
            out.insert(format!("{d}/{i}"), h.to_string());
        }
    }
    Ok(out)
}

/// Each card's figures from a seeded run of `args.games` bot games (the run `farebox sim`
/// makes with the same seed and bots), as the lines printed under it, by `deck/id`.
fn figure_notes(
    def: &farebox::GameDef,
    located: &crate::common::Located,
    args: &PrintArgs,
    io: &mut Io,
) -> Result<BTreeMap<String, Vec<String>>, Fail> {
    use farebox::agent::{Checks, Labels};
    use std::sync::atomic::AtomicBool;
    let def = Arc::new(def.clone());
    if !def.playable() {
        return Err(crate::common::not_playable(&def, &located.name));
    }
    let bots = split_list(&args.bots, "--bots")?;
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    let seats = seat_count(&def, None, &bots);
    let base = setup(&def, seats, args.seed, &[])?;
    let batch = farebox::batch::Batch::new(&def, base, &bots, 5000)
        .map_err(Fail::Usage)?
        .games(args.games)
        .threads(crate::common::threads_for(None, args.games))
        .checks(Checks {
            labels: Labels::Never,
            profile: false,
            figures: true,
        });
    let mut tally = farebox::figures::Tally::new(&def, seats);
    batch.play(&AtomicBool::new(false), &|| {}, &mut |o| tally.add(&o));
    let st = tally.stats();
    io.note(format!(
        "figures from {} {} ({} finished) of {} with {}, seed {}",
        st.games,
        plural(st.games, "game"),
        st.finished,
        def.name,
        args.bots,
        args.seed
    ));
    let shared = |id: &str| {
        def.decks
            .iter()
            .flat_map(|d| &d.cards)
            .filter(|c| c.id == id)
            .count()
            > 1
    };
    let mut out = BTreeMap::new();
    for d in &def.decks {
        for c in &d.cards {
            let key = format!("{}/{}", d.id, c.id);
            let f = if shared(&c.id) {
                st.figures.cards.get(&key)
            } else {
                st.figures.cards.get(&c.id)
            };
            let lines = match f {
                Some(f) => vec![
                    format!(
                        "held: won {} of {} seats",
                        rate_text(f.win_rate_held, f.win_rate_held_interval),
                        f.seats_held
                    ),
                    format!(
                        "played: won {} of {} seats",
                        rate_text(f.win_rate_played, f.win_rate_played_interval),
                        f.seats_played
                    ),
                ],
                None => vec![format!("never held in {} games", st.games)],
            };
            let mut lines = lines;
            lines.push(format!(
                "{} games, {}, seed {}",
                st.games, args.bots, args.seed
            ));
            out.insert(key, lines);
        }
    }
    Ok(out)
}

pub fn run(args: PrintArgs, io: &mut Io) -> Result<i32, Fail> {
    let started = Instant::now();
    let paper = match args.paper.to_ascii_lowercase().as_str() {
        "a4" => A4,
        "letter" => LETTER,
        other => {
            return Err(Fail::Usage(format!(
                "--paper is `{}`; give a4 or letter",
                shown(other, MAX_SHOWN)
            )));
        }
    };
    if !(0.0..=10.0).contains(&args.bleed) {
        return Err(Fail::Usage(format!(
            "--bleed is {} mm; give 0 to 10",
            args.bleed
        )));
    }
    let card = match &args.card {
        Some(c) => {
            Some(print::layout::card_size(c).map_err(|e| Fail::Usage(format!("--card: {e}")))?)
        }
        None => None,
    };
    let located = locate(&args.spec)?;
    let def = load_located(&located).map_err(|diags| {
        for d in diags.iter() {
            io.note(clean_report(&d.to_string()));
        }
        Fail::Invalid(format!(
            "{} does not load ({} {})",
            shown(&args.spec, MAX_SHOWN),
            diags.len(),
            plural(diags.len(), "error")
        ))
    })?;
    let mut opts = Options {
        paper,
        bleed: args.bleed,
        card,
        duplex: args.duplex,
        low_ink: args.low_ink,
        only: None,
        notes: None,
        layout: print::Layout::parse(&args.layout).map_err(Fail::Usage)?,
        gutter_fold: args.gutter_fold,
    };
    if args.figures {
        opts.notes = Some(figure_notes(&def, &located, &args, io)?);
    }
    if let Some(old) = &args.changed_since {
        let before = read_manifest(old)?;
        let mut only = BTreeSet::new();
        for d in &def.decks {
            for c in &d.cards {
                let h = print::cards::card_hash(d, c);
                if before.get(&format!("{}/{}", d.id, c.id)) != Some(&h) {
                    only.insert(c.id.clone());
                }
            }
        }
        if only.is_empty() {
            io.note(format!(
                "no card changed since {}; nothing to print",
                shown_path(old)
            ));
            return Ok(0);
        }
        opts.only = Some(only);
    }
    let printed = print::compose(&def, &located.folder, &opts).map_err(|errs| {
        for e in &errs {
            io.note(clean_report(e));
        }
        Fail::Invalid(format!(
            "{} cannot be printed ({} {})",
            shown(&args.spec, MAX_SHOWN),
            errs.len(),
            plural(errs.len(), "error")
        ))
    })?;
    for w in &printed.warnings {
        io.note(clean_report(&format!("warning: {w}")));
    }
    let bytes = print::pdf::write(&printed.pages).map_err(Fail::Invalid)?;
    write_atomic(&args.out, &bytes).map_err(Fail::Usage)?;
    if opts.only.is_none() {
        write_manifest(&args.out, &printed).map_err(Fail::Usage)?;
    }
    let cards = printed.cards.len();
    io.say(format!(
        "{}: {} {}, {} {}, {} {} in {:.1} s",
        shown_path(&args.out),
        printed.pages.len(),
        plural(printed.pages.len(), "page"),
        cards,
        plural(cards, "card"),
        printed.warnings.len(),
        plural(printed.warnings.len(), "warning"),
        started.elapsed().as_secs_f64()
    ));
    if let Some(dir) = &args.png_dir {
        // One picture a card wants its whole bleed, which butted cards on a sheet do not
        // have: lay the cards out again, spaced.
        let spaced = Options {
            layout: print::Layout::Spaced,
            gutter_fold: false,
            duplex: false,
            notes: None,
            ..opts.clone()
        };
        let alone = print::compose(&def, &located.folder, &spaced)
            .map_err(|errs| Fail::Invalid(errs.first().cloned().unwrap_or_default()))?;
        let n = write_pngs(&alone, opts.bleed, dir)?;
        io.say(format!("{}: {n} {}", shown_path(dir), plural(n, "PNG")));
    }
    Ok(0)
}

/// One page per card (its bleed around it, its trim as the trim box), rendered by pdftoppm to
/// `DIR/DECK-ID-N.png`.
fn write_pngs(p: &Printed, bleed: f32, dir: &Path) -> Result<usize, Fail> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Fail::Usage(format!("cannot create {}: {e}", shown_path(dir))))?;
    let mut pages = Vec::new();
    let mut names = Vec::new();
    let mut copies: BTreeMap<String, usize> = BTreeMap::new();
    for c in &p.cards {
        let Some(sheet) = p.pages.get(c.page) else {
            continue;
        };
        let b = c.trim.inset(-bleed);
        pages.push(Page {
            w: b.w,
            h: b.h,
            trim: Some(Rect::new(bleed, bleed, c.trim.w, c.trim.h)),
            bleed: Some(Rect::new(0.0, 0.0, b.w, b.h)),
            items: vec![Item::Group {
                clip: Some(Rect::new(0.0, 0.0, b.w, b.h)),
                translate: (-b.x, -b.y),
                rotate: 0.0,
                pivot: (0.0, 0.0),
                items: sheet.items.clone(),
            }],
            label: c.id.clone(),
        });
        let n = copies.entry(format!("{}-{}", c.deck, c.id)).or_default();
        *n += 1;
        names.push(format!("{}-{}-{}.png", c.deck, c.id, n));
    }
    let bytes = print::pdf::write(&pages).map_err(Fail::Invalid)?;
    let tmp = dir.join(".cards.pdf");
    std::fs::write(&tmp, bytes)
        .map_err(|e| Fail::Usage(format!("cannot write {}: {e}", shown_path(&tmp))))?;
    let status = std::process::Command::new("pdftoppm")
        .arg("-png")
        .args(["-r", "300"])
        .arg(&tmp)
        .arg(dir.join(".card"))
        .status();
    let _ = std::fs::remove_file(&tmp);
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => {
            return Err(Fail::Invalid(format!(
                "pdftoppm failed ({s}) making the PNGs"
            )));
        }
        Err(e) => {
            return Err(Fail::Usage(format!(
                "cannot run pdftoppm ({e}); --png-dir needs it (Debian and Ubuntu: apt install poppler-utils)"
            )));
        }
    }
    // pdftoppm numbers pages with as many digits as the last needs.
    let mut made: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Fail::Usage(format!("cannot read {}: {e}", shown_path(dir))))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(".card-") && n.ends_with(".png"))
        })
        .collect();
    made.sort();
    for (from, name) in made.iter().zip(&names) {
        std::fs::rename(from, dir.join(name)).map_err(|e| {
            Fail::Usage(format!("cannot write {}: {e}", shown_path(&dir.join(name))))
        })?;
    }
    Ok(made.len().min(names.len()))
}
