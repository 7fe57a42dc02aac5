//! Options: each option's kind, default, choices and range; `applies_when` (of options and
//! counters); and references to an option of a given kind from elsewhere in the content.

use super::Ctx;
use super::refs::removed;
use crate::content::def::*;
use crate::content::load::{At, Merged};
use crate::content::raw::{self, Sp};
use crate::diag::suggestion;
use crate::value::Value;

pub(super) fn resolve_options(cx: &mut Ctx, raw: &[At<raw::RawOption>]) -> Vec<OptionDef> {
    cx.unique("option", raw.iter().map(|o| (o.file, &o.item.id)));
    let defs: Vec<OptionDef> = raw
        .iter()
        .map(|o| {
            let r = &o.item;
            cx.check_id(o.file, &r.id, "option");
            let default = Value::from_toml(r.default.get());
            let kind = *r.kind.get();
            let choices: Vec<(String, String)> = r
                .choices
                .iter()
                .map(|c| (c.id.get().clone(), c.label.clone()))
                .collect();
            let ok = match kind {
                OptionType::Int => default.as_int().is_some(),
                OptionType::Bool => default.as_bool().is_some(),
                OptionType::Choice => default.as_str().is_some(),
            };
            if !ok {
                cx.err(
                    o.file,
                    r.default.span(),
                    format!(
                        "default of a {} option cannot be {}",
                        format!("{kind:?}").to_lowercase(),
                        default.type_name()
                    ),
                );
            }
            match kind {
                OptionType::Choice => {
                    if choices.is_empty() {
                        cx.err(
                            o.file,
                            r.id.span(),
                            format!("choice option `{}` lists no `choices`", r.id.get()),
                        );
                    } else if let Some(d) = default.as_str()
                        && !choices.iter().any(|(c, _)| c == d)
                    {
                        let hint = suggestion(d, choices.iter().map(|(c, _)| c.as_str()));
                        cx.err(
                            o.file,
                            r.default.span(),
                            format!("default `{d}` is not one of the choices{hint}"),
                        );
                    }
                    for c in &r.choices {
                        cx.check_id(o.file, &c.id, "choice");
                    }
                }
                OptionType::Int => {
                    if let Some(d) = default.as_int()
                        && (r.min.is_some_and(|m| d < m) || r.max.is_some_and(|m| d > m))
                    {
                        cx.err(
                            o.file,
                            r.default.span(),
                            format!("default {d} is outside min..max"),
                        );
                    }
                    if !r.choices.is_empty() {
                        cx.err(o.file, r.id.span(), "only choice options have `choices`");
                    }
                }
                OptionType::Bool => {
                    if !r.choices.is_empty() || r.min.is_some() || r.max.is_some() {
                        cx.err(
                            o.file,
                            r.id.span(),
                            "a bool option takes no `choices`, `min` or `max`",
                        );
                    }
                }
            }
            OptionDef {
                id: r.id.get().clone(),
                label: r.label.clone(),
                description: r.description.clone(),
                kind,
                default,
                min: r.min,
                max: r.max,
                choices,
                applies_when: r.applies_when.as_ref().map(|w| {
                    let w = w.get();
                    (w.option.get().clone(), Value::from_toml(w.is.get()))
                }),
            }
        })
        .collect();
    check_applies_when(cx, raw, &defs);
    defs
}

/// Checks every `applies_when` once all options are known: it names another option, a choice
/// or bool one, and a value that option can take.
fn check_applies_when(cx: &mut Ctx, raw: &[At<raw::RawOption>], defs: &[OptionDef]) {
    for o in raw {
        if let Some(w) = &o.item.applies_when {
            check_applies(
                cx,
                raw,
                (o.file, &o.mod_id),
                w.get(),
                Some(o.item.id.get()),
                defs,
            );
        }
    }
}

/// The option `id` when a mod other than `by` gave it (a house rule replacing its game's
/// option by id), so that a reference from `by`'s files that no longer fits it is reported
/// where it was changed.
fn replaced_by_another<'r>(
    raw: &'r [At<raw::RawOption>],
    id: &str,
    by: &str,
) -> Option<&'r At<raw::RawOption>> {
    raw.iter()
        .rev()
        .find(|o| o.item.id.get() == id)
        .filter(|o| o.mod_id != by)
}

/// "pieces.toml:22" of `mod` `x`: where a reference stands, for a message reported elsewhere.
fn place(cx: &Ctx, file: usize, span: std::ops::Range<usize>, by: &str) -> String {
    let d = cx.files.error(file, span, "");
    format!("{}:{} (of `{by}`)", d.path, d.line)
}

/// One `applies_when` (of an option, or of a counter when `own` is None), in `at`: the file
/// and the mod it belongs to.
pub(super) fn check_applies(
    cx: &mut Ctx,
    raw: &[At<raw::RawOption>],
    at: (usize, &str),
    w: &raw::RawAppliesWhen,
    own: Option<&String>,
    defs: &[OptionDef],
) {
    let (file, by) = at;
    let name = w.option.get();
    let Some(other) = defs.iter().find(|d| &d.id == name) else {
        let hint = suggestion(name, defs.iter().map(|d| d.id.as_str()));
        cx.err(file, w.option.span(), format!("no option `{name}`{hint}"));
        return;
    };
    if own == Some(&other.id) {
        cx.err(file, w.option.span(), "an option cannot depend on itself");
        return;
    }
    let is = Value::from_toml(w.is.get());
    let fits = match other.kind {
        OptionType::Bool => is.as_bool().is_some(),
        OptionType::Choice => is
            .as_str()
            .is_some_and(|v| other.choices.iter().any(|(c, _)| c == v)),
        OptionType::Int => {
            if let Some(o) = replaced_by_another(raw, name, by) {
                let used = place(cx, file, w.option.span(), by);
                cx.err(
                    o.file,
                    o.item.kind.span(),
                    format!(
                        "option `{name}` is an int option here, but {used} names it in \
                         `applies_when`, which needs a choice or bool option: an option that \
                         replaces another keeps its type"
                    ),
                );
                return;
            }
            cx.err(
                file,
                w.option.span(),
                format!(
                    "`applies_when` names `{name}`, an int option: name a choice or bool option"
                ),
            );
            return;
        }
    };
    if !fits && let Some(o) = replaced_by_another(raw, name, by) {
        let used = place(cx, file, w.is.span(), by);
        let shown = match is.as_str() {
            Some(v) => format!("`{v}`"),
            None => is.to_string(),
        };
        cx.err(
            o.file,
            o.item.id.span(),
            format!(
                "option `{name}` cannot be {shown} as replaced here, but {used} counts on that \
                 value in `applies_when`: keep the value, or replace what names it too"
            ),
        );
        return;
    }
    if !fits {
        let hint = match is.as_str() {
            Some(v) => suggestion(v, other.choices.iter().map(|(c, _)| c.as_str())),
            None => String::new(),
        };
        let shown = match is.as_str() {
            Some(v) => format!("`{v}`"),
            None => is.to_string(),
        };
        cx.err(
            file,
            w.is.span(),
            format!("`{name}` cannot be {shown}{hint}"),
        );
    }
}

/// Checks that `o`, in `at` (the file and the mod it belongs to), names an option of the
/// given kind (with "did you mean", or which patch removed it). When another mod replaced the
/// option with one of another kind, that is reported at the replacement's `type`.
pub(super) fn check_option_ref(
    cx: &mut Ctx,
    merged: &Merged,
    options: &[OptionDef],
    at: (usize, &str),
    o: &Sp<String>,
    kind: OptionType,
) {
    let (file, by) = at;
    let kind_name = |k: OptionType| match k {
        OptionType::Int => "an int",
        OptionType::Bool => "a bool",
        OptionType::Choice => "a choice",
    };
    match options.iter().find(|x| &x.id == o.get()) {
        Some(opt) if opt.kind == kind => {}
        Some(opt) => match replaced_by_another(&merged.options, o.get(), by) {
            Some(r) => {
                let used = place(cx, file, o.span(), by);
                cx.err(
                    r.file,
                    r.item.kind.span(),
                    format!(
                        "option `{}` is {} option here, but {used} uses it as {} option: an \
                         option that replaces another keeps its type",
                        o.get(),
                        kind_name(opt.kind),
                        kind_name(kind)
                    ),
                );
            }
            None => cx.err(
                file,
                o.span(),
                format!("option `{}` is not {} option", o.get(), kind_name(kind)),
            ),
        },
        None => {
            let msg = removed(merged, "options", "option", o.get()).unwrap_or_else(|| {
                let hint = suggestion(o.get(), options.iter().map(|x| x.id.as_str()));
                format!("no option `{}`{hint}", o.get())
            });
            cx.err(file, o.span(), msg);
        }
    }
}
