//! The inspector of several spaces picked together: align and distribute them, and set a
//! tag list or a property on every one at once. A field where all of them agree shows the
//! value; where they differ it shows "mixed" and writing it sets it on all. Each change is
//! one undo step.

use eframe::egui;
use farebox::GameDef;

use super::graph::space_def;
use super::spaces::{Arrange, spaces_n};
use super::{BoardEditor, split_list};
use crate::edit::Edit;
use crate::studio::Command;
use crate::studio::items::parse_value;

/// What every picked space holds for one field: the same value, or different ones.
fn agreed<T: PartialEq + Clone>(mut each: impl Iterator<Item = T>) -> Option<T> {
    let first = each.next()?;
    each.all(|v| v == first).then_some(first)
}

impl BoardEditor {
    /// The inspector for the picked spaces.
    pub(super) fn spaces_ui(&mut self, ui: &mut egui::Ui, def: &GameDef, out: &mut Vec<Command>) {
        let picked = self.picked_spaces();
        let found: Vec<_> = picked
            .iter()
            .filter_map(|(at, id)| Some((at.clone(), space_def(def, at, id)?)))
            .collect();
        ui.strong(format!("{} picked", spaces_n(picked.len())));
        ui.label(
            egui::RichText::new("Shift+click a space to add it or take it out; Escape drops them.")
                .weak(),
        );
        ui.horizontal_wrapped(|ui| {
            for how in Arrange::ALL {
                if ui.button(how.name()).clicked() {
                    self.arrange(how, out);
                }
            }
        });
        let n = found.len();
        let group = |label: String, edits: Vec<Edit>, out: &mut Vec<Command>| {
            out.push(Command::BeginGroup(label));
            out.extend(edits.into_iter().map(Command::Edit));
            out.push(Command::EndGroup);
        };
        ui.horizontal(|ui| {
            let l = ui.label("Tags");
            let tags = agreed(found.iter().map(|(_, s)| s.tags.clone()));
            let shown = tags.as_ref().map(|t| t.join(", ")).unwrap_or_default();
            let w = (ui.available_width() - 12.0).clamp(60.0, 170.0);
            if let Some(text) = self.mixed_field(ui, l.id, "multi-tags", &shown, tags.is_none(), w)
            {
                let tags = split_list(&text);
                let edits = found
                    .iter()
                    .map(|(at, s)| Edit::SetSpaceTags {
                        at: at.clone(),
                        id: s.id.clone(),
                        tags: tags.clone(),
                    })
                    .collect();
                group(format!("Tag {}", spaces_n(n)), edits, out);
            }
        });
        ui.strong("Properties");
        let mut keys: Vec<&String> = found.iter().flat_map(|(_, s)| s.props.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            let value = agreed(found.iter().map(|(_, s)| s.props.get(k).cloned()));
            let shown = value
                .clone()
                .flatten()
                .map(|v| v.to_string())
                .unwrap_or_default();
            ui.horizontal(|ui| {
                let l = ui.add_sized([70.0, 18.0], egui::Label::new(k.as_str()).truncate());
                let key = format!("multi-prop {k}");
                let mixed = value.is_none();
                // Room for the field and the button after it, so the panel never grows.
                let value_w = (ui.available_width() - 40.0).max(60.0);
                if let Some(text) = self.mixed_field(ui, l.id, &key, &shown, mixed, value_w) {
                    match parse_value(&text) {
                        Some(v) => {
                            let edits = found
                                .iter()
                                .map(|(at, s)| Edit::SetSpaceProp {
                                    at: at.clone(),
                                    id: s.id.clone(),
                                    key: k.clone(),
                                    value: Some(v.clone()),
                                })
                                .collect();
                            group(format!("Set {k} on {}", spaces_n(n)), edits, out);
                        }
                        None => self.message = Some(format!("`{text}` is not a value")),
                    }
                }
                if ui
                    .small_button("✖")
                    .on_hover_text("Take this property out of every picked space")
                    .clicked()
                {
                    let edits = found
                        .iter()
                        .filter(|(_, s)| s.props.contains_key(k))
                        .map(|(at, s)| Edit::SetSpaceProp {
                            at: at.clone(),
                            id: s.id.clone(),
                            key: k.clone(),
                            value: None,
                        })
                        .collect();
                    group(format!("Take {k} off {}", spaces_n(n)), edits, out);
                }
            });
        }
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.new_prop.0)
                    .hint_text("key")
                    .desired_width(66.0),
            );
            let value_w = (ui.available_width() - 100.0).max(60.0);
            ui.add(
                egui::TextEdit::singleline(&mut self.new_prop.1)
                    .hint_text("value")
                    .desired_width(value_w),
            );
            let key = self.new_prop.0.trim().to_string();
            if ui.button("Add to all").clicked() && !key.is_empty() {
                match parse_value(&self.new_prop.1) {
                    Some(v) => {
                        let edits = found
                            .iter()
                            .map(|(at, s)| Edit::SetSpaceProp {
                                at: at.clone(),
                                id: s.id.clone(),
                                key: key.clone(),
                                value: Some(v.clone()),
                            })
                            .collect();
                        group(format!("Set {key} on {}", spaces_n(n)), edits, out);
                        self.new_prop = (String::new(), String::new());
                    }
                    None => self.message = Some(format!("`{}` is not a value", self.new_prop.1)),
                }
            }
        });
        ui.label(
            egui::RichText::new("Values are written as in TOML: 3, 2.5, true, or text.").weak(),
        );
        ui.horizontal(|ui| {
            if ui.button("Copy").on_hover_text("Ctrl+C").clicked() {
                self.copy_spaces(ui.ctx(), def);
            }
            if ui
                .button(format!("Delete {}", spaces_n(picked.len())))
                .clicked()
            {
                self.delete_spaces("Delete", out);
            }
        });
    }

    /// A text field showing what every picked space holds, or "mixed" (its hint, the field
    /// empty) where they differ; what was typed when it is left.
    #[allow(clippy::too_many_arguments)]
    fn mixed_field(
        &mut self,
        ui: &mut egui::Ui,
        label: egui::Id,
        key: &str,
        shown: &str,
        mixed: bool,
        width: f32,
    ) -> Option<String> {
        let typing = matches!(&self.typing, Some((k, _)) if k == key);
        let mut text = match (&self.typing, typing) {
            (Some((_, t)), true) => t.clone(),
            _ => shown.to_string(),
        };
        let mut edit = egui::TextEdit::singleline(&mut text).desired_width(width);
        if mixed {
            edit = edit.hint_text("mixed");
        }
        let r = ui.add(edit).labelled_by(label);
        if r.changed() {
            self.typing = Some((key.to_string(), text.clone()));
        }
        (r.lost_focus() && typing).then(|| {
            self.typing = None;
            text
        })
    }
}
