//! How long the Studio's Outcomes panel takes to draw a frame while a run of 1,000 Curbside
//! games goes on in the background, and once its figures are shown. The panel runs in a
//! headless egui harness (no GPU), so the times are the UI's own work per frame: layout,
//! widgets and plots, not painting. A benchmark, not a test: nothing is asserted about time.
//!
//! cargo bench -p farebox-editor --bench studio_frames

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use farebox_editor::studio::outcomes::{Outcomes, Target};

const GAMES: u64 = 1_000;
/// The pause between frames: about a 60 Hz display.
const FRAME: Duration = Duration::from_millis(16);

fn main() {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let folder = mods.join("curbside");
    let def = match farebox::content::load_mod(
        &farebox::source::FsSource::new(&folder),
        &farebox::source::FolderResolver::new(&mods),
    ) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("Curbside does not load: {e:?}");
            std::process::exit(1);
        }
    };
    let mut panel = Outcomes::new();
    panel.set_target(
        Target {
            name: def.name.clone(),
            def: Arc::new(def),
            folder,
        },
        None,
        false,
    );
    panel.set_games(GAMES);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 820.0))
        .build_ui_state(|ui, p: &mut Outcomes| p.ui(ui, &mut Vec::new()), panel);
    h.run();

    h.get_by_label("Run").click();
    let started = Instant::now();
    let mut during = Vec::new();
    // Bounded, in case the run never ends: ten minutes of frames.
    for _ in 0..(600_000 / FRAME.as_millis() as usize) {
        let t = Instant::now();
        h.step();
        during.push(t.elapsed());
        if !h.state().is_running() {
            break;
        }
        std::thread::sleep(FRAME);
    }
    let total = started.elapsed();
    if h.state().is_running() {
        eprintln!("the run did not end in ten minutes");
        h.state_mut().wait();
    }

    // The figures drawn: grid, bar charts, histograms and box plots.
    let mut after = Vec::new();
    for _ in 0..120 {
        let t = Instant::now();
        h.step();
        after.push(t.elapsed());
    }

    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1);
    println!(
        "Outcomes panel, Curbside, {GAMES} games on {threads} worker thread(s), a frame every {} ms",
        FRAME.as_millis()
    );
    report("while running", &mut during);
    report("figures shown", &mut after);
    println!(
        "run: {:.2} s from Run to the figures ({:.0} games/s)",
        total.as_secs_f64(),
        GAMES as f64 / total.as_secs_f64().max(1e-9)
    );
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    let at = |q: f64| times.get(((times.len() as f64 - 1.0) * q).round() as usize);
    println!(
        "{what:>14}: {} frames, median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(times.last())
    );
}
