//! # Farebox engine
//!
//! Farebox runs tabletop games that are written as mods: TOML content (boards, tiles, decks,
//! tables, pieces, options) and Luau rule scripts. This crate is everything but the user
//! interface: it loads and validates mods ([`content`]), builds boards ([`board`]), owns the
//! game state ([`state`]), runs rule scripts in a sandbox ([`script`]), plays games through an
//! action model ([`game`]), provides agents ([`agent`], the search bot in [`search`]), and records and verifies replays
//! ([`replay`]).
//!
//! The flow for a caller:
//!
//! ```no_run
//! use farebox::{content, source::FsSource, game::{Game, Setup}};
//! let def = content::load_mod(&FsSource::new("mods/curbside"), &content::NoDependencies).unwrap();
//! let mut game = Game::new(std::sync::Arc::new(def), Setup::new(2, 7)).unwrap();
//! while !game.is_over() {
//!     let actions = game.legal_actions().unwrap();
//!     game.apply(&actions[0]).unwrap();
//! }
//! ```

pub mod action;
pub mod agent;
pub mod batch;
pub mod board;
pub mod call_order;
pub mod content;
pub mod diag;
pub mod duel;
pub mod figures;
pub mod game;
pub mod leaks;
pub mod luau;
pub mod replay;
pub mod rng;
pub mod schema;
pub mod script;
pub mod search;
pub mod source;
pub mod state;
pub mod value;

pub use content::GameDef;
pub use diag::{Diagnostic, Diagnostics};
pub use value::Value;
