//! A bot's `choose` runs as a coroutine, stopped at each `game.try` / `game.undo` so the
//! engine can try an action on a copy of the game and answer: the steps it stops at.

/// What a bot's `choose` did when it gave control back.
#[derive(Debug, Clone, PartialEq)]
pub enum BotStep {
    /// It chose: the 0-based index into the actions it was given.
    Chose(usize),
    /// It asked to try an action (`game.try`).
    Try(String),
    /// It asked to take back its last try (`game.undo`).
    Undo,
}

/// A bot's `choose` under way, run as a coroutine so it can stop to try actions.
pub(super) struct BotRun {
    pub(super) thread: mlua::Thread,
    pub(super) script: usize,
    pub(super) hook: String,
    pub(super) actions: Vec<String>,
}

/// What `game.try` and `game.undo` hand to the engine when they stop the bot.
pub(super) const TRY_MARK: &str = "farebox:try";

pub(super) const UNDO_MARK: &str = "farebox:undo";
