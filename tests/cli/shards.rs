//! `farebox sim --shard I/N --out FILE` and `farebox merge`: shards of a seed range merge into
//! the very figures one run over the range prints, and shards that do not belong together are
//! refused by name.

use super::*;

/// `sim --json` output less the two timing keys, which a merged run leaves out.
fn without_timing(json: &str) -> String {
    let mut out = json.trim().to_string();
    for key in ["\"games_per_second\":", "\"seconds\":"] {
        let at = out
            .find(key)
            .unwrap_or_else(|| panic!("{key} missing from {json}"));
        let end = at + out[at..].find(',').unwrap() + 1;
        out.replace_range(at..end, "");
    }
    out
}

/// `sim --text` output less its last line (the time it took).
fn without_time_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.last().unwrap().starts_with("time "), "{text}");
    lines[..lines.len() - 1].join("\n")
}

/// Plays shard i of n of `sim ARGS` for every i into `dir`, and gives the files.
fn shards(dir: &Path, args: &[&str], n: u64) -> Vec<String> {
    (0..n)
        .map(|i| {
            let file = s(&dir.join(format!("shard-{n}-{i}.json")));
            let shard = format!("{i}/{n}");
            let mut all = vec!["sim"];
            all.extend(args);
            all.extend(["--shard", &shard, "--out", &file]);
            let r = farebox(&all);
            assert_eq!(r.code, 0, "{}{}", r.out, r.err);
            assert!(r.out.contains("wrote"), "{}", r.out);
            file
        })
        .collect()
}

fn merge(files: &[String], extra: &[&str]) -> run::Run {
    let mut all = vec!["merge"];
    all.extend(files.iter().map(String::as_str));
    all.extend(extra);
    farebox(&all)
}

/// Shards of 1, 4 and 16 merge into the figures of one run, to the last bit: a bundled game
/// with its per-content, board and `game.stat` figures, over 38 blocks of 16 seeds.
#[test]
fn shards_merge_into_the_figures_of_one_run() {
    let dir = scratch("shards-identity");
    let args = [
        "wheres-my-ride",
        "--games",
        "600",
        "--seed",
        "7",
        "--block",
        "16",
    ];
    let mut json = vec!["sim"];
    json.extend(args);
    json.push("--json");
    let whole = farebox(&json);
    assert_eq!(whole.code, 0, "{}", whole.err);
    let v: serde_json::Value = serde_json::from_str(&whole.out).unwrap();
    // The figures that merge by more than a count are there: spreads, `game.stat`, cards.
    assert!(!v["cards"].as_object().unwrap().is_empty(), "{}", whole.out);
    assert!(!v["stats"].as_object().unwrap().is_empty(), "{}", whole.out);
    assert!(v["score_sd"][0].as_f64().unwrap() > 0.0, "{}", whole.out);
    let want = without_timing(&whole.out);
    let mut text = vec!["sim"];
    text.extend(args);
    let whole_text = without_time_line(&farebox(&text).out);
    for n in [1, 4, 16] {
        let files = shards(&dir, &args, n);
        let r = merge(&files, &["--json"]);
        assert_eq!(r.code, 0, "{n} shards: {}", r.err);
        assert_eq!(r.out.trim(), want, "{n} shards");
        // The files may come in any order.
        let mut backwards = files.clone();
        backwards.reverse();
        let r = merge(&backwards, &[]);
        assert_eq!(r.code, 0, "{n} shards: {}", r.err);
        assert_eq!(r.out.trim_end(), whole_text, "{n} shards");
    }
}

/// Endings and `game.stat` names first met late in the range are admitted in the order one
/// run meets them: past the 100 a run keeps, the rest are counted apart, the same either way.
#[test]
fn names_first_met_in_later_shards_come_out_as_in_one_run() {
    let dir = scratch("shards-names");
    let cards: Vec<(String, i64, u32)> = (1..=30).map(|i| (format!("c{i}"), i % 3, 1)).collect();
    let cards: Vec<(&str, i64, u32)> = cards.iter().map(|(c, p, n)| (c.as_str(), *p, *n)).collect();
    let finish = r#"local held = table.concat(game.cards(game.zone("hand", 1)), "-")
	game.stat("hand_" .. held, a - b)
	if a >= b then
		game.finish({ 1, 2 }, { a, b }, "ended holding " .. held)
	else
		game.finish({ 2, 1 }, { a, b }, "ended holding " .. held)
	end"#;
    let m = super::figures::card_mod(&dir, "late-names", &cards, finish);
    let m = s(&m);
    let args = [m.as_str(), "--games", "400", "--block", "8"];
    let mut json = vec!["sim"];
    json.extend(args);
    json.push("--json");
    let whole = farebox(&json);
    assert_eq!(whole.code, 0, "{}", whole.err);
    let v: serde_json::Value = serde_json::from_str(&whole.out).unwrap();
    assert_eq!(v["stats"].as_object().unwrap().len(), 100, "{}", whole.out);
    assert!(v["stats_left_out"].as_u64().unwrap() > 0, "{}", whole.out);
    assert!(
        v["endings"]["(any other reason)"].as_u64().unwrap() > 0,
        "{}",
        whole.out
    );
    let want = without_timing(&whole.out);
    for n in [4, 16] {
        let files = shards(&dir, &args, n);
        let r = merge(&files, &["--json"]);
        assert_eq!(r.code, 0, "{n} shards: {}", r.err);
        assert_eq!(r.out.trim(), want, "{n} shards");
    }
}

/// Edits a shard file's JSON.
fn edit(file: &str, change: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    change(&mut v);
    std::fs::write(file, v.to_string()).unwrap();
}

fn refused(files: &[String], says: &[&str]) {
    let r = merge(files, &["--json"]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.out.is_empty(), "{}", r.out);
    for s in says {
        assert!(r.err.contains(s), "`{s}` missing from: {}", r.err);
    }
}

/// Shards of another build, other content or other settings, and shards that overlap or
/// leave seeds out, are refused with the file and what differs.
#[test]
fn shards_that_do_not_belong_together_are_refused() {
    let dir = scratch("shards-refused");
    let m = super::figures::card_mod(
        &dir,
        "refused",
        super::figures::PLAIN,
        "game.finish({ 1, 2 }, { a, b }, \"done\")",
    );
    let game = s(&m);
    let args = [game.as_str(), "--games", "40", "--block", "4"];
    let fours = shards(&dir, &args, 4);
    assert_eq!(merge(&fours, &[]).code, 0);
    let name = |f: &str| Path::new(f).display().to_string();

    // Another version, another build.
    let copy = |from: &str, to: &str| {
        let to = s(&dir.join(to));
        std::fs::copy(from, &to).unwrap();
        to
    };
    let other = copy(&fours[1], "other-version.json");
    edit(&other, |v| v["farebox"] = "0.0.9".into());
    refused(
        &[
            fours[0].clone(),
            other.clone(),
            fours[2].clone(),
            fours[3].clone(),
        ],
        &[&name(&other), "farebox 0.0.9", "one build"],
    );
    let other = copy(&fours[2], "other-build.json");
    edit(&other, |v| v["build"] = "0123456789abcdef".into());
    refused(
        &[
            fours[0].clone(),
            fours[1].clone(),
            other.clone(),
            fours[3].clone(),
        ],
        &[&name(&other), "build 0123456789abcdef"],
    );

    // A shard of other settings: another cap, other agents, other options of the range.
    let halves = |extra: &[&str], tag: &str| {
        let sub = dir.join(tag);
        std::fs::create_dir_all(&sub).unwrap();
        let mut a = vec![game.as_str(), "--block", "4"];
        if !extra.contains(&"--games") {
            a.extend(["--games", "40"]);
        }
        a.extend(extra);
        shards(&sub, &a, 2)
    };
    let capped = halves(&["--cap", "300"], "cap");
    refused(
        &[fours[0].clone(), fours[1].clone(), capped[1].clone()],
        &[
            &name(&capped[1]),
            "other settings",
            "action cap is 300, not 5000",
        ],
    );
    let longer = halves(&["--games", "44"], "longer");
    refused(
        &[fours[0].clone(), longer[1].clone()],
        &[&name(&longer[1]), "seed range is 44 games"],
    );
    let agents = halves(&["--bots", "random,random"], "agents");
    refused(
        &[fours[0].clone(), fours[1].clone(), agents[1].clone()],
        &[&name(&agents[1]), "agents are random,random, not random"],
    );

    // Overlapping and missing blocks (ten blocks of four seeds: the quarters hold blocks
    // 0..2, 2..5, 5..7 and 7..10).
    refused(
        &[
            fours[0].clone(),
            fours[1].clone(),
            fours[1].clone(),
            fours[2].clone(),
            fours[3].clone(),
        ],
        &[&name(&fours[1]), "both hold seeds 9..20"],
    );
    refused(
        &[fours[0].clone(), fours[1].clone(), fours[3].clone()],
        &["no shard file holds seeds 21..28 (blocks 5..7 of 10)"],
    );
    refused(
        &[fours[0].clone(), fours[1].clone(), fours[2].clone()],
        &["no shard file holds seeds 29..40"],
    );
    // Halves and quarters of one range mix where they meet on a block's edge.
    let plain = halves(&[], "plain");
    refused(
        &[
            plain[0].clone(),
            fours[1].clone(),
            fours[2].clone(),
            fours[3].clone(),
        ],
        &["both hold seeds 9..20"],
    );
    let mixed = merge(&[plain[0].clone(), fours[2].clone(), fours[3].clone()], &[]);
    assert_eq!(mixed.code, 0, "{}", mixed.err);
    assert_eq!(mixed.out, merge(&fours, &[]).out);

    // Other content: a shard played after the mod changed, and a merge after it changed.
    let deck = m.join("decks/cards.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    std::fs::write(&deck, text.replace("power = 2", "power = 3")).unwrap();
    let changed = halves(&[], "changed");
    refused(
        &[fours[0].clone(), fours[1].clone(), changed[1].clone()],
        &[&name(&changed[1]), "other content", "content"],
    );
    refused(&fours, &["has changed since", "content"]);
    std::fs::write(&deck, text).unwrap();
    assert_eq!(merge(&fours, &[]).code, 0);

    // Not a shard file, and one of another layout.
    let replay = s(&dir.join("not-a-shard.json"));
    std::fs::write(&replay, "{\"mod_id\": \"x\"}").unwrap();
    refused(
        std::slice::from_ref(&replay),
        &[&name(&replay), "is not a shard file"],
    );
    let layout = copy(&fours[0], "layout-2.json");
    edit(&layout, |v| v["format_version"] = 2.into());
    refused(std::slice::from_ref(&layout), &[&name(&layout), "layout 2"]);
}
