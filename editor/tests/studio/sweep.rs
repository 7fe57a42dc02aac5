//! The Outcomes tab's sweeps beyond the Studio: the Slurm script it writes plays the tab's
//! settings in shards that merge into the figures of `farebox sim`, and shard files opened in
//! the tab (named there or dropped on the window) are merged as `farebox merge` merges them
//! and shown as a run's figures are, or refused with its words.

use std::process::Command;
use std::sync::Arc;

use super::*;

const FAREBOX: &str = env!("CARGO_BIN_EXE_farebox");

/// Runs the farebox binary; gives its exit code, output and errors.
fn farebox(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(FAREBOX).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every label of the Outcomes tab's figures, top to bottom: what a person reads.
fn figures_shown(h: &H) -> Vec<String> {
    let mut nodes: Vec<(f32, f32, String)> = h
        .query_all(egui_kittest::kittest::by())
        .filter_map(|n| {
            let node = egui_kittest::kittest::NodeT::accesskit_node(&n);
            let data = node.data();
            let text = data.label().or(data.value())?.to_string();
            Some((n.rect().top(), n.rect().left(), text))
        })
        .collect();
    nodes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let texts: Vec<String> = nodes.into_iter().map(|n| n.2).collect();
    let from = texts
        .iter()
        .position(|t| t == "Figure")
        .unwrap_or_else(|| panic!("no figures shown: {texts:#?}"));
    let to = texts
        .iter()
        .position(|t| t == "Script profile")
        .unwrap_or(texts.len());
    // The charts of game lengths and scores are drawn from the games, which shard files do
    // not keep: they are left out, as the tab says.
    let charts = texts.iter().position(|t| t == "Game length").unwrap_or(to);
    let content = texts
        .iter()
        .position(|t| t == "Cards, tiles, pieces and options")
        .unwrap_or(to);
    let mut shown = texts[from..charts].to_vec();
    shown.extend_from_slice(&texts[content..to]);
    shown
}

/// Types `text` into the number field labelled `label` (a click makes it a text field).
fn set_number(h: &mut H, label: &str, text: &str) {
    h.get_by_label(label).click();
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.step();
    h.event(egui::Event::Text(text.into()));
    h.step();
    h.key_press(egui::Key::Enter);
    h.step();
    h.step();
}

/// A dropped file, as a window hands it to the Studio.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `files` on the Studio's window.
fn drop_files(h: &mut H, files: &[PathBuf]) {
    for f in files {
        h.input_mut()
            .dropped_files
            .push(Arc::new(Dropped(f.clone())));
    }
    h.step();
}

fn wait_merged(h: &mut H) {
    until_long(h, "the merge's end", |s| !s.outcomes.is_merging());
    settle(h);
}

/// The script the tab writes plays its settings in shards (run here as Slurm would run each
/// array task, then the merge): the merged JSON is byte for byte what `farebox sim --json`
/// prints for the same settings, less its timing. Opened in the tab, the shards show exactly
/// the figures the Studio's own run of those settings shows.
#[test]
fn a_cluster_script_plays_the_tab_settings_and_its_shards_show_the_figures_of_a_run() {
    let (_dir, folder) = copy_of("wheres-my-ride");
    let mut h = studio_sized(folder.display().to_string(), egui::vec2(2400.0, 9000.0));
    loaded(&mut h);
    {
        let o = &mut h.state_mut().as_mut().unwrap().outcomes;
        // Two blocks of 1,024 seeds, so the merge has blocks of two shards to put together.
        o.set_games(1100);
        o.set_bots(vec!["random".into(); 4]);
    }
    show_tab(&mut h, "Outcomes");
    set_number(&mut h, "Seed of the first game", "7");
    h.get_by_label("Shard files and cluster runs").click();
    settle(&mut h);
    set_number(&mut h, "Shards", "3");
    h.get_by_label("Write Slurm script").click();
    settle(&mut h);
    until_shown(&mut h, "Copy");
    let sweeps = folder.join("sweeps");
    let script = std::fs::read_dir(&sweeps)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "sbatch"))
        .expect("no script in sweeps/");
    let text = std::fs::read_to_string(&script).unwrap();
    // The command shown submits this script as an array of 3 tasks, then the merge.
    let command = format!("sbatch --parsable --array=0-2 {}", script.display());
    assert!(
        h.query_all_by_label_contains(&command).next().is_some(),
        "the submit command is not shown"
    );
    assert!(text.contains(&command), "{text}");
    // Each array task as Slurm runs it, then the merge (a job without an array task).
    for i in 0..3 {
        let out = Command::new("bash")
            .arg(&script)
            .env("FAREBOX", FAREBOX)
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .output()
            .unwrap();
        assert!(out.status.success(), "task {i}: {out:?}");
    }
    let out = Command::new("bash")
        .arg(&script)
        .env("FAREBOX", FAREBOX)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(out.status.success(), "merge: {out:?}");
    let shards = slurm_dir(&script);
    let merged = std::fs::read_to_string(shards.join("merged.json")).unwrap();
    let folder_s = folder.display().to_string();
    let (code, sim, err) = farebox(&[
        "sim",
        &folder_s,
        "--games",
        "1100",
        "--seed",
        "7",
        "--players",
        "4",
        "--bots",
        "random",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    // Less the two timing keys, cut from the text (parsing would round the floats).
    let mut sim = sim.trim().to_string();
    for key in ["\"games_per_second\":", "\"seconds\":"] {
        let at = sim.find(key).unwrap();
        let end = at + sim[at..].find(',').unwrap() + 1;
        sim.replace_range(at..end, "");
    }
    assert!(
        merged.trim() == sim.trim(),
        "the merged shards differ from `farebox sim`:\n{}\n{}",
        &merged[..merged.len().min(300)],
        &sim[..sim.len().min(300)]
    );

    // The shard files opened in the tab: the figures of the whole range, labelled so.
    until_shown(&mut h, "Merge shard files");
    h.get_by_label("Merge shard files").click();
    h.step();
    wait_merged(&mut h);
    assert!(h.state().as_ref().unwrap().outcomes.shows_merged());
    until_shown(&mut h, "Merged from 3 shard files: 1,100 games");
    // Merged figures are not accepted: `farebox test` would play them again here.
    assert!(egui_kittest::kittest::NodeT::accesskit_node(&h.get_by_label("Accept")).is_disabled());
    // The content table sorts as a run's does (the order is kept for the run below).
    h.get_by_label("Win rate when held (95%)").click();
    settle(&mut h);
    until_shown(&mut h, "Win rate when held (95%) v");
    let merged_shown = figures_shown(&h);
    // The Studio's own run of the same settings (the form now holds the shards' settings).
    h.get_by_label("Run").click();
    h.step();
    until_long(&mut h, "the run's end", |s| !s.outcomes.is_running());
    settle(&mut h);
    assert!(!h.state().as_ref().unwrap().outcomes.shows_merged());
    let run_shown = figures_shown(&h);
    assert!(merged_shown.len() > 40, "{merged_shown:#?}");
    if merged_shown != run_shown {
        let diff: Vec<_> = merged_shown
            .iter()
            .zip(&run_shown)
            .filter(|(a, b)| a != b)
            .take(10)
            .collect();
        panic!(
            "{} labels merged, {} run; first differences: {diff:#?}",
            merged_shown.len(),
            run_shown.len()
        );
    }
}

/// The folder of a script's shard files, as the script names it.
fn slurm_dir(script: &Path) -> PathBuf {
    let text = std::fs::read_to_string(script).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("sweep_dir="))
        .unwrap();
    PathBuf::from(line.trim_matches('\''))
}

/// Shard files dropped on the window that do not belong together, or belong to another mod,
/// are refused with the words of `farebox merge`, in the tab.
#[test]
fn shard_files_that_do_not_belong_together_are_refused_with_the_words_of_merge() {
    let (dir, folder) = copy_of("wheres-my-ride");
    let folder_s = folder.display().to_string();
    let shard = |seed: &str, i: u64, n: u64, game: &str| {
        let out = dir.join(format!("shard-{seed}-{i}-{n}-{}.json", game.len()));
        let out_s = out.display().to_string();
        let spec = format!("{i}/{n}");
        let (code, o, e) = farebox(&[
            "sim", game, "--games", "20", "--block", "8", "--seed", seed, "--shard", &spec,
            "--out", &out_s,
        ]);
        assert_eq!(code, 0, "{o}{e}");
        out
    };
    let a = shard("1", 0, 2, &folder_s);
    let b = shard("2", 1, 2, &folder_s);
    let alone = shard("1", 1, 2, &folder_s);
    let other_mod = shard("1", 0, 1, "curbside");
    let mut h = studio(folder_s.clone());
    loaded(&mut h);
    show_tab(&mut h, "Outcomes");
    let refusal = |files: &[&PathBuf], with_mod: bool| {
        let mut args: Vec<String> = vec!["merge".into()];
        if with_mod {
            args.extend(["--mod".into(), folder_s.clone()]);
        }
        args.extend(files.iter().map(|f| f.display().to_string()));
        let (code, out, err) = farebox(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(code, 1, "{out}{err}");
        let said = err.trim().trim_start_matches("error: ").to_string();
        assert!(!said.is_empty(), "{err}");
        said
    };
    for (files, with_mod, what) in [
        (vec![&a, &b], false, "other settings"),
        (vec![&alone], false, "no shard file holds"),
        (vec![&a, &a.clone()], false, "both hold"),
        (vec![&other_mod], true, "was played on mod `curbside`"),
    ] {
        let said = refusal(&files, with_mod);
        assert!(said.contains(what), "{what}: {said}");
        let owned: Vec<PathBuf> = files.iter().map(|f| (*f).clone()).collect();
        drop_files(&mut h, &owned);
        wait_merged(&mut h);
        let shown = format!("The shard files were not merged: {said}");
        assert!(h.query_by_label(&shown).is_some(), "not shown: {shown}");
        assert!(!h.state().as_ref().unwrap().outcomes.shows_merged());
    }
    // The two that belong together are merged and shown, dropped on another tab.
    show_tab(&mut h, "Play");
    drop_files(&mut h, &[a.clone(), alone.clone()]);
    wait_merged(&mut h);
    until_shown(
        &mut h,
        "Merged from 2 shard files: 20 games, in blocks of 8 seeds",
    );
}
