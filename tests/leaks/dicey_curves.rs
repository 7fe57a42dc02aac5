//! Dicey Curves' hidden information (the face-down track deck), checked by meaning: see
//! `tests/rules/dicey_curves/secrets.rs`. The same check runs in the rule tests' mutation harness
//! (DC-S4), where a copy of the mod with the deck turned face up must fail it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../rules/dicey_curves/secrets.rs"]
mod secrets;

#[test]
fn the_track_deck_stays_face_down() {
    secrets::track_deck_stays_face_down(&farebox_suite::rule_kit::shipped("dicey-curves"));
}
