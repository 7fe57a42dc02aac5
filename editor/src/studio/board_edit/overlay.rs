//! "Show play": where the seeded outcome games were played, coloured over the board editor
//! from the board figures of the latest outcome run of the version being edited
//! (`farebox::figures::PlayFigures`): how often each cell or space was visited or built on,
//! how often the seats that stood on it won, or which spaces no game reached; roads and track
//! pieces are coloured by how often they were used. A legend gives the numbers behind each
//! colour, and the figures of the space under the pointer.

use eframe::egui::{self, Color32, FontId, Pos2, Rect, Stroke, Vec2};
use farebox::figures::{PlayFigures, SpaceFigure};

use super::Built;
use crate::studio::Command;
use crate::studio::board_view::Table;

/// What the overlay shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShowPlay {
    #[default]
    Off,
    Visited,
    BuiltOn,
    WinRate,
    NeverUsed,
}

impl ShowPlay {
    pub const ALL: [ShowPlay; 5] = [
        ShowPlay::Off,
        ShowPlay::Visited,
        ShowPlay::BuiltOn,
        ShowPlay::WinRate,
        ShowPlay::NeverUsed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ShowPlay::Off => "off",
            ShowPlay::Visited => "visited",
            ShowPlay::BuiltOn => "built on",
            ShowPlay::WinRate => "win rate",
            ShowPlay::NeverUsed => "never used",
        }
    }
}

/// The board figures of the outcomes, as the board editor is handed them each frame.
pub struct PlayRun<'a> {
    /// The figures on show, None when no run has any (no run yet, or a game without a board).
    pub figures: Option<&'a PlayFigures>,
    /// The figures are of the version being edited.
    pub current: bool,
    pub provisional: bool,
    pub running: bool,
    /// Outcomes can be run for this version (it has rules).
    pub runnable: bool,
    /// The mean win rate of a seat over the run: the middle of the win-rate colours.
    pub mean_win: f64,
}

/// A colour bin of the legend: its colour, its label and how many places fall in it.
struct Bin {
    colour: Color32,
    label: String,
    count: usize,
}

/// Share-of-games colours, light to dark.
const SHARES: [Color32; 5] = [
    Color32::from_rgb(0xff, 0xf3, 0xb0),
    Color32::from_rgb(0xfe, 0xcc, 0x5c),
    Color32::from_rgb(0xfd, 0x8d, 0x3c),
    Color32::from_rgb(0xe3, 0x4a, 0x33),
    Color32::from_rgb(0xa5, 0x0f, 0x15),
];
/// Win-rate colours, from well below the mean (blue) to well above it (red).
const WINS: [Color32; 5] = [
    Color32::from_rgb(0x21, 0x66, 0xac),
    Color32::from_rgb(0x92, 0xc5, 0xde),
    Color32::from_rgb(0xf0, 0xf0, 0xf0),
    Color32::from_rgb(0xf4, 0xa5, 0x82),
    Color32::from_rgb(0xb2, 0x18, 0x2b),
];
/// The mark of a space no game reached.
pub const NEVER: Color32 = Color32::from_rgb(0xd0, 0x1c, 0x8b);
const WIN_STEPS: [f64; 4] = [-0.15, -0.05, 0.05, 0.15];

/// The bin of a share of games (0..=1).
fn share_bin(x: f64) -> usize {
    ((x * 5.0).floor() as usize).min(4)
}

/// The bin of a win rate, against the mean.
fn win_bin(rate: f64, mean: f64) -> usize {
    WIN_STEPS.iter().filter(|s| rate - mean >= **s).count()
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The colour of one space in `mode`, None when it gets none.
fn space_colour(mode: ShowPlay, f: &SpaceFigure, games: u64, mean: f64) -> Option<usize> {
    let share = |n: u64| n as f64 / games.max(1) as f64;
    match mode {
        ShowPlay::Visited => Some(share_bin(share(f.games_visited))),
        ShowPlay::BuiltOn => (f.games_built_on > 0).then(|| share_bin(share(f.games_built_on))),
        ShowPlay::WinRate => f.win_rate_visited.map(|r| win_bin(r, mean)),
        ShowPlay::Off | ShowPlay::NeverUsed => None,
    }
}

/// Per space of the board drawn, its key in the figures (see `farebox::figures::PlayFigures`).
pub(super) fn space_keys(b: &Built) -> Vec<Option<String>> {
    let spaces = &b.board.graph.spaces;
    match b.board.kind {
        "grid" => (0..spaces.len() as u32)
            .map(|s| b.board.xy(s).map(|(x, y)| format!("{x},{y}")))
            .collect(),
        "graph" => spaces.iter().map(|s| Some(s.id.clone())).collect(),
        "sections" => {
            let mut keys = vec![None; spaces.len()];
            for (sid, first, n, _) in &b.sections {
                for i in *first..first + n {
                    if let (Some(k), Some(s)) = (keys.get_mut(i as usize), spaces.get(i as usize)) {
                        *k = Some(format!("{sid}/{}", s.id));
                    }
                }
            }
            keys
        }
        _ => vec![None; spaces.len()],
    }
}

/// Per space of a track drawn, the id of the track piece it lies on.
fn track_keys(b: &Built) -> Vec<Option<String>> {
    let mut keys = vec![None; b.board.graph.spaces.len()];
    let (Some(track), farebox::content::def::BoardDef::Track(t)) = (&b.board.track, &b.def.board)
    else {
        return keys;
    };
    for laid in &track.laid {
        let Some(piece) = t.pieces.get(laid.piece as usize) else {
            continue;
        };
        let first = laid.first_space as usize;
        for k in keys
            .iter_mut()
            .skip(first)
            .take((laid.lanes * laid.rows) as usize)
        {
            *k = Some(piece.id.clone());
        }
    }
    keys
}

/// The control and the legend, in the tool panel.
pub(super) fn control_ui(
    ui: &mut egui::Ui,
    show: &mut ShowPlay,
    run: &PlayRun,
    kind: &str,
    out: &mut Vec<Command>,
) {
    ui.separator();
    ui.heading("Show play");
    ui.horizontal_wrapped(|ui| {
        for m in ShowPlay::ALL {
            ui.selectable_value(show, m, m.name());
        }
    });
    if *show == ShowPlay::Off {
        return;
    }
    let Some(f) = run.figures.filter(|_| run.current) else {
        let why = match (run.figures.is_some(), run.running) {
            (_, true) => {
                "The outcome games of this version are being played; the board is coloured when their first figures come in."
            }
            (true, false) => {
                "The outcome figures are of an earlier version of the mod: run the outcomes again to see this one's."
            }
            (false, false) => {
                "No outcome run for this version: play the seeded games to see where play happens."
            }
        };
        ui.label(why);
        if !run.running && run.runnable && ui.button("Run outcomes").clicked() {
            out.push(Command::RunOutcomes);
        }
        return;
    };
    legend_ui(ui, *show, f, run, kind);
}

/// The legend: each colour with the range it stands for and how many places have it.
fn legend_ui(ui: &mut egui::Ui, mode: ShowPlay, f: &PlayFigures, run: &PlayRun, kind: &str) {
    if f.kind == "track" {
        return track_legend_ui(ui, mode, f, run);
    }
    let noun = |n: usize| {
        let one = if kind == "grid" { "cell" } else { "space" };
        format!("{n} {}", crate::common::plural(n, one))
    };
    let g = f.games;
    let what = match mode {
        ShowPlay::Visited => format!("Games (of {g}) in which a piece stood on it"),
        ShowPlay::BuiltOn => {
            format!("Games (of {g}) in which a tile was laid or a piece placed on it")
        }
        ShowPlay::WinRate => format!(
            "How often the seats whose pieces stood on it won, against {} for a seat on average",
            pct(run.mean_win)
        ),
        _ => format!("Never reached in {g} games"),
    };
    ui.label(egui::RichText::new(what).strong());
    if run.provisional {
        ui.weak("Provisional: the run goes on.");
    }
    let mut bins = legend_bins(mode, run.mean_win, g);
    // A space never reached has the mark of its own, not a colour.
    for s in f.spaces.values().filter(|s| s.games_visited > 0) {
        if let Some(b) = space_colour(mode, s, g, run.mean_win) {
            bins[b].count += 1;
        }
    }
    if mode != ShowPlay::NeverUsed {
        bins_ui(ui, &bins, &noun);
    }
    let never: Vec<&str> = f.never_visited().collect();
    ui.horizontal(|ui| {
        swatch(ui, NEVER);
        ui.label(format!("Never reached: {}", noun(never.len())));
    });
    if mode == ShowPlay::NeverUsed && !never.is_empty() {
        ui.label(egui::RichText::new(list(&never, 12)).weak());
    }
    if !f.roads.is_empty() {
        let unused = f.roads.values().filter(|r| r.games_used == 0).count();
        ui.label(format!(
            "Roads: drawn thicker the more games used them; {unused} of {} never used.",
            f.roads.len()
        ));
    }
}

fn bins_ui(ui: &mut egui::Ui, bins: &[Bin], noun: &dyn Fn(usize) -> String) {
    for b in bins {
        ui.horizontal(|ui| {
            swatch(ui, b.colour);
            ui.label(format!("{}: {}", b.label, noun(b.count)));
        });
    }
}

/// A track's legend counts what `draw_track` colours: kinds of track piece, by the games
/// that laid one or in which a piece stood on one. A track keeps no figures per space (its
/// spaces are made as pieces are laid, different in every game), so it has no win rates.
fn track_legend_ui(ui: &mut egui::Ui, mode: ShowPlay, f: &PlayFigures, run: &PlayRun) {
    let noun = |n: usize| format!("{n} {}", crate::common::plural(n, "piece kind"));
    let g = f.games;
    let what = match mode {
        ShowPlay::Visited => {
            format!("Games (of {g}) in which a piece stood on a track piece of this kind")
        }
        ShowPlay::BuiltOn => format!("Games (of {g}) in which a track piece of this kind was laid"),
        ShowPlay::WinRate => format!(
            "A track keeps no win rates: its spaces differ from game to game. \
             Show visited or built on to see its {} piece kinds.",
            f.track_pieces.len()
        ),
        _ => format!("Kinds of track piece never laid in {g} games"),
    };
    ui.label(egui::RichText::new(what).strong());
    if run.provisional {
        ui.weak("Provisional: the run goes on.");
    }
    ui.weak("Coloured on the sample track the editor lays out.");
    let never: Vec<&str> = f
        .track_pieces
        .iter()
        .filter(|(_, t)| t.games_laid == 0)
        .map(|(k, _)| k.as_str())
        .collect();
    if matches!(mode, ShowPlay::Visited | ShowPlay::BuiltOn) {
        let mut bins = legend_bins(mode, run.mean_win, g);
        for t in f.track_pieces.values().filter(|t| t.games_laid > 0) {
            let n = if mode == ShowPlay::Visited {
                t.games_used
            } else {
                t.games_laid
            };
            bins[share_bin(n as f64 / g.max(1) as f64)].count += 1;
        }
        bins_ui(ui, &bins, &noun);
    }
    ui.horizontal(|ui| {
        swatch(ui, NEVER);
        ui.label(format!("Never laid: {}", noun(never.len())));
    });
    if !never.is_empty() {
        ui.label(egui::RichText::new(list(&never, 12)).weak());
    }
}

fn list(items: &[&str], most: usize) -> String {
    let mut s = items
        .iter()
        .take(most)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > most {
        s += &format!(" and {} more", items.len() - most);
    }
    s
}

fn swatch(ui: &mut egui::Ui, c: Color32) {
    let (r, _) = ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
    ui.painter().rect_filled(r, 2.0, c);
    ui.painter().rect_stroke(
        r,
        2.0,
        Stroke::new(1.0, Color32::from_gray(60)),
        egui::StrokeKind::Inside,
    );
}

/// The bins of `mode`'s legend, empty.
fn legend_bins(mode: ShowPlay, mean: f64, games: u64) -> Vec<Bin> {
    let bin = |colour, label: String| Bin {
        colour,
        label,
        count: 0,
    };
    if mode == ShowPlay::WinRate {
        let p = |d: f64| pct((mean + d).clamp(0.0, 1.0));
        let labels = [
            format!("below {}", p(WIN_STEPS[0])),
            format!("{} to {}", p(WIN_STEPS[0]), p(WIN_STEPS[1])),
            format!("{} to {}", p(WIN_STEPS[1]), p(WIN_STEPS[2])),
            format!("{} to {}", p(WIN_STEPS[2]), p(WIN_STEPS[3])),
            format!("{} and above", p(WIN_STEPS[3])),
        ];
        return WINS.iter().zip(labels).map(|(c, l)| bin(*c, l)).collect();
    }
    let games_at = |q: f64| (q * games as f64).ceil() as u64;
    (0..5)
        .map(|i| {
            let (lo, hi) = (i as f64 / 5.0, (i + 1) as f64 / 5.0);
            let top = if i == 4 {
                games
            } else {
                games_at(hi).saturating_sub(1)
            };
            let label = format!(
                "{}–{} ({} to {} games)",
                pct(lo),
                pct(hi),
                games_at(lo),
                top
            );
            bin(SHARES[i], label)
        })
        .collect()
}

/// Draws the overlay over the table.
pub(super) fn draw(t: &Table, b: &Built, mode: ShowPlay, f: &PlayFigures, mean: f64) {
    if mode == ShowPlay::Off {
        return;
    }
    let keys = space_keys(b);
    draw_roads(t, b, &keys, mode, f);
    let g = f.games;
    for (i, key) in keys.iter().enumerate() {
        let (Some(key), Some(place)) = (key, t.places.get(i).copied().flatten()) else {
            continue;
        };
        let Some(s) = f.spaces.get(key) else {
            continue;
        };
        if s.games_visited == 0 {
            never_mark(t, place.c, place.r, place.square);
            continue;
        }
        let Some(bin) = space_colour(mode, s, g, mean) else {
            continue;
        };
        let colour = if mode == ShowPlay::WinRate {
            WINS[bin]
        } else {
            SHARES[bin]
        }
        .gamma_multiply(0.78);
        if place.square {
            t.painter
                .rect_filled(place.rect().shrink(place.r * 0.08), 3.0, colour);
        } else {
            t.painter.circle_filled(place.c, place.r * 1.05, colour);
        }
    }
    draw_track(t, b, mode, f);
    hover(t, &keys, f);
}

/// A space no game reached: a heavy ring and a cross.
fn never_mark(t: &Table, c: Pos2, r: f32, square: bool) {
    let stroke = Stroke::new(3.0, NEVER);
    if square {
        let rect = Rect::from_center_size(c, Vec2::splat(r * 1.7));
        t.painter
            .rect_filled(rect, 3.0, Color32::from_black_alpha(120));
        t.painter
            .rect_stroke(rect, 3.0, stroke, egui::StrokeKind::Inside);
    } else {
        t.painter
            .circle_filled(c, r * 1.1, Color32::from_black_alpha(120));
        t.painter.circle_stroke(c, r * 1.25, stroke);
    }
    let d = r * 0.5;
    t.painter
        .line_segment([c + Vec2::new(-d, -d), c + Vec2::new(d, d)], stroke);
    t.painter
        .line_segment([c + Vec2::new(-d, d), c + Vec2::new(d, -d)], stroke);
}

/// Roads coloured and drawn thicker by the games that used them; those never used dashed.
fn draw_roads(t: &Table, b: &Built, keys: &[Option<String>], mode: ShowPlay, f: &PlayFigures) {
    if f.roads.is_empty() || mode == ShowPlay::WinRate {
        return;
    }
    for e in &b.board.graph.edges {
        let (Some(Some(a)), Some(Some(z))) = (keys.get(e.from as usize), keys.get(e.to as usize))
        else {
            continue;
        };
        let arrow = if e.directed { "->" } else { "--" };
        let Some(r) = f.roads.get(&format!("{a} {arrow} {z}")) else {
            continue;
        };
        let (Some(pa), Some(pz)) = (
            t.places.get(e.from as usize).copied().flatten(),
            t.places.get(e.to as usize).copied().flatten(),
        ) else {
            continue;
        };
        if r.games_used == 0 {
            let dash = egui::Shape::dashed_line(&[pa.c, pz.c], Stroke::new(2.5, NEVER), 6.0, 5.0);
            t.painter.extend(dash);
        } else if mode != ShowPlay::NeverUsed {
            let share = r.games_used as f64 / f.games.max(1) as f64;
            let width = 2.0 + 6.0 * share as f32;
            t.painter.line_segment(
                [pa.c, pz.c],
                Stroke::new(width, SHARES[share_bin(share)].gamma_multiply(0.9)),
            );
        }
    }
}

/// The spaces of each laid track piece coloured by the games that laid (or used) its kind.
fn draw_track(t: &Table, b: &Built, mode: ShowPlay, f: &PlayFigures) {
    if f.track_pieces.is_empty() {
        return;
    }
    for (i, key) in track_keys(b).iter().enumerate() {
        let (Some(key), Some(place)) = (key, t.places.get(i).copied().flatten()) else {
            continue;
        };
        let Some(p) = f.track_pieces.get(key) else {
            continue;
        };
        if p.games_laid == 0 {
            never_mark(t, place.c, place.r, place.square);
            continue;
        }
        let n = match mode {
            ShowPlay::Visited => p.games_used,
            ShowPlay::BuiltOn => p.games_laid,
            _ => continue,
        };
        let share = n as f64 / f.games.max(1) as f64;
        t.painter.circle_filled(
            place.c,
            place.r * 0.9,
            SHARES[share_bin(share)].gamma_multiply(0.8),
        );
    }
}

/// The figures of the space under the pointer, beside it.
fn hover(t: &Table, keys: &[Option<String>], f: &PlayFigures) {
    let Some(p) = t.response.hover_pos() else {
        return;
    };
    let Some(space) = t.space_at(p) else { return };
    let Some(key) = keys.get(space as usize).and_then(|k| k.as_ref()) else {
        return;
    };
    let Some(s) = f.spaces.get(key) else { return };
    let galley = t.painter.layout_no_wrap(
        describe(key, s, f.games),
        FontId::proportional(14.0),
        Color32::WHITE,
    );
    // Beside the pointer, kept on the table.
    let size = galley.size();
    let at = Pos2::new(
        (p.x + 16.0)
            .min(t.rect.right() - size.x - 6.0)
            .max(t.rect.left() + 6.0),
        (p.y + 16.0).min(t.rect.bottom() - size.y - 6.0),
    );
    let rect = Rect::from_min_size(at, size).expand(4.0);
    t.painter
        .rect_filled(rect, 3.0, Color32::from_black_alpha(210));
    t.painter.galley(at, galley, Color32::WHITE);
}

/// One space's figures in words.
pub fn describe(key: &str, s: &SpaceFigure, games: u64) -> String {
    let mut text = format!(
        "{key}: visited in {} of {games} games, built on in {}",
        s.games_visited, s.games_built_on
    );
    if let (Some(w), Some([lo, hi])) = (s.win_rate_visited, s.win_rate_visited_interval) {
        text += &format!("; seats there won {} ({} to {})", pct(w), pct(lo), pct(hi));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_share_and_rate() {
        assert_eq!(share_bin(0.0), 0);
        assert_eq!(share_bin(0.39), 1);
        assert_eq!(share_bin(1.0), 4);
        assert_eq!(win_bin(0.5, 0.5), 2);
        assert_eq!(win_bin(0.2, 0.5), 0);
        assert_eq!(win_bin(0.7, 0.5), 4);
    }
}
