//! Interaction tests of Farebox Studio, driven through its widgets by their labels with
//! egui_kittest (no GPU, no window). Work the Studio does in the background (loading, the
//! game worker, the file watcher) is waited for by stepping frames until it shows, with a
//! generous bound; nothing here measures time.
//!
//! The tests are kept by the Studio's areas: `play.rs` (games in play), `board.rs` (the board
//! in play), `online.rs` (games online), `edit.rs` (editing content), `reload.rs` (reloading),
//! `replay.rs` (replays) and `scripts.rs` (the console and the scripts' panels); this file
//! holds the helpers they share.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod author;
mod board;
mod edit;
mod level;
mod map;
mod online;
mod outcomes;
mod overlay;
mod play;
mod print;
mod reload;
mod replay;
mod scripts;
mod tune;

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use farebox_editor::studio::board_edit::Tool;
use farebox_editor::studio::{Studio, Tab};

type H = Harness<'static, Option<Studio>>;

/// A Studio opening `spec`, in a harness.
fn studio(spec: String) -> H {
    studio_sized(spec, egui::vec2(1400.0, 900.0))
}

/// A Studio opening `spec` in a window of `size`.
fn studio_sized(spec: String, size: egui::Vec2) -> H {
    Harness::builder().with_size(size).build_ui_state(
        move |ui, s: &mut Option<Studio>| {
            let st =
                s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), Some(spec.clone())));
            st.frame(ui);
        },
        None,
    )
}

/// Steps frames until `done` holds (at most about 30 s of waiting).
fn until(h: &mut H, what: &str, done: impl Fn(&Studio) -> bool) {
    for _ in 0..3000 {
        h.step();
        if h.state().as_ref().is_some_and(&done) {
            h.step();
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("never happened: {what}");
}

/// Steps frames until a widget labelled `label` is shown (at most about 30 s).
fn until_shown(h: &mut H, label: &str) {
    for _ in 0..3000 {
        h.step();
        if h.query_by_label(label).is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("never shown: {label}");
}

/// A copy of a bundled mod in a fresh temporary folder, so tests may change its files.
fn copy_of(id: &str) -> (PathBuf, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mods")
        .join(id);
    let n = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "farebox-studio-{}-{}-{}",
        std::process::id(),
        id,
        n.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + rand_tag()
    ));
    let dest = dir.join(id);
    copy_dir(&src, &dest);
    (dir, dest)
}

fn rand_tag() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The game as the Studio last drew it.
fn snap(h: &H) -> &farebox_editor::studio::worker::Snapshot {
    h.state().as_ref().unwrap().play.snapshot().unwrap()
}

fn step_of(s: &Studio) -> Option<usize> {
    s.play.snapshot().map(|snap| snap.step())
}

/// The live version's definition (the last that loaded or checked valid).
fn live(s: &Studio) -> Option<&farebox::GameDef> {
    s.project.as_ref()?.def.as_deref()
}

/// Waits for the open mod to load.
fn loaded(h: &mut H) {
    until(h, "the mod loaded", |s| live(s).is_some());
}

/// Shows a tab by clicking its name.
fn show_tab(h: &mut H, tab: &str) {
    h.get_by_label(tab).click();
    h.step();
    h.step();
}

/// Steps frames (sleeping a little between them) until `done` holds, for games played by
/// bots, which take many more frames than `until` allows.
fn until_long(h: &mut H, what: &str, done: impl Fn(&Studio) -> bool) {
    for _ in 0..200_000 {
        h.step();
        if h.state().as_ref().is_some_and(&done) {
            h.step();
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("never happened: {what}");
}

/// Steps a few frames: a modal is laid out on the frame after it is asked for, and drawn on
/// the next.
fn settle(h: &mut H) {
    for _ in 0..4 {
        h.step();
    }
}

/// Starts a game of Curbside with seed 7 (bots paused) and takes the person's first action;
/// returns the step before it.
fn play_one_move(h: &mut H) -> usize {
    until(h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(7);
    h.get_by_label("Start the game").click();
    until(h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    h.state_mut().as_mut().unwrap().play.paused = true;
    let before = snap(h).step();
    // Chosen with the keys, not a click: a click can miss under load when the layout shifts.
    h.key_press(egui::Key::ArrowDown);
    h.step();
    assert!(
        h.state().as_ref().unwrap().play.keyed_action().is_some(),
        "no action chosen with the keys"
    );
    h.key_press(egui::Key::Enter);
    until(h, "the move taken and undoable", |s| {
        step_of(s) == Some(before + 1) && s.play.undo_label().is_ok()
    });
    before
}

/// A game of `id` started with a person in the first seat and the mod's bot in the others,
/// shown once the person has actions.
fn started(id: &str, seed: u64) -> H {
    started_sized(id, seed, egui::vec2(1400.0, 900.0))
}

/// [`started`] in a window of `size`.
fn started_sized(id: &str, seed: u64, size: egui::Vec2) -> H {
    let mut h = studio_sized(id.into(), size);
    until(&mut h, "the new-game dialog", |s| s.play.in_dialog());
    h.state_mut().as_mut().unwrap().play.set_seed(seed);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    settle(&mut h);
    h
}

/// A seeded game of `id` recorded to a file in a fresh folder.
fn recorded(id: &str, seed: u64) -> (PathBuf, PathBuf) {
    let (dir, _) = copy_of(id);
    let file = dir.join("game.replay.json");
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "record".into(),
            id.into(),
            "--seed".into(),
            seed.to_string(),
            "--out".into(),
            file.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    assert_eq!(code, 0);
    (dir, file)
}

/// Types `text` into the text field labelled `label`, over what it held.
fn type_into(h: &mut H, label: &str, text: &str) {
    let at = h
        .query_all_by_label(label)
        .find(|n| {
            egui_kittest::kittest::NodeT::accesskit_node(n).role()
                == egui::accesskit::Role::TextInput
        })
        .unwrap_or_else(|| panic!("no field {label}"))
        .rect()
        .center();
    h.hover_at(at);
    h.drag_at(at);
    h.drop_at(at);
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.event(egui::Event::Text(text.into()));
    h.step();
}
