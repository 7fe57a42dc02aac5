//! The Outcomes tab's Tune…: a proposal found off the UI thread, applied as one edit and
//! undone.

use super::*;

/// Curbside with a head start for the first mover (an option, one star by default, added by
/// a rule script after the game's setup): first_mover_win_rate is far above the game's own.
fn unbalanced_curbside() -> (PathBuf, PathBuf) {
    let (dir, folder) = copy_of("curbside");
    let manifest = folder.join("mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap().replace(
        "scripts = [\"rules/curbside.luau\"]",
        "scripts = [\"rules/curbside.luau\", \"rules/head-start.luau\"]",
    );
    std::fs::write(
        &manifest,
        format!(
            "{text}\n[[options]]\nid = \"head-start\"\nlabel = \"Head start\"\ntype = \"int\"\ndefault = 1\nmin = 0\nmax = 100\n"
        ),
    )
    .unwrap();
    std::fs::write(
        folder.join("rules/head-start.luau"),
        "--!strict\nreturn {\n\tafter = {\n\t\tsetup = function(_g)\n\t\t\tgame.add_counter(\"stars\", game.active(), game.option(\"head-start\"))\n\t\tend,\n\t},\n}\n",
    )
    .unwrap();
    (dir, folder)
}

/// The open mod's `mod.toml` as the editor holds it (unsaved edits included).
fn manifest_text(s: &Studio) -> String {
    let c = s.project.as_ref().unwrap().content.as_ref().unwrap();
    c.editor.docs().open_mod().file("mod.toml").unwrap().text()
}

fn undo_label(s: &Studio) -> Option<String> {
    let c = s.project.as_ref()?.content.as_ref()?;
    c.editor.history().undo_label().map(str::to_string)
}

#[test]
fn tune_proposes_a_change_applies_it_as_one_edit_and_undo_takes_it_back() {
    let (dir, folder) = unbalanced_curbside();
    let mut h = studio(folder.display().to_string());
    loaded(&mut h);
    show_tab(&mut h, "Outcomes");
    h.state_mut()
        .as_mut()
        .unwrap()
        .outcomes
        .set_bots(vec!["random".into()]);
    h.get_by_label("Tune…").click();
    settle(&mut h);
    type_into(&mut h, "Target", "first_mover_win_rate=0.55±0.08");
    type_into(&mut h, "Fields", "options.head-start.default");
    h.get_by_label("Propose a change").click();
    h.step();
    until_long(&mut h, "a proposal", |s| {
        !s.outcomes.is_tuning() && s.outcomes.tune_proposal().is_some()
    });
    let p = h
        .state()
        .as_ref()
        .unwrap()
        .outcomes
        .tune_proposal()
        .unwrap()
        .clone();
    assert!(p.met && p.held, "{p:?}");
    assert_eq!(p.changes.len(), 1);
    assert_eq!(p.changes[0].field, "options.head-start.default");
    assert_eq!(
        (
            p.changes[0].old_text.as_str(),
            p.changes[0].new_text.as_str()
        ),
        ("1", "0")
    );
    // The diff is on screen: the line of mod.toml, old and new.
    let d = &p.diff[0];
    assert_eq!(d.file, "mod.toml");
    assert!(h.query_by_label(&format!("mod.toml:{}", d.line)).is_some());
    h.get_by_label("Apply").click();
    settle(&mut h);
    let s = h.state().as_ref().unwrap();
    let label = undo_label(s).expect("the proposal in the history");
    assert!(label.starts_with("Tune first_mover_win_rate"), "{label}");
    let text = manifest_text(s);
    assert_eq!(text.lines().nth(d.line - 1), d.new.as_deref(), "{text}");
    assert!(s.unsaved());
    assert!(
        h.query_by_label("Applied as one edit: Undo takes it back.")
            .is_some()
    );
    // One undo takes the whole proposal back.
    h.state_mut()
        .as_mut()
        .unwrap()
        .apply(farebox_editor::studio::Command::Undo);
    h.step();
    let s = h.state().as_ref().unwrap();
    assert_eq!(undo_label(s), None);
    let text = manifest_text(s);
    assert_eq!(text.lines().nth(d.line - 1), d.old.as_deref(), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}
