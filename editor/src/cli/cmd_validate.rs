//! `farebox validate`: load content and compile scripts, print every problem.
//!
//! A mod with rules then plays a few short seeded games with random players, making both
//! labels of every action offered, so a rule or a `describe` hook that fails only in play is
//! found here and not by the first person to play; and replays them with extra hook calls, so
//! rules that remember something between calls are found too (see `farebox::call_order`).
//!
//! Arguments that are not mod folders (a plain file, a folder without `mod.toml`) are skipped
//! with a note, so a shell glob such as `farebox validate mods/*` checks every mod in a folder
//! that also holds a README.

use std::path::Path;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::play_labelled;
use farebox::game::Setup;
use farebox::script::{Host, Limits};

use crate::cli::ValidateArgs;
use crate::common::{Fail, Io, MAX_SHOWN, clean_line, load_located, locate, plural, shown};

pub fn run(args: ValidateArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut all_ok = true;
    let mut validated = 0usize;
    for spec in &args.mods {
        if let Some(why) = not_a_mod(Path::new(spec)) {
            io.note(format!("{}: skipped, {why}", shown(spec, MAX_SHOWN)));
            continue;
        }
        let l = locate(spec)?;
        validated += 1;
        let errors = match load_located(&l) {
            Ok(def) => {
                if def.playable() {
                    let def = Arc::new(def);
                    match Host::new(def.clone(), Limits::default()) {
                        Ok(host) => {
                            match try_games(&def, host).or_else(|| call_order_problem(&def)) {
                                None => 0,
                                Some(problem) => {
                                    io.say(clean_line(&problem));
                                    1
                                }
                            }
                        }
                        Err(e) => {
                            io.say(clean_line(&e.to_string()));
                            1
                        }
                    }
                } else {
                    0
                }
            }
            Err(diags) => {
                for d in diags.iter() {
                    io.say(clean_line(&d.to_string()));
                }
                diags.len().max(1)
            }
        };
        if errors == 0 {
            io.note(format!("{}: ok", shown(&l.name, MAX_SHOWN)));
        } else {
            all_ok = false;
            io.note(format!(
                "{}: {errors} {}",
                shown(&l.name, MAX_SHOWN),
                plural(errors, "error")
            ));
        }
    }
    if validated == 0 {
        return Err(Fail::Usage(format!(
            "nothing was validated: {} not a mod folder",
            if args.mods.len() == 1 {
                "the argument is"
            } else {
                "none of the arguments is"
            }
        )));
    }
    Ok(if all_ok { 0 } else { 1 })
}

/// Rules whose games change when their hooks are called more often (see
/// `farebox::call_order`), as an error line naming the first script of the hook; None when
/// two seeded games of the fewest seats replay the same with every kind of extra call.
pub fn call_order_problem(def: &Arc<GameDef>) -> Option<String> {
    let seats = u8::try_from(def.players.0.max(1)).unwrap_or(u8::MAX);
    let f = farebox::call_order::check(def, seats, &[1, 2], 300)?;
    let file = f.scripts.first().cloned().unwrap_or_else(|| def.id.clone());
    Some(format!("{file}: error: {f}"))
}

/// Why an existing path is not a mod folder, if it is not one. Paths that do not exist are
/// left to `locate` (a bundled mod id, or a mistake it reports).
fn not_a_mod(p: &Path) -> Option<&'static str> {
    if p.is_file() {
        Some("a file, not a mod folder")
    } else if p.is_dir() && !p.join("mod.toml").is_file() {
        Some("a folder without a mod.toml")
    } else {
        None
    }
}

/// The games `validate` plays: (the most seats rather than the fewest, seed), each to at most
/// [`TRY_CAP`] actions.
const TRY_GAMES: [(bool, u64); 3] = [(false, 1), (false, 2), (true, 3)];
const TRY_CAP: u32 = 300;

/// Plays the few short games `validate` tries, with random players, making every label; the
/// first problem, saying which game.
fn try_games(def: &Arc<GameDef>, host: Host) -> Option<String> {
    let (lo, hi) = def.players;
    let mut vm = Some(host);
    for (most, seed) in TRY_GAMES {
        let seats = if most { hi } else { lo }.clamp(1, 16) as u8;
        let o = play_labelled(
            def,
            Setup::new(seats, seed),
            &["random".to_string()],
            TRY_CAP,
            &mut vm,
        );
        if let Some(e) = o.error {
            return Some(format!(
                "{e} (found in a trial game: {seats} random players, seed {seed})"
            ));
        }
    }
    None
}
