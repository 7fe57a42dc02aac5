//! `farebox validate`: load content and compile scripts, print every problem.

use std::sync::Arc;

use farebox::script::{Host, Limits};

use crate::cli::ValidateArgs;
use crate::common::{Fail, Io, load_located, locate, plural};

pub fn run(args: ValidateArgs, io: &mut Io) -> Result<i32, Fail> {
    let mut all_ok = true;
    for spec in &args.mods {
        let l = locate(spec)?;
        let errors = match load_located(&l) {
            Ok(def) => {
                if def.playable() {
                    match Host::new(Arc::new(def), Limits::default()) {
                        Ok(_) => 0,
                        Err(e) => {
                            io.say(&e);
                            1
                        }
                    }
                } else {
                    0
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
    Ok(if all_ok { 0 } else { 1 })
}
