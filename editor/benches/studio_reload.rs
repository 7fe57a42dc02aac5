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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use farebox_editor::studio::{Command, Studio, reload::DEBOUNCE};

type H = Harness<'static, Option<Studio>>;

const EDITS: usize = 20;

fn main() {
    let dir = std::env::temp_dir().join(format!("farebox-reload-bench-{}", std::process::id()));
    let folder = dir.join("curbside");
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    if let Err(e) = copy_dir(&mods.join("curbside"), &folder) {
        eprintln!("cannot copy Curbside: {e}");
        std::process::exit(1);
    }
    let replay = match recorded_game(&dir) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };

    let spec = folder.display().to_string();
    let mut h: H = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            move |ui, s: &mut Option<Studio>| {
                let st =
                    s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), Some(spec.clone())));
                st.frame(ui);
            },
            None,
        );
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
        s.play.snapshot().is_some_and(|snap| snap.step == steps)
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

/// Steps frames (1 ms apart) until `done` holds; gives up after a minute.
fn until(h: &mut H, mut done: impl FnMut(&Studio) -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        h.step();
        if h.state().as_ref().is_some_and(&mut done) {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    eprintln!("the Studio did not get there in a minute");
    std::process::exit(1);
}

/// Lets the watcher go quiet between edits, so each edit is its own reload.
fn settle(h: &mut H) {
    for _ in 0..30 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
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
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let med = |v: &mut [Duration]| {
        v.sort();
        (
            v.get(v.len() / 2).copied().unwrap_or_default(),
            v.last().copied().unwrap_or_default(),
        )
    };
    let (t_med, t_max) = med(total);
    let (a_med, a_max) = med(after);
    println!(
        "{what:>22}: write to live median {:.1} ms (max {:.1}); after the watcher's report median {:.1} ms (max {:.1})",
        ms(t_med),
        ms(t_max),
        ms(a_med),
        ms(a_max)
    );
}

fn copy_dir(from: &Path, to: &PathBuf) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()))?;
        } else {
            std::fs::copy(&p, to.join(e.file_name()))?;
        }
    }
    Ok(())
}
