//! Where mod files come from: a folder on disk, or memory (tests, the Studio's unsaved edits).
//!
//! Content refers to other files by paths relative to the mod folder. [`check_rel_path`] is the
//! one gate every such path passes: absolute paths, `..` and anything that would leave the mod
//! folder are refused, on disk and in memory alike.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Finds the mods a mod depends on, by id.
pub trait ModResolver {
    fn find(&self, id: &str) -> Option<Box<dyn ModSource>>;
}

/// A resolver that knows no mods (for mods without dependencies).
pub struct NoDependencies;
impl ModResolver for NoDependencies {
    fn find(&self, _id: &str) -> Option<Box<dyn ModSource>> {
        None
    }
}

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

/// The largest file a mod may have read (content, scripts, snapshots, replays): 8 MiB.
pub const MAX_FILE_BYTES: u64 = 8 << 20;

fn not_regular(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}, not a regular file"),
    )
}

/// Why `path` cannot be read as a mod's file although something is there ("it is a named pipe
/// (FIFO), not a regular file"); None when it is a regular file or nothing is there. A link is
/// followed, so a link to `/dev/null` is a device.
pub fn not_a_regular_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    (!meta.is_file()).then(|| not_regular(kind_of(meta.file_type())).to_string())
}

/// What a file that is not a regular file is, in words.
fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "a special file"
    }
}

/// Reads a text file, refusing anything that is not a regular file (a folder, a FIFO that
/// would block, a device that never ends) and anything over `limit` bytes, without reading
/// more than `limit + 1` bytes whatever the file does meanwhile.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(kind_of(meta.file_type())));
    }
    if meta.len() > limit {
        return Err(too_big(meta.len(), limit));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    // Opened without blocking, so a file swapped for a FIFO after the check above cannot
    // hang the open; the handle is checked again below.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(0o4000); // O_NONBLOCK
    }
    #[cfg(target_os = "macos")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(0x0004); // O_NONBLOCK
    }
    let file = opts.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(kind_of(meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(bytes.len() as u64, limit));
    }
    // A byte order mark some editors put first is not part of the text: TOML, JSON and Luau
    // read without it.
    if bytes.starts_with(BOM.as_bytes()) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "it is not UTF-8 text".to_string(),
        )
    })
}

/// The UTF-8 byte order mark.
pub const BOM: &str = "\u{feff}";

fn too_big(len: u64, limit: u64) -> io::Error {
    let mib = |n: u64| n as f64 / (1u64 << 20) as f64;
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "it is {:.1} MiB; files may be at most {:.0} MiB",
            mib(len),
            mib(limit)
        ),
    )
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
        read_bounded(&real, MAX_FILE_BYTES)
    }

    fn display(&self, rel: &str) -> String {
        format!("{}/{}", self.shown.trim_end_matches('/'), rel)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Ok(rd) = std::fs::read_dir(self.root.join(dir)) {
            // Only for "did you mean": a folder of millions of files is not listed whole.
            for e in rd.flatten().take(10_000) {
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

impl ModResolver for MemMods {
    fn find(&self, id: &str) -> Option<Box<dyn ModSource>> {
        self.0
            .get(id)
            .map(|m| Box::new(m.clone()) as Box<dyn ModSource>)
    }
}

/// Finds mods by id as folders of one directory (the bundled `mods/`, or an install folder).
#[derive(Debug, Clone)]
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

impl ModResolver for FolderResolver {
    fn find(&self, id: &str) -> Option<Box<dyn ModSource>> {
        self.folder(id)
            .map(|p| Box::new(FsSource::new(p)) as Box<dyn ModSource>)
    }
}

/// Writes `text` to `path` through a temporary file in the same folder, so readers never see
/// half a file. What is at `path` already must be a regular file: a symbolic link, a folder or
/// a special file there is refused rather than replaced or written through, and the temporary
/// file is created new (never an existing file or link).
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    use std::io::Write;
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && !meta.is_file()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is {}; it is not replaced",
                path.display(),
                kind_of(meta.file_type())
            ),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()));
    if let Err(e) = written {
        if e.kind() != io::ErrorKind::AlreadyExists {
            let _ = std::fs::remove_file(&tmp);
        }
        return Err(e);
    }
    match std::fs::rename(&tmp, path) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Writes `rel` (checked by [`check_rel_path`]) inside the mod folder `root`, atomically,
/// creating its folders. Nothing is written outside `root`: a folder on the way that is a
/// symbolic link leading elsewhere, or a file that is a link, is refused.
pub fn write_in_mod(root: &Path, rel: &str, text: &str) -> io::Result<PathBuf> {
    check_rel_path(rel).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let real_root = root.canonicalize()?;
    let mut dir = real_root.clone();
    let parts: Vec<&str> = rel
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let Some((file, folders)) = parts.split_last() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty path"));
    };
    for f in folders {
        dir.push(f);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(m) => {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!(
                        "{} is {}, not a folder of the mod; nothing is written through it",
                        dir.display(),
                        kind_of(m.file_type())
                    ),
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir(&dir)?,
            Err(e) => return Err(e),
        }
    }
    if !dir.canonicalize()?.starts_with(&real_root) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} leads out of the mod folder", dir.display()),
        ));
    }
    let path = dir.join(file);
    write_atomic(&path, text)?;
    Ok(path)
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
