//! The panel driven as a person would: through its buttons, on a copy of Curbside in a
//! temporary folder, so accepting never touches the bundled mod.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use super::{Outcomes, Target};
use crate::accepted::read_snapshot;

const MODS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");

/// A copy of a bundled mod in a folder of its own, removed when dropped.
struct Copy {
    dir: PathBuf,
    folder: PathBuf,
}

impl Copy {
    fn of(id: &str, test: &str) -> Copy {
        let dir = std::env::temp_dir().join(format!(
            "farebox-outcomes-{}-{test}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        let folder = dir.join(id);
        copy_dir(&Path::new(MODS).join(id), &folder);
        Copy { dir, folder }
    }

    fn target(&self) -> Target {
        let def = farebox::content::load_mod(
            &farebox::source::FsSource::new(&self.folder),
            &farebox::source::FolderResolver::new(MODS),
        )
        .unwrap_or_else(|e| panic!("the copied mod does not load: {e:?}"));
        Target {
            name: def.name.clone(),
            def: Arc::new(def),
            folder: self.folder.clone(),
        }
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    let entries = std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// Whether some text on the panel contains `text`.
#[track_caller]
fn shows(h: &Harness<'_, Outcomes>, text: &str) {
    assert!(
        h.query_all_by_label_contains(text).next().is_some(),
        "nothing on the panel says {text:?}"
    );
}

fn harness(panel: Outcomes) -> Harness<'static, Outcomes> {
    Harness::builder()
        .with_size(egui::vec2(1000.0, 2400.0))
        .build_ui_state(
            |ui, panel: &mut Outcomes| panel.ui(ui, &mut Vec::new()),
            panel,
        )
}

/// Steps frames until the run ends, with short sleeps; generous, as machines differ.
fn until_done(h: &mut Harness<'_, Outcomes>) {
    for _ in 0..30_000 {
        if !h.state().is_running() {
            break;
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!h.state().is_running(), "the run never ended");
    h.run();
}

#[test]
fn a_run_shows_its_figures_and_accepting_makes_farebox_test_pass() {
    let copy = Copy::of("curbside", "accept");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(20);
    let mut h = harness(panel);
    h.run();
    // The bundled snapshot was made with 500 games, so these settings do not compare with it.
    h.get_by_label("Use the snapshot's settings");
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);

    h.get_by_label("Games finished");
    h.get_by_label("Win rate per seat");
    shows(&h, "made with other settings");
    let stats = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => side.stats.clone(),
        _ => panic!("the run has no result"),
    };
    assert_eq!(stats.games, 20);

    h.get_by_label("Accept").click();
    h.run();
    shows(&h, "Accepted: wrote");
    let snap = read_snapshot(&copy.folder)
        .unwrap_or_else(|f| panic!("{}", f.message()))
        .unwrap_or_else(|| panic!("no snapshot was written"));
    assert_eq!(snap.settings.games, 20);
    // What was written is the run's figures, as JSON reads them back.
    let read_back: farebox::figures::Stats =
        serde_json::from_str(&serde_json::to_string(&stats).unwrap()).unwrap();
    assert_eq!(snap.outcomes, read_back);
    // Now the run compares with what it accepted.
    shows(&h, "Same as the accepted outcomes");

    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = crate::run(
        vec![
            "farebox".into(),
            "test".into(),
            copy.folder.display().to_string(),
        ],
        &mut std::io::empty(),
        &mut out,
        &mut err,
    );
    assert_eq!(
        code,
        0,
        "farebox test: {}{}",
        String::from_utf8_lossy(&out),
        String::from_utf8_lossy(&err)
    );
}

#[test]
fn cancel_stops_a_long_run() {
    let copy = Copy::of("curbside", "cancel");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(2_000);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    assert!(h.state().is_running());
    h.get_by_label("Cancel").click();
    h.step();
    until_done(&mut h);
    let note = h.state().note.clone().map(|n| n.0).unwrap_or_default();
    assert!(note.starts_with("Cancelled after"), "{note}");
    let played: u64 = note
        .trim_start_matches("Cancelled after ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX);
    assert!(played < 2_000, "{note}");
    assert!(
        h.state().last.is_none(),
        "a cancelled run leaves no figures"
    );
}

#[test]
fn a_mod_without_rules_cannot_run() {
    let src = farebox::source::MemSource::new("bare").with(
        "mod.toml",
        "id = \"bare\"\nname = \"Bare\"\nversion = \"0.1.0\"\nengine = \"0.1\"\nplayers = [2, 2]\n",
    );
    let def = farebox::content::load_mod(&src, &farebox::content::NoDependencies)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let mut panel = Outcomes::new();
    panel.set_target(
        Target {
            name: "Bare".into(),
            def: Arc::new(def),
            folder: std::env::temp_dir().join("farebox-outcomes-no-such-mod"),
        },
        None,
        true,
    );
    assert!(!panel.is_running());
    let mut h = harness(panel);
    h.run();
    shows(&h, "has no rule scripts yet");
    assert!(h.query_by_label("Run").is_none());
}

#[test]
fn a_house_rule_runs_beside_its_base_game() {
    let copy = Copy::of("curbside-gas-station", "base");
    let base_copy = Copy::of("curbside", "base-of");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), Some(base_copy.target()), false);
    panel.set_games(10);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    shows(&h, "Base: ");
    shows(&h, "Against ");
    // "Change from base" pairs the house rule's games with the base game's seed by seed: the
    // length's change is the mean of the per-seed differences with their own interval.
    shows(&h, "Change from base");
    let (rule, base) = match &h.state().last {
        Some(super::run::Report {
            now: Ok(now),
            base: Some(Ok(base)),
            ..
        }) => (turns_of(&now.outcomes), turns_of(&base.outcomes)),
        _ => panic!("the run has no result for the rule and its base game"),
    };
    assert_eq!(rule.len(), 10);
    assert!(rule != base, "the house rule changed no game's length");
    shows(&h, &format!("{} paired", paired_text(&base, &rule, false)));
}

/// Accepting writes only inside the mod folder: a `snapshots` folder that is a link to
/// somewhere else is refused, and nothing is written there.
#[cfg(unix)]
#[test]
fn accept_refuses_a_snapshots_folder_that_leads_outside() {
    let copy = Copy::of("curbside", "outside");
    let elsewhere = copy.dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap_or_else(|e| panic!("{e}"));
    let snapshots = copy.folder.join("snapshots");
    std::fs::remove_dir_all(&snapshots).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&elsewhere, &snapshots).unwrap_or_else(|e| panic!("{e}"));

    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(5);
    let mut h = harness(panel);
    h.run();
    shows(&h, "No accepted outcomes yet");
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    h.get_by_label("Accept").click();
    h.run();
    shows(&h, "Not accepted");
    assert!(!elsewhere.join("outcomes.json").exists());
}

#[test]
fn the_snapshot_s_settings_can_be_taken_back() {
    let copy = Copy::of("curbside", "settings");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    // A new mod starts from its snapshot's settings.
    shows_settings_match(&panel, true);
    panel.set_games(7);
    shows_settings_match(&panel, false);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Use the snapshot's settings").click();
    h.run();
    shows(&h, "These are the settings of the accepted outcomes");
    assert_eq!(h.state().settings.games, 500);
}

fn shows_settings_match(panel: &Outcomes, same: bool) {
    let snap = match &panel.snapshot {
        Ok(Some(s)) => s.settings.clone(),
        _ => panic!("Curbside has accepted outcomes"),
    };
    assert_eq!(super::same_settings(&snap, &panel.settings), same);
}

/// A reload re-runs outcomes that were asked for, and leaves alone a mod whose outcomes
/// nobody ran.
#[test]
fn a_reload_reruns_only_outcomes_that_were_run() {
    let copy = Copy::of("curbside", "rerun");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(5);
    panel.set_target(copy.target(), None, true);
    assert!(
        !panel.is_running(),
        "a reload started a run nobody asked for"
    );
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    h.state_mut().set_target(copy.target(), None, true);
    assert!(
        h.state().is_running(),
        "a reload did not re-run the outcomes"
    );
    until_done(&mut h);
}

/// Steps frames until the panel shows provisional figures; panics if the run ends first.
fn until_provisional(h: &mut Harness<'_, Outcomes>) {
    for _ in 0..6_000 {
        h.step();
        if h.state()
            .figures()
            .is_some_and(|(_, _, provisional)| provisional)
        {
            return;
        }
        assert!(
            h.state().is_running(),
            "the run ended before any provisional figures"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no provisional figures in a minute");
}

/// Accepted outcomes made with the panel's settings (their figures those of a few games), so
/// a run with these settings is compared with them.
fn accept_settings_of(panel: &Outcomes, copy: &Copy) {
    let t = copy.target();
    let mut few = panel.settings.clone();
    few.games = 8;
    let outcomes =
        crate::accepted::play_games(&t.def, &few, 1, &|| {}, &AtomicBool::new(false), false)
            .unwrap_or_else(|f| panic!("{}", f.message()));
    let snap = crate::accepted::Accepted {
        mod_version: t.def.version.clone(),
        settings: panel.settings.clone(),
        outcomes: farebox::figures::Stats::of(&t.def, few.players, &outcomes),
        per_game: None,
    };
    crate::accepted::write_snapshot(&copy.folder, &snap)
        .unwrap_or_else(|f| panic!("{}", f.message()));
}

/// While a run goes on, the panel shows figures of the games played so far, marked as
/// provisional and already compared with the accepted outcomes.
#[test]
fn provisional_figures_come_before_the_run_ends() {
    let copy = Copy::of("curbside", "provisional");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(400);
    accept_settings_of(&panel, &copy);
    panel.set_target(copy.target(), None, false);
    let mut h = harness(panel);
    h.run();
    shows(&h, "These are the settings of the accepted outcomes");
    h.get_by_label("Run").click();
    h.step();
    until_provisional(&mut h);
    assert!(
        h.state().is_running(),
        "provisional figures of an ended run"
    );
    let games = h.state().figures().map_or(0, |(_, n, _)| n);
    assert!(
        (super::run::FIRST as usize..400).contains(&games),
        "provisional figures over {games} games"
    );
    h.run();
    shows(&h, "Provisional: ");
    shows(&h, "of 400 games so far");
    shows(&h, "So far (");
    // Compared with the accepted outcomes already: their column and the change are there.
    for header in ["Accepted", "So far", "Change"] {
        assert!(
            h.query_all_by_label(header).next().is_some(),
            "no {header:?} column"
        );
    }
    let view = &h.state().view;
    assert!(view.comparable);
    // Fewer games than the accepted outcomes': counts are compared as shares.
    assert!(view.rows.iter().all(|r| r.label != "Games"));
    let finished = view.rows.iter().find(|r| r.label == "Games finished");
    assert_eq!(
        finished.and_then(|r| r.kind),
        Some(super::compare::Kind::Rate)
    );
}

/// The first figures of a bundled game with its accepted outcomes (the Studio's defaults for
/// it) come after a game or so, and over so few games an unchanged game shows no change: the
/// line under the editors gives a verdict at once, and not a false one.
#[test]
fn the_first_figures_of_an_unchanged_game_show_no_change() {
    for id in ["curbside", "dicey-curves"] {
        let copy = Copy::of(id, "first-figures");
        let mut panel = Outcomes::new();
        panel.set_target(copy.target(), None, false);
        let mut h = harness(panel);
        h.run();
        shows(&h, "These are the settings of the accepted outcomes");
        h.get_by_label("Run").click();
        h.step();
        until_provisional(&mut h);
        let games = h.state().figures().map_or(0, |(_, n, _)| n);
        let line = h.state().status_line().unwrap_or_default();
        assert!(
            line.starts_with(&format!("Outcomes: So far ({games} of ")),
            "{id}: {line}"
        );
        assert!(
            line.ends_with("no figure differs from the accepted outcomes by more than chance."),
            "{id}, over {games} games: {line}"
        );
    }
}

/// The figures of a run played batch by batch are exactly those of one full run: the same
/// games, in seed order.
#[test]
fn the_final_figures_are_a_full_run_s() {
    let copy = Copy::of("curbside", "final");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(90);
    panel.settings.seed = 7;
    let settings = panel.settings.clone();
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    let mut provisional = 0;
    for _ in 0..30_000 {
        h.step();
        if !h.state().is_running() {
            break;
        }
        if h.state().figures().is_some_and(|f| f.2) {
            provisional += 1;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!h.state().is_running(), "the run never ended");
    assert!(provisional > 0, "the run never showed provisional figures");
    let Some(last) = &h.state().last else {
        panic!("the run has no result");
    };
    assert!(!last.provisional && !last.cancelled);
    let Ok(side) = &last.now else {
        panic!("the run failed");
    };
    let full = crate::accepted::play_games(
        &side.def,
        &settings,
        1,
        &|| {},
        &AtomicBool::new(false),
        false,
    )
    .unwrap_or_else(|f| panic!("{}", f.message()));
    let json = |o: &[farebox::agent::Outcome]| serde_json::to_string(o).unwrap_or_default();
    assert_eq!(side.outcomes.len(), 90);
    assert_eq!(
        json(&side.outcomes),
        json(&full),
        "not the games of a full run"
    );
    assert_eq!(
        side.stats,
        farebox::figures::Stats::of(&side.def, settings.players, &full)
    );
    assert_eq!(h.state().figures().map(|f| (f.1, f.2)), Some((90, false)));
}

/// Cancelling, or a new run after an edit, takes the provisional figures away at once, and
/// none come back from the run that was stopped.
#[test]
fn cancelling_leaves_no_provisional_figures() {
    let copy = Copy::of("curbside", "cancel-provisional");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(2_000);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_provisional(&mut h);

    // An edit: the mod's new version, and the run starts again.
    let edited = copy.target();
    let def = edited.def.clone();
    h.state_mut().set_target(edited, None, false);
    h.state_mut().rerun();
    assert!(
        h.state().figures().is_none(),
        "the old version's provisional figures are still shown"
    );
    until_provisional(&mut h);
    let of_new = h
        .state()
        .figures()
        .is_some_and(|(d, _, _)| Arc::ptr_eq(d, &def));
    assert!(of_new, "the provisional figures are not of the new version");

    h.get_by_label("Cancel").click();
    h.step();
    assert!(
        h.state().figures().is_none(),
        "provisional figures stayed after cancel"
    );
    until_done(&mut h);
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(h.state().figures().is_none(), "figures came back");
    assert!(h.query_by_label_contains("Provisional").is_none());
    assert!(h.query_by_label_contains("so far").is_none());
    let note = h.state().note.clone().map(|n| n.0).unwrap_or_default();
    assert!(note.starts_with("Cancelled after"), "{note}");
}

/// Accept takes only a finished run: while a run goes on, its provisional figures cannot be
/// accepted, nor can the last finished run's.
#[test]
fn accept_is_refused_while_figures_are_provisional() {
    let copy = Copy::of("curbside", "accept-provisional");
    let snapshot = copy.folder.join(crate::accepted::SNAPSHOT);
    let before = std::fs::read(&snapshot).unwrap_or_else(|e| panic!("{e}"));
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(5);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    assert!(
        h.state().acceptable().is_some(),
        "a finished run is acceptable"
    );

    h.state_mut().set_games(2_000);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_provisional(&mut h);
    assert!(h.state().acceptable().is_none());
    h.get_by_label("Accept").click();
    h.run();
    h.state_mut().accept();
    h.run();
    assert!(
        h.query_by_label_contains("Accepted: wrote").is_none(),
        "provisional figures were accepted"
    );
    let after = std::fs::read(&snapshot).unwrap_or_else(|e| panic!("{e}"));
    assert!(before == after, "the accepted outcomes were rewritten");
    h.get_by_label("Cancel").click();
    h.step();
    until_done(&mut h);
}

/// The figures per card, tile, piece and option come as a table whose rows offer restricted
/// play; a run without one card forbids it to the bots, says so, and cannot be accepted.
#[test]
fn the_content_table_runs_the_games_without_a_card() {
    let copy = Copy::of("critter-cab", "without");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(12);
    // Tall and wide enough that the whole table is on screen, where its buttons take clicks.
    let mut h = Harness::builder()
        .with_size(egui::vec2(1800.0, 6000.0))
        .build_ui_state(
            |ui, panel: &mut Outcomes| panel.ui(ui, &mut Vec::new()),
            panel,
        );
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    shows(&h, "Cards, tiles, pieces and options");
    shows(&h, "A tie for first counts as a win for each tied seat");
    // The tie rate, with its interval, beside the win rates and in the grid of figures.
    shows(&h, "Ties: ");
    shows(&h, "Tie rate");
    let (stats, with_wins, first_seat) = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => (
            side.stats.clone(),
            first_seat_wins(&side.outcomes),
            side.def.seat_name(0),
        ),
        _ => panic!("the run has no result"),
    };
    assert!(!stats.figures.cards.is_empty(), "no figures per card");
    // The table is sorted by the size of the effect: its first "Without it" is that card's.
    let first = stats
        .figures
        .cards
        .iter()
        .chain(&stats.figures.tiles)
        .chain(&stats.figures.pieces)
        .chain(&stats.figures.options)
        .filter_map(|(k, c)| Some((k.clone(), c.effect()?.abs())))
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(k, _)| k)
        .unwrap_or_else(|| panic!("no effect to sort by"));
    h.query_all_by_label("Without it")
        .next()
        .unwrap_or_else(|| panic!("no Without it button"))
        .click();
    h.step();
    until_done(&mut h);
    let forbidden = &h.state().settings.forbid;
    assert_eq!(forbidden.len(), 1);
    assert!(first.ends_with(&forbidden[0]), "{first} vs {forbidden:?}");
    shows(&h, &format!("Without {}", forbidden[0]));
    assert!(
        h.state().acceptable().is_none(),
        "restricted play was acceptable"
    );
    // The run without it is paired seed by seed with the run with it: the change in the first
    // seat's win rate is the mean of the twelve per-seed differences, with the 95% interval of
    // those differences (two independent runs would give a wider one, from both runs'
    // spreads; where forbidding the card changed no game's winner, the paired interval is
    // +0.0 to +0.0 and the unpaired one is not).
    let without_wins = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => first_seat_wins(&side.outcomes),
        _ => panic!("the run without it has no result"),
    };
    assert_eq!(without_wins.len(), 12);
    shows(
        &h,
        &format!(
            "Without {}, paired seed by seed with the run with it over the 12 games both finished",
            forbidden[0]
        ),
    );
    shows(
        &h,
        &format!(
            "{first_seat} win rate {}",
            paired_text(&with_wins, &without_wins, true)
        ),
    );
}

/// The change in a per-game figure from games `a` to games `b` of the same seeds, as the panel
/// shows a paired difference, worked out here from the games themselves: the mean of the
/// per-seed differences and their 95% interval, "+1.25 (-0.40 to +2.90)" for a mean or
/// "+8.3 pts (-1.2 to +17.9)" for a rate.
fn paired_text(a: &[f64], b: &[f64], rate: bool) -> String {
    assert!(a.len() >= 2 && a.len() == b.len());
    let d: Vec<f64> = a.iter().zip(b).map(|(a, b)| b - a).collect();
    let n = d.len() as f64;
    let mean = d.iter().sum::<f64>() / n;
    let sd = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let half = 1.959_963_984_540_054 * sd / n.sqrt();
    if rate {
        format!(
            "{:+.1} pts ({:+.1} to {:+.1})",
            mean * 100.0,
            (mean - half) * 100.0,
            (mean + half) * 100.0
        )
    } else {
        format!("{:+.2} ({:+.2} to {:+.2})", mean, mean - half, mean + half)
    }
}

/// Per game in seed order, 1 when the first seat won (a tie for first is a win for each
/// tied seat), else 0 (every game of these runs finishes).
fn first_seat_wins(outcomes: &[farebox::agent::Outcome]) -> Vec<f64> {
    outcomes
        .iter()
        .map(|o| {
            let r = o.result.as_ref().expect("every game finishes");
            f64::from(u8::from(r.winners().contains(&0)))
        })
        .collect()
}

/// Each game's length in turns, in seed order (every game of these runs finishes).
fn turns_of(outcomes: &[farebox::agent::Outcome]) -> Vec<f64> {
    outcomes
        .iter()
        .map(|o| {
            assert!(o.error.is_none(), "a game failed: {:?}", o.error);
            f64::from(o.turns)
        })
        .collect()
}

#[test]
fn a_run_shows_the_script_profile_of_every_hook_and_bot() {
    let copy = Copy::of("curbside", "profile");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(8);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);

    h.get_by_label("Script profile");
    h.get_by_label("Steps per call");
    let profile = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => side.profile.clone(),
        _ => panic!("the run has no result"),
    };
    // Every hook the rules ran and the bot that played are listed by name, with their calls.
    for name in ["setup", "actions", "apply"] {
        let calls = profile
            .iter()
            .find(|(k, _)| k.as_str() == name || k.ends_with(&format!(" {name}")))
            .map(|(_, s)| s.calls)
            .unwrap_or_else(|| panic!("no {name} in the profile: {:?}", profile.keys()));
        assert!(calls > 0, "{name} has no calls");
        let row = profile
            .keys()
            .find(|k| k.as_str() == name || k.ends_with(&format!(" {name}")))
            .unwrap();
        h.get_by_label(row.as_str());
    }
    // Setup runs once per game; the steps are the same however fast the machine.
    let setup = profile.iter().find(|(k, _)| k.contains("setup")).unwrap().1;
    assert_eq!(setup.calls, 8, "one setup per game");
    assert!(
        profile.keys().any(|k| k.contains("bot")),
        "no bot in {:?}",
        profile.keys()
    );
}

/// A copy of Curbside whose rules fail once a game runs past its 45th turn: some games
/// finish, the longer ones end in an error.
fn failing_copy(test: &str) -> Copy {
    let copy = Copy::of("curbside", test);
    let rules = copy.folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap_or_else(|e| panic!("{e}"));
    let hook = "local function on_turn_start(seat: number)\n";
    assert!(text.contains(hook), "Curbside has no on_turn_start");
    let text = text.replacen(
        hook,
        &format!("{hook}\tif game.turn() > 45 then error(\"too long\") end\n"),
        1,
    );
    std::fs::write(&rules, text).unwrap_or_else(|e| panic!("{e}"));
    copy
}

/// A run with failed games cannot be accepted by the Accept meant for a good run: it is
/// disabled and says why, the failures come first, above the figures and plots, and a button
/// of its own, which says what it does, accepts them as they are.
#[test]
fn a_run_with_failed_games_is_not_accepted_by_accept() {
    let copy = failing_copy("failed");
    let snapshot = copy.folder.join(crate::accepted::SNAPSHOT);
    let before = std::fs::read(&snapshot).unwrap_or_else(|e| panic!("{e}"));
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(12);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    let stats = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => side.stats.clone(),
        _ => panic!("the run has no result"),
    };
    let failed = stats.failed();
    assert!(
        failed > 0 && stats.finished > 0,
        "{failed} of 12 games failed, {} finished",
        stats.finished
    );
    assert!(
        h.state().acceptable().is_some(),
        "the run is complete and of the mod as it is"
    );

    // Accept is disabled, and its hover text says why.
    let accept = h.get_by_label("Accept");
    assert!(accept.accesskit_node().is_disabled(), "Accept is enabled");
    accept.hover();
    h.run();
    shows(&h, &format!("{failed} of 12 games failed"));
    shows(&h, "they are listed above");

    // The failures are drawn above the figures and the plots.
    let failures = h.get_by_label_contains("Errors and capped games in").rect();
    for below in ["Games finished", "Win rate per seat"] {
        let top = h.get_by_label(below).rect().top();
        assert!(
            failures.bottom() <= top,
            "the failures end at {} but {below:?} starts at {top}",
            failures.bottom()
        );
    }
    let replay = h
        .get_all_by_label("Show in Replay")
        .map(|b| b.rect().bottom())
        .fold(f32::MIN, f32::max);
    let plots = h.get_by_label("Win rate per seat").rect().top();
    assert!(
        replay <= plots,
        "a Show in Replay button is below the plots"
    );

    // Accepting as a good run is refused, and the accepted outcomes stay as they were.
    h.state_mut().accept();
    h.run();
    shows(&h, "Not accepted: ");
    let after = std::fs::read(&snapshot).unwrap_or_else(|e| panic!("{e}"));
    assert!(before == after, "the accepted outcomes were rewritten");

    // The button that says what it does accepts them.
    h.get_by_label(&format!(
        "Accept with {failed} failed {}",
        if failed == 1 { "game" } else { "games" }
    ))
    .click();
    h.run();
    shows(&h, "Accepted: wrote");
    let snap = read_snapshot(&copy.folder)
        .unwrap_or_else(|f| panic!("{}", f.message()))
        .unwrap_or_else(|| panic!("no snapshot was written"));
    assert_eq!(snap.outcomes.failed(), failed);
    assert_eq!(snap.settings.games, 12);
}

/// After a run, the panel lists every card and tile no game played, each with the figure
/// that shows it, and none that was played.
#[test]
fn content_never_used_is_listed_with_its_figure() {
    let copy = Copy::of("curbside", "never");
    let mut panel = Outcomes::new();
    panel.set_target(copy.target(), None, false);
    panel.set_games(20);
    let mut h = harness(panel);
    h.run();
    h.get_by_label("Run").click();
    h.step();
    until_done(&mut h);
    let (def, stats) = match &h.state().last {
        Some(super::run::Report { now: Ok(side), .. }) => (side.def.clone(), side.stats.clone()),
        _ => panic!("the run has no result"),
    };
    shows(&h, &format!("Never used in {} games", stats.finished));
    let f = &stats.figures;
    let mut unplayed = 0;
    let catalog = def.catalog();
    for item in &catalog.items {
        use farebox::content::catalog::ItemKind;
        let card = |id: &str| {
            catalog
                .items
                .iter()
                .any(|i| i.kind == ItemKind::Card && i.id == id)
        };
        let figs = match item.kind {
            ItemKind::Card => &f.cards,
            // A tile shown by a card of its id is that card's row.
            ItemKind::Tile if card(&item.id) => continue,
            ItemKind::Tile => &f.tiles,
            _ => continue,
        };
        let played = figs.get(&item.key).is_some_and(|c| c.games_played > 0);
        let line = [
            format!("({}): never held or played", item.key),
            format!("({}): held in", item.key),
        ]
        .iter()
        .any(|t| h.query_all_by_label_contains(t).next().is_some());
        assert_eq!(
            line, !played,
            "{}: played {played}, listed {line}",
            item.key
        );
        unplayed += usize::from(!played);
    }
    assert!(
        unplayed > 0,
        "every card was played: the test shows nothing"
    );
}
