//! Hostile replays and JSON files: refused with the file named, in plain words, and a replay of
//! another version of a mod never verifies.

use super::*;

#[test]
fn hostile_replays_are_refused_with_the_file_named() {
    let d = scratch("replay");
    let game = new_game(&d, "dice");
    let good = d.join("good.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&good)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let text = std::fs::read_to_string(&good).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let huge = "x".repeat(5_000_000);
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        ("format", serde_json::json!(99), "format 99"),
        ("mod", serde_json::json!(huge), "not a mod id"),
        (
            "layers",
            serde_json::json!([["dice", huge]]),
            "versions are numbers",
        ),
        ("content_hash", serde_json::json!("zz"), "not a hash"),
        (
            "setup",
            serde_json::json!({"seats": 200, "seed": 1}),
            "1 to 16 seats",
        ),
        (
            "steps",
            serde_json::json!([{"seat": 0, "action": huge, "hash": "00"}]),
            "1 to 1000 bytes",
        ),
        (
            "steps",
            serde_json::json!([{"seat": 9, "action": "x", "hash": "00"}]),
            "by seat 10",
        ),
    ];
    for (key, value, expect) in cases {
        let mut bad = v.clone();
        bad[key] = value;
        let f = d.join(format!("bad-{key}.json"));
        std::fs::write(&f, serde_json::to_string(&bad).unwrap()).unwrap();
        let r = farebox(&["replay", &s(&f), "--mod", &s(&game)]);
        assert_eq!(
            r.code,
            1,
            "{key}: {}{}",
            r.out,
            &r.err[..r.err.len().min(500)]
        );
        assert!(r.err.contains(&s(&f)), "{key}: {}", r.err.len());
        assert!(
            r.err.contains(expect),
            "{key}: {}",
            &r.err[..r.err.len().min(500)]
        );
        assert!(r.err.len() < 1_000, "{key}: error of {} bytes", r.err.len());
    }
    // JSON errors name the line, and echo no more than a short piece.
    let f = d.join("bad-json.json");
    std::fs::write(&f, format!("{{\"format\": 1,\n\"{huge}\": 1}}")).unwrap();
    let r = farebox(&["replay", &s(&f), "--mod", &s(&game)]);
    assert_eq!(r.code, 1);
    assert!(
        r.err.contains(&format!("{}:2:", s(&f))),
        "{}",
        &r.err[..r.err.len().min(500)]
    );
    assert!(r.err.len() < 1_000, "{}", r.err.len());
    // A replay that is a FIFO, a device or a folder.
    let r = farebox(&["replay", &s(&d), "--mod", &s(&game)]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("folder"), "{}", r.err);
    #[cfg(unix)]
    {
        let z = d.join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
        let r = farebox(&["replay", &s(&z), "--mod", &s(&game)]);
        assert_eq!(r.code, 2);
        assert!(r.err.contains("device"), "{}", r.err);
    }
}

#[test]
fn a_replay_of_other_mod_versions_does_not_verify() {
    let d = scratch("replay-versions");
    let game = new_game(&d, "dice");
    let good = d.join("good.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&good)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let replay = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = v.clone();
        edit(&mut bad);
        let f = d.join(name);
        std::fs::write(&f, serde_json::to_string(&bad).unwrap()).unwrap();
        farebox(&["replay", &s(&f), "--mod", &s(&game)])
    };
    let r = replay("same.json", &|_| {});
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    // The version edited: the content is the same, the replay is not of this mod.
    let r = replay("version.json", &|b| b["layers"][0][1] = "9.9.9".into());
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`dice` was 9.9.9 when recorded, and 0.1.0 is loaded"),
        "{}",
        r.out
    );
    // A mod more, or another one.
    let r = replay("more.json", &|b| {
        b["layers"] = serde_json::json!([["base", "2.0.0"], ["dice", "0.1.0"]])
    });
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("`base` 2.0.0 was part of the recorded game, and is not loaded"),
        "{}",
        r.out
    );
    // An action no `actions` hook may offer is refused as the file is read.
    let r = replay("newline.json", &|b| {
        b["steps"][0]["action"] = "drive\nGame over".into()
    });
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("action 1 (15 bytes) holds a line break"),
        "{}",
        r.err
    );
}

#[test]
fn json_files_are_refused_in_plain_words() {
    let d = scratch("json-words");
    let game = new_game(&d, "dice");
    let rep = d.join("r.json");
    let r = farebox(&["record", &s(&game), "--out", &s(&rep)]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    v["setup"]["seats"] = serde_json::json!(300);
    std::fs::write(&rep, v.to_string()).unwrap();
    let r = farebox(&["replay", &s(&rep), "--mod", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(r.err.contains("expected a whole number"), "{}", r.err);
    assert!(!r.err.contains("u8"), "{}", r.err);
    let r = farebox(&["test", &s(&game), "--accept", "--games", "3"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let snap = game.join("snapshots").join("outcomes.json");
    let text = std::fs::read_to_string(&snap).unwrap();
    std::fs::write(&snap, text.replacen("\"games\": 3", "\"games\": -3", 1)).unwrap();
    let r = farebox(&["test", &s(&game)]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("expected a whole number, 0 or more"),
        "{}",
        r.err
    );
    assert!(!r.err.contains("u64"), "{}", r.err);
}
