//! What the Studio picks up from its threads each frame: a mod loaded or found invalid, file
//! changes, the checks of edits, the game, and outcome runs.

use std::time::Instant;

use super::leaving::changed_files;
use super::reload::{self, ModPlace, Watcher};
use super::{Studio, Tab, Why, base_target, start_load, target, waker};

impl Studio {
    /// Picks up loads that finished and file changes.
    pub(super) fn poll(&mut self) {
        let Some(p) = &mut self.project else {
            return;
        };
        let paths = p.watcher.as_ref().map(Watcher::changed).unwrap_or_default();
        if !paths.is_empty() {
            let folders = p.watcher.as_ref().map(|w| w.folders.clone());
            let why = Why::Files(changed_files(&paths, &folders.unwrap_or_default()));
            match &mut p.content {
                // The editor reads the changed files (unless they have unsaved edits) and
                // its check makes the new version live: scripts come from disk either way.
                Some(c) => {
                    if !c.disk_changed(why.clone()) {
                        c.check(Instant::now(), why);
                    }
                }
                None => start_load(p, &self.ctx, Instant::now(), why),
            }
        }
        if let Some(c) = &mut p.content
            && let Some(done) = c.poll()
        {
            let timing = match &done.why {
                Why::Edit => format!(
                    "checked in {} ms, live {} ms after the edit",
                    done.took.as_millis(),
                    done.since_edit.as_millis()
                ),
                _ => format!("live {} ms after the change", done.since_edit.as_millis()),
            };
            self.verdict(done.result, done.why, &timing, true);
        }
        self.poll_base();
        let Some(p) = &mut self.project else {
            return;
        };
        let Some(rx) = &p.loading else {
            return;
        };
        let Ok(loaded) = rx.try_recv() else {
            return;
        };
        p.loading = None;
        // Watch what the mod was read from (its dependencies too), once it is known.
        let watching = p.watcher.as_ref().map(|w| w.folders.clone());
        if watching.as_ref() != Some(&loaded.folders) {
            match Watcher::watch(&loaded.folders, waker(&self.ctx)) {
                Ok(w) => p.watcher = Some(w),
                Err(e) => p.status = e,
            }
        }
        let timing = match &loaded.why {
            Why::Files(_) => format!(
                "live {} ms after the change",
                loaded.asked.elapsed().as_millis()
            ),
            _ => format!("loaded and checked in {} ms", loaded.took.as_millis()),
        };
        if loaded.result.is_ok() && p.def.is_some() {
            p.last_reload = Some(loaded.asked.elapsed());
        }
        self.verdict(loaded.result, loaded.why, &timing, false);
    }

    /// The one place a check of the mod (a load from disk, "Check again", the check of
    /// unsaved edits) becomes what the Studio says of it: the live version, the diagnostics
    /// (and so the Diagnostics tab's count and Play's box), and the status line, which
    /// always describes this newest check and nothing older. A valid version from the
    /// editor (`edited`) runs the outcomes again at once (live outcomes); one from disk only
    /// where they were asked for.
    fn verdict(
        &mut self,
        result: Result<std::sync::Arc<farebox::GameDef>, farebox::Diagnostics>,
        why: Why,
        timing: &str,
        edited: bool,
    ) {
        let Some(p) = &mut self.project else {
            return;
        };
        let first = p.def.is_none() && p.reloads == 0;
        let what = match &why {
            Why::Opened => "Opened".to_string(),
            Why::Files(files) => format!("{files} changed"),
            Why::Edit => "Edit".to_string(),
            Why::Asked => "Checked again".to_string(),
        };
        match result {
            Ok(def) => {
                p.diagnostics.clear();
                let replaced = p.def.is_some();
                p.status = match &why {
                    Why::Files(_) => format!("{what}: reloaded, no problems ({timing})"),
                    _ => format!("{what}: no problems ({timing})"),
                };
                if replaced {
                    p.reloads += 1;
                }
                p.def = Some(def.clone());
                if first {
                    self.base_of(&def);
                }
                let Some(p) = &self.project else { return };
                if let Some(t) = target(p) {
                    self.outcomes
                        .set_target(t, base_target(p), replaced && !edited);
                    if replaced && edited {
                        self.outcomes.rerun();
                    }
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
                p.status = if p.def.is_some() {
                    format!("{what}: {problems}; the last good version keeps running")
                } else {
                    format!("{} does not load: {problems}", p.place.name)
                };
                if first {
                    self.tab = Tab::Diagnostics;
                }
            }
        }
    }

    /// A house rule's base game, loaded once for the outcomes beside it.
    fn base_of(&mut self, def: &farebox::GameDef) {
        let Some(p) = &mut self.project else { return };
        let base_id = def.layers.iter().rev().nth(1).map(|(m, _)| m.clone());
        if let Some(id) = base_id
            && let Some(folder) = p.place.resolver.folder(&id)
        {
            let place = ModPlace {
                name: id,
                folder,
                resolver: p.place.resolver.clone(),
            };
            p.base_loading = Some(reload::load(
                place,
                Instant::now(),
                Why::Opened,
                waker(&self.ctx),
            ));
        }
    }

    fn poll_base(&mut self) {
        let Some(p) = &mut self.project else { return };
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
    }
}
