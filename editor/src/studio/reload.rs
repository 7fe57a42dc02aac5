//! All file watching of the Studio, and loading a mod off the UI thread.
//!
//! [`Watcher`] turns notify's debounced events on the open mod's folders (and its
//! dependencies') into one "something changed" signal: an editor that saves by writing a
//! temporary file and renaming it, or a burst of saves, gives one reload. Files the Studio
//! writes itself that are not content (accepted outcomes under `snapshots/`, temporary files
//! of atomic writes) are ignored, so accepting outcomes does not reload the mod; content the
//! Studio saves itself is announced with [`Watcher::expect`], and a file that holds exactly
//! what the Studio wrote is not a change.
//!
//! [`load`] loads and validates a mod on a background thread and hands back the result with
//! the time it took; the last good definition stays in use until a new one loads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use farebox::content;
use farebox::source::{FolderResolver, FsSource, ModResolver, ModSource};
use farebox::{Diagnostics, GameDef};
use notify_debouncer_full::notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// How long the folders must be quiet before a change is reported.
pub const DEBOUNCE: Duration = Duration::from_millis(120);

/// Watches folders; [`Watcher::changed`] says whether content changed since it was last asked.
pub struct Watcher {
    _debouncer: Debouncer<notify_debouncer_full::notify::RecommendedWatcher, RecommendedCache>,
    rx: Receiver<Vec<PathBuf>>,
    pub folders: Vec<PathBuf>,
    /// Files the Studio wrote itself, with a hash of what it wrote.
    own: Arc<Mutex<HashMap<PathBuf, blake3::Hash>>>,
}

/// Files larger than this are never compared with the Studio's own writes (they change).
const MAX_COMPARED: u64 = 8 << 20;

impl Watcher {
    /// Watches `folders` recursively; `wake` is called (from the watcher's thread) when
    /// content changed, so the app can repaint and pick the change up.
    pub fn watch(folders: &[PathBuf], wake: impl Fn() + Send + 'static) -> Result<Watcher, String> {
        let (tx, rx) = channel::<Vec<PathBuf>>();
        let own: Arc<Mutex<HashMap<PathBuf, blake3::Hash>>> = Arc::default();
        let own_seen = own.clone();
        let mut debouncer = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
            if let Ok(events) = r {
                // Reading a file is an event too (inotify reports opens and closes): only
                // what changes a file counts, or every load would start the next.
                let paths: Vec<PathBuf> = events
                    .iter()
                    .filter(|e| !matches!(e.kind, EventKind::Access(_) | EventKind::Other))
                    .flat_map(|e| e.paths.iter())
                    .filter(|p| is_content(p) && !is_own(&own_seen, p))
                    .cloned()
                    .collect();
                if !paths.is_empty() && tx.send(paths).is_ok() {
                    wake();
                }
            }
        })
        .map_err(|e| format!("cannot watch for changes: {e}"))?;
        for f in folders {
            debouncer
                .watch(f, RecursiveMode::Recursive)
                .map_err(|e| format!("cannot watch {}: {e}", f.display()))?;
        }
        Ok(Watcher {
            _debouncer: debouncer,
            rx,
            folders: folders.to_vec(),
            own,
        })
    }

    /// The Studio is about to write `text` to `path`: when the watcher sees that file hold
    /// exactly this, it is not a change (the Studio's own save does not reload the mod a
    /// second time). Anything else written there later is a change as usual.
    pub fn expect(&self, path: &Path, text: &[u8]) {
        if let Ok(mut own) = self.own.lock() {
            own.insert(key(path), blake3::hash(text));
        }
    }

    /// The content files that changed since the last call (empty: nothing changed).
    pub fn changed(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        while let Ok(paths) = self.rx.try_recv() {
            for p in paths {
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }
}

/// Whether `p` holds what the Studio itself last wrote there.
fn is_own(own: &Mutex<HashMap<PathBuf, blake3::Hash>>, p: &Path) -> bool {
    let Ok(own) = own.lock() else { return false };
    let Some(expected) = own.get(&key(p)) else {
        return false;
    };
    // Read at most one byte over the bound: a file that grew past it is not ours.
    match farebox::source::read_bounded(p, MAX_COMPARED) {
        Ok(text) => blake3::hash(text.as_bytes()) == *expected,
        Err(_) => false,
    }
}

/// Paths are compared as the file system resolves them (the watcher may report another
/// spelling of the folder than the one the Studio wrote through).
fn key(p: &Path) -> PathBuf {
    match (
        p.parent().and_then(|d| d.canonicalize().ok()),
        p.file_name(),
    ) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => p.to_path_buf(),
    }
}

/// Whether a changed path can change the mod: not accepted outcomes, not an atomic write's
/// temporary file, not an editor's swap or backup file.
fn is_content(p: &Path) -> bool {
    if p.components()
        .any(|c| c.as_os_str() == "snapshots" || c.as_os_str() == "sweeps")
    {
        return false;
    }
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !(name.is_empty()
        || name.starts_with('.')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".tmp"))
}

/// Where a mod lives and how its dependencies are found.
#[derive(Clone)]
pub struct ModPlace {
    /// How the person named it (a bundled id or a folder).
    pub name: String,
    pub folder: PathBuf,
    pub resolver: FolderResolver,
}

/// A finished load.
pub struct Loaded {
    pub result: Result<Arc<GameDef>, farebox::Diagnostics>,
    /// The folders the mod was read from: its own and every dependency's.
    pub folders: Vec<PathBuf>,
    pub took: Duration,
    /// When the load was asked for (a file change, or opening the mod).
    pub asked: Instant,
    /// Why, for the status line.
    pub why: super::Why,
}

/// Loads a mod on a new thread; the receiver gets the result once.
pub fn load(
    place: ModPlace,
    asked: Instant,
    why: super::Why,
    wake: impl Fn() + Send + 'static,
) -> Receiver<Loaded> {
    let (tx, rx) = channel();
    let _ = std::thread::Builder::new()
        .name("farebox-load".into())
        .spawn(move || {
            let started = Instant::now();
            let result = check(&FsSource::new(&place.folder), &place.resolver);
            let mut folders = vec![place.folder.clone()];
            if let Ok(def) = &result {
                for (id, _) in &def.layers {
                    if let Some(f) = place.resolver.folder(id)
                        && !folders.iter().any(|g| same_folder(g, &f))
                    {
                        folders.push(f);
                    }
                }
            }
            let _ = tx.send(Loaded {
                result,
                folders,
                took: started.elapsed(),
                asked,
                why,
            });
            wake();
        });
    rx
}

/// Whether a mod loads, its scripts compile and a game of it sets up: the one check behind
/// every verdict the Studio shows on a mod (a reload from disk, "Check again", and the check of
/// unsaved edits, whose scripts come from disk). A script that does not compile or run, or a
/// setup that fails, is a problem of this version like any in the content: the last good
/// version keeps running and the Diagnostics tab lists it.
pub fn check(src: &dyn ModSource, deps: &dyn ModResolver) -> Result<Arc<GameDef>, Diagnostics> {
    let def = Arc::new(content::load_mod(src, deps)?);
    match farebox::game::check_scripts(&def) {
        Ok(()) => Ok(def),
        Err(e) => Err(Diagnostics(vec![script_diagnostic(&e)])),
    }
}

/// A script error as a diagnostic: its file and line, the message with the hook (and the
/// stack, when it has one), as `farebox validate` prints it.
pub fn script_diagnostic(e: &farebox::script::ScriptError) -> farebox::diag::Diagnostic {
    let mut message = format!("{} (in {})", e.message, e.hook);
    if e.context.trace.len() > 1 {
        message.push_str(&format!(
            "; called from {}",
            e.context.trace[1..].join(", from ")
        ));
    }
    farebox::diag::Diagnostic {
        path: e.file.clone(),
        line: e.line,
        col: usize::from(e.line > 0),
        message,
    }
}

fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn content_files_count_and_the_studio_s_own_writes_do_not() {
        assert!(is_content(Path::new("/m/curbside/tiles/roads.toml")));
        assert!(is_content(Path::new("/m/curbside/rules/curbside.luau")));
        assert!(!is_content(Path::new(
            "/m/curbside/snapshots/outcomes.json"
        )));
        assert!(!is_content(Path::new("/m/curbside/tiles/.roads.toml.swp")));
        assert!(!is_content(Path::new("/m/curbside/tiles/roads.toml~")));
    }

    /// What the Studio saves itself is not a change; what anyone else writes is.
    #[test]
    fn the_studio_s_own_save_is_not_a_change() {
        let dir = std::env::temp_dir().join(format!(
            "farebox-own-writes-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("tiles.toml");
        std::fs::write(&file, "a = 1\n").unwrap();
        let w = Watcher::watch(std::slice::from_ref(&dir), || {}).unwrap();
        let wait = |w: &Watcher| {
            let t = Instant::now();
            while t.elapsed() < Duration::from_millis(1500) {
                let c = w.changed();
                if !c.is_empty() {
                    return c;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Vec::new()
        };
        // The Studio's save: through a temporary file and a rename, as atomic saves go.
        w.expect(&file, b"a = 2\n");
        let tmp = dir.join(".tiles.toml.tmp");
        std::fs::write(&tmp, "a = 2\n").unwrap();
        std::fs::rename(&tmp, &file).unwrap();
        assert_eq!(wait(&w), Vec::<PathBuf>::new());
        // Someone else's edit of the same file.
        std::fs::write(&file, "a = 3\n").unwrap();
        assert!(!wait(&w).is_empty(), "an outside edit was not seen");
        let _ = std::fs::remove_dir_all(dir);
    }
}
