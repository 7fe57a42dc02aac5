//! `farebox replay`: re-run a replay file and check it.

use farebox::replay::{Replay, seat_transcript, verify};

use crate::cli::ReplayArgs;
use crate::common::{Fail, Io, MAX_SHOWN, load_for_play, result_line, shown, shown_path};

/// The longest line of a transcript shown whole: a log line (4,000 bytes at most) and what
/// is put before it; a longer label is cut (see `shown`).
const MAX_LINE: usize = 4_100;

pub fn run(args: ReplayArgs, io: &mut Io) -> Result<i32, Fail> {
    let file = shown_path(&args.file);
    let text = farebox::source::read_bounded(&args.file, farebox::replay::MAX_REPLAY_BYTES)
        .map_err(|e| Fail::Usage(format!("cannot read {file}: {e}")))?;
    let replay = Replay::from_json(&text).map_err(|e| {
        // "line:col: message" from JSON, or a plain message from the checks after it.
        let sep = if e.starts_with(|c: char| c.is_ascii_digit()) {
            ":"
        } else {
            ": "
        };
        Fail::Invalid(format!("{file}{sep}{e}"))
    })?;
    let def = match args.game {
        Some(spec) => load_for_play(&spec, io)?,
        // Not a bundled mod or one in FAREBOX_MODS: say how to name its folder.
        None => load_for_play(&replay.mod_id, io).map_err(|e| match e {
            Fail::Usage(m) => Fail::Usage(format!(
                "{m}; the replay was recorded from the mod `{}`: give its folder with --mod PATH",
                shown(&replay.mod_id, MAX_SHOWN)
            )),
            other => other,
        })?,
    };
    if let Some(seat) = args.seat {
        let lines = match seat_transcript(&def, &replay, seat - 1) {
            Ok(l) => l,
            Err(m) => {
                io.say(format!("replay does not verify: {m}"));
                return Ok(1);
            }
        };
        match &args.out {
            Some(path) => {
                let text = lines
                    .iter()
                    .map(|l| shown(l, MAX_LINE))
                    .collect::<Vec<_>>()
                    .join("\n")
                    + "\n";
                farebox::source::write_atomic(path, &text).map_err(|e| {
                    Fail::Invalid(format!("cannot write {}: {e}", shown_path(path)))
                })?;
                io.say(format!(
                    "wrote the game as seat {seat} saw it to {}",
                    shown_path(path)
                ));
            }
            None => {
                for l in lines {
                    io.say(shown(&l, MAX_LINE));
                }
            }
        }
        return Ok(0);
    }
    match verify(&def, &replay) {
        Ok(game) => {
            let result = game
                .result()
                .map_or("unfinished".to_string(), |r| result_line(&def, r));
            io.say(format!(
                "verified: {} actions, result {result}",
                replay.steps.len()
            ));
            Ok(0)
        }
        Err(m) => {
            io.say(format!("replay does not verify: {m}"));
            Ok(1)
        }
    }
}
