//! The rule-mutation harness: proof that a game's rule tests catch a broken rule.
//!
//! A game's rule tests are written as [`RuleCheck`]s: a function that builds a situation on a
//! given game definition and panics if the rule's effect is not what the rulebook says, with
//! the rule IDs it proves. The ordinary `#[test]`s run every check on the mod as shipped. The
//! mutation test then applies each [`Mutant`] — one small edit to one file of the mod (its
//! rules script, or the TOML that holds a rule's numbers), made in memory — loads the broken
//! mod, runs every check of the mutant's rule on it, and requires at least one to fail. A
//! mutant that no check catches is a rule the tests do not really prove.
//!
//! The same harness serves every game: give it the mod id, the rule IDs of its rule list,
//! its checks and its mutants.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use farebox::content::{self, GameDef};

/// A rule test: builds its situation on the definition it is given and panics when the
/// rule's effect is wrong.
pub struct RuleCheck {
    /// The rule IDs this check proves (e.g. `["CS-T11"]`).
    pub rules: &'static [&'static str],
    pub name: &'static str,
    pub check: fn(&Arc<GameDef>),
}

/// One deliberate break of one rule: in `file` of the mod, replace `find` (which must occur
/// exactly once) with `replace`.
pub struct Mutant {
    pub rule: &'static str,
    pub file: &'static str,
    pub find: &'static str,
    pub replace: &'static str,
    /// What the edit breaks, for the report.
    pub breaks: &'static str,
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Panics inside a mutant run are expected: keep them off the test output, but leave every
/// other panic (a real test failure) reported as usual.
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
}

/// Runs `check` on `def`; the panic message if it failed.
fn fails(check: fn(&Arc<GameDef>), def: &Arc<GameDef>) -> Option<String> {
    install_quiet_hook();
    QUIET.with(|q| q.set(true));
    let r = catch_unwind(AssertUnwindSafe(|| check(def)));
    QUIET.with(|q| q.set(false));
    match r {
        Ok(()) => None,
        Err(e) => Some(
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panicked".into()),
        ),
    }
}

/// Checks the coverage of `rules` and runs every mutant; panics with a list of everything
/// wrong: a rule with no check or no mutant, a mutant whose text is not found exactly once
/// or whose mod no longer loads, and every mutant that no check of its rule catches.
pub fn run(mod_id: &str, rules: &[&str], checks: &[RuleCheck], mutants: &[Mutant]) {
    let mut problems = Vec::new();
    for rule in rules {
        if !checks.iter().any(|c| c.rules.contains(rule)) {
            problems.push(format!("{rule}: no check names it"));
        }
        if !mutants.iter().any(|m| m.rule == *rule) {
            problems.push(format!("{rule}: no mutant breaks it"));
        }
    }
    for c in checks {
        for r in c.rules {
            if !rules.contains(r) {
                problems.push(format!("check {} names {r}, which is not a rule", c.name));
            }
        }
    }
    let base = crate::bundled_in_memory();
    // A check that fails on the mod as shipped would "catch" every mutant: all must pass first.
    let shipped = match base.0.get(mod_id) {
        Some(src) => content::load_mod(src, &base)
            .map(Arc::new)
            .unwrap_or_else(|e| panic!("{mod_id} does not load:\n{e}")),
        None => panic!("no bundled mod {mod_id}"),
    };
    for c in checks {
        if let Some(msg) = fails(c.check, &shipped) {
            problems.push(format!(
                "check {} fails on {mod_id} as shipped: {msg}",
                c.name
            ));
        }
    }
    if !problems.is_empty() {
        panic!("the checks are not ready:\n  {}", problems.join("\n  "));
    }
    let mut caught = 0;
    for m in mutants {
        let label = format!("{} ({}: {})", m.rule, m.file, m.breaks);
        if !rules.contains(&m.rule) {
            problems.push(format!("{label}: not a rule of {mod_id}"));
            continue;
        }
        let mut mods = base.clone();
        let Some(src) = mods.0.get_mut(mod_id) else {
            panic!("no bundled mod {mod_id}");
        };
        let Some(text) = src.files.get_mut(m.file) else {
            problems.push(format!("{label}: no file {}", m.file));
            continue;
        };
        let found = text.matches(m.find).count();
        if found != 1 {
            problems.push(format!(
                "{label}: the text to replace occurs {found} times, not once"
            ));
            continue;
        }
        *text = text.replacen(m.find, m.replace, 1);
        let src = src.clone();
        let def = match content::load_mod(&src, &mods) {
            Ok(d) => Arc::new(d),
            Err(e) => {
                problems.push(format!("{label}: the broken mod does not load:\n{e}"));
                continue;
            }
        };
        let mine: Vec<&RuleCheck> = checks
            .iter()
            .filter(|c| c.rules.contains(&m.rule))
            .collect();
        let failed = mine.iter().find_map(|c| fails(c.check, &def));
        match failed {
            Some(_) => caught += 1,
            None => problems.push(format!(
                "{label}: survived; no check of {} failed ({})",
                m.rule,
                mine.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
            )),
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} mutants caught; problems:\n  {}",
        caught,
        mutants.len(),
        problems.join("\n  ")
    );
}

/// Panics unless every check is run by a `#[test]`: `src` is the rule test file's own text,
/// whose `rule_tests!(...)` list names each check followed by a comma.
pub fn assert_every_check_has_a_test(src: &str, checks: &[RuleCheck]) {
    let tests = src
        .split("rule_tests!(")
        .nth(1)
        .unwrap_or_else(|| panic!("no rule_tests!( list in the file"));
    for c in checks {
        assert!(
            tests.contains(&format!("{},", c.name)),
            "no #[test] runs {}",
            c.name
        );
    }
}

/// Panics unless `rules` are exactly the rule IDs (`prefix` such as `CS-`, a letter, digits)
/// of the shared rulebook's rule list `file` (e.g. `curbside.rules.md`), when the shared
/// rulebooks sit beside the repository.
pub fn assert_rules_match_rulebook(file: &str, prefix: &str, rules: &[&str]) {
    let path = crate::root().join("../shared/rulebooks").join(file);
    let Ok(md) = std::fs::read_to_string(&path) else {
        return;
    };
    let is_id = |w: &&str| {
        w.strip_prefix(prefix).is_some_and(|rest| {
            let mut c = rest.chars();
            c.next().is_some_and(|l| l.is_ascii_uppercase())
                && !c.as_str().is_empty()
                && c.all(|d| d.is_ascii_digit())
        })
    };
    let mut ids: Vec<&str> = md
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(is_id)
        .collect();
    ids.sort();
    ids.dedup();
    let mut ours = rules.to_vec();
    ours.sort();
    assert_eq!(ids, ours, "the rule IDs of {file}");
}

/// A [`Mutant`] written in one line: `mutant!(rule, file, find, replace, breaks)`.
#[macro_export]
macro_rules! mutant {
    ($rule:literal, $file:expr, $find:expr, $replace:expr, $breaks:literal) => {
        $crate::rule_mutants::Mutant {
            rule: $rule,
            file: $file,
            find: $find,
            replace: $replace,
            breaks: $breaks,
        }
    };
}

/// One `#[test]` per named check, each running it on the mod as shipped: invoked inside a
/// module of the rule test file, beside which the checks and `shipped()` are defined.
#[macro_export]
macro_rules! rule_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                super::$name(&super::shipped());
            }
        )*
    };
}
