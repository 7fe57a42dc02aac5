//! Accepted outcomes, the service `farebox test` and the Studio's Outcomes tab share: the
//! settings and figures a mod's `snapshots/outcomes.json` holds, reading it (checked against
//! the mod, a problem reported at its file and line) and writing it (only figures that read
//! back the same), and playing the games the settings describe exactly as `test` plays them.
//! The same mod, settings and seeds give the same games, so the figures can be compared
//! ([`crate::compare`]) with those accepted earlier.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use farebox::GameDef;
use farebox::agent::{Agent, Checks, Outcome};
use farebox::batch::Batch;
use farebox::figures::{Stats, Tally};
use farebox::source::{FsSource, ModSource};
use serde::{Deserialize, Serialize};

use crate::common::{Fail, MAX_AGENTS, MAX_CAP, MAX_GAMES, cut, setup};

pub use crate::runs::LABELS;

/// The agent outcomes are accepted with when none is named: the mod's first bot, else the
/// random agent.
pub fn own_bot(def: &farebox::GameDef) -> String {
    def.bots
        .first()
        .map_or_else(|| "random".to_string(), |b| b.id.clone())
}

/// Where the accepted outcomes live, relative to the mod folder.
pub const SNAPSHOT: &str = "snapshots/outcomes.json";

/// The settings a snapshot was made with, so a test plays exactly the same games.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub games: u64,
    pub seed: u64,
    pub players: u8,
    pub bots: Vec<String>,
    pub cap: u32,
    #[serde(default)]
    pub options: Vec<String>,
    /// Restricted play (`farebox sim --forbid`): ids the agents never choose an action of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbid: Vec<String>,
}

impl Settings {
    /// The limits the command line puts on the same settings: a snapshot comes with the mod,
    /// so from whoever made it.
    pub fn check(&self) -> Result<(), String> {
        if self.games > MAX_GAMES {
            return Err(format!(
                "settings.games is {}; at most {MAX_GAMES} games are played",
                self.games
            ));
        }
        if self.cap == 0 || self.cap > MAX_CAP {
            return Err(format!(
                "settings.cap is {}; it is 1 to {MAX_CAP}",
                self.cap
            ));
        }
        if self.bots.is_empty() || self.bots.len() > MAX_AGENTS {
            return Err(format!(
                "settings.bots lists {} agents; it lists 1 to {MAX_AGENTS}",
                self.bots.len()
            ));
        }
        if let Some(b) = self.bots.iter().find(|b| b.len() > 100) {
            return Err(format!("settings.bots has an agent `{}`", cut(b, 100)));
        }
        if self.options.len() > 1_000 || self.options.iter().any(|o| o.len() > 1_000) {
            return Err("settings.options is too long".into());
        }
        if self.forbid.len() > 1_000 || self.forbid.iter().any(|o| o.len() > 1_000) {
            return Err("settings.forbid is too long".into());
        }
        Ok(())
    }
}

/// The accepted outcomes of a mod, as `snapshots/outcomes.json` holds them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Accepted {
    /// The version of the mod the outcomes were accepted for, for people reading a diff.
    pub mod_version: String,
    pub settings: Settings,
    pub outcomes: Stats,
    /// Each game's record (who won, whether the first mover did, its length), so a new run
    /// of the same seeds is compared with these seed by seed ([`crate::paired`]). Outcomes
    /// accepted before it was kept have none, and are compared as an independent run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_game: Option<crate::paired::Record>,
}

impl Accepted {
    /// The accepted games, one record each in seed order, when the outcomes keep them.
    pub fn games(&self) -> Option<Vec<crate::paired::Game>> {
        let r = self.per_game.as_ref()?;
        r.games(self.settings.games, self.settings.players).ok()
    }
}

/// The accepted outcomes of the mod in `folder`, or None when it has none yet. The snapshot
/// is the mod's file like any other: read through the same gate (inside the mod folder, a
/// regular file, bounded in size), and its settings are held to the command line's limits.
pub fn read_snapshot(folder: &Path) -> Result<Option<Accepted>, Fail> {
    read_snapshot_text(folder)?
        .map(|(snap, _)| record_fits(folder, snap))
        .transpose()
}

/// The accepted outcomes of the mod in `folder`, as [`read_snapshot`] reads them, with their
/// settings checked against the mod as well: seats, agents, options and forbidden ids it
/// does not have are reported at the file and line of the setting, before any game is
/// played (rather than as if given on the command line, or as an error in every game).
pub fn read_snapshot_for(folder: &Path, def: &farebox::GameDef) -> Result<Option<Accepted>, Fail> {
    let Some((snap, text)) = read_snapshot_text(folder)? else {
        return Ok(None);
    };
    let shown = crate::common::shown_path(&folder.join(SNAPSHOT));
    match settings_problem(def, &snap.settings) {
        None => record_fits(folder, snap).map(Some),
        Some((key, item, why)) => {
            let place = setting_place(&text, key, item.as_deref())
                .map_or(String::new(), |(line, col)| format!(":{line}:{col}"));
            Err(Fail::Invalid(format!(
                "{shown}{place}: error: settings.{key}: {why}; correct the file, or accept the outcomes again with `farebox test --accept`"
            )))
        }
    }
}

/// The first setting of `s` the mod cannot play: the key, the item of a list it is about,
/// and why.
fn settings_problem(
    def: &farebox::GameDef,
    s: &Settings,
) -> Option<(&'static str, Option<String>, String)> {
    let (lo, hi) = def.players;
    if (s.players as u32) < lo || (s.players as u32) > hi {
        return Some((
            "players",
            None,
            format!(
                "{} is for {lo} to {hi} players, not {}",
                def.name, s.players
            ),
        ));
    }
    for (i, b) in s.bots.iter().enumerate() {
        if let Err(e) = Agent::from_spec(b, def, 0, i as u8) {
            return Some(("bots", Some(b.clone()), e));
        }
    }
    for o in &s.options {
        let Some((k, v)) = o.split_once('=') else {
            return Some((
                "options",
                Some(o.clone()),
                format!("`{}` should be written id=value", cut(o, 100)),
            ));
        };
        let Some(opt) = def.option(k.trim()) else {
            let hint =
                farebox::diag::suggestion(k.trim(), def.options.iter().map(|o| o.id.as_str()));
            return Some((
                "options",
                Some(o.clone()),
                format!("{} has no option `{}`{hint}", def.name, cut(k.trim(), 100)),
            ));
        };
        if let Err(e) = opt.parse(v.trim()) {
            return Some(("options", Some(o.clone()), cut(&e, 300)));
        }
    }
    crate::runs::unknown_id(def, &s.forbid).map(|(id, why)| {
        (
            "forbid",
            Some(id.to_string()),
            format!("`{}`: {why}", cut(id, 100)),
        )
    })
}

/// The line and column (1-based) of setting `key` in a snapshot's text, at `item` of its list
/// when that is found after the key.
fn setting_place(text: &str, key: &str, item: Option<&str>) -> Option<(usize, usize)> {
    let settings = text.find("\"settings\"")?;
    let quoted = serde_json::to_string(key).ok()?;
    let mut at = settings + text[settings..].find(&quoted)?;
    if let Some(item) = item
        && let Ok(q) = serde_json::to_string(item)
        && let Some(i) = text[at..].find(&q)
    {
        at += i;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((line, col))
}

/// The accepted outcomes and the text they were read from.
fn read_snapshot_text(folder: &Path) -> Result<Option<(Accepted, String)>, Fail> {
    let path = folder.join(SNAPSHOT);
    let shown = crate::common::shown_path(&path);
    let text = match FsSource::new(folder).read(SNAPSHOT) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Fail::Invalid(format!(
                "{shown}: error: cannot read it: {e}"
            )));
        }
    };
    match parse_snapshot(&text) {
        Ok(snap) => Ok(Some((snap, text))),
        Err(e) => Err(Fail::Invalid(format!("{shown}:{e}"))),
    }
}

/// [`check_record`] as a failure naming the snapshot of `folder`.
fn record_fits(folder: &Path, snap: Accepted) -> Result<Accepted, Fail> {
    check_record(&snap).map_err(|e| {
        let shown = crate::common::shown_path(&folder.join(SNAPSHOT));
        Fail::Invalid(format!("{shown}:{e}"))
    })?;
    Ok(snap)
}

/// A snapshot's text as [`read_snapshot`] reads it; an error is "LINE:COL: error: …" or
/// " error: …", to follow the file's name.
fn parse_snapshot(text: &str) -> Result<Accepted, String> {
    let snap: Accepted = serde_json::from_str(text).map_err(|e| {
        format!(
            "{}:{}: error: {}",
            e.line(),
            e.column(),
            cut(&plain_json_error(&e), 200)
        )
    })?;
    snap.settings.check().map_err(|e| format!(" error: {e}"))?;
    Ok(snap)
}

/// The per-game record of `snap`, when it has one, checked against its settings' games and
/// seats; an error is " error: …", as from [`parse_snapshot`]. Checked after the settings
/// themselves, so a seat count the mod cannot seat is reported as that, at its line.
fn check_record(snap: &Accepted) -> Result<(), String> {
    if let Some(r) = &snap.per_game {
        r.games(snap.settings.games, snap.settings.players)
            .map_err(|e| format!(" error: {e}"))?;
    }
    Ok(())
}

/// A JSON error in a mod author's words, without serde's " at line L column C" (the place
/// is given in front).
fn plain_json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(m, _)| m);
    farebox::content::load::friendly_toml_error(msg)
}

/// Writes `snap` as the accepted outcomes of the mod in `folder` (atomically, through a
/// temporary file, in the format [`read_snapshot`] reads) and returns the file written. Only
/// ever inside the mod folder: a `snapshots/` that is a link elsewhere, or an
/// `outcomes.json` that is a link, is refused. Nothing is written that would not read back
/// as the same figures: a figure that is not a finite number (JSON would hold `null`, and
/// `farebox test` could not read the file) is refused by name, and the text is read back
/// and compared before it replaces the file.
pub fn write_snapshot(folder: &Path, snap: &Accepted) -> Result<PathBuf, Fail> {
    let path = folder.join(SNAPSHOT);
    let shown = crate::common::shown_path(&path);
    let kept = "the accepted outcomes are left as they were";
    if let Some(name) = snap.outcomes.non_finite() {
        return Err(Fail::Invalid(format!(
            "{shown} is not written: the figure {} is not a finite number, which the file cannot hold; {kept}",
            cut(&name, 200)
        )));
    }
    let text = serde_json::to_string_pretty(snap)
        .map_err(|e| Fail::Invalid(format!("{shown} is not written: {e}; {kept}")))?
        + "\n";
    match parse_snapshot(&text).and_then(|back| check_record(&back).map(|()| back)) {
        Ok(back) if same_json(&to_json(&back), &to_json(snap)) => {}
        Ok(_) => {
            return Err(Fail::Invalid(format!(
                "{shown} is not written: read back, its figures would not be the ones accepted; {kept}"
            )));
        }
        Err(e) => {
            return Err(Fail::Invalid(format!(
                "{shown} is not written: it would not read back ({}); {kept}",
                e.trim_start()
            )));
        }
    }
    farebox::source::write_in_mod(folder, SNAPSHOT, &text).map_err(|e| {
        Fail::Usage(format!(
            "cannot write {}: {e}",
            folder.join(SNAPSHOT).display()
        ))
    })
}

fn to_json(snap: &Accepted) -> serde_json::Value {
    serde_json::to_value(snap).unwrap_or(serde_json::Value::Null)
}

/// Whether two JSON values hold the same figures: numbers written as decimals may read back
/// a last binary digit apart, so fractions are compared to a part in 10^12.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) if x.is_f64() || y.is_f64() => {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
                _ => false,
            }
        }
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

impl Settings {
    /// The games of these settings as `test` plays them (the labels of [`LABELS`], the
    /// figures followed), on `threads` threads, each keeping its profile when `profile` is
    /// set. Agents, options and forbidden ids the mod does not have are refused here.
    pub fn batch(&self, def: &Arc<GameDef>, threads: usize, profile: bool) -> Result<Batch, Fail> {
        let base = setup(def, self.players, self.seed, &self.options)?;
        let forbid = crate::runs::forbid_of(def, &self.forbid, None, self.players)?;
        Ok(Batch::new(def, base, &self.bots, self.cap)
            .map_err(Fail::Usage)?
            .games(self.games)
            .threads(threads)
            .forbid(forbid)
            .checks(Checks {
                figures: true,
                profile,
                ..LABELS.into()
            }))
    }
}

/// Plays the games `s` describes, as `test` plays them, on `threads` threads; once `stop` is
/// set no more games start and the outcomes are those of the games played so far. `done` is
/// called after each game. Every outcome is kept (the Studio draws distributions from them),
/// its error and ending cut to what a person is shown; with `profile` each holds its game's
/// profile of hook and bot calls.
pub fn play_games(
    def: &Arc<GameDef>,
    s: &Settings,
    threads: usize,
    done: &(dyn Fn() + Sync),
    stop: &AtomicBool,
    profile: bool,
) -> Result<Vec<Outcome>, Fail> {
    let mut out = Vec::new();
    s.batch(def, threads, profile)?
        .play(stop, done, &mut |o| out.push(crate::runs::shortened(o)));
    Ok(out)
}

/// The game of the run `s` with seed `seed`, played again exactly as the run played it, as a
/// replay: up to the action that failed (not taken) or the cap, with the run's outcome of
/// it. The Studio shows a run's failed game this way.
pub fn failed_game(
    def: &Arc<GameDef>,
    s: &Settings,
    seed: u64,
) -> Result<(farebox::replay::Replay, Outcome), Fail> {
    let batch = s.batch(def, 1, false)?;
    let mut actions = Vec::new();
    let out = batch.play_one(seed.wrapping_sub(s.seed), &mut None, Some(&mut actions));
    let mut one = batch.setup.clone();
    one.seed = seed;
    let mut game =
        farebox::game::Game::new(def.clone(), one).map_err(|e| Fail::Invalid(e.to_string()))?;
    let mut rec = farebox::replay::Recorder::new(&game);
    for a in &actions {
        let seat = game.active();
        game.apply_legal(a).map_err(|e| {
            Fail::Invalid(format!("the game went elsewhere when played again: {e}"))
        })?;
        rec.step(seat, a, &game);
    }
    Ok((rec.finish(&game), out))
}

/// What the games `s` describes come to, as `test` compares them: on every core, each game
/// added to the figures as it comes back; and each game's record, in seed order.
pub fn stats(def: &Arc<GameDef>, s: &Settings) -> Result<(Stats, Vec<crate::paired::Game>), Fail> {
    let threads = crate::common::threads_for(None, s.games);
    let mut tally = Tally::new(def, s.players);
    let mut games = Vec::new();
    s.batch(def, threads, false)?
        .play(&AtomicBool::new(false), &|| {}, &mut |o| {
            games.push(crate::paired::Game::of(&o));
            tally.add(&o);
        });
    Ok((tally.stats(), games))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mod folder in the temp dir holding Curbside's accepted outcomes, removed when dropped.
    struct Folder(PathBuf);

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn curbside_snapshot(name: &str) -> (Folder, Accepted, Vec<u8>) {
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods/curbside");
        let dir =
            std::env::temp_dir().join(format!("farebox-snapshot-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let bytes = std::fs::read(bundled.join(SNAPSHOT)).unwrap_or_default();
        std::fs::create_dir_all(dir.join("snapshots")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join(SNAPSHOT), &bytes).unwrap_or_else(|e| panic!("{e}"));
        let snap = read_snapshot(&dir)
            .unwrap_or_else(|f| panic!("{}", f.message()))
            .unwrap_or_else(|| panic!("Curbside has accepted outcomes"));
        (Folder(dir), snap, bytes)
    }

    #[test]
    fn a_figure_that_is_not_a_number_is_refused_by_name_and_nothing_is_written() {
        let (dir, mut snap, before) = curbside_snapshot("nan");
        let stat = snap
            .outcomes
            .figures
            .stats
            .values_mut()
            .next()
            .unwrap_or_else(|| panic!("Curbside records a stat"));
        stat.sd = f64::NAN;
        let name = snap.outcomes.figures.stats.keys().next().cloned();
        let e = match write_snapshot(&dir.0, &snap) {
            Err(e) => e.message().to_string(),
            Ok(_) => panic!("a NaN figure was written"),
        };
        let name = name.unwrap_or_default();
        assert!(
            e.contains(&format!(
                "the figure stat `{name}` (its sd) is not a finite number"
            )),
            "{e}"
        );
        assert!(e.contains("left as they were"), "{e}");
        let after = std::fs::read(dir.0.join(SNAPSHOT)).unwrap_or_default();
        assert!(before == after, "the accepted outcomes were rewritten");
        // An infinite mean score is refused the same way.
        snap.outcomes.figures.stats.clear();
        snap.outcomes.score_mean[1] = f64::INFINITY;
        let e = write_snapshot(&dir.0, &snap)
            .err()
            .map(|e| e.message().to_string());
        assert!(
            e.as_deref()
                .is_some_and(|e| e.contains("the figure mean score of seat 2 is not")),
            "{e:?}"
        );
    }

    #[test]
    fn what_is_written_reads_back_as_the_same_figures() {
        let (dir, snap, _) = curbside_snapshot("same");
        let path = write_snapshot(&dir.0, &snap).unwrap_or_else(|f| panic!("{}", f.message()));
        assert_eq!(
            path.file_name(),
            Some(std::ffi::OsStr::new("outcomes.json"))
        );
        let back = read_snapshot(&dir.0)
            .unwrap_or_else(|f| panic!("{}", f.message()))
            .unwrap_or_else(|| panic!("nothing was written"));
        assert!(same_json(&to_json(&back), &to_json(&snap)));
        // No temporary file is left beside it.
        let left: Vec<_> = std::fs::read_dir(dir.0.join("snapshots"))
            .unwrap_or_else(|e| panic!("{e}"))
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("outcomes.json")]);
    }

    #[test]
    fn numbers_a_last_digit_apart_are_the_same_figure() {
        let n = |x: f64| serde_json::json!({ "x": [x] });
        let x = 0.1 + 0.2;
        assert!(same_json(&n(x), &n(f64::from_bits(x.to_bits() + 1))));
        assert!(!same_json(&n(x), &n(x * (1.0 + 1e-9))));
        assert!(!same_json(&serde_json::json!(1), &serde_json::json!(2)));
        assert!(!same_json(
            &n(1.0),
            &serde_json::json!({ "x": [1.0], "y": 2 })
        ));
    }
}
