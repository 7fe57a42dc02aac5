//! A run of seeded games in the background: the mod's games, then (for a house rule) its base
//! game's with the same settings. Progress is a shared counter and cancelling a shared flag,
//! so the UI thread only reads atomics and polls a channel; the figures are worked out on the
//! run's own thread before it reports back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Instant;

use farebox::GameDef;
use farebox::agent::{Agent, Outcome};

use crate::cmd_sim::Stats;
use crate::cmd_test::{Settings, play_games};

/// What one game (the mod or its base) came to.
pub struct Side {
    pub name: String,
    pub def: Arc<GameDef>,
    /// Every game, in seed order: the distributions are drawn from these.
    pub outcomes: Vec<Outcome>,
    pub stats: Stats,
    /// Per seat: lowest, lower quartile, median, upper quartile and highest score of the
    /// finished games, for the box plots (None for a seat without any).
    pub scores: Vec<Option<[f64; 5]>>,
}

/// The bars of a histogram: (middle of the bin, games in it), all bins `width` wide.
pub struct Histogram {
    pub bars: Vec<(f64, f64)>,
    pub width: f64,
}

/// How a run ended.
pub struct Finished {
    /// The settings it ran with, one agent per seat.
    pub settings: Settings,
    pub now: Result<Side, String>,
    /// The base game's side, when the mod is a house rule.
    pub base: Option<Result<Side, String>>,
    /// Stopped before every game was played: the figures are left out.
    pub cancelled: bool,
    /// Games played, over both sides.
    pub played: u64,
    pub total: u64,
    pub seconds: f64,
    /// Game lengths in turns and in actions, one histogram per side over the same bins.
    pub turns: Vec<Histogram>,
    pub actions: Vec<Histogram>,
}

/// A run under way.
pub struct Running {
    pub settings: Settings,
    pub total: u64,
    done: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    rx: Receiver<Finished>,
}

impl Running {
    /// Games played so far, over both sides.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed).min(self.total)
    }

    /// Asks the run to stop: no more games start, and it reports back as cancelled.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn cancelling(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The run's report once it has ended; never blocks.
    pub fn poll(&self) -> Option<Finished> {
        match self.rx.try_recv() {
            Ok(f) => Some(f),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(self.lost()),
        }
    }

    /// The run's report, waiting for it.
    pub fn wait(&self) -> Finished {
        self.rx.recv().unwrap_or_else(|_| self.lost())
    }

    fn lost(&self) -> Finished {
        Finished {
            settings: self.settings.clone(),
            now: Err("the run stopped unexpectedly".into()),
            base: None,
            cancelled: false,
            played: self.done(),
            total: self.total,
            seconds: 0.0,
            turns: Vec::new(),
            actions: Vec::new(),
        }
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
        .enumerate()
        .find_map(|(i, b)| Agent::from_spec(b, def, 0, i.min(255) as u8).err())
}

/// Starts playing `settings` on `now` and then on `base`; `wake` is asked to repaint when the
/// run ends.
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
    let (tx, rx) = std::sync::mpsc::channel();
    let (d, s, set) = (done.clone(), stop.clone(), settings.clone());
    std::thread::Builder::new()
        .name("outcomes".into())
        .spawn(move || {
            let finished = play(now, base, set, &d, &s, total);
            // The panel may have gone, or moved on to another run: nobody to tell then.
            let _ = tx.send(finished);
            if let Some(ctx) = wake {
                ctx.request_repaint();
            }
        })
        .map_err(|e| format!("cannot start the run: {e}"))?;
    Ok(Running {
        settings,
        total,
        done,
        stop,
        rx,
    })
}

fn play(
    now: (String, Arc<GameDef>),
    base: Option<(String, Arc<GameDef>)>,
    settings: Settings,
    done: &AtomicU64,
    stop: &AtomicBool,
    total: u64,
) -> Finished {
    let started = Instant::now();
    let threads = threads(settings.games);
    let tick = || {
        done.fetch_add(1, Ordering::Relaxed);
    };
    let side = |(name, def): (String, Arc<GameDef>)| -> Result<Side, String> {
        if let Some(why) = unplayable(&def, &settings) {
            // Counted as done, so the progress bar still reaches its end.
            done.fetch_add(settings.games, Ordering::Relaxed);
            return Err(why);
        }
        let outcomes = play_games(&def, &settings, threads, &tick, stop)
            .map_err(|f| f.message().to_string())?;
        let stats = Stats::of(settings.players, &outcomes);
        let scores = score_spreads(settings.players, &outcomes);
        Ok(Side {
            name,
            def,
            outcomes,
            stats,
            scores,
        })
    };
    let now = side(now);
    let base = base.map(|b| {
        if stop.load(Ordering::Relaxed) {
            Err("cancelled".to_string())
        } else {
            side(b)
        }
    });
    let played = done.load(Ordering::Relaxed).min(total);
    let short = |s: &Result<Side, String>| {
        s.as_ref()
            .is_ok_and(|s| (s.outcomes.len() as u64) < settings.games)
    };
    let cancelled = stop.load(Ordering::Relaxed)
        && (short(&now) || base.as_ref().is_some_and(|b| b.is_err() || short(b)));
    let sides: Vec<&Side> = std::iter::once(&now)
        .chain(base.as_ref())
        .filter_map(|s| s.as_ref().ok())
        .collect();
    let turns = histograms(&sides, |o| o.turns);
    let actions = histograms(&sides, |o| o.actions);
    Finished {
        settings,
        now,
        base,
        cancelled,
        played,
        total,
        seconds: started.elapsed().as_secs_f64(),
        turns,
        actions,
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

    #[test]
    fn quantiles_interpolate() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&xs, 0.0), 1.0);
        assert_eq!(quantile(&xs, 1.0), 4.0);
        assert!((quantile(&xs, 0.5) - 2.5).abs() < 1e-12);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
