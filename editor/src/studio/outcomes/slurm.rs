//! The Slurm job-array script the Outcomes tab writes for a sweep of the run settings on a
//! cluster: the recipe of `docs/cluster/sweep.sbatch` and `merge.sbatch` in one file, with
//! the mod, the settings and the shard count written in. Array task I plays shard I/N of the
//! settings' seed range (`farebox sim --shard I/N --out`); the same script submitted without
//! an array merges the shards (`farebox merge`) into the figures a single run of the settings
//! gives, which the Studio's own run gives too (both gather games in blocks of 1,024 seeds).

use std::path::{Path, PathBuf};

use farebox::GameDef;

use crate::accepted::Settings;

/// Where the script goes when no path is given: the mod's `sweeps/` folder (which the
/// Studio's file watcher leaves alone), named after the mod and a hash of the settings, so
/// sweeps of other settings do not overwrite it.
pub(super) fn default_path(folder: &Path, def: &GameDef, settings: &Settings) -> PathBuf {
    let hash = blake3::hash(sim_args(settings).join("\n").as_bytes()).to_hex();
    folder.join("sweeps").join(format!(
        "{}-{}-games-{}.sbatch",
        file_safe(&def.id),
        settings.games,
        &hash[..8]
    ))
}

/// The folder of a script's shard files and merged figures: beside it, named as it is.
pub(super) fn sweep_dir(script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map_or_else(|| "sweep".into(), |s| s.to_string_lossy().into_owned());
    script
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("{stem}-shards"))
}

/// The options of `farebox sim` that play `settings` (one agent per seat, as the tab sets
/// them), besides the shard, threads and output.
pub(super) fn sim_args(s: &Settings) -> Vec<String> {
    // The last agent repeats, as `--bots` reads it: `random` rather than four of it.
    let mut bots = s.bots.as_slice();
    while let [rest @ .., a, b] = bots
        && a == b
    {
        bots = &bots[..rest.len() + 1];
    }
    let mut args = vec![
        "--games".to_string(),
        s.games.to_string(),
        "--seed".into(),
        s.seed.to_string(),
        "--players".into(),
        s.players.to_string(),
        "--bots".into(),
        bots.join(","),
        "--cap".into(),
        s.cap.to_string(),
    ];
    for o in &s.options {
        args.push("--option".into());
        args.push(o.clone());
    }
    for id in &s.forbid {
        args.push("--forbid".into());
        args.push(id.clone());
    }
    args
}

/// The command that submits the script: the array of `shards` tasks, then the merge once
/// every task has ended (`afterany`: a shard whose games failed still wrote its file).
pub(super) fn submit_command(script: &Path, shards: u64) -> String {
    let script = quote(&script.display().to_string());
    format!(
        "sweep=$(sbatch --parsable --array=0-{} {script}) && sbatch --dependency=afterany:$sweep {script}",
        shards.saturating_sub(1)
    )
}

/// What the script needs besides the settings.
pub(super) struct Plan<'a> {
    /// The farebox binary the nodes run (the Studio's own, unless FAREBOX says otherwise).
    pub farebox: String,
    pub name: &'a str,
    pub id: &'a str,
    pub folder: &'a Path,
    pub settings: &'a Settings,
    pub shards: u64,
    pub script: &'a Path,
    /// The settings in words, for the script's first line.
    pub described: String,
}

/// The script.
pub(super) fn script(p: &Plan) -> String {
    let dir = sweep_dir(p.script).display().to_string();
    let command = submit_command(p.script, p.shards);
    let last = p.shards.saturating_sub(1);
    let sim = sim_args(p.settings)
        .iter()
        .map(|a| quote(a))
        .collect::<Vec<_>>()
        .join(" ");
    // A path with white space cannot be written on an #SBATCH line: Slurm's default (the
    // folder it was submitted from) then takes the logs.
    let output = if dir.chars().any(char::is_whitespace) {
        String::new()
    } else {
        format!("#SBATCH --output={dir}/slurm-%j.out\n")
    };
    format!(
        r#"#!/usr/bin/env bash
# A sweep of {name} on a Slurm cluster, written by Farebox Studio: {described},
# cut into {shards} shards. Submit it from a login node, as one command:
#
#   {command}
#
# Array task I plays shard I/{shards} of the seed range and writes $SWEEP_DIR/shard-I.json;
# the same script submitted without an array (the second job, which waits for every task)
# merges the shards into $SWEEP_DIR/merged.json, what `farebox sim --json` prints for these
# settings (less its timing), and $SWEEP_DIR/merged.txt. To see the figures in the Studio,
# open $SWEEP_DIR in the Outcomes tab (Shard files and cluster runs) or drop its shard files
# on the window. See docs/cluster.md.
#
# The farebox binary, the mod's folder and $SWEEP_DIR must be where every node sees them:
# set FAREBOX, MOD or SWEEP_DIR when they are elsewhere on the nodes. Each task plays on
# --cpus-per-task threads; raise --time for long sweeps.
#
#SBATCH --job-name=farebox-{job}
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
{output}set -euo pipefail
farebox={farebox}
farebox="${{FAREBOX:-$farebox}}"
mod={folder}
mod="${{MOD:-$mod}}"
sweep_dir={dir_q}
sweep_dir="${{SWEEP_DIR:-$sweep_dir}}"
shards={shards}
if [ -n "${{SLURM_ARRAY_TASK_ID:-}}" ]; then
  if [ "${{SLURM_ARRAY_TASK_COUNT:-$shards}}" != "$shards" ]; then
    echo "this sweep is cut into $shards shards, and the array has $SLURM_ARRAY_TASK_COUNT tasks: submit it with --array=0-{last}" >&2
    exit 2
  fi
  mkdir -p "$sweep_dir"
  exec "$farebox" sim "$mod" {sim} \
    --threads "${{SLURM_CPUS_PER_TASK:-1}}" \
    --shard "$SLURM_ARRAY_TASK_ID/$shards" \
    --out "$sweep_dir/shard-$SLURM_ARRAY_TASK_ID.json"
fi
# The merge: every shard's file by name, so one that is missing is named.
files=()
for ((i = 0; i < shards; i++)); do files+=("$sweep_dir/shard-$i.json"); done
status=0
"$farebox" merge --mod "$mod" "${{files[@]}}" --json >"$sweep_dir/merged.part" || status=$?
# Exit status 1 with figures printed: some games failed, and the figures say which.
if [ -s "$sweep_dir/merged.part" ]; then
  mv "$sweep_dir/merged.part" "$sweep_dir/merged.json"
  "$farebox" merge --mod "$mod" "${{files[@]}}" >"$sweep_dir/merged.txt" || true
else
  rm -f "$sweep_dir/merged.part"
fi
exit "$status"
"#,
        name = one_line(p.name),
        described = one_line(&p.described),
        shards = p.shards,
        job = file_safe(p.id),
        farebox = quote(&p.farebox),
        folder = quote(&p.folder.display().to_string()),
        dir_q = quote(&dir),
    )
}

/// `s` quoted for the shell: as it is when it is plain, else in single quotes.
pub(super) fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `s` with line breaks made spaces, for a comment line.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// `s` with anything but letters, digits, `-` and `_` made `_`, for a file or job name.
fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The farebox binary for the script: the one running, when it is farebox (not a test).
pub(super) fn farebox_binary() -> String {
    std::env::current_exe()
        .ok()
        .filter(|p| {
            p.file_stem()
                .is_some_and(|s| s == "farebox" || s == "farebox.exe")
        })
        .map_or_else(|| "farebox".into(), |p| p.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_agent_repeats() {
        let mut s = Settings {
            games: 10,
            seed: 1,
            players: 4,
            bots: vec!["a".into(), "b".into(), "b".into(), "b".into()],
            cap: 100,
            options: vec!["x=1".into()],
            forbid: Vec::new(),
        };
        let bots = |s: &Settings| sim_args(s)[7].clone();
        assert_eq!(bots(&s), "a,b");
        s.bots = vec!["r".into(); 4];
        assert_eq!(bots(&s), "r");
        s.bots = vec!["a".into(), "a".into(), "b".into()];
        assert_eq!(bots(&s), "a,a,b");
        assert_eq!(sim_args(&s)[10..], ["--option", "x=1"]);
    }

    #[test]
    fn quoting_keeps_plain_words_and_wraps_the_rest() {
        assert_eq!(quote("search:200,random"), "search:200,random");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
