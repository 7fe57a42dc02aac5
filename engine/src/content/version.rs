//! Versions in manifests: a mod's own `version` (MAJOR.MINOR.PATCH), the `engine` it is for
//! and the version it needs of each dependency (MAJOR.MINOR or MAJOR.MINOR.PATCH). Each is
//! whole numbers joined by dots; anything else is reported where it is written, with what a
//! version looks like, and a mod (or a dependency) for another engine is refused.

use super::files::Files;
use super::raw::{RawManifest, Sp};
use crate::diag::Diagnostic;

/// The engine version mods declare in `engine = "MAJOR.MINOR"`.
pub const ENGINE_VERSION: &str = "0.1";

/// The problems with the versions of manifest `m`, read from file `mf`.
pub fn check(files: &Files, mf: usize, m: &RawManifest) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut wrong = |v: &Sp<String>, msg: String| out.push(files.error(mf, v.span(), msg));
    if version_numbers(m.version.get()).is_none_or(|v| v.len() != 3) {
        wrong(
            &m.version,
            format!(
                "version `{}` is not a version: a mod's version is three whole numbers, MAJOR.MINOR.PATCH, such as 1.0.0",
                m.version.get()
            ),
        );
    }
    match version_numbers(m.engine.get()) {
        None => wrong(
            &m.engine,
            format!(
                "engine `{}` is not a version: write the engine version the mod is for as MAJOR.MINOR, such as {ENGINE_VERSION}",
                m.engine.get()
            ),
        ),
        Some(v) if version_numbers(ENGINE_VERSION).is_some_and(|e| v.get(..2) != e.get(..2)) => {
            wrong(
                &m.engine,
                format!(
                    "this mod is for engine {}, and this is engine {ENGINE_VERSION}",
                    m.engine.get()
                ),
            )
        }
        Some(_) => {}
    }
    for dep in &m.depends {
        if version_numbers(dep.version.get()).is_none() {
            wrong(
                &dep.version,
                format!(
                    "version `{}` of `{}` is not a version: write the oldest version this mod works with as MAJOR.MINOR or MAJOR.MINOR.PATCH, such as 1.0 or 1.2.3",
                    dep.version.get(),
                    dep.id.get()
                ),
            );
        }
    }
    out
}

/// The numbers of a version as mods write them: two or three whole numbers joined by dots
/// ("0.1", "1.2.3"), each of 1 to 9 digits; None for anything else ("banana", "+1.0", "1",
/// "1.0.0-beta").
pub fn version_numbers(s: &str) -> Option<Vec<u64>> {
    let parts: Vec<&str> = s.split('.').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    parts
        .iter()
        .map(|p| {
            let digits = !p.is_empty() && p.len() <= 9 && p.bytes().all(|b| b.is_ascii_digit());
            if digits { p.parse().ok() } else { None }
        })
        .collect()
}

/// `version` (MAJOR.MINOR.PATCH) satisfies `req` (MAJOR.MINOR[.PATCH]): same major, not older.
pub fn version_satisfies(version: &str, req: &str) -> bool {
    let (Some(v), Some(r)) = (version_numbers(version), version_numbers(req)) else {
        return false;
    };
    if v.first() != r.first() {
        return false;
    }
    for i in 1..r.len() {
        let a = v.get(i).copied().unwrap_or(0);
        let b = r.get(i).copied().unwrap_or(0);
        if a != b {
            return a > b;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_major_then_order() {
        assert!(version_satisfies("1.2.0", "1.0"));
        assert!(version_satisfies("1.2.3", "1.2.3"));
        assert!(!version_satisfies("1.2.3", "1.3"));
        assert!(!version_satisfies("2.0.0", "1.0"));
        assert!(!version_satisfies("x", "1.0"));
        assert!(!version_satisfies("1.0.0", "+1.0"));
    }

    #[test]
    fn versions_are_two_or_three_whole_numbers() {
        assert_eq!(version_numbers("1.2.3"), Some(vec![1, 2, 3]));
        assert_eq!(version_numbers("0.1"), Some(vec![0, 1]));
        for bad in [
            "banana",
            "1",
            "+1.0",
            "1.0.0.0",
            "1.0.0-beta",
            "1..0",
            "1.0.",
            " 1.0",
            "1.-1",
            "1.9999999999",
        ] {
            assert_eq!(version_numbers(bad), None, "{bad}");
        }
    }
}
