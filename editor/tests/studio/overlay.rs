//! "Show play" on the board editor: where the seeded outcome games were played, coloured
//! over the board with a legend of the numbers behind each colour.

use super::*;
use egui_kittest::kittest::NodeT;

/// The counts the legend gives, line by line, for lines ending in `noun`.
pub(super) fn legend_counts(h: &H, noun: &str) -> Vec<(String, u64)> {
    // "… 5 cells", and "… 1 cell".
    let one = format!(" {}", noun.trim_end_matches('s'));
    h.query_all_by_label_contains(&one)
        .filter_map(|n| {
            let node = n.accesskit_node();
            let data = node.data();
            let label = data.label().or(data.value())?.to_string();
            let rest = label
                .strip_suffix(&format!(" {noun}"))
                .or_else(|| label.strip_suffix(&one))?;
            let count = rest.rsplit(": ").next()?.parse().ok()?;
            Some((label, count))
        })
        .collect()
}

#[test]
fn show_play_offers_a_run_then_colours_the_grid_with_a_legend() {
    let (_dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    h.state_mut().as_mut().unwrap().outcomes.set_games(12);
    show_tab(&mut h, "Board");
    until_shown(&mut h, "Show play");
    h.get_by_label("visited").click();
    settle(&mut h);
    // No run yet: the overlay says so and offers one.
    until_shown(
        &mut h,
        "No outcome run for this version: play the seeded games to see where play happens.",
    );
    let run = h
        .get_all_by_label("Run outcomes")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the overlay's Run outcomes");
    run.click();
    h.step();
    assert!(h.state().as_ref().unwrap().outcomes.is_running());
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    until_shown(&mut h, "Games (of 12) in which a piece stood on it");
    // Every cell of the 6 by 6 grid is counted once, in one colour or as never reached.
    let lines = legend_counts(&h, "cells");
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 36, "{lines:?}");
    // The legend's counts are the figures': the cells visited in every game.
    let figures = {
        let s = h.state().as_ref().unwrap();
        s.outcomes
            .play_run()
            .figures
            .cloned()
            .expect("board figures")
    };
    let all = figures
        .spaces
        .values()
        .filter(|f| f.games_visited == 12)
        .count() as u64;
    let top = lines
        .iter()
        .find(|(l, _)| l.starts_with("80%–100%"))
        .map(|(_, n)| *n);
    assert_eq!(top.map(|n| n >= all), Some(true), "{lines:?}");
    // Win rate: its legend is against the seats' mean.
    h.get_by_label("win rate").click();
    settle(&mut h);
    settle(&mut h);
    let lines = legend_counts(&h, "cells");
    assert!(
        lines.iter().any(|(l, _)| l.starts_with("below ")),
        "{lines:?}"
    );
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 36, "{lines:?}");
    assert!(
        h.query_by_label_contains("How often the seats whose pieces stood on it won")
            .is_some()
    );
}

/// The Board tab's Show play on "visited" for a copy of `game`, after its `games` seeded
/// outcome games were run from the overlay's own Run outcomes.
fn show_play_after_a_run(game: &str, games: u64) -> (std::path::PathBuf, H) {
    let (dir, folder) = copy_of(game);
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    h.state_mut().as_mut().unwrap().outcomes.set_games(games);
    show_tab(&mut h, "Board");
    until_shown(&mut h, "Show play");
    h.get_by_label("visited").click();
    settle(&mut h);
    let run = h
        .get_all_by_label("Run outcomes")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the overlay's Run outcomes");
    run.click();
    h.step();
    assert!(h.state().as_ref().unwrap().outcomes.is_running());
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    (dir, h)
}

#[test]
fn show_play_follows_an_edit_of_the_board_once_the_outcome_games_are_played_again() {
    let (_dir, mut h) = show_play_after_a_run("curbside", 12);
    until_shown(&mut h, "Games (of 12) in which a piece stood on it");
    assert_eq!(
        legend_counts(&h, "cells")
            .iter()
            .map(|(_, n)| n)
            .sum::<u64>(),
        36
    );
    // A column added on the right, as a person adds it: the edit is checked, the outcome
    // games are played again on the new board by themselves, and the overlay shows them.
    h.get_by_label("+ column right").click();
    h.step();
    until(&mut h, "the wider board live", |s| {
        live(s).is_some_and(
            |d| matches!(&d.board, farebox::content::def::BoardDef::Grid(g) if g.width == 7),
        )
    });
    let counted = |s: &Studio| {
        let run = s.outcomes.play_run();
        run.figures
            .filter(|_| run.current && !run.running)
            .map(|f| f.spaces.len())
    };
    // Until the new run is in, the old figures are not shown over the new board.
    if counted(h.state().as_ref().unwrap()).is_none() {
        settle(&mut h);
        assert_eq!(
            legend_counts(&h, "cells")
                .iter()
                .map(|(_, n)| n)
                .sum::<u64>(),
            0
        );
    }
    until_long(&mut h, "the run on the new board", |s| {
        counted(s) == Some(42)
    });
    settle(&mut h);
    until_shown(&mut h, "Games (of 12) in which a piece stood on it");
    let lines = legend_counts(&h, "cells");
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 42, "{lines:?}");
}

#[test]
fn show_play_on_a_track_counts_its_piece_kinds_in_the_legend() {
    let (_dir, mut h) = show_play_after_a_run("dicey-curves", 6);
    until_shown(
        &mut h,
        "Games (of 6) in which a piece stood on a track piece of this kind",
    );
    let figures = {
        let s = h.state().as_ref().unwrap();
        s.outcomes
            .play_run()
            .figures
            .cloned()
            .expect("board figures")
    };
    let kinds = figures.track_pieces.len() as u64;
    assert!(kinds > 0, "{figures:?}");
    // Every kind of track piece is counted once: in the colour of the games a piece stood
    // on one, or as never laid.
    let lines = legend_counts(&h, "piece kinds");
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<u64>(),
        kinds,
        "{lines:?}"
    );
    let laid_in_all = figures
        .track_pieces
        .values()
        .filter(|t| t.games_laid > 0 && t.games_used as f64 / 6.0 >= 0.8)
        .count() as u64;
    let top = lines
        .iter()
        .find(|(l, _)| l.starts_with("80%–100%"))
        .map(|(_, n)| *n);
    assert_eq!(top, Some(laid_in_all), "{lines:?}");
    // Built on counts the games that laid one.
    h.get_by_label("built on").click();
    settle(&mut h);
    settle(&mut h);
    until_shown(
        &mut h,
        "Games (of 6) in which a track piece of this kind was laid",
    );
    let lines = legend_counts(&h, "piece kinds");
    assert_eq!(
        lines.iter().map(|(_, n)| n).sum::<u64>(),
        kinds,
        "{lines:?}"
    );
}
