//! What the Studio benchmarks share: a Studio in a headless harness on a fresh copy of a
//! bundled mod, stepping frames until something holds, and median/max figures.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use farebox_editor::studio::Studio;

pub type H = Harness<'static, Option<Studio>>;

/// Copies bundled mod `id` into a fresh temporary folder (named after `bench`) and opens a
/// Studio on the copy. Returns the temporary folder (to remove), the copy and the harness.
pub fn studio_on_copy(bench: &str, id: &str) -> (PathBuf, PathBuf, H) {
    let dir = std::env::temp_dir().join(format!("farebox-{bench}-bench-{}", std::process::id()));
    let folder = dir.join(id);
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    if let Err(e) = copy_dir(&mods.join(id), &folder) {
        eprintln!("cannot copy {id}: {e}");
        std::process::exit(1);
    }
    let spec = folder.display().to_string();
    let h: H = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(
            move |ui, s: &mut Option<Studio>| {
                let st =
                    s.get_or_insert_with(|| Studio::without_settings(ui.ctx(), Some(spec.clone())));
                st.frame(ui);
            },
            None,
        );
    (dir, folder, h)
}

/// Steps frames (1 ms apart) until `done` holds; gives up after a minute.
pub fn until(h: &mut H, mut done: impl FnMut(&Studio) -> bool) {
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

/// Steps frames for a while, 10 ms apart.
pub fn pause(h: &mut H, d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The median and the largest of `times`, in milliseconds (sorts them).
pub fn median_max(times: &mut [Duration]) -> (f64, f64) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    times.sort();
    (
        ms(times.get(times.len() / 2).copied().unwrap_or_default()),
        ms(times.last().copied().unwrap_or_default()),
    )
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
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
