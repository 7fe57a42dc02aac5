//! The rule-mutation harness: proof that a game's rule tests catch a broken rule.
//!
//! A game's rule tests are written as [`RuleCheck`]s: a function that builds a situation on a
//! given game definition and panics if the rule's effect is not what the rulebook says, with
//! the rule IDs it proves, declared once in a [`rule_checks!`](crate::rule_checks) block that
//! makes each check's `#[test]` (on the mod as shipped) and the list the mutants run. The
//! mutation test then applies each [`Mutant`] — one small edit to one file of the mod (its
//! rules script, or the TOML that holds a rule's numbers), made in memory — loads the broken
//! mod, runs every check of the mutant's rule on it, and requires at least one to fail. A
//! mutant that no check catches is a rule the tests do not really prove.
//!
//! The same harness serves every game: give it the mod id, the rule IDs of its rule list
//! (`mods/<game>/RULES.md`), its checks and its mutants.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Once};

use farebox::content::{self, GameDef};
use farebox::source::MemMods;

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

/// A game's rule oracles (`oracles.rs`) in a mutation run.
pub struct OracleRun<'a> {
    /// Plays the oracles' games on a definition and names the first failure: the rule IDs of
    /// every oracle that failed at the first failing step, and its message.
    pub catch: &'a dyn Fn(&Arc<GameDef>) -> Option<String>,
    /// Mutants the oracles themselves must catch (the scenario checks need not).
    pub required: &'a [Mutant],
}

/// Checks the coverage of `rules` and runs every mutant; panics with a list of everything
/// wrong: a rule with no check or no mutant, a mutant whose text is not found exactly once
/// or whose mod no longer loads, and every mutant that no check of its rule catches.
pub fn run(mod_id: &str, rules: &[&str], checks: &[RuleCheck], mutants: &[Mutant]) {
    run_with_oracles(mod_id, rules, checks, mutants, None);
}

/// The mod `mod_id` of `base` with the mutant's edit made, or what went wrong.
fn broken(base: &MemMods, mod_id: &str, m: &Mutant) -> Result<Arc<GameDef>, String> {
    let mut mods = base.clone();
    let Some(src) = mods.0.get_mut(mod_id) else {
        return Err(format!("no bundled mod {mod_id}"));
    };
    let Some(text) = src.files.get_mut(m.file) else {
        return Err(format!("no file {}", m.file));
    };
    let found = text.matches(m.find).count();
    if found != 1 {
        return Err(format!(
            "the text to replace occurs {found} times, not once"
        ));
    }
    *text = text.replacen(m.find, m.replace, 1);
    let src = src.clone();
    content::load_mod(&src, &mods)
        .map(Arc::new)
        .map_err(|e| format!("the broken mod does not load:\n{e}"))
}

/// [`run`], and with `oracles` the game's rule oracles on each mutant too: each mutant's line
/// says whether an oracle caught it and which rule IDs, the mutants of `oracles.required`
/// must be caught by an oracle, and the oracles must pass on the mod as shipped. Prints a
/// line per mutant and how many the oracles alone catch.
/// Whether this run measures how many of the scenarios' mutants the oracles catch alone
/// (`FAREBOX_ORACLE_SHARE=1`), which asks the oracles of every mutant.
fn measure_share() -> bool {
    std::env::var("FAREBOX_ORACLE_SHARE").is_ok_and(|v| v == "1")
}

pub fn run_with_oracles(
    mod_id: &str,
    rules: &[&str],
    checks: &[RuleCheck],
    mutants: &[Mutant],
    oracles: Option<OracleRun>,
) {
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
    if let Some(o) = &oracles
        && let Some(msg) = (o.catch)(&shipped)
    {
        problems.push(format!("an oracle fails on {mod_id} as shipped: {msg}"));
    }
    if !problems.is_empty() {
        panic!("the checks are not ready:\n  {}", problems.join("\n  "));
    }
    let mut caught = 0;
    let mut by_oracles = 0;
    let mut lines = Vec::new();
    let required = oracles.as_ref().map_or(&[][..], |o| o.required);
    let all: Vec<(&Mutant, bool)> = mutants
        .iter()
        .map(|m| (m, false))
        .chain(required.iter().map(|m| (m, true)))
        .collect();
    for (m, must) in all {
        let label = format!("{} ({}: {})", m.rule, m.file, m.breaks);
        if !rules.contains(&m.rule) {
            problems.push(format!("{label}: not a rule of {mod_id}"));
            continue;
        }
        let def = match broken(&base, mod_id, m) {
            Ok(d) => d,
            Err(e) => {
                problems.push(format!("{label}: {e}"));
                continue;
            }
        };
        let mine: Vec<&RuleCheck> = checks
            .iter()
            .filter(|c| c.rules.contains(&m.rule))
            .collect();
        let failed = mine.iter().find_map(|c| fails(c.check, &def));
        let scenario = failed.is_some();
        if scenario && !must {
            caught += 1;
        } else if !must {
            problems.push(format!(
                "{label}: survived; no check of {} failed ({})",
                m.rule,
                mine.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
            ));
        }
        let Some(o) = &oracles else { continue };
        // A mutant the scenarios caught is asked of the oracles only when their share is
        // measured (FAREBOX_ORACLE_SHARE=1): the mutants they must catch, and any the
        // scenarios missed, are asked on every run, which keeps the suite's time in bounds.
        if scenario && !must && !measure_share() {
            continue;
        }
        let by = (o.catch)(&def);
        if by.is_some() && !must {
            by_oracles += 1;
        }
        if must && by.is_none() {
            problems.push(format!("{label}: no oracle caught it"));
        }
        lines.push(format!(
            "{label}{}: scenarios {}; oracles {}",
            if must { " [oracles must catch]" } else { "" },
            if scenario { "caught it" } else { "missed it" },
            by.unwrap_or_else(|| "missed it".into())
        ));
    }
    if oracles.is_some() && measure_share() {
        println!(
            "{}\n{mod_id}: the oracles alone catch {by_oracles} of the {} mutants the scenarios catch, and {} more made for them",
            lines.join("\n"),
            mutants.len(),
            required.len()
        );
    }
    assert!(
        problems.is_empty(),
        "{} of {} mutants caught; problems:\n  {}",
        caught,
        mutants.len(),
        problems.join("\n  ")
    );
}

/// The fewest words a rule's summary in a rule list may have.
const MIN_SUMMARY_WORDS: usize = 3;

/// Panics unless the game's rule list, `mods/<mod_id>/RULES.md` in this repository, names
/// exactly the rule IDs `rules` (`prefix` such as `CS-`, a capital letter, digits), each on a
/// line of its own (`- CS-S1 <summary>`) with a summary of at least a few words. A rule list
/// that is missing or unreadable fails too: the check never passes for want of its input.
pub fn assert_rules_match_rule_list(mod_id: &str, prefix: &str, rules: &[&str]) {
    let path = crate::mod_dir(mod_id).join("RULES.md");
    let shown = format!("mods/{mod_id}/RULES.md");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => panic!(
            "{shown} could not be read ({e}). Every bundled game keeps its rule list there, one \
             line `- {prefix}<letter><number> <summary>` per rule ID the rule tests name; restore \
             it (git checkout -- {shown})."
        ),
    };
    let problems = rule_list_problems(&shown, &text, prefix, rules);
    assert!(
        problems.is_empty(),
        "{shown} does not match the rule tests' RULES list:\n  {}",
        problems.join("\n  ")
    );
}

/// Whether `word` is a rule ID of any game: two capital letters, `-`, a capital letter, digits.
fn looks_like_rule_id(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 5
        && b[0].is_ascii_uppercase()
        && b[1].is_ascii_uppercase()
        && b[2] == b'-'
        && b[3].is_ascii_uppercase()
        && b[4..].iter().all(u8::is_ascii_digit)
}

/// Everything wrong with the rule list `text` (shown as `shown`) against the rule IDs `rules`:
/// an ID line with no summary or too short a one, an ID of another game, an ID listed twice,
/// an ID the tests do not know, and a rule of the tests the list leaves out.
pub fn rule_list_problems(shown: &str, text: &str, prefix: &str, rules: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut listed: Vec<(&str, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let Some(item) = line.trim_start().strip_prefix("- ") else {
            continue;
        };
        let mut words = item.split_whitespace();
        let Some(id) = words.next().filter(|w| looks_like_rule_id(w)) else {
            continue;
        };
        if !id.starts_with(prefix) {
            problems.push(format!(
                "{shown}:{n}: {id} is not a rule ID of this game (they start with {prefix})"
            ));
            continue;
        }
        let summary = words.count();
        if summary < MIN_SUMMARY_WORDS {
            problems.push(format!(
                "{shown}:{n}: {id} needs a summary of at least {MIN_SUMMARY_WORDS} words after \
                 it, saying what the rule does (it has {summary})"
            ));
        }
        if let Some((_, first)) = listed.iter().find(|(l, _)| *l == id) {
            problems.push(format!(
                "{shown}:{n}: {id} is listed again (first on line {first})"
            ));
            continue;
        }
        if !rules.contains(&id) {
            problems.push(format!(
                "{shown}:{n}: {id} is not in the rule tests' RULES list; add it there with a \
                 check that proves it, or remove the line"
            ));
        }
        listed.push((id, n));
    }
    for rule in rules {
        if !listed.iter().any(|(l, _)| l == rule) {
            problems.push(format!(
                "{shown}: {rule} is missing; add a line `- {rule} <summary>` in its section"
            ));
        }
    }
    problems
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

/// Declares a game's rule checks, each named once. Every `fn` marked `#[rules("XY-S1", ...)]`
/// in the block is a [`RuleCheck`] of those rule IDs: the function itself, its entry in
/// `CHECKS` (the list the mutants run, in the order declared), and a `#[test]` in the module
/// `shipped_rules` that runs it on the mod as shipped (`shipped()`, defined beside the block).
/// Other items (helpers, constants) may sit between the checks and are left as they are. So a
/// check cannot be in one list and missing from the other.
///
/// ```ignore
/// farebox_suite::rule_checks! {
/// /// What the check shows.
/// #[rules("XY-S1", "XY-T2")]
/// fn s1_two_to_four_players(def: &Arc<GameDef>) {
///     // ...
/// }
/// }
/// ```
#[macro_export]
macro_rules! rule_checks {
    (@items [$($done:tt)*]
        $(#[doc = $doc:expr])*
        #[rules($($rule:literal),+ $(,)?)]
        fn $name:ident($($params:tt)*) $body:block
        $($rest:tt)*
    ) => {
        $(#[doc = $doc])*
        fn $name($($params)*) $body
        $crate::rule_checks!(@items [$($done)* ([$($rule),+] $name)] $($rest)*);
    };
    (@items [$($done:tt)*] $item:item $($rest:tt)*) => {
        $item
        $crate::rule_checks!(@items [$($done)*] $($rest)*);
    };
    (@items [$(([$($rule:literal),+] $name:ident))*]) => {
        /// Every check, with the rule IDs it proves, in the order declared.
        pub const CHECKS: &[$crate::rule_mutants::RuleCheck] = &[
            $($crate::rule_mutants::RuleCheck {
                rules: &[$($rule),+],
                name: stringify!($name),
                check: $name,
            },)*
        ];

        /// One `#[test]` per check, on the mod as shipped.
        mod shipped_rules {
            $(
                #[test]
                fn $name() {
                    super::$name(&super::shipped());
                }
            )*
        }
    };
    ($($items:tt)*) => {
        $crate::rule_checks!(@items [] $($items)*);
    };
}

#[cfg(test)]
mod tests {
    use super::rule_list_problems;

    const RULES: &[&str] = &["XY-S1", "XY-S2", "XY-T10"];

    fn problems(text: &str) -> Vec<String> {
        rule_list_problems("RULES.md", text, "XY-", RULES)
    }

    #[test]
    fn a_complete_rule_list_has_no_problems() {
        let text = "# X\n\nIDs like XY-S1 in prose are not lines.\n\n## Setup\n\
                    - XY-S1 two to four players\n- XY-S2 each starts with three cards\n\n\
                    ## Turn\n  - XY-T10 draw one card a turn\n";
        assert_eq!(problems(text), Vec::<String>::new());
    }

    #[test]
    fn a_missing_rule_is_named() {
        let p = problems("- XY-S1 two to four players\n- XY-T10 draw one card a turn\n");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("XY-S2 is missing"), "{p:?}");
    }

    #[test]
    fn an_unknown_a_foreign_and_a_repeated_id_are_named_with_their_line() {
        let p = problems(
            "- XY-S1 two to four players\n- XY-S2 each starts with three cards\n\
             - XY-T10 draw one card a turn\n- XY-Z9 a rule nobody tests\n\
             - AB-S1 a rule of another game\n- XY-S2 each starts with three cards\n",
        );
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].starts_with("RULES.md:4: XY-Z9 is not in"), "{p:?}");
        assert!(
            p[1].starts_with("RULES.md:5: AB-S1 is not a rule ID"),
            "{p:?}"
        );
        assert!(
            p[2].starts_with("RULES.md:6: XY-S2 is listed again (first on line 2)"),
            "{p:?}"
        );
    }

    #[test]
    fn an_id_needs_a_summary() {
        let p = problems("- XY-S1\n- XY-S2 cards\n- XY-T10 draw one card a turn\n");
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(
            p[0].starts_with("RULES.md:1: XY-S1 needs a summary") && p[0].ends_with("(it has 0)"),
            "{p:?}"
        );
        assert!(
            p[1].starts_with("RULES.md:2: XY-S2 needs a summary") && p[1].ends_with("(it has 1)"),
            "{p:?}"
        );
    }
}
