//! Drawing a run's figures, final or provisional: the grid of figures (with the accepted ones and the base game's
//! beside them) and the plots: win rate per seat, the spread of game lengths, scores per seat.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Legend, Line, Plot, VLine};

use super::compare::{self, Change, Row, Side as Of};
use super::run::{Histogram, Report, Side};

const NOW: Color32 = Color32::from_rgb(80, 150, 230);
const BASE: Color32 = Color32::from_rgb(230, 150, 60);
const ACCEPTED: Color32 = Color32::from_rgb(150, 150, 150);

/// The figure grid: "figure | accepted | now | change | base", the accepted and change
/// columns only when the run is comparable with the snapshot, the base column only for a
/// house rule. A change beyond the tolerance is coloured and says "changed"; one within it
/// says "slight". Provisional figures are headed "So far" rather than "Now".
pub fn grid(
    ui: &mut Ui,
    rows: &[Row],
    comparable: bool,
    base: Option<&str>,
    games: f64,
    provisional: bool,
) {
    egui::Grid::new("outcomes-figures")
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            ui.strong("Figure");
            if comparable {
                ui.strong("Accepted");
            }
            ui.strong(now_label(provisional));
            if comparable {
                ui.strong("Change");
            }
            if let Some(name) = base {
                ui.strong(format!("Base: {name}"));
                ui.strong("Change from base");
            }
            ui.end_row();
            // A figure with its 95% interval where it has one.
            let cell = |ui: &mut Ui, kind, r: &Row, of: Of| match (r.value(of), r.interval(of)) {
                (Some(x), Some([lo, hi])) => ui
                    .label(format!(
                        "{}  ({} to {})",
                        compare::show(kind, x, games),
                        compare::show(kind, lo, games),
                        compare::show(kind, hi, games)
                    ))
                    .on_hover_text(
                        "In brackets, the 95% interval: where the figure of endlessly many such games would lie, 19 times in 20",
                    ),
                (Some(x), None) => ui.label(compare::show(kind, x, games)),
                (None, _) => ui.weak("—"),
            };
            for r in rows {
                let Some(kind) = r.kind else {
                    ui.strong(&r.label);
                    ui.end_row();
                    continue;
                };
                ui.label(&r.label);
                if comparable {
                    cell(ui, kind, r, Of::Accepted);
                }
                cell(ui, kind, r, Of::Now);
                if comparable {
                    match (r.accepted, r.now) {
                        (Some(a), Some(n)) => match r.change(Of::Accepted, Of::Now, games).unwrap_or(Change::Same) {
                            Change::Same => ui.weak("same"),
                            Change::Open(more) => ui
                                .label(format!("{}  within chance", accepted_change(kind, r, a, n)))
                                .on_hover_text(format!(
                                    "The 95% intervals overlap, so this may be chance: about {more} more games would settle it"
                                )),
                            Change::Slight => {
                                ui.label(format!("{}  slight", accepted_change(kind, r, a, n)))
                            }
                            Change::Chance => ui
                                .label(format!("{}  within chance", accepted_change(kind, r, a, n)))
                                .on_hover_text(
                                    "So few games can differ this much by chance alone: wait for more",
                                ),
                            Change::Changed => ui.label(
                                RichText::new(format!("{}  changed", accepted_change(kind, r, a, n)))
                                    .color(ui.visuals().warn_fg_color)
                                    .strong(),
                            ),
                        },
                        (None, Some(_)) => ui.label("new"),
                        (Some(_), None) => ui.label("gone"),
                        (None, None) => ui.weak("—"),
                    };
                }
                if base.is_some() {
                    cell(ui, kind, r, Of::Base);
                    from_base(ui, kind, r, games);
                }
                ui.end_row();
            }
        });
}

/// How the figure differs from the accepted one: paired by seed, with its 95% interval, where
/// the accepted outcomes keep each game's record, else the plain difference.
fn accepted_change(kind: compare::Kind, r: &Row, a: f64, n: f64) -> String {
    match r.paired(Of::Accepted, Of::Now) {
        Some(p) => format!(
            "{} paired",
            crate::paired::text(kind == compare::Kind::Rate, p)
        ),
        None => compare::delta(kind, a, n),
    }
}

/// How the house rule's figure differs from its base game's: the difference paired by seed
/// with its 95% interval where the figure is one number per game, else the plain difference.
fn from_base(ui: &mut Ui, kind: compare::Kind, r: &Row, games: f64) {
    let (Some(b), Some(n)) = (r.base, r.now) else {
        ui.weak("—");
        return;
    };
    let change = r.change(Of::Base, Of::Now, games);
    let text = match r.paired(Of::Base, Of::Now) {
        Some(p) => format!(
            "{} paired",
            crate::paired::text(kind == compare::Kind::Rate, p)
        ),
        None => compare::delta(kind, b, n),
    };
    let label = match change {
        Some(Change::Changed) => ui.label(
            RichText::new(format!("{text}  changed"))
                .color(ui.visuals().warn_fg_color)
                .strong(),
        ),
        Some(Change::Same) => ui.weak("same"),
        _ => ui.label(text),
    };
    if let Some(p) = r.paired(Of::Base, Of::Now) {
        label.on_hover_text(format!(
            "Paired by seed: both games played the same {} seeds, and this is the mean of the per-game differences with its 95% interval; the luck both share cancels, so it is narrower than the two sides' own intervals",
            p.games
        ));
    }
}

/// What the run's own figures are called: "So far" while it goes on.
fn now_label(provisional: bool) -> &'static str {
    if provisional { "So far" } else { "Now" }
}

/// The plots of a run, with the accepted figures drawn over them when the run is comparable
/// with the snapshot: the win rates as dark marks over each seat's bar (the run's own 95%
/// interval as a whisker), the mean lengths as vertical lines, the mean scores as marks.
pub fn plots(
    ui: &mut Ui,
    f: &Report,
    now: &Side,
    accepted: Option<&[f64]>,
    accepted_stats: Option<&farebox::figures::Stats>,
) {
    let base = f.base.as_ref().and_then(|b| b.as_ref().ok());
    let own = now_label(f.provisional);
    let seats: Vec<String> = (0..f.settings.players as usize)
        .map(|i| now.def.seat_name(i))
        .collect();
    let base_label = base.map(|b| format!("Base: {}", b.name));

    ui.heading("Win rate per seat");
    ui.weak("A tie for first counts as a win for each tied seat, so the win rates can add up to more than 100%.");
    if now.stats.tie_rate.is_some() {
        ui.label(format!(
            "Ties: {} of {} finished {}.",
            crate::runs::rate_text(now.stats.tie_rate, now.stats.tie_rate_interval),
            now.stats.finished,
            crate::common::plural(now.stats.finished, "game")
        ));
    }
    for line in crate::runs::game_why_lines(&now.stats) {
        ui.label(line);
    }
    let mut series: Vec<(&str, Color32, &[f64])> = vec![(own, NOW, &now.stats.win_rate)];
    if let (Some(b), Some(label)) = (base, &base_label) {
        series.push((label, BASE, &b.stats.win_rate));
    }
    let width = 0.8 / series.len() as f64;
    let offset = |k: usize| (k as f64 - (series.len() - 1) as f64 / 2.0) * width;
    let charts: Vec<BarChart> = series
        .iter()
        .enumerate()
        .map(|(k, (name, colour, rates))| {
            let bars = rates
                .iter()
                .enumerate()
                .map(|(seat, r)| Bar::new(seat as f64 + offset(k), r * 100.0).width(width * 0.9))
                .collect();
            BarChart::new(*name, bars).color(*colour)
        })
        .collect();
    // The run's own intervals, as whiskers over its bars.
    let whiskers: Vec<Line> = now
        .stats
        .win_rate_interval
        .iter()
        .enumerate()
        .map(|(seat, [lo, hi])| {
            let x = seat as f64 + offset(0);
            Line::new("95% interval", vec![[x, lo * 100.0], [x, hi * 100.0]])
                .color(ui.visuals().text_color())
                .width(1.5)
        })
        .collect();
    let marks: Vec<Line> = accepted
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(seat, r)| {
            let x = seat as f64;
            Line::new(
                "Accepted",
                vec![[x - 0.42, r * 100.0], [x + 0.42, r * 100.0]],
            )
            .color(ACCEPTED)
            .width(3.0)
        })
        .collect();
    seat_plot("outcomes-win-rate", &seats, "% of finished games won")
        .include_y(100.0)
        .show(ui, |p| {
            charts.into_iter().for_each(|c| p.bar_chart(c));
            whiskers.into_iter().for_each(|l| p.line(l));
            marks.into_iter().for_each(|l| p.line(l));
        });

    ui.heading("Game length");
    let means = |s: &farebox::figures::Stats| (s.turns_mean, s.actions_mean);
    let acc = accepted_stats.map(means);
    let mine = means(&now.stats);
    ui.columns(2, |cols| {
        if let [left, right] = cols {
            histogram(
                left,
                "outcomes-turns",
                "turns",
                &f.turns,
                own,
                base_label.as_deref(),
                (mine.0, acc.map(|a| a.0)),
            );
            histogram(
                right,
                "outcomes-actions",
                "actions",
                &f.actions,
                own,
                base_label.as_deref(),
                (mine.1, acc.map(|a| a.1)),
            );
        }
    });

    ui.heading("Scores per seat");
    let mut boxes = vec![(own, NOW, &now.scores)];
    if let (Some(b), Some(label)) = (base, &base_label) {
        boxes.push((label.as_str(), BASE, &b.scores));
    }
    let width = 0.8 / boxes.len() as f64;
    let plots: Vec<BoxPlot> = boxes
        .iter()
        .enumerate()
        .map(|(k, (name, colour, spreads))| {
            let offset = (k as f64 - (boxes.len() - 1) as f64 / 2.0) * width;
            let elems = spreads
                .iter()
                .enumerate()
                .filter_map(|(seat, s)| {
                    let [lo, q1, med, q3, hi] = (*s)?;
                    Some(
                        BoxElem::new(seat as f64 + offset, BoxSpread::new(lo, q1, med, q3, hi))
                            .box_width(width * 0.8)
                            .name(seats.get(seat).cloned().unwrap_or_default()),
                    )
                })
                .collect();
            BoxPlot::new(*name, elems).color(*colour)
        })
        .collect();
    let score_marks: Vec<Line> = accepted_stats
        .map_or(&[][..], |a| a.score_mean.as_slice())
        .iter()
        .enumerate()
        .map(|(seat, m)| {
            let x = seat as f64;
            Line::new("Accepted mean", vec![[x - 0.42, *m], [x + 0.42, *m]])
                .color(ACCEPTED)
                .width(3.0)
        })
        .collect();
    seat_plot("outcomes-scores", &seats, "score at the end").show(ui, |p| {
        plots.into_iter().for_each(|b| p.box_plot(b));
        score_marks.into_iter().for_each(|l| p.line(l));
    });
}

/// A plot with one place per seat along the bottom, named after the seats; it neither pans
/// nor zooms, so scrolling over it scrolls the panel.
fn seat_plot<'a>(id: &'a str, seats: &[String], y: &'a str) -> Plot<'a> {
    let names = seats.to_vec();
    fixed(Plot::new(id))
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            names.get(i as usize).cloned().unwrap_or_default()
        })
        .x_axis_label("seat")
        .y_axis_label(y)
        .include_y(0.0)
        .include_x(-0.5)
        .include_x(seats.len() as f64 - 0.5)
}

fn fixed(p: Plot<'_>) -> Plot<'_> {
    p.height(180.0)
        .legend(Legend::default())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
}

/// One histogram per side, the base's bars beside the mod's in each bin.
fn histogram(
    ui: &mut Ui,
    id: &str,
    unit: &str,
    hists: &[Histogram],
    own: &str,
    base: Option<&str>,
    (mean, accepted): (f64, Option<f64>),
) {
    ui.label(format!("Games by length in {unit}"));
    let names = std::iter::once((own, NOW)).chain(base.map(|b| (b, BASE)));
    let n = hists.len().max(1) as f64;
    let charts: Vec<BarChart> = hists
        .iter()
        .zip(names)
        .enumerate()
        .map(|(k, (h, (name, colour)))| {
            let w = h.width / n;
            let offset = (k as f64 - (n - 1.0) / 2.0) * w;
            let bars = h
                .bars
                .iter()
                .map(|&(x, count)| Bar::new(x + offset, count).width(w * 0.95))
                .collect();
            BarChart::new(name, bars).color(colour)
        })
        .collect();
    fixed(Plot::new(id))
        .x_axis_label(unit)
        .y_axis_label("games")
        .include_y(0.0)
        .show(ui, |p| {
            charts.into_iter().for_each(|c| p.bar_chart(c));
            p.vline(
                VLine::new(format!("{own} mean"), mean)
                    .color(NOW)
                    .width(1.5),
            );
            if let Some(a) = accepted {
                p.vline(VLine::new("Accepted mean", a).color(ACCEPTED).width(2.5));
            }
        });
}

/// The script profile of a run: one row per hook and bot, the one with the heaviest single
/// call first, with its calls, steps of the step budget (mean and most in one call, and that
/// call's share of the budget), time and calls of the `game` API per call. Steps count the
/// same on every machine; times are measured and vary.
pub fn profile(ui: &mut Ui, side: &Side, budget: u64) {
    if side.profile.is_empty() {
        ui.weak("No script ran in these games.");
        return;
    }
    let rows = crate::runs::heaviest_first(&side.profile);
    egui::Grid::new(("outcomes-profile", side.name.as_str()))
        .striped(true)
        .num_columns(8)
        .show(ui, |ui| {
            for (head, tip) in [
                (
                    "Hook or bot",
                    "A rule hook (setup, actions, apply…) or a bot's decide",
                ),
                ("Calls", "How many times it ran, over every game of the run"),
                (
                    "Steps per call",
                    "Luau steps on average: the same on every machine",
                ),
                ("Most steps", "The heaviest single call"),
                (
                    "Of the budget",
                    "The heaviest call's share of the step budget one call may use",
                ),
                ("ms per call", "Time on average, measured on this machine"),
                (
                    "Most ms",
                    "The slowest single call, measured on this machine",
                ),
                ("API calls", "Calls of the game API per call, on average"),
            ] {
                ui.strong(head).on_hover_text(tip);
            }
            ui.end_row();
            for (name, s) in rows {
                let calls = s.calls.max(1) as f64;
                let share = s.max_steps as f64 * 100.0 / budget.max(1) as f64;
                ui.label(name);
                ui.label(s.calls.to_string());
                ui.label(format!("{:.0}", s.steps as f64 / calls));
                ui.label(s.max_steps.to_string());
                if share >= 50.0 {
                    ui.colored_label(ui.visuals().warn_fg_color, format!("{share:.1}%"))
                        .on_hover_text("Near the limit: a heavier game may stop this call");
                } else {
                    ui.label(format!("{share:.1}%"));
                }
                ui.label(format!("{:.3}", s.nanos as f64 / calls / 1e6));
                ui.label(format!("{:.2}", s.max_nanos as f64 / 1e6));
                ui.label(format!("{:.1}", s.api_calls as f64 / calls));
                ui.end_row();
            }
        });
}

/// The cards and tiles that never mattered in a run of `games` finished games, each with the
/// figure that shows it: never held or played (never dealt, drawn or named by an action), or
/// held and never played. None when every card and tile was played.
pub(super) fn never_used(
    def: &farebox::GameDef,
    f: &farebox::figures::Figures,
    games: usize,
) -> Vec<String> {
    use farebox::content::catalog::ItemKind;
    let mut out = Vec::new();
    let catalog = def.catalog();
    let card_ids: std::collections::BTreeSet<&str> = catalog
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Card)
        .map(|i| i.id.as_str())
        .collect();
    for item in &catalog.items {
        let (figs, what) = match item.kind {
            ItemKind::Card => (&f.cards, "card"),
            // A tile a card of the same id shows is that card's row (actions naming the id
            // name the card).
            ItemKind::Tile if card_ids.contains(item.id.as_str()) => continue,
            ItemKind::Tile => (&f.tiles, "tile"),
            _ => continue,
        };
        match figs.get(&item.key) {
            None => out.push(format!(
                "{what} {} ({}): never held or played in {games} games",
                item.name, item.key
            )),
            Some(c) if c.games_played == 0 => out.push(format!(
                "{what} {} ({}): held in {} of {games} games, never played",
                item.name, item.key, c.games_held
            )),
            Some(_) => {}
        }
    }
    out
}
