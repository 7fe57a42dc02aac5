//! Replays: a recorded game that anyone can re-run and check.
//!
//! A replay holds the mods (ids and versions) and their content hash, the setup (seats, seed,
//! options), and every action with the state hash after it. [`verify`] re-runs the game and
//! compares each hash, so a changed action, seed, rule or content file is caught at the first
//! action where the games part.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::GameDef;
use crate::game::{Game, GameError, Setup};
use crate::state::GameResult;

pub const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub seat: u8,
    pub action: String,
    /// State hash after the action.
    pub hash: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: u32,
    #[serde(rename = "mod")]
    pub mod_id: String,
    /// (id, version) of every mod layer, dependencies first.
    pub layers: Vec<(String, String)>,
    pub content_hash: String,
    pub setup: Setup,
    /// State hash after setup.
    pub start: String,
    pub steps: Vec<Step>,
    pub result: Option<GameResult>,
}

impl Replay {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
    /// Reads a replay and checks every field (see [`Replay::check`]). Errors give the line
    /// and column where JSON has one, and never echo more than a short piece of the input.
    pub fn from_json(text: &str) -> Result<Replay, String> {
        let text = text.strip_prefix(crate::source::BOM).unwrap_or(text);
        let r: Replay = serde_json::from_str(text).map_err(|e| {
            let msg = e.to_string();
            // serde's message ends with " at line L column C"; the place is given in front.
            let msg = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m)
                .to_string();
            format!(
                "{}:{}: not a Farebox replay: {}",
                e.line(),
                e.column(),
                crate::content::load::cut(
                    &crate::content::load::friendly_toml_error(&msg),
                    MAX_ECHO
                )
            )
        })?;
        r.check()?;
        Ok(r)
    }

    /// Checks what JSON alone does not: the format, the sizes of lists and strings, and that
    /// ids, versions and hashes look like what [`Recorder`] writes.
    pub fn check(&self) -> Result<(), String> {
        let cut = |s: &str| crate::content::load::cut(s, MAX_ECHO).into_owned();
        if self.format != FORMAT {
            return Err(format!(
                "replay format {} is not supported (this Farebox reads format {FORMAT})",
                self.format
            ));
        }
        let id_ok = |s: &str| {
            !s.is_empty()
                && s.len() <= 64
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        };
        if !id_ok(&self.mod_id) {
            return Err(format!(
                "`mod` is `{}`, which is not a mod id",
                cut(&self.mod_id)
            ));
        }
        if self.layers.is_empty() || self.layers.len() > crate::content::load::MAX_LAYERS {
            return Err(format!(
                "`layers` lists {} mods; a game is built of 1 to {}",
                self.layers.len(),
                crate::content::load::MAX_LAYERS
            ));
        }
        for (id, version) in &self.layers {
            if !id_ok(id) {
                return Err(format!(
                    "`layers` names `{}`, which is not a mod id",
                    cut(id)
                ));
            }
            let v_ok = !version.is_empty()
                && version.len() <= 32
                && version.split('.').all(|p| {
                    !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit())
                });
            if !v_ok {
                return Err(format!(
                    "mod `{id}` has version `{}`; versions are numbers like 1.2.0",
                    cut(version)
                ));
            }
        }
        let hash_ok =
            |h: &str| !h.is_empty() && h.len() <= 64 && h.bytes().all(|b| b.is_ascii_hexdigit());
        if !hash_ok(&self.content_hash) {
            return Err(format!(
                "`content_hash` is `{}`, not a hash",
                cut(&self.content_hash)
            ));
        }
        if !hash_ok(&self.start) {
            return Err(format!("`start` is `{}`, not a hash", cut(&self.start)));
        }
        if self.setup.seats == 0 || self.setup.seats > MAX_SEATS {
            return Err(format!(
                "`setup.seats` is {}; games have 1 to {MAX_SEATS} seats",
                self.setup.seats
            ));
        }
        if self.setup.options.len() > 1_000 {
            return Err("`setup.options` has more than 1000 entries".into());
        }
        for (k, v) in &self.setup.options {
            let text = v.to_string();
            if k.len() > 64 || text.len() > 1_000 {
                return Err(format!(
                    "option `{}` = `{}` is too long",
                    cut(k),
                    cut(&text)
                ));
            }
        }
        if self.steps.len() > MAX_STEPS {
            return Err(format!(
                "the replay has {} actions; at most {MAX_STEPS} are replayed",
                self.steps.len()
            ));
        }
        for (i, step) in self.steps.iter().enumerate() {
            if step.seat >= self.setup.seats {
                return Err(format!(
                    "action {} is by seat {}, and the game has {} seats",
                    i + 1,
                    step.seat as u32 + 1,
                    self.setup.seats
                ));
            }
            if step.action.is_empty() || step.action.len() > MAX_ACTION_CHARS {
                return Err(format!(
                    "action {} is `{}` ({} bytes); actions are 1 to {MAX_ACTION_CHARS} bytes",
                    i + 1,
                    cut(&step.action),
                    step.action.len()
                ));
            }
            // The rest of what the `actions` hook is held to (one line of text).
            if let Some(why) = crate::action::problem(&step.action) {
                return Err(format!(
                    "action {} ({} bytes) {why}",
                    i + 1,
                    step.action.len()
                ));
            }
            if !hash_ok(&step.hash) {
                return Err(format!(
                    "action {} has hash `{}`, not a hash",
                    i + 1,
                    cut(&step.hash)
                ));
            }
        }
        if let Some(r) = &self.result {
            let n = self.setup.seats as usize;
            if r.places.len() > n || r.scores.len() > n || r.reason.len() > 10_000 {
                return Err("`result` does not fit the game's seats".into());
            }
        }
        Ok(())
    }
}

/// How much of a bad value an error repeats.
pub const MAX_ECHO: usize = 200;
/// The most seats a replay may have (as the content allows).
pub const MAX_SEATS: u8 = 16;
/// The most actions a replay may hold: as many as a game may take.
pub const MAX_STEPS: usize = crate::game::MAX_ACTIONS;
/// The longest action a replay may hold, in bytes (as the `actions` hook may offer).
pub const MAX_ACTION_CHARS: usize = crate::action::MAX_BYTES;
/// The largest replay file read.
pub const MAX_REPLAY_BYTES: u64 = 256 << 20;

/// Records a replay while a game is played: call [`Recorder::step`] after each action.
pub struct Recorder {
    replay: Replay,
}

impl Recorder {
    pub fn new(game: &Game) -> Recorder {
        let def = game.def();
        Recorder {
            replay: Replay {
                format: FORMAT,
                mod_id: def.id.clone(),
                layers: def.layers.clone(),
                content_hash: def.content_hash.clone(),
                setup: game.setup().clone(),
                start: game.state().hash(),
                steps: vec![],
                result: None,
            },
        }
    }
    pub fn step(&mut self, seat: u8, action: &str, game: &Game) {
        self.replay.steps.push(Step {
            seat,
            action: action.to_string(),
            hash: game.state().hash(),
        });
    }
    pub fn finish(mut self, game: &Game) -> Replay {
        self.replay.result = game.result().cloned();
        self.replay
    }
}

/// Why a replay did not verify.
#[derive(Debug, Clone, PartialEq)]
pub enum Mismatch {
    Mod(String),
    Content {
        recorded: String,
        found: String,
    },
    Start,
    /// The action at this index (0-based) was refused or led to another state.
    Step {
        index: usize,
        why: String,
    },
    Result,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Mod(m) => write!(f, "{m}"),
            Mismatch::Content { recorded, found } => write!(
                f,
                "the content differs from the recording (recorded {recorded}, found {found})"
            ),
            Mismatch::Start => write!(f, "the state after setup differs from the recording"),
            Mismatch::Step { index, why } => {
                write!(f, "action {} of the recording: {why}", index + 1)
            }
            Mismatch::Result => write!(f, "the final result differs from the recording"),
        }
    }
}

/// A replay as one seat saw it, for giving to that seat: after each action, the label that
/// seat is shown for it (its own label for its own actions, the public one for everyone
/// else's) and the log lines it may read. Nothing it may not see is in it: not the seed, not
/// another seat's private lines, not a face-down card. The replay is verified first.
pub fn seat_transcript(
    def: &Arc<GameDef>,
    replay: &Replay,
    seat: u8,
) -> Result<Vec<String>, Mismatch> {
    verify(def, replay)?;
    if seat >= replay.setup.seats {
        return Err(Mismatch::Mod(format!(
            "the replay has {} seats, so there is no seat {}",
            replay.setup.seats,
            seat as u32 + 1
        )));
    }
    let mut game =
        Game::new(def.clone(), replay.setup.clone()).map_err(|e| Mismatch::Mod(e.to_string()))?;
    let viewer = Some(seat);
    let mut out = vec![format!(
        "{} {}, as {} saw it",
        def.name,
        def.version,
        def.seat_name(seat as usize)
    )];
    let said = |game: &Game, from: usize, out: &mut Vec<String>| {
        for e in &game.log()[from..] {
            if e.seen.by(viewer) {
                out.push(format!("           * {}", e.text));
            }
        }
    };
    said(&game, 0, &mut out);
    for (index, step) in replay.steps.iter().enumerate() {
        let label = game.describe_for(&step.action, viewer);
        let told = game.log().len();
        game.apply(&step.action).map_err(|e| Mismatch::Step {
            index,
            why: e.to_string(),
        })?;
        out.push(format!(
            "{:>4} {:<6} {label}",
            index + 1,
            def.seat_name(step.seat as usize)
        ));
        said(&game, told, &mut out);
    }
    if let Some(r) = game.result() {
        out.push(format!("game over: {}", r.reason));
    }
    Ok(out)
}

/// What differs between the mods (id, version) a replay was recorded with and the mods
/// loaded, in order, dependencies first: every difference, or None when they are the same.
fn layers_differ(recorded: &[(String, String)], loaded: &[(String, String)]) -> Option<String> {
    if recorded == loaded {
        return None;
    }
    let cut = |s: &str| crate::content::load::cut(s, 64).into_owned();
    let mut said = Vec::new();
    for (id, version) in recorded {
        match loaded.iter().find(|(l, _)| l == id) {
            Some((_, v)) if v != version => said.push(format!(
                "`{}` was {} when recorded, and {v} is loaded",
                cut(id),
                cut(version)
            )),
            Some(_) => {}
            None => said.push(format!(
                "`{}` {} was part of the recorded game, and is not loaded",
                cut(id),
                cut(version)
            )),
        }
    }
    for (id, v) in loaded {
        if !recorded.iter().any(|(r, _)| r == id) {
            said.push(format!(
                "`{id}` {v} is loaded, and was not part of the recorded game"
            ));
        }
    }
    if said.is_empty() {
        let list = |l: &[(String, String)]| {
            l.iter()
                .map(|(id, v)| format!("{} {}", cut(id), cut(v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        said.push(format!(
            "the mods were recorded in the order {}, and are loaded in the order {}",
            list(recorded),
            list(loaded)
        ));
    }
    Some(format!(
        "the replay was recorded with other mods: {}",
        said.join("; ")
    ))
}

/// Re-runs a replay and checks every hash.
pub fn verify(def: &Arc<GameDef>, replay: &Replay) -> Result<Game, Mismatch> {
    if replay.mod_id != def.id {
        return Err(Mismatch::Mod(format!(
            "the replay is of `{}`, not `{}`",
            replay.mod_id, def.id
        )));
    }
    if let Some(differs) = layers_differ(&replay.layers, &def.layers) {
        return Err(Mismatch::Mod(differs));
    }
    if replay.content_hash != def.content_hash {
        return Err(Mismatch::Content {
            recorded: replay.content_hash.clone(),
            found: def.content_hash.clone(),
        });
    }
    let (lo, hi) = def.players;
    let seats = replay.setup.seats as u32;
    if seats < lo || seats > hi {
        return Err(Mismatch::Mod(format!(
            "the replay has {seats} seats, and `{}` is for {lo} to {hi} players",
            def.id
        )));
    }
    let mut game =
        Game::new(def.clone(), replay.setup.clone()).map_err(|e| Mismatch::Mod(e.to_string()))?;
    if game.state().hash() != replay.start {
        return Err(Mismatch::Start);
    }
    for (index, step) in replay.steps.iter().enumerate() {
        if game.active() != step.seat {
            return Err(Mismatch::Step {
                index,
                why: format!(
                    "it was seat {}'s turn, not seat {}'s",
                    game.active() + 1,
                    step.seat + 1
                ),
            });
        }
        match game.apply(&step.action) {
            Ok(()) => {}
            Err(GameError::Illegal(a)) => {
                return Err(Mismatch::Step {
                    index,
                    why: format!(
                        "`{}` is not legal there",
                        crate::content::load::cut(&a, MAX_ECHO)
                    ),
                });
            }
            Err(e) => {
                return Err(Mismatch::Step {
                    index,
                    why: e.to_string(),
                });
            }
        }
        if game.state().hash() != step.hash {
            return Err(Mismatch::Step {
                index,
                why: format!(
                    "`{}` led to a different state",
                    crate::content::load::cut(&step.action, MAX_ECHO)
                ),
            });
        }
    }
    if game.result() != replay.result.as_ref() {
        return Err(Mismatch::Result);
    }
    Ok(game)
}
