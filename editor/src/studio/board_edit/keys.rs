//! The board editor's keys, and the overlay that lists them (F1 or ?).

use eframe::egui;
use farebox::GameDef;
use farebox::content::def::BoardDef;

use super::area::Turn;
use super::{BoardEditor, Selection, delete_edit};
use crate::studio::Command;
use crate::studio::content::Content;

/// Every key of the board editor, as the overlay lists them: (keys, what they do).
pub const KEYS: [(&str, &str); 24] = [
    ("F1 or ?", "Show or hide this list"),
    ("Right-drag, wheel", "Pan and zoom the board"),
    ("Ctrl+Z / Ctrl+Shift+Z", "Undo / redo an edit"),
    ("Ctrl+S", "Save"),
    ("Drag with Select", "Grid: select a rectangle of cells"),
    ("Drag inside it", "Grid: move the selected cells"),
    (
        "Ctrl+click, Lasso tool",
        "Grid: add a cell to the selection or take it out; draw round cells",
    ),
    (
        "Use as stamp",
        "Grid: paint with every tile of the selection at once",
    ),
    ("Ctrl+C / Ctrl+X", "Grid: copy / cut the selected cells"),
    ("Ctrl+V", "Grid: paste at the cell under the pointer"),
    (
        "Delete",
        "Empty the selected cells; take a cell's tile off; delete a space or road",
    ),
    (
        "R / Shift+R",
        "Turn the brush, the selected tile or the selection",
    ),
    (
        "H / V",
        "Grid: flip the selection left to right / top to bottom",
    ),
    ("Shift+wheel", "Turn the brush while painting"),
    ("Fill tool", "Grid: the brush over joined cells alike"),
    (
        "Pick a tile tool",
        "Grid: take up a cell's tile as the brush",
    ),
    ("Ctrl+D", "Duplicate the selected space"),
    (
        "Shift+click",
        "Map: add a space to those picked, or take it out",
    ),
    (
        "Drag on the table",
        "Map: pick every space in the box (Shift: add them)",
    ),
    ("Drag a picked space", "Map: move every picked space"),
    ("Ctrl+A", "Map: pick every space"),
    (
        "Ctrl+C / Ctrl+X",
        "Map: copy / cut the picked spaces with the roads between them",
    ),
    ("Ctrl+V", "Map: paste them at the pointer, with new ids"),
    ("Escape", "Drop the selection"),
];

/// The keys pressed this frame that the editor answers.
#[derive(Default)]
struct Pressed {
    turn: bool,
    shift: bool,
    delete: bool,
    escape: bool,
    duplicate: bool,
    copy: bool,
    cut: bool,
    paste: bool,
    flip_across: bool,
    flip_down: bool,
    help: bool,
    all: bool,
}

fn pressed(i: &egui::InputState) -> Pressed {
    use egui::{Event, Key};
    let cmd = i.modifiers.command;
    let any = |f: fn(&Event) -> bool| i.events.iter().any(f);
    let paste = (cmd && i.key_pressed(Key::V)) || any(|e| matches!(e, Event::Paste(_)));
    Pressed {
        turn: i.key_pressed(Key::R),
        shift: i.modifiers.shift,
        delete: i.key_pressed(Key::Delete) || i.key_pressed(Key::Backspace),
        escape: i.key_pressed(Key::Escape),
        duplicate: cmd && i.key_pressed(Key::D),
        copy: (cmd && i.key_pressed(Key::C)) || any(|e| matches!(e, Event::Copy)),
        cut: (cmd && i.key_pressed(Key::X)) || any(|e| matches!(e, Event::Cut)),
        paste,
        flip_across: !cmd && i.key_pressed(Key::H),
        flip_down: !cmd && !paste && i.key_pressed(Key::V),
        help: i.key_pressed(Key::F1) || any(|e| matches!(e, Event::Text(t) if t == "?")),
        all: cmd && i.key_pressed(Key::A),
    }
}

impl BoardEditor {
    /// The keys (see [`KEYS`]), not while a text field has the keyboard.
    pub(super) fn keys(
        &mut self,
        ui: &egui::Ui,
        def: &GameDef,
        c: &Content,
        out: &mut Vec<Command>,
    ) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let k = ui.input(pressed);
        if k.escape && self.pick.take().is_some() {
            out.push(Command::Show(crate::studio::Tab::Data));
            return;
        }
        if k.help {
            self.help = !self.help;
        }
        if matches!(def.board, BoardDef::Graph(_) | BoardDef::Sections(_)) {
            self.space_keys(ui.ctx(), &k, def, out);
            return;
        }
        // A rectangle of several cells is what the keys act on, where one is selected.
        let many = self.area.as_ref().is_some_and(|a| a.count() > 1);
        if k.turn && many {
            self.turn_area(Turn::Quarter, def, c, out);
        } else if k.turn {
            self.turn(if k.shift { 3 } else { 1 }, def, out);
        }
        if k.flip_across && many {
            self.turn_area(Turn::FlipAcross, def, c, out);
        }
        if k.flip_down && many {
            self.turn_area(Turn::FlipDown, def, c, out);
        }
        if k.copy || k.cut {
            self.copy_area(ui.ctx(), c);
        }
        if k.cut {
            self.clear_area("Cut", out);
        }
        if k.paste {
            match self.hover_cell.or(self.area.as_ref().map(|a| (a.x0, a.y0))) {
                Some(at) => self.paste(at, def, c, out),
                None => self.message = Some("Point at the cell to paste at.".into()),
            }
        }
        if k.duplicate
            && let Some(Selection::Space { at, id }) = self.selection.clone()
        {
            self.duplicate_space(def, &at, &id, out);
        }
        if k.escape {
            self.selection = None;
            self.area = None;
        }
        if k.delete && many {
            self.clear_area("Delete", out);
            self.area = None;
        } else if k.delete
            && let Some(s) = self.selection.take()
            && let Some(e) = delete_edit(&s)
        {
            self.area = None;
            out.push(Command::Edit(e));
        }
    }

    /// The keys of a map or a sections board: they act on the picked spaces.
    fn space_keys(
        &mut self,
        ctx: &egui::Context,
        k: &Pressed,
        def: &GameDef,
        out: &mut Vec<Command>,
    ) {
        let picked = self.picked_spaces();
        if k.all {
            self.pick_all();
        }
        if (k.copy || k.cut) && !picked.is_empty() {
            self.copy_spaces(ctx, def);
        }
        if k.cut && !picked.is_empty() {
            self.delete_spaces("Cut", out);
        }
        if k.paste {
            self.paste_spaces(def, out);
        }
        if k.duplicate
            && let Some(Selection::Space { at, id }) = self.selection.clone()
        {
            self.duplicate_space(def, &at, &id, out);
        }
        if k.escape {
            self.selection = None;
            self.picked.clear();
        }
        if k.delete && picked.len() > 1 {
            self.delete_spaces("Delete", out);
        } else if k.delete
            && let Some(s) = self.selection.take()
            && let Some(e) = delete_edit(&s)
        {
            self.picked.clear();
            out.push(Command::Edit(e));
        }
    }

    /// The list of keys, over the board while `help` is on.
    pub(super) fn help_ui(&mut self, ctx: &egui::Context) {
        let mut open = self.help;
        egui::Window::new("Board editor keys")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ctx, |ui| {
                egui::Grid::new("board-keys")
                    .num_columns(2)
                    .spacing([16.0, 4.0])
                    .striped(true)
                    .show(ui, |ui| {
                        for (keys, what) in KEYS {
                            ui.strong(keys);
                            ui.label(what);
                            ui.end_row();
                        }
                    });
            });
        self.help = open;
    }
}
