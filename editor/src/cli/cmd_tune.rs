//! `farebox tune`: the smallest change of a mod's numbers that brings a figure to its target
//! (the search is `crate::tune`), printed as a diff of its TOML, checked on fresh seeds and,
//! with --apply, written into the mod's files.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::cli::TuneArgs;
use crate::common::{
    Fail, Io, MAX_SHOWN, load_located_for_play, locate, seat_count, shown, split_list,
};
use crate::tune::{self, Measure, Plan, Proposal, Target};

/// What `tune --json` prints.
#[derive(Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    proposal: &'a Proposal,
    players: u8,
    bots: &'a [String],
    /// The files --apply wrote (relative to the mod's folder).
    applied: Vec<String>,
}

pub fn run(args: TuneArgs, io: &mut Io) -> Result<i32, Fail> {
    let located = locate(&args.game)?;
    if args.list_fields {
        return list_fields(&located, io);
    }
    let def = load_located_for_play(&located, &args.game, io)?;
    let target = Target::parse(args.target.as_deref().unwrap_or_default()).map_err(Fail::Usage)?;
    let fields = split_list(args.fields.as_deref().unwrap_or_default(), "--fields")?;
    let bots = split_list(&args.bots, "--bots")?;
    if bots.is_empty() {
        return Err(Fail::Usage("--bots needs at least one agent".into()));
    }
    let seats = seat_count(&def, args.players, &bots);
    crate::common::setup(&def, seats, args.seed, &[])?;
    let plan = Plan {
        folder: located.folder.clone(),
        resolver: located.resolver.clone(),
        target,
        fields,
        seats,
        bots: bots.clone(),
        games: args.games,
        seed: args.seed,
        check_seed: args.check_seed.unwrap_or(args.seed.wrapping_add(1_000_000)),
        budget: args.budget,
        cap: args.cap,
        threads: crate::common::threads_for(args.threads, args.games),
    };
    // Fields are checked before any game is played.
    let editor = tune::open(&plan).map_err(Fail::Invalid)?;
    tune::fields_of(&editor, &plan).map_err(Fail::Usage)?;
    let bar = if std::io::stderr().is_terminal() {
        let pb = ProgressBar::new(u64::from(plan.budget));
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} candidates {elapsed}")
        {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    };
    let progress = |done: u32, _budget: u32| bar.set_position(u64::from(done));
    let result = tune::tune(&plan, &AtomicBool::new(false), &progress);
    bar.finish_and_clear();
    let proposal = result.map_err(|e| match e {
        tune::Failure::Asked(m) => Fail::Usage(m),
        tune::Failure::Mod(m) => Fail::Invalid(m),
    })?;
    let mut applied = vec![];
    let can_apply = proposal.met && proposal.held && !proposal.changes.is_empty();
    if args.apply && can_apply {
        applied = apply(&plan, &proposal)?;
    }
    if args.json {
        let report = Report {
            proposal: &proposal,
            players: seats,
            bots: &bots,
            applied: applied.clone(),
        };
        io.say(serde_json::to_string_pretty(&report).map_err(|e| Fail::Invalid(e.to_string()))?);
    } else {
        text(&args, &proposal, io);
        if !applied.is_empty() {
            io.say(format!("applied: wrote {}", applied.join(", ")));
        }
    }
    if args.apply && !can_apply && !proposal.changes.is_empty() {
        io.note("not applied: the proposal did not meet the target and hold on the fresh seeds");
    }
    Ok(if proposal.met && proposal.held { 0 } else { 1 })
}

/// Writes the proposal into the mod's files through the editing model (one atomic save).
fn apply(plan: &Plan, p: &Proposal) -> Result<Vec<String>, Fail> {
    let mut editor = tune::open(plan).map_err(Fail::Invalid)?;
    let fields = tune::fields_in(&editor);
    tune::apply_changes(&mut editor, &fields, &p.changes).map_err(Fail::Invalid)?;
    let files = editor.docs().dirty_files();
    editor.save().map_err(|e| {
        Fail::Invalid(format!(
            "could not write {}: {}; nothing after it was written",
            e.path.display(),
            e.error
        ))
    })?;
    Ok(files)
}

/// `0.612 (95% 0.585 to 0.640)`.
fn figure(m: &Measure) -> String {
    match m.interval {
        Some([lo, hi]) => format!("{:.3} (95% {lo:.3} to {hi:.3})", m.value),
        None => format!("{:.3}", m.value),
    }
}

fn text(args: &TuneArgs, p: &Proposal, io: &mut Io) {
    let t = &p.target;
    io.say(format!(
        "tune {}: target {}, searching {} {} with {} games a candidate (seeds {}..{}), {} of {} candidates played",
        shown(&args.game, MAX_SHOWN),
        t.words(),
        p.fields.len(),
        crate::common::plural(p.fields.len(), "field"),
        p.search.games,
        p.search.first_seed,
        p.search.first_seed.wrapping_add(p.search.games - 1),
        p.evaluations,
        args.budget
    ));
    if p.already_met {
        io.say(format!(
            "{} is {} already, within the target: nothing to change",
            t.name(),
            figure(&p.search.before)
        ));
    } else if p.changes.is_empty() {
        io.say("no change of these fields was found that moves the figure; name other fields or give more --games");
    } else {
        io.say(if p.met {
            format!("proposed change ({}):", p.changes.len())
        } else {
            format!(
                "no change within the budget met the target; the nearest ({}):",
                p.changes.len()
            )
        });
        for c in &p.changes {
            io.say(format!("  {}: {} -> {}", c.field, c.old_text, c.new_text));
        }
        for d in &p.diff {
            io.say(format!(
                "  {}:{}: {} -> {}",
                d.file,
                d.line,
                d.old
                    .as_deref()
                    .map_or("(no line)".to_string(), |s| s.trim().to_string()),
                d.new
                    .as_deref()
                    .map_or("(no line)".to_string(), |s| s.trim().to_string())
            ));
        }
        io.say(format!("before: {} {}", t.name(), figure(&p.search.before)));
        io.say(format!("after:  {} {}", t.name(), figure(&p.search.after)));
    }
    let c = &p.check;
    io.say(format!(
        "check on fresh seeds {}..{}: before {}, after {}: {}",
        c.first_seed,
        c.first_seed.wrapping_add(c.games - 1),
        figure(&c.before),
        figure(&c.after),
        if p.held {
            "the target held"
        } else {
            "the target did NOT hold"
        }
    ));
}

/// `--list-fields`: every numeric field of the mod, with its value.
fn list_fields(located: &crate::common::Located, io: &mut Io) -> Result<i32, Fail> {
    let editor = crate::edit::Editor::open(&located.folder, &located.resolver)
        .map_err(|e| Fail::Invalid(e.0))?;
    for f in tune::fields_in(&editor) {
        io.say(format!("{} = {}", f.name, f.shown(f.value)));
    }
    Ok(0)
}
