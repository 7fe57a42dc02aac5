//! What the Studio picks up from its threads each frame: a mod loaded or found invalid, file
//! changes, the checks of edits, the game, and outcome runs.

use std::time::Instant;

use super::leaving::changed_files;
use super::reload::{self, ModPlace, Watcher};
use super::{Studio, Tab, base_target, start_load, target, waker};

impl Studio {
    /// Picks up loads that finished and file changes.
    pub(super) fn poll(&mut self) {
        let Some(p) = &mut self.project else {
            return;
        };
        let paths = p.watcher.as_ref().map(Watcher::changed).unwrap_or_default();
        if !paths.is_empty() {
            let folders = p.watcher.as_ref().map(|w| w.folders.clone());
            p.changed = Some(changed_files(&paths, &folders.unwrap_or_default()));
            match &mut p.content {
                // The editor reads the changed files (unless they have unsaved edits) and
                // its check makes the new version live: scripts come from disk either way.
                Some(c) => {
                    if !c.disk_changed() {
                        c.check(Instant::now());
                    }
                }
                None => start_load(p, &self.ctx, Instant::now()),
            }
        }
        if let Some(c) = &mut p.content
            && let Some(done) = c.poll()
        {
            match done.result {
                Ok(def) => {
                    p.diagnostics.clear();
                    p.status = match p.changed.take() {
                        Some(files) => format!(
                            "{files} changed: reloaded, no problems (live {} ms after the change)",
                            done.since_edit.as_millis()
                        ),
                        None => format!(
                            "Edit checked in {} ms, live {} ms after it",
                            done.took.as_millis(),
                            done.since_edit.as_millis()
                        ),
                    };
                    p.def = Some(def.clone());
                    p.reloads += 1;
                    if let Some(t) = target(p) {
                        self.outcomes.set_target(t, base_target(p), false);
                        self.outcomes.rerun();
                    }
                    self.play.rebase(def);
                }
                Err(diags) => {
                    p.diagnostics = diags.0;
                    let n = p.diagnostics.len();
                    let problems = format!("{n} {}", crate::common::plural(n, "problem"));
                    p.status = match p.changed.take() {
                        Some(files) => format!(
                            "{files} changed: {problems}; the last good version keeps running"
                        ),
                        None => format!(
                            "The edited content has {problems}: the last good version keeps running"
                        ),
                    };
                }
            }
        }
        if let Some(rx) = &p.base_loading
            && let Ok(l) = rx.try_recv()
        {
            p.base_loading = None;
            if let (Ok(def), Some(folder)) = (l.result, l.folders.first()) {
                p.base = Some((def, folder.clone()));
                if let Some(t) = target(p) {
                    self.outcomes.set_target(t, base_target(p), false);
                }
            }
        }
        let Some(rx) = &p.loading else {
            return;
        };
        let Ok(loaded) = rx.try_recv() else {
            return;
        };
        p.loading = None;
        let first = p.def.is_none() && p.reloads == 0 && p.watcher.is_none();
        // Watch what the mod was read from (its dependencies too), once it is known.
        let watching = p.watcher.as_ref().map(|w| w.folders.clone());
        if watching.as_ref() != Some(&loaded.folders) {
            match Watcher::watch(&loaded.folders, waker(&self.ctx)) {
                Ok(w) => p.watcher = Some(w),
                Err(e) => p.status = e,
            }
        }
        match loaded.result {
            Ok(def) => {
                p.diagnostics.clear();
                let replaced = p.def.is_some();
                p.def = Some(def.clone());
                let live = loaded.asked.elapsed();
                let files = p.changed.take();
                p.status = if replaced {
                    p.reloads += 1;
                    p.last_reload = Some(live);
                    match files {
                        Some(files) => format!(
                            "{files} changed: reloaded, no problems (live {} ms after the change)",
                            live.as_millis()
                        ),
                        None => format!(
                            "Reloaded: loaded and checked in {} ms, no problems",
                            loaded.took.as_millis(),
                        ),
                    }
                } else {
                    format!("Loaded in {} ms", loaded.took.as_millis())
                };
                // A house rule's base game, for the outcomes beside it.
                let base_id = def.layers.iter().rev().nth(1).map(|(m, _)| m.clone());
                if let Some(id) = base_id
                    && let Some(folder) = p.place.resolver.folder(&id)
                {
                    let place = ModPlace {
                        name: id,
                        folder,
                        resolver: p.place.resolver.clone(),
                    };
                    p.base_loading = Some(reload::load(place, Instant::now(), waker(&self.ctx)));
                }
                if let Some(t) = target(p) {
                    self.outcomes.set_target(t, base_target(p), replaced);
                }
                if replaced {
                    self.play.rebase(def);
                } else {
                    self.play.opened(p);
                }
            }
            Err(diags) => {
                p.diagnostics = diags.0;
                let n = p.diagnostics.len();
                let problems = format!("{n} {}", crate::common::plural(n, "problem"));
                let files = p.changed.take();
                p.status = if p.def.is_some() {
                    match files {
                        Some(files) => format!(
                            "{files} changed: {problems}; the last good version keeps running"
                        ),
                        None => format!(
                            "The files have {problems}: the last good version keeps running"
                        ),
                    }
                } else {
                    format!(
                        "{} does not load: {} {}",
                        p.place.name,
                        p.diagnostics.len(),
                        crate::common::plural(p.diagnostics.len(), "error")
                    )
                };
                if first {
                    self.tab = Tab::Diagnostics;
                }
            }
        }
    }
}
