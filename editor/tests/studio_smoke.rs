//! The real `farebox` binary opens the Studio on each bundled game, renders frames with
//! eframe's glow renderer and exits cleanly. It needs an X server: the test starts its own
//! Xvfb (installed by `.ci/run`), so it runs the same on a desktop and in CI.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on a free display number and waits for its socket.
fn xvfb() -> (Xvfb, String) {
    for n in 0..50 {
        let display = 140 + (std::process::id() % 400) + n;
        let socket = format!("/tmp/.X11-unix/X{display}");
        if Path::new(&socket).exists() {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                &format!(":{display}"),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is needed for this test (apt-get install xvfb; .ci/run installs it)");
        let guard = Xvfb(child);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if Path::new(&socket).exists() {
                return (guard, format!(":{display}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("Xvfb did not start");
}

/// The bundled games, found in `mods/` rather than listed: every folder whose `mod.toml`
/// depends on no other mod (a house rule does).
fn bundled_games() -> Vec<String> {
    let mods = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    let mut out: Vec<String> = std::fs::read_dir(&mods)
        .unwrap_or_else(|e| panic!("{}: {e}", mods.display()))
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("mod.toml"))
                .is_ok_and(|t| !t.lines().any(|l| l.trim_start().starts_with("depends")))
        })
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    out.sort();
    assert!(out.len() >= 5, "the bundled games were not found: {out:?}");
    out
}

#[test]
fn the_studio_opens_every_bundled_game_renders_and_exits() {
    let (_x, display) = xvfb();
    let bin = env!("CARGO_BIN_EXE_farebox");
    for game in bundled_games() {
        let game = game.as_str();
        let mut child = Command::new(bin)
            .args(["studio", game, "--frames", "40"])
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(120) {
                let _ = child.kill();
                panic!("{game}: the Studio did not close after its frames");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let out = child.wait_with_output().unwrap();
        assert!(
            status.success(),
            "{game}: exit {status}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Started right after its X server, as `Xvfb :99 & DISPLAY=:99 farebox` does, the Studio
/// waits for the server to take connections instead of closing with "could not open a
/// window" (the window system's connection can be tried only once per process).
#[test]
fn the_studio_waits_for_an_x_server_that_is_still_starting() {
    let display = loop {
        let n = 600 + (std::process::id() % 300) + (rand_nanos() % 50);
        if !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            break n;
        }
    };
    let bin = env!("CARGO_BIN_EXE_farebox");
    let mut studio = Command::new(bin)
        .args(["studio", "wheres-my-ride", "--frames", "5"])
        .env("DISPLAY", format!(":{display}"))
        .env_remove("WAYLAND_DISPLAY")
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The X server comes up a moment later.
    std::thread::sleep(Duration::from_millis(700));
    let _x = Xvfb(
        Command::new("Xvfb")
            .args([
                &format!(":{display}"),
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb is needed for this test"),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(s) = studio.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = studio.kill();
            panic!("the Studio did not close after its frames");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = studio.wait_with_output().unwrap();
    assert!(
        status.success(),
        "exit {status}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn rand_nanos() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos())
}
