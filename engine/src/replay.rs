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
    pub fn from_json(text: &str) -> Result<Replay, String> {
        serde_json::from_str(text).map_err(|e| format!("not a Farebox replay: {e}"))
    }
}

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

/// Re-runs a replay and checks every hash.
pub fn verify(def: &Arc<GameDef>, replay: &Replay) -> Result<Game, Mismatch> {
    if replay.mod_id != def.id {
        return Err(Mismatch::Mod(format!(
            "the replay is of `{}`, not `{}`",
            replay.mod_id, def.id
        )));
    }
    if replay.content_hash != def.content_hash {
        return Err(Mismatch::Content {
            recorded: replay.content_hash.clone(),
            found: def.content_hash.clone(),
        });
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
                    why: format!("`{a}` is not legal there"),
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
                why: format!("`{}` led to a different state", step.action),
            });
        }
    }
    if game.result() != replay.result.as_ref() {
        return Err(Mismatch::Result);
    }
    Ok(game)
}
