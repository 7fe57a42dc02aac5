//! How long the Studio takes from a file being written to the new version being live, for a
//! copy of Curbside in a temporary folder, with the real file watcher. Two cases: no game
//! open (the new definition replaces the old), and a game of many actions in progress (the
//! game is replayed action by action on the new version and goes on under it). A benchmark,
//! not a test: nothing is asserted about time.
//!
//! cargo bench -p farebox-editor --bench studio_reload
//!
//! Each time is split at the moment the watcher reported the change: before it is the
//! watcher's quiet period (the debounce, so that a burst of saves reloads once), after it
//! the Studio's own work (load, validate, replay the game, swap).

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;
use farebox_editor::studio::{Command, reload::DEBOUNCE};

#[path = "support/mod.rs"]
mod support;

use support::{H, pause, until};

const EDITS: usize = 20;

fn main() {
    let (dir, folder, mut h) = support::studio_on_copy("reload", "curbside");
    let replay = match recorded_game(&dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };

    until(&mut h, |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    settle(&mut h);
    let mod_toml = folder.join("mod.toml");
    let original = std::fs::read_to_string(&mod_toml).unwrap_or_default();

    println!(
        "Reload, Curbside, {EDITS} edits of mod.toml, watcher debounce {} ms",
        DEBOUNCE.as_millis()
    );
    let mut total = Vec::new();
    let mut after = Vec::new();
    for i in 0..EDITS {
        let name = format!("Curbside {i}");
        let t = write_name(&mod_toml, &original, &name);
        until(&mut h, |s| {
            s.project
                .as_ref()
                .and_then(|p| p.def.as_ref())
                .is_some_and(|d| d.name == name)
        });
        total.push(t.elapsed());
        let p = h.state().as_ref().and_then(|s| s.project.as_ref());
        after.push(p.and_then(|p| p.last_reload).unwrap_or_default());
        settle(&mut h);
    }
    report("no game", &mut total, &mut after);

    // A game in progress: the recorded game but its last action, forked with every seat a
    // person so nothing moves between edits.
    let steps = replay.steps.len().saturating_sub(1);
    if let Some(s) = h.state_mut().as_mut() {
        s.apply(Command::Fork {
            setup: replay.setup.clone(),
            history: replay.steps[..steps]
                .iter()
                .map(|s| s.action.clone())
                .collect(),
        });
        s.play.set_people(replay.setup.seats as usize);
    }
    h.step();
    h.get_by_label("Start the game").click();
    until(&mut h, |s| {
        s.play.snapshot().is_some_and(|snap| snap.step() == steps)
    });
    let reloads_before = h
        .state()
        .as_ref()
        .and_then(|s| s.project.as_ref())
        .map_or(0, |p| p.reloads as usize);
    let mut total = Vec::new();
    let mut after = Vec::new();
    for i in 0..EDITS {
        let name = format!("Curbside game {i}");
        let t = write_name(&mod_toml, &original, &name);
        // When the new definition went live, and how long after the watcher's report.
        let mut def_live: Option<(Duration, Duration)> = None;
        until(&mut h, |s| {
            if def_live.is_none()
                && let Some(p) = &s.project
                && p.reloads as usize > reloads_before + i
            {
                def_live = Some((t.elapsed(), p.last_reload.unwrap_or_default()));
            }
            s.play.snapshot().is_some_and(|snap| snap.def.name == name)
        });
        let whole = t.elapsed();
        total.push(whole);
        let reported = def_live.map_or(Duration::ZERO, |(at, took)| at.saturating_sub(took));
        after.push(whole.saturating_sub(reported));
        settle(&mut h);
    }
    report(&format!("game of {steps} actions"), &mut total, &mut after);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes mod.toml with the game renamed, as an editor saving by rename does; when it was
/// written.
fn write_name(mod_toml: &Path, original: &str, name: &str) -> Instant {
    let text = original.replacen("name = \"Curbside\"", &format!("name = \"{name}\""), 1);
    let tmp = mod_toml.with_file_name(".mod.toml.tmp");
    let t = Instant::now();
    if std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, mod_toml))
        .is_err()
    {
        eprintln!("cannot write {}", mod_toml.display());
        std::process::exit(1);
    }
    t
}

/// Lets the watcher go quiet between edits, so each edit is its own reload.
fn settle(h: &mut H) {
    pause(h, Duration::from_millis(300));
}

fn recorded_game(dir: &Path) -> Result<farebox::replay::Replay, String> {
    let file = dir.join("game.replay.json");
    let code = farebox_editor::run(
        vec![
            "farebox".into(),
            "record".into(),
            "curbside".into(),
            "--seed".into(),
            "5".into(),
            "--out".into(),
            file.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    );
    if code != 0 {
        return Err("farebox record failed".into());
    }
    let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    farebox::replay::Replay::from_json(&text)
}

fn report(what: &str, total: &mut [Duration], after: &mut [Duration]) {
    let (t_med, t_max) = support::median_max(total);
    let (a_med, a_max) = support::median_max(after);
    println!(
        "{what:>22}: write to live median {t_med:.1} ms (max {t_max:.1}); after the watcher's report median {a_med:.1} ms (max {a_max:.1})"
    );
}
