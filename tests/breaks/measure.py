#!/usr/bin/env python3
"""Measures which tests catch a list of rule breaks, and whether they name the rule.

A break is one small edit of one file of a bundled mod (TOML, one table per break):

    [[break]]
    mod = "curbside"                 # the mod folder the file is in
    rule = "CS-T11"                  # the rule ID it breaks ("house": none of the game's)
    file = "rules/curbside.luau"
    find = '''exact text, found exactly once'''
    replace = '''the broken text'''
    breaks = "what a player would see go wrong"

For each break this copies the project (without target/) to a scratch folder, makes the edit
there, and runs the already built test binaries of the break's game against the copy
(FAREBOX_SUITE_ROOT): its rule tests (one per check, the mutation run left out, since it fails
whenever a check does), its rule oracles (the house rule's included), its house-rule tests, the
generic leak test and its outcome snapshots (these two only when the rule tests and oracles
missed the break: they are slow). A break is caught by the rule tests or oracles
when one of those fails; it names its rule when a failing rule test proves that rule ID or an
oracle's failure names it. A house rule has no rule list of its own: a break of one is also
caught, and named, when its own tests (`tests/house_rules/<game>.rs`, `gas_station.rs`) fail. Changed
outcome figures alone are reported, not counted as caught.

    cargo test -p farebox-suite --no-run
    python3 tests/breaks/measure.py BREAKS.toml [--only N]

Prints a line per break and the shares; exits 0.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bundled():
    """Each bundled game and its house rule, found in mods/*/mod.toml (a house rule depends on
    its game), never listed by hand."""
    games, house = [], {}
    for d in sorted((ROOT / "mods").iterdir()):
        manifest = d / "mod.toml"
        if not manifest.is_file():
            continue
        depends = tomllib.loads(manifest.read_text()).get("depends", [])
        if depends:
            house[depends[0]["id"]] = d.name
        else:
            games.append(d.name)
    return {g: house.get(g) for g in games}


GAMES = bundled()
RULE_ID = re.compile(r"\b[A-Z]{2}-[A-Z]\d+\b")


def game_of(mod):
    for g, h in GAMES.items():
        if mod in (g, h):
            return g
    sys.exit(f"{mod}: not a bundled game or house rule")


def test_binaries():
    """The built test binaries of farebox-suite, by test name."""
    out = subprocess.run(
        ["cargo", "test", "-p", "farebox-suite", "--no-run", "--message-format=json"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    bins = {}
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if "test" in msg["target"]["kind"]:
                bins[msg["target"]["name"]] = msg["executable"]
    return bins


def check_rules(game):
    """Rule IDs proved by each rule test of a game, by test name (from the `#[rules(...)]` above
    each check of its rule_checks! block)."""
    text = (ROOT / "tests" / "rules" / f"{game.replace('-', '_')}.rs").read_text()
    out = {}
    for rules, name in re.findall(r"^#\[rules\(([^)]*)\)\]\s*\n\s*fn (\w+)\(", text, re.M):
        out[name] = RULE_ID.findall(rules)
    return out


def run(binary, root, skip=(), only=()):
    """Runs a test binary against `root`, only the tests whose names contain one of `only` (all
    when empty): (failed test names, its output)."""
    args = [binary, "--test-threads=2", *only]
    for s in skip:
        args += ["--skip", s]
    env = dict(os.environ, FAREBOX_SUITE_ROOT=str(root), RUST_BACKTRACE="0")
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=900)
    text = p.stdout + p.stderr
    failed = re.findall(r"^test (\S+) \.\.\. FAILED$", text, re.M)
    return failed, text


def copy_project(dest):
    shutil.copytree(
        ROOT, dest,
        ignore=shutil.ignore_patterns("target", ".git", "*.png"),
        symlinks=True,
    )


def measure(b, bins, scratch):
    game = game_of(b["mod"])
    snake = game.replace("-", "_")
    root = scratch / "project"
    if root.exists():
        shutil.rmtree(root)
    copy_project(root)
    path = root / "mods" / b["mod"] / b["file"]
    text = path.read_text()
    if text.count(b["find"]) != 1:
        return {"error": f"`find` occurs {text.count(b['find'])} times"}
    path.write_text(text.replace(b["find"], b["replace"], 1))
    result = {"rules": [], "oracles": [], "house": [], "leaks": [], "figures": [], "named": False}
    proves = check_rules(game)
    failed, out = run(bins["rules"], root, skip=("every_broken_rule_is_caught",),
                      only=(f"{snake}::",))
    result["rules"] = failed
    for t in failed:
        if b["rule"] in proves.get(t.split("::")[-1], []):
            result["named"] = True
    failed, out = run(bins["oracles"], root,
                      skip=("a_broken", "an_oracle_that_judged_nothing", "_long"),
                      only=(f"{snake}::",))
    result["oracles"] = failed
    if failed and b["rule"] != "house" and re.search(rf"\b{re.escape(b['rule'])} \(", out):
        result["named"] = True
    if failed and b["rule"] == "house":
        result["named"] = True
    failed, _ = run(bins["house_rules"], root, only=(f"{snake}::", "gas_station::"))
    result["house"] += failed
    if result["rules"] or result["oracles"] or (b["mod"] in GAMES.values() and result["house"]):
        return result
    # What else notices a break the rule tests and oracles missed (slow: every game's leaks).
    failed, _ = run(bins["leaks"], root,
                    skip=("the_search_finds", "online::", "peeking_bots::", "dicey_curves::"))
    result["leaks"] = failed
    failed, _ = run(bins["outcomes"], root, only=(f"{snake}::", "house_rules::"))
    result["figures"] += failed
    return result


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = int(args[i + 1])
        del args[i:i + 2]
    breaks = tomllib.loads(Path(args[0]).read_text())["break"]
    bins = test_binaries()
    scratch = Path(tempfile.mkdtemp(prefix="farebox-breaks-"))
    tally = {"caught": 0, "named": 0, "leaks": 0, "house": 0, "figures": 0, "none": 0, "error": 0}
    for i, b in enumerate(breaks, 1):
        if only is not None and i != only:
            continue
        r = measure(b, bins, scratch)
        head = f"{i:>3} {b['mod']:<32} {b['rule']:<7}"
        if "error" in r:
            tally["error"] += 1
            print(f"{head} ERROR {r['error']}", flush=True)
            continue
        # A house rule has no rule list: its own tests are its rule tests.
        own = b["mod"] in GAMES.values() and bool(r["house"])
        if own and not (r["rules"] or r["oracles"]):
            r["named"] = True
        caught = bool(r["rules"] or r["oracles"]) or own
        if caught:
            tally["caught"] += 1
            tally["named"] += r["named"]
            verdict = "named" if r["named"] else "caught, rule not named"
        elif r["house"]:
            tally["house"] += 1
            verdict = "house-rule test only"
        elif r["leaks"]:
            tally["leaks"] += 1
            verdict = "leak test only"
        elif r["figures"]:
            tally["figures"] += 1
            verdict = "figures only"
        else:
            tally["none"] += 1
            verdict = "NOT CAUGHT"
        print(f"{head} {verdict:<24} rules {len(r['rules'])} oracles {len(r['oracles'])} "
              f"house {len(r['house'])} leaks {len(r['leaks'])} figures {len(r['figures'])}"
              f"  ({b['breaks']})", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)
    n = sum(v for k, v in tally.items() if k not in ("error", "named"))
    if n:
        print(f"\n{n} breaks: {tally['caught']} caught by rule tests or oracles "
              f"({100 * tally['caught'] / n:.0f}%), {tally['named']} naming their rule "
              f"({100 * tally['named'] / n:.0f}%); house-rule tests only {tally['house']}, "
              f"leak test only {tally['leaks']}, figures only {tally['figures']}, "
              f"nothing {tally['none']}; {tally['error']} did not apply")


if __name__ == "__main__":
    main()
