//! The engine's scripting: the sandbox and hostile scripts, what a script may print, hook
//! chains and house-rule layering, the order and reuse of calls, and the messages a mod
//! author reads. One test binary, so the engine is linked once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod call_order;
mod cooperative;
mod debug_print;
mod error_reports;
mod hook_chain;
mod hostile_scripts;
mod layering;
mod plain_words;
mod raw_calls;
mod reuse;
mod sandbox;
