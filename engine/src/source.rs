//! Where mod files come from: a folder on disk, or memory (tests, the Studio's unsaved edits).
//!
//! Content refers to other files by paths relative to the mod folder. [`check_rel_path`] is the
//! one gate every such path passes: absolute paths, `..` and anything that would leave the mod
//! folder are refused, on disk and in memory alike.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Read access to one mod's files.
pub trait ModSource: Send + Sync {
    /// The text of a file, by path relative to the mod folder (already checked).
    fn read(&self, rel: &str) -> io::Result<String>;
    /// How to show a file's path to people (in diagnostics).
    fn display(&self, rel: &str) -> String;
    /// Files in a folder of the mod (relative paths), for "did you mean" on missing files.
    fn list(&self, dir: &str) -> Vec<String>;
}

/// Refuses paths that are empty, absolute, or climb out of the mod folder.
pub fn check_rel_path(rel: &str) -> Result<(), String> {
    if rel.is_empty() {
        return Err("empty path".into());
    }
    if rel.contains('\\') {
        return Err(format!("path `{rel}` uses `\\`; write paths with `/`"));
    }
    let p = Path::new(rel);
    for c in p.components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => {
                return Err(format!(
                    "path `{rel}` leaves the mod folder (`..` is not allowed)"
                ));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "path `{rel}` is absolute; give it relative to the mod folder"
                ));
            }
        }
    }
    Ok(())
}

/// A mod folder on disk.
pub struct FsSource {
    root: PathBuf,
    shown: String,
}

impl FsSource {
    /// `root` is the mod folder; diagnostics show paths as `root` was written.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let shown = root.display().to_string();
        FsSource { root, shown }
    }
}

impl ModSource for FsSource {
    fn read(&self, rel: &str) -> io::Result<String> {
        check_rel_path(rel).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let path = self.root.join(rel);
        // A symbolic link must not lead out of the mod folder either.
        let real = path.canonicalize()?;
        let real_root = self.root.canonicalize()?;
        if !real.starts_with(&real_root) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("`{rel}` links to a file outside the mod folder"),
            ));
        }
        std::fs::read_to_string(real)
    }

    fn display(&self, rel: &str) -> String {
        format!("{}/{}", self.shown.trim_end_matches('/'), rel)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Ok(rd) = std::fs::read_dir(self.root.join(dir)) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                out.push(if dir.is_empty() || dir == "." {
                    name
                } else {
                    format!("{dir}/{name}")
                });
            }
        }
        out.sort();
        out
    }
}

/// A mod held in memory: file path -> text.
#[derive(Default, Clone)]
pub struct MemSource {
    pub name: String,
    pub files: BTreeMap<String, String>,
}

impl MemSource {
    pub fn new(name: impl Into<String>) -> Self {
        MemSource {
            name: name.into(),
            files: BTreeMap::new(),
        }
    }
    pub fn with(mut self, rel: &str, text: &str) -> Self {
        self.files.insert(rel.to_string(), text.to_string());
        self
    }
}

impl ModSource for MemSource {
    fn read(&self, rel: &str) -> io::Result<String> {
        check_rel_path(rel).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let rel = rel.trim_start_matches("./");
        self.files
            .get(rel)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }
    fn display(&self, rel: &str) -> String {
        format!("{}/{}", self.name, rel)
    }
    fn list(&self, dir: &str) -> Vec<String> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.files
            .keys()
            .filter(|k| k.starts_with(&prefix) && !k[prefix.len()..].contains('/'))
            .cloned()
            .collect()
    }
}

/// Mods held in memory, found by id: dependencies for a [`MemSource`] (tests, and editors
/// that hold unsaved mods).
#[derive(Default, Clone)]
pub struct MemMods(pub BTreeMap<String, MemSource>);

impl crate::content::ModResolver for MemMods {
    fn find(&self, id: &str) -> Option<Box<dyn ModSource>> {
        self.0
            .get(id)
            .map(|m| Box::new(m.clone()) as Box<dyn ModSource>)
    }
}

/// Finds mods by id as folders of one directory (the bundled `mods/`, or an install folder).
pub struct FolderResolver {
    dirs: Vec<PathBuf>,
}

impl FolderResolver {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FolderResolver {
            dirs: vec![dir.into()],
        }
    }
    pub fn with_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dirs.push(dir.into());
        self
    }
    /// The folder of a mod id, if one of the directories has it.
    pub fn folder(&self, id: &str) -> Option<PathBuf> {
        if check_rel_path(id).is_err() || id.contains('/') {
            return None;
        }
        self.dirs
            .iter()
            .map(|d| d.join(id))
            .find(|p| p.join("mod.toml").is_file())
    }
    /// Every mod folder found, sorted by id.
    pub fn all(&self) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        for d in &self.dirs {
            if let Ok(rd) = std::fs::read_dir(d) {
                for e in rd.flatten() {
                    if e.path().join("mod.toml").is_file() {
                        out.push((e.file_name().to_string_lossy().to_string(), e.path()));
                    }
                }
            }
        }
        out.sort();
        out
    }
}

impl crate::content::ModResolver for FolderResolver {
    fn find(&self, id: &str) -> Option<Box<dyn ModSource>> {
        self.folder(id)
            .map(|p| Box::new(FsSource::new(p)) as Box<dyn ModSource>)
    }
}

/// Writes `text` to `path` through a temporary file in the same folder, so readers never see
/// half a file.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    match std::fs::rename(&tmp, path) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_leave_the_mod() {
        assert!(check_rel_path("decks/a.toml").is_ok());
        assert!(check_rel_path("../x.toml").is_err());
        assert!(check_rel_path("decks/../../x.toml").is_err());
        assert!(check_rel_path("/etc/passwd").is_err());
        assert!(check_rel_path("a\\b").is_err());
        assert!(check_rel_path("").is_err());
    }

    #[test]
    fn memory_source_lists_a_folder() {
        let m = MemSource::new("m")
            .with("decks/a.toml", "")
            .with("decks/b.toml", "")
            .with("x", "");
        assert_eq!(m.list("decks"), vec!["decks/a.toml", "decks/b.toml"]);
        assert!(m.read("../x").is_err());
    }
}
