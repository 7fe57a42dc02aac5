//! Reloading: a saved edit reloads, a broken one keeps the last good version, and a game in
//! progress replays on the new rules; the status line says what changed.

use super::*;

#[test]
fn a_saved_edit_reloads_and_a_broken_one_keeps_the_last_good_version() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    // Loading reads the files; reading is not a change, so nothing reloads by itself.
    for _ in 0..60 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
    assert_eq!(p.reloads, 0, "reloaded with no change: {}", p.status);
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    // A good edit: the game's name changes, saved by writing a new file and renaming it
    // over the old one, as many editors do.
    let renamed = text.replacen("name = \"Curbside\"", "name = \"Curbside Redux\"", 1);
    assert_ne!(renamed, text);
    let tmp = folder.join(".mod.toml.swp");
    std::fs::write(&tmp, &renamed).unwrap();
    std::fs::rename(&tmp, &mod_toml).unwrap();
    until(&mut h, "the new version live", |s| {
        s.project
            .as_ref()
            .and_then(|p| p.def.as_ref())
            .is_some_and(|d| d.name == "Curbside Redux")
    });
    // A broken edit: the last good version stays, and the diagnostics name the file and line.
    std::fs::write(&mod_toml, renamed.replacen("name =", "name = = ", 1)).unwrap();
    until(&mut h, "the diagnostics", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        assert_eq!(p.def.as_ref().unwrap().name, "Curbside Redux");
        let d = &p.diagnostics[0];
        assert!(d.path.ends_with("mod.toml"), "{d}");
        assert!(d.line > 0, "{d}");
        assert!(p.status.contains("last good version"), "{}", p.status);
    }
    h.get_by_label_contains("Diagnostics (").click();
    h.step();
    h.step();
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Diagnostics);
    assert!(h.query_by_label_contains("mod.toml:").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_broken_script_or_setup_is_a_problem_and_the_last_good_version_stays() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    // A syntax error on line 10: the Diagnostics tab says so, with the file and line, and the
    // status line names the problem, while the last good version keeps running.
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(9, "local broken = = 1");
    std::fs::write(&rules, lines.join("\n")).unwrap();
    until(&mut h, "the script's problem", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        let d = &p.diagnostics[0];
        assert!(d.path.ends_with("critter-cab.luau"), "{d}");
        assert_eq!(d.line, 10, "{d}");
        assert!(p.def.is_some(), "the last good version stays");
        assert!(p.status.contains("last good version"), "{}", p.status);
    }
    h.get_by_label_contains("Diagnostics (").click();
    h.step();
    h.step();
    assert!(h.query_by_label_contains("critter-cab.luau:10").is_some());
    assert!(h.query_by_label_contains("No problems").is_none());
    // A script that compiles but fails in setup is a problem too.
    let failing = good.replacen(
        "\tsetup = function(_g)",
        "\tsetup = function(_g)\n\t\terror(\"no table for this game\")",
        1,
    );
    assert_ne!(failing, good, "the rules have a setup hook to break");
    std::fs::write(&rules, &failing).unwrap();
    until(&mut h, "the setup problem", |s| {
        s.project.as_ref().is_some_and(|p| {
            p.diagnostics
                .iter()
                .any(|d| d.message.contains("no table for this game"))
        })
    });
    {
        let p = h.state().as_ref().unwrap().project.as_ref().unwrap();
        let d = &p.diagnostics[0];
        assert!(d.message.contains("in setup"), "{d}");
        assert!(d.line > 0, "{d}");
    }
    // Fixed again: no problems.
    std::fs::write(&rules, &good).unwrap();
    until(&mut h, "the fix", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.diagnostics.is_empty() && p.def.is_some())
    });
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_mod_that_does_not_load_still_opens_with_its_diagnostics() {
    let (dir, folder) = copy_of("curbside");
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    std::fs::write(&mod_toml, format!("{text}\nplayers = \"many\"\n")).unwrap();
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the diagnostics", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Diagnostics);
    assert!(h.query_by_label_contains("mod.toml:").is_some());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_content_only_game_shows_its_table() {
    // Dicey Curves with its rule scripts and bots taken out: content, nothing to play it.
    let (_dir, game) = copy_of("dicey-curves");
    let manifest = std::fs::read_to_string(game.join("mod.toml")).unwrap();
    let mut kept = Vec::new();
    let mut in_bots = false;
    for line in manifest.lines() {
        in_bots = (in_bots || line == "[[bots]]") && !line.is_empty();
        if !in_bots && !line.starts_with("scripts = ") {
            kept.push(line);
        }
    }
    std::fs::write(game.join("mod.toml"), kept.join("\n") + "\n").unwrap();
    let _ = std::fs::remove_dir_all(game.join("rules"));
    let _ = std::fs::remove_dir_all(game.join("bots"));
    let mut h = studio(game.display().to_string());
    until(&mut h, "the table", |s| s.play.content_only());
    assert!(h.query_by_label_contains("Content only").is_some());
}

#[test]
fn a_reload_during_a_game_replays_it_on_the_new_rules() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the new-game dialog", |s| {
        s.play.in_dialog() && s.project.as_ref().is_some_and(|p| p.watching())
    });
    h.state_mut().as_mut().unwrap().play.set_seed(11);
    h.get_by_label("Start the game").click();
    until(&mut h, "the person's actions", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| !snap.offered.is_empty())
    });
    // The bot waits: what is checked below is the game the person left, not the bot's pace.
    h.state_mut().as_mut().unwrap().play.paused = true;
    let first = snap(&h).offered[0].label.clone();
    h.get_by_label(&first).click();
    until(&mut h, "one action played", |s| step_of(s) == Some(1));
    // A change that leaves the game as it was: it goes on under the new version by itself.
    let mod_toml = folder.join("mod.toml");
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    std::fs::write(
        &mod_toml,
        text.replacen("name = \"Curbside\"", "name = \"Curbside Redux\"", 1),
    )
    .unwrap();
    until(&mut h, "the game on the new version", |s| {
        s.play
            .snapshot()
            .is_some_and(|snap| snap.def.name == "Curbside Redux")
    });
    assert!(
        h.query_by_label_contains("still follows the new rules")
            .is_some()
    );
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    // A change of the dice: the set-up rolls differ, and the Studio asks what to do.
    let text = std::fs::read_to_string(&mod_toml).unwrap();
    let five = text.replacen("die_sides = 6", "die_sides = 5", 1);
    assert_ne!(five, text);
    std::fs::write(&mod_toml, five).unwrap();
    until(&mut h, "the choice after the reload", |s| {
        s.project.as_ref().is_some_and(|p| p.reloads >= 2)
    });
    until_shown(&mut h, "Keep the old game");
    h.get_by_label("Keep the old game").click();
    h.step();
    h.step();
    assert!(h.query_by_label("Keep the old game").is_none());
    assert_eq!(step_of(h.state().as_ref().unwrap()), Some(1));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_status_line_names_the_file_that_changed_and_what_it_did() {
    let (dir, folder) = copy_of("critter-cab");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    let rules = folder.join("rules/critter-cab.luau");
    let good = std::fs::read_to_string(&rules).unwrap();
    std::fs::write(&rules, good.replacen("return {", "return = {", 1)).unwrap();
    until(&mut h, "the script's problem", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| !p.diagnostics.is_empty())
    });
    let status = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .status
        .clone();
    assert!(
        status.starts_with("rules/critter-cab.luau changed: 1 problem"),
        "{status}"
    );
    assert!(
        h.query_by_label_contains("rules/critter-cab.luau changed: 1 problem")
            .is_some()
    );
    std::fs::write(&rules, &good).unwrap();
    until(&mut h, "the fix", |s| {
        s.project.as_ref().is_some_and(|p| p.diagnostics.is_empty())
    });
    let status = h
        .state()
        .as_ref()
        .unwrap()
        .project
        .as_ref()
        .unwrap()
        .status
        .clone();
    assert!(
        status.starts_with("rules/critter-cab.luau changed: reloaded, no problems"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
