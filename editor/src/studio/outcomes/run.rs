//! A run of seeded games in the background: the mod's games, then (for a house rule) its base
//! game's with the same settings. Progress is a shared counter and cancelling a shared flag,
//! so the UI thread only reads atomics, polls a channel and takes the newest report from a
//! slot; every figure is worked out on the run's own thread before it reports.
//!
//! The games are played in batches of consecutive seeds: first [`FIRST`] game on each thread,
//! then batches sized to take about [`EVERY`] each. After each batch but the last the run reports
//! provisional figures over the games played so far, which are always the first games of the
//! run in seed order (a prefix), the same games for the mod and its base game. A game
//! depends only on its seed and settings, so the games of the finished run, and its figures,
//! are exactly those of one [`play_games`] call over all the seeds, which is what
//! `farebox test` plays.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use farebox::GameDef;
use farebox::agent::{AgentSpec, Outcome};
use farebox::script::Profile;

use crate::accepted::{Settings, play_games};
use farebox::figures::Stats;

/// Games of each side in the first batch, per thread: the first figures come after these, so
/// they come as soon as one game is played (24 games were about 6 s of Dicey Curves with its
/// racer bots on one thread, 12 s with a house rule's base game beside it). Over so few games
/// the figures are judged by chance (see `compare`), so they do not cry "changed".
pub const FIRST: u64 = 1;

/// How long a batch after the first should take: the figures move about this often.
pub const EVERY: Duration = Duration::from_millis(250);

/// The largest batch, so a fast mod still reports now and then.
const MOST: u64 = 4_096;

/// What one game (the mod or its base) came to.
pub struct Side {
    pub name: String,
    pub def: Arc<GameDef>,
    /// Every game played, in seed order: the distributions are drawn from these.
    pub outcomes: Vec<Outcome>,
    pub stats: Stats,
    /// Per seat: lowest, lower quartile, median, upper quartile and highest score of the
    /// finished games, for the box plots (None for a seat without any).
    pub scores: Vec<Option<[f64; 5]>>,
    /// Calls, steps, time and API calls of each hook and bot over the games played.
    pub profile: Profile,
}

/// The bars of a histogram: (middle of the bin, games in it), all bins `width` wide.
pub struct Histogram {
    pub bars: Vec<(f64, f64)>,
    pub width: f64,
}

/// What a run came to: how it ended or, while it goes on, where it stands.
pub struct Report {
    /// The settings it runs with, one agent per seat.
    pub settings: Settings,
    pub now: Result<Side, String>,
    /// The base game's side, when the mod is a house rule.
    pub base: Option<Result<Side, String>>,
    /// The run is still going: the figures are of the first games only (the same seeds on
    /// both sides) and will change.
    pub provisional: bool,
    /// Stopped before every game was played: the figures are left out.
    pub cancelled: bool,
    /// Games played, over both sides.
    pub played: u64,
    pub total: u64,
    pub seconds: f64,
    /// Game lengths in turns and in actions, one histogram per side over the same bins.
    pub turns: Vec<Histogram>,
    pub actions: Vec<Histogram>,
    /// Not played here but merged from shard files (see `shards`): the line that says so.
    /// Such figures keep no games, so no histograms, score spreads or profile.
    pub merged: Option<String>,
}

impl Report {
    /// Games in the figures of the mod (all of them once the run is complete).
    pub fn games(&self) -> usize {
        self.now.as_ref().map_or(0, |s| s.stats.games)
    }
}

/// What a run has to say when polled.
pub enum Update {
    /// Figures of the games played so far; the run goes on.
    Provisional(Report),
    /// The run ended (complete, cancelled or failed).
    Ended(Report),
}

/// A run under way.
pub struct Running {
    pub settings: Settings,
    pub total: u64,
    done: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    rx: Receiver<Report>,
    /// The newest provisional report not yet taken: a newer one replaces it, so reports do
    /// not pile up while nobody looks.
    newest: Arc<Mutex<Option<Report>>>,
}

impl Running {
    /// Games played so far, over both sides.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed).min(self.total)
    }

    /// Asks the run to stop: no more games start, no more provisional figures come, and it
    /// reports back as cancelled.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn cancelling(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The run's end once it has ended, else its newest provisional figures not yet taken;
    /// never blocks (the run holds the slot only to put a report in it).
    pub fn poll(&self) -> Option<Update> {
        match self.rx.try_recv() {
            Ok(f) => return Some(Update::Ended(f)),
            Err(TryRecvError::Disconnected) => return Some(Update::Ended(self.lost())),
            Err(TryRecvError::Empty) => {}
        }
        let mut slot = self.newest.try_lock().ok()?;
        slot.take().map(Update::Provisional)
    }

    /// The run's end, waiting for it.
    pub fn wait(&self) -> Report {
        self.rx.recv().unwrap_or_else(|_| self.lost())
    }

    fn lost(&self) -> Report {
        Report {
            settings: self.settings.clone(),
            now: Err("the run stopped unexpectedly".into()),
            base: None,
            provisional: false,
            cancelled: false,
            played: self.done(),
            total: self.total,
            seconds: 0.0,
            turns: Vec::new(),
            actions: Vec::new(),
            merged: None,
        }
    }
}

/// A run nobody holds any more stops: a panel that moved on does not leave games playing.
impl Drop for Running {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Worker threads for a run: all cores but one, which the UI keeps.
pub fn threads(games: u64) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .clamp(
            1,
            (games.max(1) as usize).min(crate::common::MAX_THREADS as usize),
        )
}

/// Why `settings` cannot be played on `def`, if they cannot: seats out of the game's range,
/// or an agent it does not have.
pub fn unplayable(def: &GameDef, settings: &Settings) -> Option<String> {
    if !def.playable() {
        return Some(format!(
            "{} has no rule scripts yet, so its games cannot be played",
            def.name
        ));
    }
    let (lo, hi) = def.players;
    let seats = u32::from(settings.players);
    if seats < lo || seats > hi {
        return Some(format!(
            "{} is for {lo} to {hi} players, not {seats}",
            def.name
        ));
    }
    settings
        .bots
        .iter()
        .find_map(|b| AgentSpec::parse(b, def).err())
}

/// Starts playing `settings` on `now` and on `base`; `wake` is asked to repaint when there
/// are new figures and when the run ends.
pub fn start(
    now: (String, Arc<GameDef>),
    base: Option<(String, Arc<GameDef>)>,
    settings: Settings,
    wake: Option<egui::Context>,
) -> Result<Running, String> {
    let total = settings
        .games
        .saturating_mul(if base.is_some() { 2 } else { 1 });
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let newest = Arc::new(Mutex::new(None));
    let (tx, rx) = std::sync::mpsc::channel();
    let (d, s, n, set) = (done.clone(), stop.clone(), newest.clone(), settings.clone());
    std::thread::Builder::new()
        .name("outcomes".into())
        .spawn(move || {
            let wake = || {
                if let Some(ctx) = &wake {
                    ctx.request_repaint();
                }
            };
            let provisional = |r: Report| {
                if let Ok(mut slot) = n.lock() {
                    *slot = Some(r);
                }
                wake();
            };
            let finished = play(now, base, set, &d, &s, total, &provisional);
            // The panel may have gone, or moved on to another run: nobody to tell then.
            let _ = tx.send(finished);
            wake();
        })
        .map_err(|e| format!("cannot start the run: {e}"))?;
    Ok(Running {
        settings,
        total,
        done,
        stop,
        rx,
        newest,
    })
}

/// One side's games so far, or why it cannot be played.
struct Played {
    name: String,
    def: Arc<GameDef>,
    outcomes: Vec<Outcome>,
    /// The hooks' and bots' calls over every game played, taken out of each outcome.
    profile: Profile,
}

/// Plays the run batch by batch, handing `provisional` the figures after each batch but the
/// last (unless stopped), and returns its end.
fn play(
    now: (String, Arc<GameDef>),
    base: Option<(String, Arc<GameDef>)>,
    settings: Settings,
    done: &AtomicU64,
    stop: &AtomicBool,
    total: u64,
    provisional: &dyn Fn(Report),
) -> Report {
    let started = Instant::now();
    let games = settings.games;
    let threads = threads(games) as u64;
    let tick = || {
        done.fetch_add(1, Ordering::Relaxed);
    };
    let mut sides: Vec<Result<Played, String>> = std::iter::once(now)
        .chain(base)
        .map(|(name, def)| match unplayable(&def, &settings) {
            Some(why) => {
                // Counted as done, so the progress bar still reaches its end.
                done.fetch_add(games, Ordering::Relaxed);
                Err(why)
            }
            None => Ok(Played {
                name,
                def,
                outcomes: Vec::new(),
                profile: Profile::new(),
            }),
        })
        .collect();
    let stopped = || stop.load(Ordering::Relaxed);
    let mut next = 0u64;
    let mut batch = round_up(FIRST, threads);
    while next < games && !stopped() && sides.iter().any(Result::is_ok) {
        let n = batch.min(games - next);
        let part = Settings {
            seed: settings.seed.wrapping_add(next),
            games: n,
            ..settings.clone()
        };
        let t = Instant::now();
        for side in &mut sides {
            let Ok(p) = side else { continue };
            match play_games(&p.def, &part, threads as usize, &tick, stop, true) {
                Ok(mut o) => {
                    for g in &mut o {
                        for (name, calls) in std::mem::take(&mut g.profile) {
                            p.profile.entry(name).or_default().merge(&calls);
                        }
                    }
                    p.outcomes.extend(o)
                }
                Err(f) => {
                    done.fetch_add(games - next, Ordering::Relaxed);
                    *side = Err(f.message().to_string());
                }
            }
        }
        let spent = t.elapsed();
        next += n;
        if next >= games || stopped() {
            break;
        }
        let t = Instant::now();
        let sofar = sides.iter().map(|s| match s {
            Ok(p) => Ok(side(
                p.name.clone(),
                p.def.clone(),
                p.outcomes.clone(),
                p.profile.clone(),
                &settings,
            )),
            Err(e) => Err(e.clone()),
        });
        provisional(report(
            &settings,
            sofar,
            true,
            false,
            done.load(Ordering::Relaxed).min(total),
            total,
            started,
        ));
        // The next batch takes about EVERY, or longer when working out the figures took
        // more than a twentieth of that (a long run's figures are over many games).
        let per_game = spent.as_secs_f64() / n as f64;
        let aim = EVERY.max(t.elapsed() * 20).as_secs_f64();
        batch = round_up((aim / per_game.max(1e-6)) as u64, threads).clamp(threads, MOST);
    }
    let played = done.load(Ordering::Relaxed).min(total);
    let cancelled = stopped()
        && sides
            .iter()
            .any(|s| s.as_ref().is_ok_and(|p| (p.outcomes.len() as u64) < games));
    let sides = sides
        .into_iter()
        .map(|s| s.map(|p| side(p.name, p.def, p.outcomes, p.profile, &settings)));
    report(&settings, sides, false, cancelled, played, total, started)
}

/// `n` rounded up to a whole number of `threads`, so every thread has games to play.
fn round_up(n: u64, threads: u64) -> u64 {
    n.div_ceil(threads.max(1)).max(1) * threads.max(1)
}

/// A side's figures over its games so far.
fn side(
    name: String,
    def: Arc<GameDef>,
    outcomes: Vec<Outcome>,
    profile: Profile,
    settings: &Settings,
) -> Side {
    let stats = Stats::of(&def, settings.players, &outcomes);
    let scores = score_spreads(settings.players, &outcomes);
    Side {
        name,
        def,
        outcomes,
        stats,
        scores,
        profile,
    }
}

/// A report of the mod's side and (for a house rule) the base game's.
fn report(
    settings: &Settings,
    mut sides: impl Iterator<Item = Result<Side, String>>,
    provisional: bool,
    cancelled: bool,
    played: u64,
    total: u64,
    started: Instant,
) -> Report {
    let now = sides
        .next()
        .unwrap_or_else(|| Err("nothing was played".into()));
    let base = sides.next();
    let ok: Vec<&Side> = std::iter::once(&now)
        .chain(base.as_ref())
        .filter_map(|s| s.as_ref().ok())
        .collect();
    let turns = histograms(&ok, |o| o.turns);
    let actions = histograms(&ok, |o| o.actions);
    Report {
        settings: settings.clone(),
        now,
        base,
        provisional,
        cancelled,
        played,
        total,
        seconds: started.elapsed().as_secs_f64(),
        turns,
        actions,
        merged: None,
    }
}

/// Five-number summaries of each seat's scores over the finished games.
fn score_spreads(seats: u8, outcomes: &[Outcome]) -> Vec<Option<[f64; 5]>> {
    (0..seats as usize)
        .map(|seat| {
            let mut xs: Vec<f64> = outcomes
                .iter()
                .filter_map(|o| o.result.as_ref()?.scores.get(seat).map(|&s| s as f64))
                .collect();
            xs.sort_by(f64::total_cmp);
            let (&lo, &hi) = (xs.first()?, xs.last()?);
            Some([
                lo,
                quantile(&xs, 0.25),
                quantile(&xs, 0.5),
                quantile(&xs, 0.75),
                hi,
            ])
        })
        .collect()
}

/// The `q` quantile of sorted values, interpolated between neighbours.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else {
        return 0.0;
    };
    let at = q * last as f64;
    let (i, frac) = (at.floor() as usize, at.fract());
    let a = sorted.get(i).copied().unwrap_or(0.0);
    let b = sorted.get(i + 1).copied().unwrap_or(a);
    a + (b - a) * frac
}

/// One histogram per side of a per-game length over bins shared by all sides (at most about
/// 40 bins, each a whole number of units wide). Games that ended in an error are left out.
fn histograms(sides: &[&Side], len: impl Fn(&Outcome) -> u32) -> Vec<Histogram> {
    let all = || {
        sides
            .iter()
            .flat_map(|s| s.outcomes.iter().filter(|o| o.error.is_none()).map(&len))
    };
    let (Some(lo), Some(hi)) = (all().min(), all().max()) else {
        return sides
            .iter()
            .map(|_| Histogram {
                bars: Vec::new(),
                width: 1.0,
            })
            .collect();
    };
    let width = (u64::from(hi - lo) / 40 + 1).max(1);
    let bins = (u64::from(hi - lo) / width + 1) as usize;
    sides
        .iter()
        .map(|s| {
            let mut counts = vec![0u64; bins];
            for o in s.outcomes.iter().filter(|o| o.error.is_none()) {
                let bin = (u64::from(len(o).saturating_sub(lo)) / width) as usize;
                if let Some(c) = counts.get_mut(bin) {
                    *c += 1;
                }
            }
            let bars = counts
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(i, c)| {
                    let start = f64::from(lo) + (i as u64 * width) as f64;
                    (start + (width as f64 - 1.0) / 2.0, *c as f64)
                })
                .collect();
            Histogram {
                bars,
                width: width as f64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first figures come after one game on each thread, not after a batch of many:
    /// 24 games of Dicey Curves with its racer bots took about 6 s on one thread.
    #[test]
    fn the_first_figures_come_after_one_game_a_thread() {
        let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
        let def = farebox::content::load_mod(
            &farebox::source::FsSource::new(std::path::Path::new(mods).join("wheres-my-ride")),
            &farebox::source::FolderResolver::new(mods),
        )
        .unwrap_or_else(|e| panic!("wheres-my-ride does not load: {e:?}"));
        let settings = Settings {
            games: 300,
            seed: 1,
            players: 4,
            bots: vec!["random".into(); 4],
            cap: 5000,
            options: Vec::new(),
            forbid: Vec::new(),
        };
        let (done, stop) = (AtomicU64::new(0), AtomicBool::new(false));
        let seen = Mutex::new(Vec::new());
        // Stops the run at its first figures.
        let first = |r: Report| {
            if let Ok(mut seen) = seen.lock() {
                seen.push(r.games());
            }
            stop.store(true, Ordering::Relaxed);
        };
        let end = play(
            ("Where's My Ride?".into(), Arc::new(def)),
            None,
            settings,
            &done,
            &stop,
            300,
            &first,
        );
        let seen = seen.into_inner().unwrap_or_default();
        assert_eq!(seen, vec![threads(300)], "games in each provisional report");
        assert!(end.cancelled && end.games() == threads(300));
    }

    #[test]
    fn quantiles_interpolate() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&xs, 0.0), 1.0);
        assert_eq!(quantile(&xs, 1.0), 4.0);
        assert!((quantile(&xs, 0.5) - 2.5).abs() < 1e-12);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
