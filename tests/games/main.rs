//! The bundled games played whole: the rules give the same game however often their hooks are
//! asked (`call_order.rs`), seeded games never depend on the machine (`limits.rs`), Dicey
//! Curves' bot (`dicey_curves_bot.rs`), and labels as people read them (`*_labels.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod call_order;
mod curbside_labels;
mod dicey_curves_bot;
mod limits;
mod taxi_derby_labels;
