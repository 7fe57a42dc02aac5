//! The scripts' panels: the console, what scripts print, and which mod gives each hook and
//! constant.

use super::*;

#[test]
fn a_house_rules_hooks_and_constants_say_which_mod_gives_them() {
    let mut h = studio("curbside-gas-station".into());
    until(&mut h, "the house rule loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    show_tab(&mut h, "Decks & tables");
    h.get_by_label("Rule hooks").click();
    until(&mut h, "the hooks read", |_| true);
    for _ in 0..500 {
        h.step();
        if h.query_by_label("Changed last by").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // Some hook is the game's, wrapped by the house rule's script.
    assert!(
        h.query_all_by_label_contains("curbside-gas-station (rules/")
            .next()
            .is_some(),
        "no hook changed by the house rule"
    );
    assert!(h.query_all_by_label("curbside").next().is_some());
    // Constants list their mod too.
    h.get_by_label_contains("Constants (").click();
    h.step();
    h.step();
    assert!(
        h.query_all_by_label_contains("from curbside (mod.toml)")
            .next()
            .is_some()
    );
}

/// Types `code` into the console and runs it; returns its answer.
fn ask_console(h: &mut H, code: &str) -> Result<String, String> {
    let before = h.state().as_ref().unwrap().console.entries.len();
    h.state_mut().as_mut().unwrap().console.input = code.to_string();
    h.step();
    h.get_by_label("Run").click();
    until(h, "the console's answer", |s| {
        s.console.entries.len() > before
    });
    let s = h.state().as_ref().unwrap();
    s.console.entries.last().unwrap().answer.clone()
}

#[test]
fn the_console_reads_the_game_in_play_and_the_printed_panel_shows_what_scripts_print() {
    let (dir, folder) = copy_of("curbside");
    let rules = folder.join("rules/curbside.luau");
    let text = std::fs::read_to_string(&rules).unwrap();
    let loud = text.replacen(
        "\tsetup = function(_g)\n",
        "\tsetup = function(_g)\n\t\tprint(\"console check: setting up\", game.seats(), { seats = game.seats() })\n",
        1,
    );
    assert_ne!(loud, text);
    let print_line = loud
        .lines()
        .position(|l| l.contains("console check"))
        .unwrap()
        + 1;
    std::fs::write(&rules, loud).unwrap();
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    play_one_move(&mut h);
    show_tab(&mut h, "Console");
    // An expression reads the game as it is after the move, with the rules' rights.
    let step = step_of(h.state().as_ref().unwrap()).unwrap();
    let answer = ask_console(&mut h, "game.seats() * 10").unwrap();
    assert_eq!(answer, "20");
    let gas = ask_console(&mut h, "game.counter(\"gas\", 1)").unwrap();
    assert!(gas.parse::<i64>().is_ok(), "{gas}");
    // Changing the game is refused, and the game in play is untouched.
    let refused = ask_console(&mut h, "game.add_counter(\"gas\", 1, 5)").unwrap_err();
    assert!(refused.contains("cannot be used here"), "{refused}");
    assert_eq!(
        ask_console(&mut h, "game.counter(\"gas\", 1)").unwrap(),
        gas
    );
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(step));
    // The entry says which game it read.
    assert_eq!(
        h.query_all_by_label_contains(&format!(
            "Play, after action {step} of the game with seed 7"
        ))
        .count(),
        4
    );
    // What setup printed is in the Printed panel, with its seed, file and line (the game's
    // setup, and the Studio's own checks of the scripts, print it).
    settle(&mut h);
    assert!(
        h.query_all_by_label_contains("console check: setting up\t2\t{seats = 2}")
            .count()
            >= 1,
        "the print is not in the Printed panel"
    );
    let heard: Vec<String> = farebox_editor::studio::console::printed()
        .lock()
        .unwrap()
        .lines
        .iter()
        .filter(|l| l.seed == Some(7) && l.text.starts_with("console check"))
        .map(|l| l.heading())
        .collect();
    // Once: the console's own rebuild of the game is quiet.
    assert_eq!(heard.len(), 1, "{heard:?}");
    let heading = heard[0].clone();
    assert!(
        heading.starts_with("seed 7, setup, ")
            && heading.contains(&format!("curbside.luau:{print_line}")),
        "{heading}"
    );
    assert!(h.query_all_by_label_contains(&heading).count() >= 1);
    let _ = std::fs::remove_dir_all(dir);
}
