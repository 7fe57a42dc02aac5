//! Shared by the subcommands: input/output, errors, finding and loading mods.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use farebox::content::{self, GameDef};
use farebox::diag::Diagnostics;
use farebox::game::Setup;
use farebox::source::{FolderResolver, FsSource};
use farebox::state::GameResult;
use farebox::value::Value;

/// The most games `sim`, `test` and `bench` play in one run.
pub const MAX_GAMES: u64 = 1_000_000;
/// The most actions one game may be allowed (`--cap`).
pub const MAX_CAP: u32 = 1_000_000;
/// The most worker threads `sim` starts.
pub const MAX_THREADS: u16 = 256;

/// The threads a run of `games` games plays on: `asked` (`--threads`), else every core, at
/// most one a game and at most [`MAX_THREADS`].
pub fn threads_for(asked: Option<u16>, games: u64) -> usize {
    asked
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        )
        .clamp(1, (games.max(1) as usize).min(MAX_THREADS as usize))
}
/// The most rounds `bench --load` runs.
pub const MAX_ITERATIONS: u32 = 10_000;
/// The most entries `--bots` and `--seats` may list (no game has more seats).
pub const MAX_AGENTS: usize = 16;

/// Where a command reads and writes.
pub struct Io<'a> {
    pub stdin: &'a mut dyn BufRead,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

/// Text from a mod, a script or a file, made safe to print on a terminal: every control
/// character but the line breaks the command line itself puts between lines (escape sequences
/// that clear the screen or move the cursor, carriage returns that overwrite a line, bells,
/// backspaces) and the Unicode marks that reorder text are shown as `\u{..}` instead, so no
/// name, label, log line or error can rewrite what is on the screen. Everything the command
/// line prints goes through it ([`Io::say`], [`Io::note`], [`Io::prompt`]); [`clean_line`] also
/// flattens line breaks, for text that must stay on one line.
pub fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    clean_with(text, true)
}

/// An engine report that may run to several lines (an error and the stack it was raised
/// from: "rules/x.luau:12: error: ...\n    at rules/x.luau:40 in setup"), cleaned: the
/// stack's frames (the engine's "\n    at ") stay lines of their own, indented, and every
/// other line break (in a path, a name, a mod's message) is shown as `\n`, so nothing a mod
/// wrote can start a line that looks like the command's own.
pub fn clean_report(text: &str) -> String {
    const FRAME: &str = "\n    at ";
    let mut parts = text.split(FRAME);
    let mut out = clean_line(parts.next().unwrap_or("")).into_owned();
    for frame in parts {
        out.push_str(FRAME);
        out.push_str(&clean_line(frame));
    }
    out
}

/// [`clean`], with line breaks shown as `\n` too: a name or label cannot start a line that
/// looks like the command line's own.
pub fn clean_line(text: &str) -> std::borrow::Cow<'_, str> {
    clean_with(text, false)
}

fn unsafe_char(c: char, keep_newline: bool) -> bool {
    (c.is_control() && !(keep_newline && c == '\n'))
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn clean_with(text: &str, keep_newline: bool) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| unsafe_char(c, keep_newline)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !unsafe_char(c, keep_newline) => out.push(c),
            '\t' => out.push(' '),
            '\n' => out.push_str("\\n"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// How many characters of an argument, a path or a label a line shows (see [`shown`]).
pub const MAX_SHOWN: usize = 200;

/// Text from the command line, a file name or a mod (an argument, a path, a label) made safe
/// to show inside one line: cut to `max` characters, with its length in bytes when cut, and
/// with line breaks and control characters escaped (see [`clean_line`]), so a huge argument
/// or a path holding a line break is never printed whole or across lines.
pub fn shown(text: &str, max: usize) -> String {
    clean_line(&cut(text, max)).into_owned()
}

/// A path as [`shown`] shows it.
pub fn shown_path(path: &Path) -> String {
    shown(&path.display().to_string(), MAX_SHOWN)
}

/// `text` cut to `max` characters for an error message (`…` where cut), so an error never
/// echoes a huge input back.
pub fn cut(text: &str, max: usize) -> String {
    farebox::content::load::cut(text, max).into_owned()
}

impl Io<'_> {
    /// Writes a line to stdout (a closed pipe is not an error worth reporting), cleaned.
    pub fn say(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        let _ = writeln!(self.out, "{}", clean(&text));
    }
    /// Writes a line to stderr, cleaned.
    pub fn note(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        let _ = writeln!(self.err, "{}", clean(&text));
    }
    /// Writes a prompt (no line break) to stdout, cleaned.
    pub fn prompt(&mut self, text: impl std::fmt::Display) {
        let text = text.to_string();
        let _ = write!(self.out, "{}", clean_line(&text));
    }
    /// Reads a line; None at end of input.
    pub fn read_line(&mut self) -> Option<String> {
        let _ = self.out.flush();
        let mut s = String::new();
        match self.stdin.read_line(&mut s) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(s.trim().to_string()),
        }
    }
}

/// Why a command failed; printed as `error: ...`.
#[derive(Debug, Clone, PartialEq)]
pub enum Fail {
    /// A usage problem: exit code 2.
    Usage(String),
    /// Invalid content or a failed check: exit code 1.
    Invalid(String),
}

impl Fail {
    pub fn code(&self) -> i32 {
        match self {
            Fail::Usage(_) => 2,
            Fail::Invalid(_) => 1,
        }
    }
    pub fn message(&self) -> &str {
        match self {
            Fail::Usage(m) | Fail::Invalid(m) => m,
        }
    }
}

fn has_mods(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| rd.flatten().any(|e| e.path().join("mod.toml").is_file()))
}

/// The folder of bundled mods: $FAREBOX_MODS, else a `mods/` folder above the current directory
/// or the executable, else the one in the source tree.
pub fn mods_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("FAREBOX_MODS") {
        return PathBuf::from(d);
    }
    let mut starts = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    if let Some(p) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        starts.push(p);
    }
    for s in starts {
        for dir in s.ancestors() {
            let m = dir.join("mods");
            if has_mods(&m) {
                return m;
            }
        }
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("mods")
}

/// The repository's `schemas/` folder: next to the bundled `mods/`.
pub fn schemas_dir() -> PathBuf {
    let mods = mods_dir();
    match mods.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join("schemas"),
        _ => PathBuf::from("schemas"),
    }
}

/// A mod folder, and the resolver for its dependencies.
pub struct Located {
    pub folder: PathBuf,
    pub resolver: FolderResolver,
    /// The name as the user gave it.
    pub name: String,
}

/// Finds a mod given as a bundled id or a folder path.
pub fn locate(spec: &str) -> Result<Located, Fail> {
    let bundled = mods_dir();
    let as_path = Path::new(spec);
    if spec.contains('/') || as_path.is_dir() {
        let manifest = as_path.join("mod.toml");
        if let Some(why) = farebox::source::not_a_regular_file(&manifest) {
            return Err(Fail::Invalid(format!(
                "{}: error: {why}; a mod's files are read only when they are regular files",
                shown_path(&manifest)
            )));
        }
        if !manifest.is_file() {
            return Err(Fail::Usage(format!(
                "`{}` is not a mod folder (it has no mod.toml)",
                shown(spec, MAX_SHOWN)
            )));
        }
        let mut resolver = FolderResolver::new(&bundled);
        if let Some(parent) = as_path.parent().filter(|p| !p.as_os_str().is_empty()) {
            resolver = resolver.with_dir(parent);
        }
        return Ok(Located {
            folder: as_path.to_path_buf(),
            resolver,
            name: spec.to_string(),
        });
    }
    let resolver = FolderResolver::new(&bundled);
    match resolver.folder(spec) {
        Some(folder) => Ok(Located {
            folder,
            resolver,
            name: spec.to_string(),
        }),
        None => {
            let ids: Vec<String> = resolver.all().into_iter().map(|(id, _)| id).collect();
            let hint = farebox::diag::suggestion(spec, ids.iter().map(String::as_str));
            Err(Fail::Usage(format!(
                "no mod `{}`{hint}",
                shown(spec, MAX_SHOWN)
            )))
        }
    }
}

/// Loads content only.
pub fn load_located(l: &Located) -> Result<GameDef, Diagnostics> {
    content::load_mod(&FsSource::new(&l.folder), &l.resolver)
}

/// Loads a mod for playing; diagnostics go to stderr and become an `Invalid` failure, and a
/// mod without rule scripts is refused before any game starts.
pub fn load_for_play(spec: &str, io: &mut Io) -> Result<Arc<GameDef>, Fail> {
    load_located_for_play(&locate(spec)?, spec, io)
}

/// [`load_for_play`] for a mod already located (`spec` is how the user named it).
pub fn load_located_for_play(l: &Located, spec: &str, io: &mut Io) -> Result<Arc<GameDef>, Fail> {
    match load_located(l) {
        Ok(d) if !d.playable() => Err(not_playable(&d, spec)),
        Ok(d) => Ok(Arc::new(d)),
        Err(diags) => {
            for d in diags.iter() {
                io.note(clean_report(&d.to_string()));
            }
            Err(Fail::Invalid(format!(
                "{} does not load ({} {})",
                shown(&l.name, MAX_SHOWN),
                diags.len(),
                plural(diags.len(), "error")
            )))
        }
    }
}

/// The refusal for a mod that has content but no rule scripts.
pub fn not_playable(def: &GameDef, spec: &str) -> Fail {
    Fail::Usage(format!(
        "{} has no rule scripts yet, so it cannot be played; its content loads, and `farebox validate {}` checks it",
        def.name,
        shown(spec, MAX_SHOWN)
    ))
}

pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// Splits a comma list of agents (`human`, `random`, bot ids); `flag` names the option in the
/// error when the list is longer than any game has seats.
pub fn split_list(s: &str, flag: &str) -> Result<Vec<String>, Fail> {
    let mut out = Vec::new();
    for p in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if out.len() == MAX_AGENTS {
            return Err(Fail::Usage(format!(
                "{flag} lists more than {MAX_AGENTS} agents; a game has at most {MAX_AGENTS} seats"
            )));
        }
        out.push(cut(p, 100));
    }
    Ok(out)
}

/// Builds a setup from seats, seed and `id=value` options.
pub fn setup(def: &GameDef, seats: u8, seed: u64, options: &[String]) -> Result<Setup, Fail> {
    let mut s = Setup::new(seats, seed);
    for o in options {
        let Some((k, v)) = o.split_once('=') else {
            return Err(Fail::Usage(format!(
                "option `{}` should be written id=value",
                shown(o, MAX_SHOWN)
            )));
        };
        let k = k.trim();
        if def.option(k).is_none() {
            let hint = farebox::diag::suggestion(k, def.options.iter().map(|o| o.id.as_str()));
            return Err(Fail::Usage(format!(
                "{} has no option `{}`{hint}",
                def.name,
                shown(k, MAX_SHOWN)
            )));
        }
        s = s.option(k, Value::Str(v.trim().to_string()));
    }
    // A value the option does not take fails every game's setup: say so once, up front.
    farebox::game::check_options(def, &s).map_err(|m| Fail::Usage(format!("{}: {m}", def.name)))?;
    let (lo, hi) = def.players;
    if (seats as u32) < lo || (seats as u32) > hi {
        return Err(Fail::Usage(format!(
            "{} is for {lo} to {hi} players, not {seats}",
            def.name
        )));
    }
    Ok(s)
}

/// Seats for sim/record: --players, else the number of bots given, at least the minimum.
pub fn seat_count(def: &GameDef, players: Option<u8>, bots: &[String]) -> u8 {
    players.unwrap_or_else(|| {
        let lo = def.players.0.min(255) as u8;
        (bots.len().min(255) as u8).max(lo)
    })
}

/// "1st", "2nd"...
pub fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// One line: "Yellow 1st (7), Red 2nd (3): reason".
pub fn result_line(def: &GameDef, r: &GameResult) -> String {
    let mut order: Vec<usize> = (0..r.places.len()).collect();
    order.sort_by_key(|&i| (r.places[i], i));
    let parts: Vec<String> = order
        .iter()
        .map(|&i| {
            let score = r.scores.get(i).map_or(String::new(), |s| format!(" ({s})"));
            format!("{} {}{score}", def.seat_name(i), ordinal(r.places[i]))
        })
        .collect();
    format!("{}: {}", parts.join(", "), r.reason)
}

/// Writes a line a script printed to standard error, for `--debug`: "[debug seed 5, action
/// 12, rules/main.luau:40 in score] text", each line of a text of several headed alike, control
/// characters escaped. Written whole, so lines from games on several threads do not mix.
pub fn print_debug_line(line: farebox::script::debug::DebugLine) {
    use std::io::Write as _;
    let heading = line.heading();
    let head = clean_line(&heading);
    let mut out = String::new();
    for part in line.text.split('\n') {
        out.push_str(&format!(
            "[debug {head}] {}\n",
            clean_line(&part.replace('\t', "  "))
        ));
    }
    let _ = std::io::stderr().lock().write_all(out.as_bytes());
}
