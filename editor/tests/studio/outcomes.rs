//! The Outcomes tab: the figures that say why a card wins, in words beside each row of the
//! content table and under the win rates, and the table sorted by any of its figures.

use super::*;
use egui_kittest::kittest::NodeT;

/// The percentage that follows `marker` in `text` ("... unplayed by 41.0% (...)" -> 41.0).
fn percent_after(text: &str, marker: &str) -> Option<f64> {
    let rest = &text[text.find(marker)? + marker.len()..];
    rest.split('%').next()?.trim().parse().ok()
}

/// The percentages after `marker` in the labels that say it, top to bottom.
fn column(h: &H, marker: &str) -> Vec<f64> {
    let mut rows: Vec<(f32, f64)> = h
        .query_all_by_label_contains(marker)
        .filter_map(|n| {
            let node = n.accesskit_node();
            let data = node.data();
            let text = data.label().or(data.value())?.to_string();
            Some((n.rect().top(), percent_after(&text, marker)?))
        })
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    rows.into_iter().map(|(_, p)| p).collect()
}

#[test]
fn outcomes_say_in_words_how_cards_matter_and_the_table_sorts_by_any_figure() {
    let (dir, folder) = copy_of("curbside");
    // Tall and wide enough that the whole table is laid out and takes clicks.
    let mut h = studio_sized(folder.display().to_string(), egui::vec2(2600.0, 9000.0));
    loaded(&mut h);
    h.state_mut().as_mut().unwrap().outcomes.set_games(60);
    show_tab(&mut h, "Outcomes");
    until_long(&mut h, "no run under way", |s| !s.outcomes.is_running());
    if let Some(run) = h.query_all_by_label("Run").next() {
        run.click();
    }
    h.step();
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    until_shown(&mut h, "In words");
    // Game-wide: the tie rate and how early the winner leads for good, in words.
    assert!(
        h.query_all_by_label_contains("in a tie").next().is_some(),
        "no sentence about ties"
    );
    // Per card: dead cards in words, sorted by the Dead column either way round.
    const DEAD: &str = "held to the end unplayed by ";
    assert!(
        column(&h, DEAD).len() >= 2,
        "fewer than two cards are said to be held to the end unplayed"
    );
    h.get_by_label("Dead").click();
    settle(&mut h);
    until_shown(&mut h, "Dead v");
    let down = column(&h, DEAD);
    assert!(
        down.windows(2).all(|w| w[0] >= w[1]),
        "not largest first: {down:?}"
    );
    assert!(down.first() > down.last(), "all the same: {down:?}");
    h.get_by_label("Dead v").click();
    settle(&mut h);
    until_shown(&mut h, "Dead ^");
    let up = column(&h, DEAD);
    assert!(
        up.windows(2).all(|w| w[0] <= w[1]),
        "not smallest first: {up:?}"
    );
    // The win rate when held sorts too, and so does every heading: each says so when clicked.
    for heading in [
        "Name",
        "Win rate when held (95%)",
        "Win rate when played (95%)",
        "Accepted effect",
        "Timing",
    ] {
        h.get_by_label(heading).click();
        settle(&mut h);
        assert!(
            h.query_by_label(&format!("{heading} v")).is_some()
                || h.query_by_label(&format!("{heading} ^")).is_some(),
            "{heading} does not sort"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
