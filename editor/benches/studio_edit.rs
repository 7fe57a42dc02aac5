//! How long the Studio takes from an edit of the content to its check, and to the first
//! outcome figures of the edited version, for a copy of Curbside in a temporary folder. The
//! edit is the spreadsheet's commonest: a card's number of copies (the crossroads of the
//! tile deck, 5 and 6 in turn), pushed as a [`Command::Edit`] the way the Decks & tables tab
//! does, with the Outcomes tab on show. Each edit comes while the previous edit's run is still
//! going, so that run is cancelled, as when a person edits at their own pace. A benchmark,
//! not a test: nothing is asserted about time.
//!
//! cargo bench -p farebox-editor --bench studio_edit
//!
//! - edit -> check: from the edit to the engine's check of the edited content done, on the
//!   check's thread (the edit applied on the UI thread, then load and validation).
//! - edit -> first figures: from the edit to the frame that first shows outcome figures of
//!   the edited version (provisional ones: the first batch of games of the new run).

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use farebox_editor::edit::Edit;
use farebox_editor::studio::{Command, Tab};

#[path = "support/mod.rs"]
mod support;

use support::{H, pause, until};

const EDITS: usize = 20;

fn main() {
    let (dir, _folder, mut h) = support::studio_on_copy("edit", "curbside");
    until(&mut h, |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    // The Decks & tables tab opens the content for editing; the Outcomes tab shows the runs.
    if let Some(s) = h.state_mut().as_mut() {
        s.apply(Command::Show(Tab::Data));
        s.apply(Command::Show(Tab::Outcomes));
    }
    until(&mut h, |s| {
        s.project.as_ref().is_some_and(|p| p.content.is_some())
    });

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "Edit, Curbside, {EDITS} edits of a card's count, {cores} cores (outcome runs on {} {})",
        cores.saturating_sub(1).max(1),
        if cores > 2 { "threads" } else { "thread" }
    );
    let mut checked = Vec::new();
    let mut engine = Vec::new();
    let mut figures = Vec::new();
    let mut games = Vec::new();
    let mut said = String::new();
    for i in 0..EDITS {
        let reloads = reloads(&h);
        let count = if i % 2 == 0 { 6 } else { 5 };
        let edit = Edit::set_count("road-tiles", "cs-t1", count);
        let t = Instant::now();
        let mut applied = Duration::ZERO;
        if let Some(s) = h.state_mut().as_mut() {
            s.apply(Command::Edit(edit));
            applied = t.elapsed();
        }
        until(&mut h, |s| {
            let Some(p) = &s.project else { return false };
            let Some(def) = &p.def else { return false };
            p.reloads > reloads
                && s.outcomes
                    .figures()
                    .is_some_and(|(of, _, _)| Arc::ptr_eq(of, def))
        });
        figures.push(t.elapsed());
        let st = h.state().as_ref();
        let content = st.and_then(|s| s.project.as_ref()?.content.as_ref());
        let (took, since) = content.and_then(|c| c.last_check).unwrap_or_default();
        // The check's clock starts once the edit is applied: the edit's own time is added.
        checked.push(applied + since);
        engine.push(took);
        let shown = st.and_then(|s| s.outcomes.figures()).map(|f| (f.1, f.2));
        games.push(shown.map_or(0, |(n, _)| n));
        if i + 1 == EDITS {
            h.step();
            said = h
                .query_all_by_label_contains("So far (")
                .next()
                .and_then(|n| {
                    let n = n.accesskit_node();
                    n.label().or_else(|| n.value())
                })
                .unwrap_or_default();
        }
        // A person's pace: the run goes on a little before the next edit cancels it.
        pause(&mut h, Duration::from_millis(200));
    }
    report("edit -> check (engine done)", &mut checked);
    report("  of which load + validate", &mut engine);
    report("edit -> first figures", &mut figures);
    games.sort_unstable();
    println!(
        "{:>28}: {}..{} games",
        "first figures counted",
        games.first().copied().unwrap_or(0),
        games.last().copied().unwrap_or(0),
    );
    if !said.is_empty() {
        println!("the panel said: {said}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn reloads(h: &H) -> u32 {
    h.state()
        .as_ref()
        .and_then(|s| s.project.as_ref())
        .map_or(0, |p| p.reloads)
}

fn report(what: &str, times: &mut [Duration]) {
    let (med, max) = support::median_max(times);
    println!("{what:>28}: median {med:.1} ms (max {max:.1})");
}
