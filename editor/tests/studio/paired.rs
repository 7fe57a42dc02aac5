//! The Outcomes tab pairs its comparisons seed by seed: a house rule against its base game
//! (the change from the base, paired, with its interval) and a "Without it" run against the
//! run with the card.

use super::*;
use egui_kittest::kittest::NodeT;

#[test]
fn a_house_rule_and_a_run_without_a_card_are_compared_seed_by_seed() {
    let (dir, _base) = copy_of("wheres-my-ride");
    let house = dir.join("wheres-my-ride-show-dont-tell");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods/wheres-my-ride-show-dont-tell"),
        &house,
    );
    let mut h = studio_sized(house.display().to_string(), egui::vec2(2600.0, 9000.0));
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
    until_shown(&mut h, "Change from base");
    // The length is one number per game: its change from the base game is paired by seed.
    let paired: Vec<String> = h
        .query_all_by_label_contains(" paired")
        .filter_map(|n| {
            let node = n.accesskit_node();
            let data = node.data();
            data.label().or(data.value()).map(str::to_string)
        })
        .collect();
    assert!(
        paired
            .iter()
            .any(|l| l.contains(" to ") && l.ends_with("paired") || l.contains(" paired  changed")),
        "no paired change from the base game: {paired:?}"
    );
    // "Without it" on a row runs the same seeds with that card forbidden, and says its
    // change from the run with it, seed by seed.
    h.query_all_by_label("Without it")
        .next()
        .expect("a row offers Without it")
        .click();
    h.step();
    until_long(&mut h, "the run without it", |s| !s.outcomes.is_running());
    settle(&mut h);
    let line = h
        .query_all_by_label_contains("paired seed by seed with the run with it")
        .next()
        .map(|n| {
            let node = n.accesskit_node();
            node.data().label().unwrap_or_default().to_string()
        })
        .expect("no paired line for the run without it");
    assert!(
        line.contains("over the 60 games both finished") && line.contains("win rate"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
