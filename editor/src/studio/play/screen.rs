//! One frame of a table on screen, the same for a game played here and a table online: the
//! keys that choose an action, the side panel ([`side_panel`], with what each adds through
//! [`Side`]), and the board with the offers on it, the spots of the action under the pointer
//! or chosen with the keys lit, and each seat's last move marked. What the frame drew is kept
//! for the next one (and for the tests, which ask where things were).

use egui::{Context, Key, Modifiers};

use super::Guard;
use super::actions::{Picked, act_at_spot, move_marks, offers_of, visual_order};
use super::side::{Side, in_side_panel, side_panel};
use super::table_ui;
use crate::studio::board_view::{Camera, Scene, Spot};
use crate::studio::worker::Snapshot;

pub(super) struct Screen {
    pub camera: Camera,
    /// A place on the board with several actions, whose menu is open.
    pub picked: Option<Picked>,
    /// Clicks on actions wait for the pointer to move after the actions change (see
    /// [`Guard`]).
    pub guard: Guard,
    /// The actions under the pointer in the list this frame (one, or a group's): their
    /// spots are lit on the board.
    pub pointed: Vec<usize>,
    /// The action chosen with the arrow keys (an index into the offered actions), and the
    /// step it was chosen at (a new step forgets it).
    pub keyed: Option<(usize, usize)>,
    /// The spaces the board wrote names for, last frame.
    pub named: Vec<(u32, String)>,
    /// Where the board wrote names beside spaces, where its legend was, and where the pieces'
    /// tokens were, last frame.
    pub written: (Vec<egui::Rect>, Option<egui::Rect>, Vec<egui::Rect>),
    /// The rings marking last moves round round spaces, last frame (space, centre, reach).
    pub rings: Vec<(u32, egui::Pos2, f32)>,
    /// The board's view, the board's extent in it and a track's gates, last frame.
    pub frame: (egui::Rect, egui::Rect, Vec<egui::Rect>),
    /// The spots lit last frame (of the action under the pointer or chosen with the keys).
    pub lit: Vec<Spot>,
}

impl Default for Screen {
    fn default() -> Screen {
        Screen {
            camera: Camera::default(),
            picked: None,
            guard: Guard::default(),
            pointed: Vec::new(),
            keyed: None,
            named: Vec::new(),
            written: (Vec::new(), None, Vec::new()),
            rings: Vec::new(),
            frame: (egui::Rect::NOTHING, egui::Rect::NOTHING, Vec::new()),
            lit: Vec::new(),
        }
    }
}

impl Screen {
    /// One frame of `snap` with `side`'s parts in the side panel `panel`, the board under
    /// `banner` if any; `live`: actions may be taken (false once a connection dropped). The
    /// action chosen this frame, if any.
    pub(super) fn show(
        &mut self,
        ui: &mut egui::Ui,
        snap: &Snapshot,
        side: &mut dyn Side,
        panel: &str,
        banner: Option<&str>,
        live: bool,
    ) -> Option<String> {
        let mut act: Option<String> = None;
        let armed = self.guard.update(ui.ctx(), snap) && live;
        if live {
            self.keys(ui.ctx(), snap, &mut act);
        }
        let keyed = self.keyed_index(snap);
        let mut pointed = Vec::new();
        in_side_panel(ui, panel, |ui| {
            pointed = side_panel(ui, side, snap, &mut act, armed, keyed);
        });
        self.pointed = pointed;
        let (offers, actionable) = offers_of(snap);
        let lit: Vec<Spot> = self
            .pointed
            .iter()
            .copied()
            .chain(keyed)
            .filter_map(|i| snap.spots.get(i))
            .flatten()
            .copied()
            .collect();
        let moved = move_marks(snap);
        let scene = Scene {
            def: &snap.def,
            board: &snap.board,
            view: &snap.view,
            actionable: &actionable,
            banner,
            lit: &lit,
            moved: &moved,
            offers: &offers,
        };
        let r = table_ui(ui, &mut self.camera, &scene);
        self.named = r.named.clone();
        self.written = (r.written.clone(), r.legend, r.tokens.clone());
        self.rings = r.rings.clone();
        self.frame = (
            r.view.unwrap_or(egui::Rect::NOTHING),
            r.board.unwrap_or(egui::Rect::NOTHING),
            r.marks.clone(),
        );
        self.lit = lit;
        if let Some(a) = act_at_spot(ui, r.clicked, armed, snap, &mut self.picked) {
            act = Some(a);
        }
        act
    }

    /// The action chosen with the keys in this very state, by index.
    pub(super) fn keyed_index(&self, snap: &Snapshot) -> Option<usize> {
        self.keyed
            .filter(|(_, at)| *at == snap.step())
            .map(|(i, _)| i)
    }

    /// Choosing an action from the keyboard (unless a text field has it): the arrow keys
    /// move through the actions in the order the list shows them, Enter takes the one
    /// chosen, Escape forgets it.
    fn keys(&mut self, ctx: &Context, snap: &Snapshot, act: &mut Option<String>) {
        if snap.offered.is_empty() || ctx.egui_wants_keyboard_input() {
            return;
        }
        let order = visual_order(&snap.offered);
        let at = self
            .keyed_index(snap)
            .and_then(|i| order.iter().position(|&o| o == i));
        let (down, up, enter, escape) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        let n = order.len();
        let next = match (down, up, at) {
            (true, _, None) => Some(0),
            (true, _, Some(k)) => Some((k + 1) % n),
            (_, true, None) => Some(n - 1),
            (_, true, Some(k)) => Some((k + n - 1) % n),
            _ => at,
        };
        self.keyed = next
            .and_then(|k| order.get(k))
            .map(|&i| (i, snap.step()))
            .filter(|_| !escape);
        if enter
            && let Some((i, _)) = self.keyed
            && let Some(o) = snap.offered.get(i)
        {
            *act = Some(o.action.clone());
            self.keyed = None;
        }
    }
}
