//! No panics on user data: every file of every bundled mod is broken in many small, seeded
//! ways (a line deleted, doubled or swapped, a character dropped or inserted, a number made
//! absurd, a quoted name misspelt, the file cut short, a multi-byte character dropped into
//! the middle), and each broken mod is loaded and, when it still loads, played for a while
//! with its bots. Whatever happens must be a diagnostic or an error, never a panic, and every
//! diagnostic must point at a real place in a real file.
//!
//! `FAREBOX_MUTATIONS=N` sets the number of mutations per file (default 12) for a deeper run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use farebox::batch::Batch;
use farebox::content;
use farebox::game::Setup;
use farebox::rng::Rng;
use farebox::source::MemMods;

/// Byte offsets of the character boundaries of `s`, end included.
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()))
        .collect()
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u32) as usize]
}

/// One seeded mistake in `text`, and what it was (for the failure message).
fn mutate(text: &str, rng: &mut Rng) -> (String, String) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.is_empty() {
        return ("x".into(), "wrote into an empty file".into());
    }
    let line = rng.below(lines.len() as u32) as usize;
    let join = |ls: &[&str]| ls.concat();
    match rng.below(9) {
        0 => {
            let mut ls = lines.clone();
            ls.remove(line);
            (join(&ls), format!("deleted line {}", line + 1))
        }
        1 => {
            let mut ls = lines.clone();
            ls.insert(line, lines[line]);
            (join(&ls), format!("doubled line {}", line + 1))
        }
        2 => {
            let other = rng.below(lines.len() as u32) as usize;
            let mut ls = lines.clone();
            ls.swap(line, other);
            (
                join(&ls),
                format!("swapped lines {} and {}", line + 1, other + 1),
            )
        }
        3 => {
            let b = boundaries(text);
            let i = rng.below((b.len() - 1) as u32) as usize;
            (
                format!("{}{}", &text[..b[i]], &text[b[i + 1]..]),
                format!("dropped the character at byte {}", b[i]),
            )
        }
        4 => {
            let b = boundaries(text);
            let at = *pick(rng, &b);
            let c = *pick(
                rng,
                &[
                    "[", "]", "{", "}", "=", ",", ".", "\"", "'", "#", "\n", "-", "0", "9", "x",
                    "\\", "(", ")", "é", "🚕", "\t", "end", "local",
                ],
            );
            (
                format!("{}{c}{}", &text[..at], &text[at..]),
                format!("inserted {c:?} at byte {at}"),
            )
        }
        5 => {
            // A number made absurd: negative, huge, fractional, or not a number at all.
            let digits: Vec<usize> = text
                .char_indices()
                .filter(|(i, c)| {
                    c.is_ascii_digit()
                        && (*i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric())
                })
                .map(|(i, _)| i)
                .collect();
            if digits.is_empty() {
                return (text[..text.len() / 2].to_string(), "cut in half".into());
            }
            let start = *pick(rng, &digits);
            let end = text[start..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(text.len(), |n| start + n);
            let with = *pick(
                rng,
                &[
                    "-1",
                    "0",
                    "99999999999999999999",
                    "1.5",
                    "\"7\"",
                    "4294967296",
                    "-0",
                ],
            );
            (
                format!("{}{with}{}", &text[..start], &text[end..]),
                format!("number at byte {start} became {with}"),
            )
        }
        6 => {
            // A quoted name misspelt: its last character dropped.
            let quotes: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
            if quotes.len() < 2 {
                return (text.replacen('=', "", 1), "dropped the first =".into());
            }
            let k = rng.below((quotes.len() / 2) as u32) as usize * 2;
            let (open, close) = (quotes[k], quotes[k + 1]);
            if close <= open + 1 {
                return (
                    format!("{}x{}", &text[..close], &text[close..]),
                    format!("filled the empty string at byte {open}"),
                );
            }
            let last = text[..close].char_indices().last().unwrap().0;
            (
                format!("{}{}", &text[..last], &text[close..]),
                format!("misspelt the string at byte {open}"),
            )
        }
        7 => {
            let b = boundaries(text);
            let at = *pick(rng, &b);
            (text[..at].to_string(), format!("cut the file at byte {at}"))
        }
        _ => {
            // A multi-byte character in place of one character of a line.
            let b = boundaries(text);
            let i = rng.below((b.len() - 1) as u32) as usize;
            (
                format!("{}ß{}", &text[..b[i]], &text[b[i + 1]..]),
                format!("replaced the character at byte {} with ß", b[i]),
            )
        }
    }
}

/// What became of the broken mods.
#[derive(Default, Debug)]
struct Tally {
    refused: u32,
    loaded: u32,
    games: u32,
    game_errors: u32,
}

/// Loads `id` from `mods` and plays two short games with its bots when it loads. Returns a
/// complaint when a diagnostic points at no real place; panics escape to the caller.
fn exercise(mods: &MemMods, id: &str, tally: &mut Tally) -> Option<String> {
    let src = mods.0.get(id).unwrap();
    let def = match content::load_mod(src, mods) {
        Ok(def) => def,
        Err(diags) => {
            tally.refused += 1;
            if diags.is_empty() {
                return Some("the load failed with no diagnostic".into());
            }
            for d in diags.iter() {
                let Some((mod_id, rel)) = d.path.split_once('/') else {
                    return Some(format!("a diagnostic names no file: {d}"));
                };
                let Some(text) = mods.0.get(mod_id).and_then(|m| m.files.get(rel)) else {
                    // A missing file is reported by its name, with no position.
                    if d.line == 0 {
                        continue;
                    }
                    return Some(format!("a diagnostic names a file that is not there: {d}"));
                };
                let lines = text.split('\n').count();
                if d.line > lines || (d.line > 0 && d.col == 0) {
                    return Some(format!(
                        "a diagnostic points past its file ({lines} lines): {d}"
                    ));
                }
                if d.message.trim().is_empty() {
                    return Some(format!("a diagnostic says nothing: {d}"));
                }
            }
            return None;
        }
    };
    tally.loaded += 1;
    if !def.playable() {
        return None;
    }
    let def = Arc::new(def);
    let mut agents: Vec<String> = def.bots.iter().map(|b| b.id.clone()).collect();
    agents.push("random".into());
    let seats = def.players.0.max(2).min(def.players.1);
    let batch = match Batch::new(&def, Setup::new(seats as u8, 1), &agents, 150) {
        Ok(b) => b,
        Err(e) => return Some(format!("the mod's own bots are refused: {e}")),
    };
    for game in 0..2 {
        let out = batch.play_one(game, &mut None, None);
        tally.games += 1;
        if let Some(e) = &out.error {
            tally.game_errors += 1;
            if e.trim().is_empty() {
                return Some("a game failed with an empty error".into());
            }
        }
    }
    None
}

#[test]
fn broken_files_give_diagnostics_or_errors_never_panics() {
    let per_file: u32 = std::env::var("FAREBOX_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let mods = farebox_suite::bundled_in_memory();
    assert!(mods.0.len() >= 10, "bundled mods: {:?}", mods.0.keys());
    let mut problems = Vec::new();
    let mut tried = 0;
    let mut tally = Tally::default();
    for (m, (id, src)) in mods.0.iter().enumerate() {
        for (f, (rel, text)) in src.files.iter().enumerate() {
            for k in 0..per_file {
                let mut rng = Rng::new((m as u64) << 40 | (f as u64) << 20 | k as u64, 0x6d75_7461);
                let (broken, what) = mutate(text, &mut rng);
                let mut changed = mods.clone();
                changed
                    .0
                    .get_mut(id)
                    .unwrap()
                    .files
                    .insert(rel.clone(), broken);
                tried += 1;
                match catch_unwind(AssertUnwindSafe(|| exercise(&changed, id, &mut tally))) {
                    Ok(None) => {}
                    Ok(Some(p)) => problems.push(format!("{id}/{rel}, {what}: {p}")),
                    Err(_) => problems.push(format!("{id}/{rel}, {what}: PANIC")),
                }
            }
        }
    }
    assert!(tried >= 500, "only {tried} mutations tried");
    eprintln!("{tried} broken mods: {tally:?}");
    // The mistakes are real ones: many are refused, some still load, and some of the games
    // played with broken scripts end in a script error rather than a panic.
    let t = &tally;
    assert!(t.refused > tried / 4 && t.loaded > tried / 10, "{t:?}");
    assert!(t.games > 20 && t.game_errors > 2, "{t:?}");
    assert!(
        problems.is_empty(),
        "{} of {tried} broken mods were mishandled:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
