//! Drawing a run's figures, final or provisional: the grid of figures (with the accepted ones and the base game's
//! beside them) and the plots: win rate per seat, the spread of game lengths, scores per seat.

use egui::{Color32, RichText, Ui};
use egui_plot::{Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Legend, Plot};

use super::compare::{self, Change, Row};
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
        .num_columns(5)
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
            }
            ui.end_row();
            let cell = |ui: &mut Ui, kind, x: Option<f64>| match x {
                Some(x) => ui.label(compare::show(kind, x, games)),
                None => ui.weak("—"),
            };
            for r in rows {
                let Some(kind) = r.kind else {
                    ui.strong(&r.label);
                    ui.end_row();
                    continue;
                };
                ui.label(&r.label);
                if comparable {
                    cell(ui, kind, r.accepted);
                }
                cell(ui, kind, r.now);
                if comparable {
                    match (r.accepted, r.now) {
                        (Some(a), Some(n)) => match compare::change(kind, a, n, games, r.noise) {
                            Change::Same => ui.weak("same"),
                            Change::Slight => {
                                ui.label(format!("{}  slight", compare::delta(kind, a, n)))
                            }
                            Change::Chance => ui
                                .label(format!("{}  within chance", compare::delta(kind, a, n)))
                                .on_hover_text(
                                    "So few games can differ this much by chance alone: wait for more",
                                ),
                            Change::Changed => ui.label(
                                RichText::new(format!("{}  changed", compare::delta(kind, a, n)))
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
                    cell(ui, kind, r.base);
                }
                ui.end_row();
            }
        });
}

/// What the run's own figures are called: "So far" while it goes on.
fn now_label(provisional: bool) -> &'static str {
    if provisional { "So far" } else { "Now" }
}

/// The plots of a run; `accepted` win rates are drawn beside the new ones when the run is
/// comparable with the snapshot.
pub fn plots(ui: &mut Ui, f: &Report, now: &Side, accepted: Option<&[f64]>) {
    let base = f.base.as_ref().and_then(|b| b.as_ref().ok());
    let own = now_label(f.provisional);
    let seats: Vec<String> = (0..f.settings.players as usize)
        .map(|i| now.def.seat_name(i))
        .collect();
    let base_label = base.map(|b| format!("Base: {}", b.name));

    ui.heading("Win rate per seat");
    let mut series: Vec<(&str, Color32, &[f64])> = Vec::new();
    if let Some(a) = accepted {
        series.push(("Accepted", ACCEPTED, a));
    }
    series.push((own, NOW, &now.stats.win_rate));
    if let (Some(b), Some(label)) = (base, &base_label) {
        series.push((label, BASE, &b.stats.win_rate));
    }
    let width = 0.8 / series.len() as f64;
    let charts: Vec<BarChart> = series
        .iter()
        .enumerate()
        .map(|(k, (name, colour, rates))| {
            let offset = (k as f64 - (series.len() - 1) as f64 / 2.0) * width;
            let bars = rates
                .iter()
                .enumerate()
                .map(|(seat, r)| Bar::new(seat as f64 + offset, r * 100.0).width(width * 0.9))
                .collect();
            BarChart::new(*name, bars).color(*colour)
        })
        .collect();
    seat_plot("outcomes-win-rate", &seats, "% of finished games")
        .include_y(100.0)
        .show(ui, |p| charts.into_iter().for_each(|c| p.bar_chart(c)));

    ui.heading("Game length");
    ui.columns(2, |cols| {
        if let [left, right] = cols {
            histogram(
                left,
                "outcomes-turns",
                "turns",
                &f.turns,
                own,
                base_label.as_deref(),
            );
            histogram(
                right,
                "outcomes-actions",
                "actions",
                &f.actions,
                own,
                base_label.as_deref(),
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
    seat_plot("outcomes-scores", &seats, "score")
        .show(ui, |p| plots.into_iter().for_each(|b| p.box_plot(b)));
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
        .show(ui, |p| charts.into_iter().for_each(|c| p.bar_chart(c)));
}
