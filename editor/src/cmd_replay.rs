//! `farebox replay`: re-run a replay file and check it.

use farebox::replay::{Replay, verify};

use crate::cli::ReplayArgs;
use crate::common::{Fail, Io, load_for_play, result_line};

pub fn run(args: ReplayArgs, io: &mut Io) -> Result<i32, Fail> {
    let shown = args.file.display();
    let text = farebox::source::read_bounded(&args.file, farebox::replay::MAX_REPLAY_BYTES)
        .map_err(|e| Fail::Usage(format!("cannot read {shown}: {e}")))?;
    let replay = Replay::from_json(&text).map_err(|e| {
        // "line:col: message" from JSON, or a plain message from the checks after it.
        let sep = if e.starts_with(|c: char| c.is_ascii_digit()) {
            ":"
        } else {
            ": "
        };
        Fail::Invalid(format!("{shown}{sep}{e}"))
    })?;
    let spec = args.game.unwrap_or_else(|| replay.mod_id.clone());
    let def = load_for_play(&spec, io)?;
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
