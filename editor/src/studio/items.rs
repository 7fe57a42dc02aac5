//! The other content of a mod, in the "Decks & tables" tab: its tiles, options and constants
//! as editable lists, and which mod gives each rule hook. Every item says which mod defines
//! it and which changed it last; in a house rule, editing an item of the game writes the
//! house rule's own copy (see `edit/`).

use std::sync::Arc;
use std::sync::mpsc::Receiver;

use farebox::GameDef;
use farebox::content::raw::RawValue;

use super::Command;
use super::cell_text::{origin_text, show};
use super::content::Content;
use crate::edit::{Edit, Entry, Origin};

/// Which list is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Items {
    Tiles,
    Options,
    Constants,
    Hooks,
}

impl Items {
    pub fn name(self) -> &'static str {
        match self {
            Items::Tiles => "Tiles",
            Items::Options => "Options",
            Items::Constants => "Constants",
            Items::Hooks => "Rule hooks",
        }
    }
}

/// Each hook's name and origin, or why the scripts could not be read.
type Hooks = Result<Vec<(String, Origin)>, String>;

/// The rule hooks' origins, worked out on a thread for each version (it runs the scripts).
#[derive(Default)]
pub struct HookOrigins {
    of: Option<Arc<GameDef>>,
    working: Option<Receiver<Hooks>>,
    found: Option<Hooks>,
}

/// A value as typed in a cell: TOML (`3`, `2.5`, `true`, `"a b"`, `[1, 2]`), or bare text.
pub fn parse_value(text: &str) -> Option<RawValue> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let parsed = t
        .parse::<toml_edit::Value>()
        .ok()
        .map(|v| crate::edit::from_edit(&v));
    Some(parsed.unwrap_or_else(|| RawValue::String(t.to_string())))
}

/// The list of one kind of item, each field a cell written when it is left.
pub fn items_ui(
    ui: &mut egui::Ui,
    which: Items,
    c: &Content,
    def: Option<&Arc<GameDef>>,
    hooks: &mut HookOrigins,
    typing: &mut Option<(String, String, String)>,
    out: &mut Vec<Command>,
) {
    ui.heading(which.name());
    let list: &[(String, Entry)] = match which {
        Items::Tiles => &c.catalog.tiles,
        Items::Options => &c.catalog.options,
        Items::Constants => &c.catalog.constants,
        Items::Hooks => {
            hooks_ui(ui, def, hooks);
            return;
        }
    };
    if list.is_empty() {
        ui.label(format!("This mod has no {}.", which.name().to_lowercase()));
        return;
    }
    ui.label(
        egui::RichText::new(
            "Values are written as in TOML: 3, 2.5, true, [1, 2], or text. A field is written when you leave it; an empty one is taken out.",
        )
        .weak(),
    );
    egui::ScrollArea::both()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (id, e) in list {
                ui.separator();
                ui.horizontal(|ui| {
                    ui.strong(id);
                    ui.weak(origin_text(&e.origin));
                });
                let mut cell = |ui: &mut egui::Ui, key: &str, shown: String| {
                    let typing_here = matches!(typing, Some((i, k, _)) if i == id && k == key);
                    let mut text = match (typing.as_ref(), typing_here) {
                        (Some((_, _, t)), true) => t.clone(),
                        _ => shown,
                    };
                    let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(320.0));
                    if r.changed() {
                        *typing = Some((id.clone(), key.to_string(), text.clone()));
                    }
                    if r.lost_focus() && typing_here {
                        *typing = None;
                        let value = parse_value(&text);
                        out.push(Command::Edit(match which {
                            Items::Tiles => Edit::SetTileField {
                                tile: id.clone(),
                                field: key.to_string(),
                                value,
                            },
                            Items::Options => Edit::SetOptionField {
                                option: id.clone(),
                                field: key.to_string(),
                                value,
                            },
                            _ => Edit::SetConstant {
                                key: id.clone(),
                                value,
                            },
                        }));
                        out.push(Command::SealEdit);
                    }
                };
                match which {
                    Items::Constants => {
                        ui.horizontal(|ui| {
                            ui.add_sized([90.0, 18.0], egui::Label::new("value"));
                            cell(ui, "value", show(&e.value));
                        });
                    }
                    _ => {
                        for key in e.keys.iter().filter(|k| *k != "id") {
                            let shown = e.value.get(key).map(show).unwrap_or_default();
                            ui.horizontal(|ui| {
                                ui.add_sized(
                                    [90.0, 18.0],
                                    egui::Label::new(key.as_str()).truncate(),
                                );
                                cell(ui, key, shown);
                            });
                        }
                    }
                }
            }
        });
}

/// Which mod gives each rule hook and which added to it last.
fn hooks_ui(ui: &mut egui::Ui, def: Option<&Arc<GameDef>>, h: &mut HookOrigins) {
    let Some(def) = def else {
        ui.label("The mod has not loaded yet.");
        return;
    };
    if !h.of.as_ref().is_some_and(|d| Arc::ptr_eq(d, def)) {
        h.of = Some(def.clone());
        h.found = None;
        let (tx, rx) = std::sync::mpsc::channel();
        let d = def.clone();
        let ctx = ui.ctx().clone();
        let _ = std::thread::Builder::new()
            .name("farebox-hooks".into())
            .spawn(move || {
                let _ = tx.send(crate::edit::hook_origins(d).map_err(|e| e.to_string()));
                ctx.request_repaint();
            });
        h.working = Some(rx);
    }
    if let Some(rx) = &h.working
        && let Ok(r) = rx.try_recv()
    {
        h.found = Some(r);
        h.working = None;
    }
    match &h.found {
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading the rule scripts…");
            });
        }
        Some(Err(e)) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        Some(Ok(list)) if list.is_empty() => {
            ui.label("This mod has no rule hooks: its content has no rules yet.");
        }
        Some(Ok(list)) => {
            ui.label(
                egui::RichText::new(
                    "Each hook the rules define, the mod whose script gives it, and the mod that added to it last (a house rule wraps the game's hook).",
                )
                .weak(),
            );
            egui::Grid::new("hook-origins")
                .striped(true)
                .show(ui, |ui| {
                    ui.strong("Hook");
                    ui.strong("Defined by");
                    ui.strong("Changed last by");
                    ui.end_row();
                    for (hook, o) in list {
                        ui.monospace(hook);
                        ui.label(&o.defined_by);
                        ui.label(format!("{} ({})", o.changed_by, o.file));
                        ui.end_row();
                    }
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_read_as_toml_and_anything_else_as_text() {
        assert_eq!(parse_value("3"), Some(RawValue::Integer(3)));
        assert_eq!(parse_value("true"), Some(RawValue::Boolean(true)));
        assert_eq!(
            parse_value("forest"),
            Some(RawValue::String("forest".into()))
        );
        assert_eq!(parse_value("\"a b\""), Some(RawValue::String("a b".into())));
        assert_eq!(parse_value("  "), None);
    }
}
