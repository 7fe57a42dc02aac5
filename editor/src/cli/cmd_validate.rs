//! `farebox validate`: load content and compile scripts, print every problem.
//!
//! A mod with rules then plays short seeded games with random players, making both labels of
//! every action offered, so a rule or a `describe` hook that fails only in play is found here
//! and not by the first person to play; and replays one with extra hook calls, so rules that
//! remember something between calls are found too (see `farebox::call_order`). How much it
//! plays is a [`Depth`]: by default [`QUICK`], every kind of check once over short games, cheap
//! enough to run on every save; with `--deep` [`DEEP`], longer games and more seeds, which
//! `farebox test` also runs.
//!
//! Arguments that are not mod folders (a plain file, a folder without `mod.toml`) are skipped
//! with a note, so a shell glob such as `farebox validate mods/*` checks every mod in a folder
//! that also holds a README.

use std::path::Path;
use std::sync::Arc;

use farebox::GameDef;
use farebox::agent::{AgentSpec, Labels};
use farebox::batch::Batch;
use farebox::game::Setup;
use farebox::script::{Host, Limits};

use crate::cli::ValidateArgs;
use crate::common::{Fail, Io, MAX_SHOWN, clean_report, load_located, locate, plural, shown};

/// How much of a mod `validate` plays once its content loads and its scripts compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    /// The trial games, every label made: (the most seats rather than the fewest, seed).
    pub games: &'static [(bool, u64)],
    /// Actions at most in each trial game.
    pub cap: u32,
    /// Seeds of the games of the fewest seats replayed with extra hook calls.
    pub order_seeds: &'static [u64],
    /// Actions at most in each of those.
    pub order_cap: usize,
}

/// What `validate` plays by default, on every save: a trial game of the fewest seats and one
/// of the most, and one game replayed with every kind of extra hook call, each to at most a
/// few dozen actions. Every check runs; a problem that shows only late in a long game is left
/// to [`DEEP`].
pub const QUICK: Depth = Depth {
    games: &[(false, 1), (true, 3)],
    cap: 40,
    order_seeds: &[1],
    order_cap: 30,
};

/// `validate --deep` and `farebox test`: three trial games and two replayed ones, each to at
/// most 300 actions.
pub const DEEP: Depth = Depth {
    games: &[(false, 1), (false, 2), (true, 3)],
    cap: 300,
    order_seeds: &[1, 2],
    order_cap: 300,
};

pub fn run(args: ValidateArgs, io: &mut Io) -> Result<i32, Fail> {
    let depth = if args.deep { DEEP } else { QUICK };
    let mut all_ok = true;
    let mut validated = 0usize;
    for spec in &args.mods {
        if let Some(why) = not_a_mod(Path::new(spec)) {
            io.note(format!("{}: skipped, {why}", shown(spec, MAX_SHOWN)));
            continue;
        }
        // A mod.toml that is there but cannot be read (a FIFO, a link to a device) is this
        // mod's error, not a folder to skip.
        let manifest = Path::new(spec).join("mod.toml");
        if Path::new(spec).is_dir()
            && let Some(why) = farebox::source::not_a_regular_file(&manifest)
        {
            validated += 1;
            all_ok = false;
            io.say(format!(
                "{}: error: {why}; a mod's files are read only when they are regular files",
                crate::common::shown_path(&manifest)
            ));
            io.note(format!("{}: 1 error", shown(spec, MAX_SHOWN)));
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
                            let mut vm = Some(host);
                            match trial_games(&def, &mut vm, depth)
                                .or_else(|| call_order_problem(&def, depth, &mut vm))
                                .or_else(|| leak_problem(&def, depth, &mut vm))
                            {
                                None => 0,
                                Some(problem) => {
                                    io.say(clean_report(&problem));
                                    1
                                }
                            }
                        }
                        Err(e) => {
                            io.say(clean_report(&e.to_string()));
                            1
                        }
                    }
                } else {
                    0
                }
            }
            Err(diags) => {
                for d in diags.iter() {
                    io.say(clean_report(&d.to_string()));
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
/// the games of `depth` replay the same with every kind of extra call. The games run on the
/// VM in `vm` when there is one.
pub fn call_order_problem(
    def: &Arc<GameDef>,
    depth: Depth,
    vm: &mut Option<Host>,
) -> Option<String> {
    let seats = u8::try_from(def.players.0.max(1)).unwrap_or(u8::MAX);
    let f = farebox::call_order::check_reusing(def, seats, depth.order_seeds, depth.order_cap, vm)?;
    let file = f.scripts.first().cloned().unwrap_or_else(|| def.id.clone());
    Some(format!("{file}: error: {f}"))
}

/// Hidden information the rules' own words show (see `farebox::leaks`), as an error line
/// naming the first script that wrote it; None when the trial games of `depth` show none.
pub fn leak_problem(def: &Arc<GameDef>, depth: Depth, vm: &mut Option<Host>) -> Option<String> {
    let (lo, hi) = def.players;
    for &(most, seed) in depth.games {
        let seats = if most { hi } else { lo }.clamp(1, 16) as u8;
        if let Some(leak) = farebox::leaks::first_leak(def, seats, &[seed], depth.cap as usize, vm)
        {
            let file = leak
                .scripts
                .first()
                .cloned()
                .unwrap_or_else(|| def.id.clone());
            return Some(format!("{file}: error: {leak}"));
        }
    }
    None
}

/// Why an existing path is not a mod folder, if it is not one. Paths that do not exist are
/// left to `locate` (a bundled mod id, or a mistake it reports).
fn not_a_mod(p: &Path) -> Option<&'static str> {
    if p.is_file() {
        Some("a file, not a mod folder")
    } else if p.is_dir() && std::fs::metadata(p.join("mod.toml")).is_err() {
        Some("a folder without a mod.toml")
    } else {
        None
    }
}

/// Plays the trial games of `depth` with random players, making every label, on the VM in
/// `vm` (reset for each game) and leaving it there; the first problem, saying which game.
pub fn trial_games(def: &Arc<GameDef>, vm: &mut Option<Host>, depth: Depth) -> Option<String> {
    let (lo, hi) = def.players;
    for &(most, seed) in depth.games {
        let seats = if most { hi } else { lo }.clamp(1, 16) as u8;
        let o = Batch::of_specs(
            def,
            Setup::new(seats, seed),
            vec![AgentSpec::Random],
            depth.cap,
        )
        .labels(Labels::Always)
        .play_one(0, vm, None);
        if let Some(e) = o.error {
            return Some(format!(
                "{e} (found in a trial game: {seats} random players, seed {seed})"
            ));
        }
    }
    None
}
