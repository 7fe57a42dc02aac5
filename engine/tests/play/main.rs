//! The engine at play: decks, boards (walks, tracks), what each seat is shown (display,
//! secrets), bots' lookahead and search, the figures of many games, and a Curbside smoke
//! game. One test binary, so the engine is linked once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../support/mod.rs"]
mod support;

mod decks;
mod display;
mod figures;
mod lookahead;
mod search;
mod secrets;
mod smoke_curbside;
mod told;
mod track;
mod walks;
