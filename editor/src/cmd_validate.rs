//! `farebox validate`: load content and compile scripts, print every problem.
//!
//! Arguments that are not mod folders (a plain file, a folder without `mod.toml`) are skipped
//! with a note, so a shell glob such as `farebox validate mods/*` checks every mod in a folder
//! that also holds a README.

use std::path::Path;
use std::sync::Arc;

use crate::cli::ValidateArgs;
use crate::common::{Fail, Io, load_located, locate, plural};

pub fn run(args: ValidateArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut all_ok = true;
    let mut validated = 0usize;
    for spec in &args.mods {
        if let Some(why) = not_a_mod(Path::new(spec)) {
            io.note(format!("{spec}: skipped, {why}"));
            continue;
        }
        let l = locate(spec)?;
        validated += 1;
        let errors = match load_located(&l) {
            Ok(def) => {
                let def = Arc::new(def);
                match farebox::game::check_scripts(&def) {
                    Ok(()) => match call_order_problem(&def) {
                        Some(line) => {
                            io.say(line);
                            1
                        }
                        None => 0,
                    },
                    Err(e) => {
                        io.say(&e);
                        1
                    }
                }
            }
            Err(diags) => {
                for d in diags.iter() {
                    io.say(d);
                }
                diags.len().max(1)
            }
        };
        if errors == 0 {
            io.note(format!("{}: ok", l.name));
        } else {
            all_ok = false;
            io.note(format!("{}: {errors} {}", l.name, plural(errors, "error")));
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

/// A `describe` that fails or gives no label for an action offered in two seeded games of the
/// fewest seats; else rules whose games change when their hooks are called more often (see
/// `farebox::call_order`), as an error line naming the first script of the hook. None when
/// neither is found.
pub fn call_order_problem(def: &Arc<farebox::GameDef>) -> Option<String> {
    let seats = u8::try_from(def.players.0.max(1)).unwrap_or(u8::MAX);
    // First: every label of every action offered in seeded games can be made.
    if let Some(e) = farebox::call_order::check_labels(def, seats, &[1, 2], 300) {
        return Some(e.to_string());
    }
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
