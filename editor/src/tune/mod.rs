//! The tuner (`farebox tune`, the Studio's Tune…): the smallest change of a mod's numeric
//! content that brings one outcome figure to its target, found by playing seeded games.
//!
//! Every candidate is the open mod with up to three fields moved by whole steps, loaded from
//! memory through the editing model (`crate::edit`: the same typed edits the Studio makes,
//! so a proposal applies as ordinary edits), and played with the engine's batch runner on
//! the SAME seed range as every other candidate, so differences between candidates are
//! paired. The search (see `docs/architecture/engine.md`, "The tuner"):
//!
//! 1. the mod as it is; nothing to do when it meets the target already;
//! 2. screening: each field one step up and one down, giving its effect per step;
//! 3. racing: changes of one, then two, then three of the fields with the largest effects,
//!    the fewest and smallest steps first among those the effects predict to meet the
//!    target; each is played, the first whose figure meets it is the proposal, and every
//!    change of one field that is played sharpens that field's effect;
//! 4. the check: the mod and the proposal on a fresh seed range; the fix holds when the
//!    fresh figure's 95% interval reaches the target's band.
//!
//! Nothing reads a clock: the same mod, fields, target, seeds and budget give the same
//! proposal.

pub mod fields;
pub mod target;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use farebox::agent::{Checks, Labels};
use farebox::batch::Batch;
use farebox::figures::{Stats, Tally};
use farebox::game::Setup;
use farebox::source::FolderResolver;
use serde::Serialize;

pub use fields::Field;
pub use target::{Measure, Target};

use crate::edit::{EditError, Editor};

/// The most fields one proposal changes.
pub const MAX_CHANGED: usize = 3;
/// The most fields a search screens.
pub const MAX_FIELDS: usize = 40;
/// How many of the screened fields (largest effects first) the racing combines.
const TOP_FIELDS: usize = 6;
/// The most steps one field moves alone, with one other and with two others.
const MAX_STEPS: [i32; 3] = [100, 10, 5];

/// What to tune and how.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The mod's folder, and where its dependencies are found.
    pub folder: PathBuf,
    pub resolver: FolderResolver,
    pub target: Target,
    /// The patterns of the fields it may change (see [`fields`]).
    pub fields: Vec<String>,
    pub seats: u8,
    pub bots: Vec<String>,
    /// Games per candidate, on seeds `seed..seed + games`.
    pub games: u64,
    pub seed: u64,
    /// The first seed of the check's fresh range.
    pub check_seed: u64,
    /// The most candidates played (the mod as it is counts as one).
    pub budget: u32,
    pub cap: u32,
    pub threads: usize,
}

/// One field's change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub field: String,
    pub old: f64,
    pub new: f64,
    /// Both as the file writes them.
    pub old_text: String,
    pub new_text: String,
}

/// One line of the TOML the proposal changes: its file (relative to the mod), its line
/// (counted from 1, in the changed file) and the text before and after (None: a line added
/// or taken out).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiffLine {
    pub file: String,
    pub line: usize,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// The mod and the proposal on one seed range.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Side {
    pub first_seed: u64,
    pub games: u64,
    pub before: Measure,
    pub after: Measure,
}

/// What a tuning came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    pub target: Target,
    /// The fields searched.
    pub fields: Vec<String>,
    /// Candidates played, the mod as it is included.
    pub evaluations: u32,
    /// The mod as it is meets the target on the search's seeds: nothing to change.
    pub already_met: bool,
    /// The change proposed (the closest one found when none met the target).
    pub changes: Vec<Change>,
    pub diff: Vec<DiffLine>,
    /// The proposal meets the target on the search's seeds.
    pub met: bool,
    /// The search's seeds.
    pub search: Side,
    /// The fresh seeds.
    pub check: Side,
    /// The fresh figure's interval reaches the target's band.
    pub held: bool,
    /// The changes as the edits that make them (what the Studio's Apply makes).
    #[serde(skip)]
    pub edits: Vec<crate::edit::Edit>,
}

/// A change: each field it moves (by index into the fields) with its steps.
type Steps = Vec<(usize, i32)>;

/// A point the search played: the steps of each field it moved (by index into the fields)
/// and the figure.
#[derive(Debug, Clone)]
struct Point {
    steps: Vec<(usize, i32)>,
    value: f64,
    measure: Measure,
}

/// Why a tuning could not be done: a problem with what was asked (a figure the runs do not
/// have, a budget too small) or with the mod (it fails to load or to play).
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    Asked(String),
    Mod(String),
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Mod(m)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Asked(m) | Failure::Mod(m) => f.write_str(m),
        }
    }
}

/// Opens the mod's editing model (its files as saved).
pub fn open(plan: &Plan) -> Result<Editor, String> {
    Editor::open(&plan.folder, &plan.resolver).map_err(|e: EditError| e.0)
}

/// The fields of the mod `plan` may change.
pub fn fields_of(editor: &Editor, plan: &Plan) -> Result<Vec<Field>, String> {
    let all = fields::all(&editor.catalog());
    let chosen = fields::select(&all, &plan.fields)?;
    if chosen.len() > MAX_FIELDS {
        return Err(format!(
            "--fields names {} fields; a search takes at most {MAX_FIELDS}: name fewer",
            chosen.len()
        ));
    }
    Ok(chosen)
}

/// Plays the candidates.
struct Runner<'a> {
    plan: &'a Plan,
    editor: Editor,
    fields: Vec<Field>,
    stop: &'a AtomicBool,
    evaluations: u32,
    progress: &'a (dyn Fn(u32, u32) + Sync),
}

impl Runner<'_> {
    /// The mod with `steps` made, loaded from memory; Err when it does not load (a value
    /// its checks refuse), with the first problem.
    fn def_with(&mut self, steps: &[(usize, i32)]) -> Result<Arc<farebox::GameDef>, String> {
        let before = self.editor.history().steps().0.len();
        let mut failed = None;
        for (i, k) in steps {
            let f = &self.fields[*i];
            let value = f.value + f64::from(*k) * f.step();
            self.editor.seal();
            if let Err(e) = self.editor.apply(&f.edit(value)) {
                failed = Some(e.0);
                break;
            }
        }
        let def = match failed {
            Some(e) => Err(e),
            None => self.editor.validate().map_err(|d| {
                d.iter()
                    .next()
                    .map_or_else(|| "it does not load".to_string(), |x| x.to_string())
            }),
        };
        while self.editor.history().steps().0.len() > before {
            if self.editor.undo().is_none() {
                break;
            }
        }
        let def = def?;
        if !def.playable() {
            return Err(format!(
                "{} has no rule scripts, so it cannot be played",
                def.name
            ));
        }
        Ok(Arc::new(def))
    }

    /// The figure of the mod with `steps` made, on `games` games from `seed`. Counts as one
    /// evaluation of the budget when played.
    fn measure(&mut self, steps: &[(usize, i32)], seed: u64) -> Result<Measure, String> {
        let def = self.def_with(steps)?;
        self.evaluations += 1;
        (self.progress)(self.evaluations, self.plan.budget);
        let stats = play(&def, self.plan, seed, self.stop)?;
        if stats.errors > 0 {
            return Err(stats.first_failure().unwrap_or_else(|| stats.failed_line()));
        }
        self.plan
            .target
            .read(&stats)
            .ok_or_else(|| format!("the games gave no {}", self.plan.target.name()))
    }
}

/// Plays `plan.games` games of `def` from `seed` and gives their figures.
fn play(
    def: &Arc<farebox::GameDef>,
    plan: &Plan,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Stats, String> {
    let batch = Batch::new(def, Setup::new(plan.seats, seed), &plan.bots, plan.cap)?
        .games(plan.games)
        .threads(plan.threads.max(1))
        .checks(Checks {
            labels: Labels::Never,
            profile: false,
            figures: true,
        });
    let mut tally = Tally::new(def, plan.seats);
    batch.play(stop, &|| {}, &mut |o| tally.add(&o));
    if stop.load(Ordering::Relaxed) {
        return Err("stopped".into());
    }
    Ok(tally.stats())
}

/// Each field's effect per step on the figure, from the points that moved it alone
/// (least squares through the mod as it is).
fn effects(points: &[Point], base: f64, n: usize) -> Vec<f64> {
    let mut sxy = vec![0.0; n];
    let mut sxx = vec![0.0; n];
    for p in points {
        if let [(i, k)] = p.steps[..] {
            let k = f64::from(k);
            sxy[i] += k * (p.value - base);
            sxx[i] += k * k;
        }
    }
    (0..n)
        .map(|i| if sxx[i] > 0.0 { sxy[i] / sxx[i] } else { 0.0 })
        .collect()
}

/// Candidate changes the effects predict to meet the target, the fewest fields and the
/// fewest steps first (then the nearest the goal), leaving out those already tried.
fn candidates(
    effect: &[f64],
    base: f64,
    target: &Target,
    tried: &[Vec<(usize, i32)>],
) -> Vec<Vec<(usize, i32)>> {
    let mut order: Vec<usize> = (0..effect.len()).filter(|i| effect[*i] != 0.0).collect();
    order.sort_by(|a, b| effect[*b].abs().total_cmp(&effect[*a].abs()).then(a.cmp(b)));
    order.truncate(TOP_FIELDS);
    order.sort_unstable();
    let mut out: Vec<(usize, i32, f64, Steps)> = vec![];
    let mut combo = |fields: &[usize]| {
        let most = MAX_STEPS[fields.len() - 1];
        let steps: Vec<i32> = (-most..=most).filter(|k| *k != 0).collect();
        let mut ks = vec![0usize; fields.len()];
        loop {
            let change: Vec<(usize, i32)> = fields
                .iter()
                .zip(&ks)
                .map(|(f, k)| (*f, steps[*k]))
                .collect();
            let predicted = base
                + change
                    .iter()
                    .map(|(f, k)| effect[*f] * f64::from(*k))
                    .sum::<f64>();
            if target.met_by(predicted) && !tried.contains(&change) {
                let size: i32 = change.iter().map(|(_, k)| k.abs()).sum();
                out.push((fields.len(), size, (predicted - target.goal).abs(), change));
            }
            // The next combination of steps (an odometer).
            let mut d = 0;
            loop {
                if d == ks.len() {
                    return;
                }
                ks[d] += 1;
                if ks[d] < steps.len() {
                    break;
                }
                ks[d] = 0;
                d += 1;
            }
        }
    };
    let n = order.len();
    for f in &order {
        combo(&[*f]);
    }
    for a in 0..n {
        for b in a + 1..n {
            combo(&[order[a], order[b]]);
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                combo(&[order[a], order[b], order[c]]);
            }
        }
    }
    out.sort_by(|x, y| {
        (x.0, x.1)
            .cmp(&(y.0, y.1))
            .then(x.2.total_cmp(&y.2))
            .then(x.3.cmp(&y.3))
    });
    out.into_iter().map(|c| c.3).collect()
}

/// When the effects predict no change that meets the target (a field whose effect is lost
/// in the noise of one step, or one that saturates): single-field changes of growing size,
/// toward the goal where the effect says which way is toward it (both ways otherwise), and
/// the change that takes a field to 0; the smallest first.
fn reaches(
    effect: &[f64],
    base: f64,
    target: &Target,
    fields: &[Field],
    tried: &[Vec<(usize, i32)>],
) -> Vec<Vec<(usize, i32)>> {
    const GROWTH: [i32; 12] = [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 100];
    let mut out: Vec<(i32, usize, Steps)> = vec![];
    for (i, f) in fields.iter().enumerate() {
        let toward = (target.goal - base) * effect[i];
        let ways: &[i32] = if toward > 0.0 {
            &[1]
        } else if toward < 0.0 {
            &[-1]
        } else {
            &[1, -1]
        };
        let mut ks: Vec<i32> = GROWTH
            .iter()
            .flat_map(|g| ways.iter().map(move |w| g * w))
            .collect();
        let to_zero = -(f.value / f.step()).round();
        if to_zero.abs() >= 2.0 && to_zero.abs() <= 100.0 {
            ks.push(to_zero as i32);
        }
        for k in ks {
            let change = vec![(i, k)];
            if !tried.contains(&change) && !out.iter().any(|c| c.2 == change) {
                out.push((k.abs(), i, change));
            }
        }
    }
    out.sort();
    out.into_iter().map(|c| c.2).collect()
}

/// Searches for the smallest change that meets the target (see the module), calling
/// `progress` with the evaluations played and the budget; `stop` ends it early.
pub fn tune(
    plan: &Plan,
    stop: &AtomicBool,
    progress: &(dyn Fn(u32, u32) + Sync),
) -> Result<Proposal, Failure> {
    let editor = open(plan)?;
    let fields = fields_of(&editor, plan).map_err(Failure::Asked)?;
    let mut r = Runner {
        plan,
        editor,
        fields,
        stop,
        evaluations: 0,
        progress,
    };
    let n = r.fields.len();
    if plan.budget < 2 * n as u32 + 3 {
        return Err(Failure::Asked(format!(
            "--budget {} is too small for {n} fields: screening takes two evaluations a field, \
             so give at least {} (or name fewer fields)",
            plan.budget,
            2 * n + 3
        )));
    }
    // The target's figure must be one the runs have: checked on the mod as it is.
    let def = r.def_with(&[])?;
    let base_stats = {
        r.evaluations += 1;
        (r.progress)(r.evaluations, plan.budget);
        play(&def, plan, plan.seed, stop)?
    };
    plan.target
        .check(&base_stats, plan.seats)
        .map_err(Failure::Asked)?;
    if base_stats.errors > 0 {
        return Err(Failure::Mod(format!(
            "the mod as it is fails: {}",
            base_stats
                .first_failure()
                .unwrap_or_else(|| base_stats.failed_line())
        )));
    }
    let base = plan
        .target
        .read(&base_stats)
        .ok_or_else(|| format!("the games gave no {}", plan.target.name()))?;
    let mut points: Vec<Point> = vec![];
    let mut tried: Vec<Vec<(usize, i32)>> = vec![];
    let mut best: Option<Point> = None;
    if !plan.target.met_by(base.value) {
        best = search(&mut r, base.value, &mut points, &mut tried)?;
    }
    let already_met = plan.target.met_by(base.value);
    let steps = best.as_ref().map(|p| p.steps.clone()).unwrap_or_default();
    let after = best.as_ref().map_or(base, |p| p.measure);
    // The check, on seeds the search never saw.
    let fresh_before = r.measure(&[], plan.check_seed)?;
    let fresh_after = if steps.is_empty() {
        fresh_before
    } else {
        r.measure(&steps, plan.check_seed)?
    };
    let changes: Vec<Change> = steps
        .iter()
        .map(|(i, k)| {
            let f = &r.fields[*i];
            let new = f.value + f64::from(*k) * f.step();
            Change {
                field: f.name.clone(),
                old: f.value,
                new: f.raw(new).as_float().unwrap_or_else(|| new.round()),
                old_text: f.shown(f.value),
                new_text: f.shown(new),
            }
        })
        .collect();
    let diff = diff_of(plan, &r.fields, &changes)?;
    let edits = changes
        .iter()
        .filter_map(|c| {
            let f = r.fields.iter().find(|f| f.name == c.field)?;
            Some(f.edit(c.new))
        })
        .collect();
    let met = already_met || best.as_ref().is_some_and(|p| plan.target.met_by(p.value));
    Ok(Proposal {
        target: plan.target.clone(),
        fields: r.fields.iter().map(|f| f.name.clone()).collect(),
        evaluations: r.evaluations,
        already_met,
        held: plan.target.reached_by(&fresh_after),
        edits,
        changes,
        diff,
        met,
        search: Side {
            first_seed: plan.seed,
            games: plan.games,
            before: base,
            after,
        },
        check: Side {
            first_seed: plan.check_seed,
            games: plan.games,
            before: fresh_before,
            after: fresh_after,
        },
    })
}

/// Screening and racing (steps 2 and 3 of the module); the change that met the target, else
/// the one nearest it. Keeps two evaluations of the budget for the check.
fn search(
    r: &mut Runner,
    base: f64,
    points: &mut Vec<Point>,
    tried: &mut Vec<Vec<(usize, i32)>>,
) -> Result<Option<Point>, String> {
    let target = r.plan.target.clone();
    let budget = r.plan.budget.saturating_sub(2);
    let mut best: Option<Point> = None;
    let consider = |p: &Point, best: &mut Option<Point>| {
        let better = match best {
            None => true,
            Some(b) => {
                let (dp, db) = ((p.value - target.goal).abs(), (b.value - target.goal).abs());
                let (mp, mb) = (target.met_by(p.value), target.met_by(b.value));
                // Among those that meet the target the first found is the smallest.
                !mb && (mp || dp < db)
            }
        };
        if better {
            *best = Some(p.clone());
        }
    };
    let n = r.fields.len();
    // Screening: one step each way; a step that meets the target is already the smallest.
    for i in 0..n {
        for k in [1, -1] {
            let steps = vec![(i, k)];
            tried.push(steps.clone());
            if r.evaluations >= budget {
                return Ok(best);
            }
            let m = match r.measure(&steps, r.plan.seed) {
                Ok(m) => m,
                Err(e) if r.stop.load(Ordering::Relaxed) => return Err(e),
                // A value the mod's checks refuse, or one its games fail with: not a change.
                Err(_) => continue,
            };
            let p = Point {
                steps,
                value: m.value,
                measure: m,
            };
            consider(&p, &mut best);
            points.push(p);
        }
    }
    if best.as_ref().is_some_and(|b| target.met_by(b.value)) {
        return Ok(best);
    }
    // Racing: the smallest predicted change first; each change of one field played sharpens
    // that field's effect, and the list is made again.
    while r.evaluations < budget {
        let effect = effects(points, base, n);
        let next = candidates(&effect, base, &target, tried)
            .into_iter()
            .next()
            .or_else(|| {
                reaches(&effect, base, &target, &r.fields, tried)
                    .into_iter()
                    .next()
            });
        let Some(next) = next else {
            break;
        };
        tried.push(next.clone());
        let m = match r.measure(&next, r.plan.seed) {
            Ok(m) => m,
            Err(e) if r.stop.load(Ordering::Relaxed) => return Err(e),
            Err(_) => continue,
        };
        let p = Point {
            steps: next,
            value: m.value,
            measure: m,
        };
        consider(&p, &mut best);
        if target.met_by(p.value) {
            return Ok(Some(p));
        }
        points.push(p);
    }
    Ok(best)
}

/// The lines of the mod's TOML the changes alter.
fn diff_of(plan: &Plan, fields: &[Field], changes: &[Change]) -> Result<Vec<DiffLine>, String> {
    let mut editor = open(plan)?;
    let before: Vec<(String, String)> = texts(&editor);
    apply_changes(&mut editor, fields, changes)?;
    let after = texts(&editor);
    let mut out = vec![];
    for (rel, new) in &after {
        let old = before
            .iter()
            .find(|(r, _)| r == rel)
            .map_or("", |(_, t)| t.as_str());
        if old != new {
            out.extend(line_diff(rel, old, new));
        }
    }
    Ok(out)
}

/// The open mod's files and their text.
fn texts(editor: &Editor) -> Vec<(String, String)> {
    let layer = editor.docs().open_mod();
    layer
        .paths()
        .filter_map(|p| layer.file(p).map(|f| (p.to_string(), f.text())))
        .collect()
}

/// The changed lines of one file: what lies between the lines both texts start and end with.
fn line_diff(rel: &str, old: &str, new: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut out = vec![];
    for i in 0..am.len().max(bm.len()) {
        let old = am.get(i).map(|s| s.to_string());
        let new = bm.get(i).map(|s| s.to_string());
        // Lines that are the same inside the changed run say nothing.
        if old == new {
            continue;
        }
        out.push(DiffLine {
            file: rel.to_string(),
            line: pre + i + 1,
            old,
            new,
        });
    }
    out
}

/// Makes `changes` in `editor` as ordinary edits, one undo step ("Tune: ...").
pub fn apply_changes(
    editor: &mut Editor,
    fields: &[Field],
    changes: &[Change],
) -> Result<Vec<String>, String> {
    let mut touched = vec![];
    editor.seal();
    editor.begin_group(&format!(
        "Tune: {}",
        changes
            .iter()
            .map(|c| format!("{} {} -> {}", c.field, c.old_text, c.new_text))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut result = Ok(());
    for c in changes {
        let Some(f) = fields.iter().find(|f| f.name == c.field) else {
            result = Err(format!("the mod has no field {} any more", c.field));
            break;
        };
        match editor.apply(&f.edit(c.new)) {
            Ok(files) => touched.extend(files),
            Err(e) => {
                result = Err(e.0);
                break;
            }
        }
    }
    editor.end_group();
    editor.seal();
    if let Err(e) = result {
        if !touched.is_empty() {
            editor.undo();
        }
        return Err(e);
    }
    touched.sort();
    touched.dedup();
    Ok(touched)
}

/// The fields of an open editor by name, to apply a proposal's changes (see
/// [`apply_changes`]).
pub fn fields_in(editor: &Editor) -> Vec<Field> {
    fields::all(&editor.catalog())
}

#[cfg(test)]
mod tests {
    use super::{candidates, line_diff, target::Target};

    #[test]
    fn a_diff_names_the_changed_lines() {
        let d = line_diff("mod.toml", "a\nb = 1\nc\n", "a\nb = 2\nc\n");
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].line, d[0].old.as_deref(), d[0].new.as_deref()),
            (2, Some("b = 1"), Some("b = 2"))
        );
    }

    #[test]
    fn candidates_come_fewest_fields_and_steps_first() {
        let t = Target::parse("x=0.5±0.02").unwrap();
        // Field 0 moves the figure 0.05 a step, field 1 0.2: from 0.9, field 1 two steps down
        // meets it in fewer steps than field 0's eight.
        let c = candidates(&[0.05, 0.2], 0.9, &t, &[]);
        assert_eq!(c[0], vec![(1, -2)]);
        assert!(c.iter().position(|x| x == &vec![(0, -8)]) > Some(0));
        assert!(c.iter().all(|x| x.len() <= 3));
        // One already tried is left out.
        let c = candidates(&[0.05, 0.2], 0.9, &t, &[vec![(1, -2)]]);
        assert_ne!(c[0], vec![(1, -2)]);
    }
}
