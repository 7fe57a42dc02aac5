//! The legal actions of the Play tab: grouped in a menu as the terminal groups them, in the order
//! they are drawn, and the spots on the board each one names (with the marks of the last move).

use crate::menu::{Entry, Menu, Target};
use crate::studio::board_view::{self, Spot};
use crate::studio::worker::{Offered, Snapshot};

/// The actions as the menu their `describe` paths make (the terminal's menu,
/// [`crate::menu::Menu`]): a collapsible group per part shared by several actions, headed
/// with how many actions it holds ("Drive (47)", inside it "with Clear Road (4 spaces)
/// (12)"), a group of one folded into its entry. Labels wrap to the panel's width. A click
/// counts only when `armed` (see [`Guard`]).
/// Returns the actions under the pointer (an action, or all of a group's); `keyed`, the
/// action chosen with the keys, is shown selected, its group open.
pub(super) fn actions_ui(
    ui: &mut egui::Ui,
    offered: &[Offered],
    act: &mut Option<String>,
    armed: bool,
    keyed: Option<usize>,
) -> Vec<usize> {
    let menu = menu_of(offered);
    let top = menu.entries(0);
    let groups_on_top = top
        .iter()
        .filter(|e| matches!(e.target, Target::Group(..)))
        .count();
    let mut pick = Pick {
        offered,
        act,
        armed,
        keyed,
        pointed: Vec::new(),
    };
    // Few groups open whatever their size; many groups over a long list start closed, so
    // the list stays short enough to see its end (Where's My Ride?'s five "Put" groups and
    // "Done" after them); otherwise a group starts open when it is small.
    let open = if groups_on_top <= 2 {
        Open::All
    } else if offered.len() > CROWDED {
        Open::None
    } else {
        Open::Small
    };
    menu_level(ui, &menu, &top, &[], open, &mut pick);
    pick.pointed
}

pub(super) fn menu_of(offered: &[Offered]) -> Menu {
    let paths: Vec<Vec<String>> = offered.iter().map(|o| o.path.clone()).collect();
    let actions: Vec<String> = offered.iter().map(|o| o.action.clone()).collect();
    Menu::new(&paths, &actions)
}

/// The actions of a menu group, in the order the list shows them.
pub(super) fn actions_in(menu: &Menu, group: usize, out: &mut Vec<usize>) {
    for e in menu.entries(group) {
        match e.target {
            Target::Action(i) => out.push(i),
            Target::Group(g, _) => actions_in(menu, g, out),
        }
    }
}

/// Every offered action, in the order the list shows them (the arrow keys follow it).
pub(super) fn visual_order(offered: &[Offered]) -> Vec<usize> {
    let mut out = Vec::new();
    actions_in(&menu_of(offered), 0, &mut out);
    out
}

/// Each seat's last move where it changed the board, for the board to mark in the seat's
/// colour.
pub(crate) fn move_marks(snap: &Snapshot) -> Vec<board_view::MoveMark> {
    snap.last_moves()
        .into_iter()
        .flatten()
        .filter(|m| !m.spaces.is_empty())
        .map(|m| board_view::MoveMark {
            color: board_view::seat_color(&snap.def, m.seat),
            what: format!(
                "{}'s last move: {}",
                snap.def.seat_name(m.seat as usize),
                legend_words(&m.label, 120)
            ),
            spaces: m.spaces,
        })
        .collect()
}

/// A move's words for the legend, on one line: whole when at most `max` characters. A whole
/// turn (its actions joined by "; ") that runs longer keeps its latest actions, after "… ",
/// since what was done last is what the board shows; a single action that is still too long
/// is cut after the last whole word that fits, with "…" (a byte count, as error messages
/// give, means nothing there).
fn legend_words(label: &str, max: usize) -> String {
    let line = crate::common::clean_line(label);
    if line.chars().count() <= max {
        return line.into_owned();
    }
    let parts: Vec<&str> = line.split("; ").collect();
    let mut kept = 0;
    let mut len = 2; // "… "
    for part in parts.iter().rev() {
        let add = part.chars().count() + if kept > 0 { 2 } else { 0 };
        if len + add > max {
            break;
        }
        len += add;
        kept += 1;
    }
    if kept > 0 {
        return format!("… {}", parts[parts.len() - kept..].join("; "));
    }
    let last = parts.last().copied().unwrap_or_default();
    let Some((end, _)) = last.char_indices().nth(max.saturating_sub(3)) else {
        return format!("… {last}");
    };
    let head = &last[..end];
    let head = match head.rfind(' ') {
        Some(i) if i > end / 2 => &head[..i],
        _ => head,
    };
    let head = head.trim_end_matches([' ', ';', ',']);
    if parts.len() > 1 {
        format!("… {head}…")
    } else {
        format!("{head}…")
    }
}

/// What a click in the action menu chooses from, and where the choice goes.
pub(super) struct Pick<'a> {
    offered: &'a [Offered],
    act: &'a mut Option<String>,
    armed: bool,
    keyed: Option<usize>,
    /// The actions under the pointer.
    pointed: Vec<usize>,
}

/// More actions than this, in more than two groups at the top of the list, and the groups
/// there start closed.
const CROWDED: usize = 8;

/// Which groups of a level of the action menu start open.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Open {
    /// Every group, whatever its size.
    All,
    /// Groups of at most 8 actions.
    Small,
    /// None (a group with the keyed action in it still opens).
    None,
}

/// One level of the action menu; `open`: which of its groups start open.
pub(super) fn menu_level(
    ui: &mut egui::Ui,
    menu: &Menu,
    entries: &[Entry],
    path: &[&str],
    open: Open,
    pick: &mut Pick,
) {
    for e in entries {
        match e.target {
            Target::Action(i) => {
                let Some(o) = pick.offered.get(i) else {
                    continue;
                };
                let chosen = pick.keyed == Some(i);
                let r = ui.add(egui::Button::new(&e.label).wrap().selected(chosen));
                if chosen {
                    r.scroll_to_me(None);
                }
                let r = if e.label == o.label {
                    r
                } else {
                    r.on_hover_text(&o.label)
                };
                if r.hovered() {
                    pick.pointed = vec![i];
                }
                if r.clicked() && pick.armed {
                    *pick.act = Some(o.action.clone());
                }
            }
            Target::Group(g, n) => {
                let mut here = path.to_vec();
                here.push(&e.label);
                let mut inside = Vec::new();
                actions_in(menu, g, &mut inside);
                let keyed_inside = pick.keyed.is_some_and(|k| inside.contains(&k));
                let header = egui::CollapsingHeader::new(wrapped(ui, format!("{} ({n})", e.label)))
                    .id_salt(("play-action-group", &here))
                    .default_open(match open {
                        Open::All => true,
                        Open::Small => n <= 8,
                        Open::None => false,
                    });
                let header = if keyed_inside {
                    header.open(Some(true))
                } else {
                    header
                };
                let r = header.show(ui, |ui| {
                    let inner = menu.entries(g);
                    menu_level(ui, menu, &inner, &here, Open::Small, pick);
                });
                if r.header_response.hovered() {
                    pick.pointed = inside;
                }
            }
        }
    }
}

/// A group's heading laid out to wrap within the panel (a collapsing header's own text never
/// wraps, and a long one would widen everything under it).
pub(super) fn wrapped(ui: &egui::Ui, text: String) -> egui::WidgetText {
    let width = (ui.available_width() - ui.spacing().indent - 8.0).max(60.0);
    egui::WidgetText::from(text)
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Wrap),
            width,
            egui::TextStyle::Button,
        )
        .into()
}

/// Every offered action's spots on the table, each with the action's label (for the board's
/// tooltips), and the spots a person may act on, in order without repeats side by side.
pub(super) fn offers_of(snap: &Snapshot) -> (Vec<(Spot, String)>, Vec<Spot>) {
    let offers: Vec<(Spot, String)> = snap
        .offered
        .iter()
        .zip(&snap.spots)
        .flat_map(|(o, spots)| spots.iter().map(|s| (*s, o.label.clone())))
        .collect();
    let mut actionable: Vec<Spot> = offers.iter().map(|(s, _)| *s).collect();
    actionable.dedup();
    (offers, actionable)
}

/// Where on the table an action belongs: every space it names (a space id, or a grid cell
/// as `x,y`) and every card it names that the viewer can see. An action naming none is only
/// in the list. The offered actions' spots are worked out once per snapshot
/// ([`Snapshot::spots`]); this is for any other action.
pub fn spots_of(action: &str, snap: &Snapshot) -> Vec<Spot> {
    let offer = Offered::new(action.to_string(), Vec::new(), &snap.board);
    crate::studio::worker::offer_spots(&offer, &snap.board, &snap.view, snap.viewer)
}

/// A place on the board with several actions, whose menu is open, and where on screen it was
/// clicked (the menu opens there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Picked {
    pub spot: Spot,
    pub at: egui::Pos2,
}

/// How far below and to the right of the click the menu of several actions opens: the place
/// clicked stays in sight, and the pointer is already next to the choices.
const MENU_OFFSET: egui::Vec2 = egui::vec2(14.0, 10.0);

/// A click on the board: the one action offered at the spot clicked, or, when several are, a
/// small menu of them beside the click (kept open in `picked` until one is chosen or it is
/// closed), never over the list of actions or the top bar. Returns the action chosen, if any;
/// nothing is chosen unless `armed`.
pub fn act_at_spot(
    ui: &egui::Ui,
    clicked: Option<Spot>,
    armed: bool,
    snap: &Snapshot,
    picked: &mut Option<Picked>,
) -> Option<String> {
    let mut act = None;
    let at = |spot: Spot| {
        snap.offered
            .iter()
            .zip(&snap.spots)
            .filter(move |(_, spots)| spots.contains(&spot))
            .map(|(o, _)| o)
    };
    if let Some(spot) = clicked.filter(|_| armed) {
        let here: Vec<&Offered> = at(spot).collect();
        if here.len() == 1 {
            act = here.first().map(|o| o.action.clone());
        } else if !here.is_empty() {
            let pointer = ui.ctx().input(|i| i.pointer.interact_pos());
            *picked = Some(Picked {
                spot,
                at: pointer.unwrap_or_else(|| ui.max_rect().center()),
            });
        }
    }
    // Several actions at one place: a small menu to choose among them, where it was clicked.
    if let Some(p) = *picked {
        let mut open = true;
        egui::Window::new("Actions here")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .pivot(egui::Align2::LEFT_TOP)
            .current_pos(p.at + MENU_OFFSET)
            .constrain(true)
            .show(ui.ctx(), |ui| {
                for o in at(p.spot) {
                    if ui.button(&o.label).clicked() && armed {
                        act = Some(o.action.clone());
                    }
                }
            });
        if !open || act.is_some() {
            *picked = None;
        }
    }
    act
}

#[cfg(test)]
mod tests {
    use super::legend_words;

    #[test]
    fn a_long_turn_keeps_its_latest_actions_for_the_legend() {
        let short = "Line up Red Racer at Starting Grid (card 1), left lane, front row";
        assert_eq!(legend_words(short, 120), short);
        let turn = format!("{short}; {short}; Chip: add a green die showing 5");
        let shown = legend_words(&turn, 120);
        assert!(shown.chars().count() <= 120, "{shown}");
        assert!(!shown.contains("bytes"), "{shown}");
        assert_eq!(
            shown,
            format!("… {short}; Chip: add a green die showing 5"),
            "the latest actions are kept whole"
        );
        // One action too long on its own is cut after a word.
        let long = "Drive through ".repeat(12);
        let shown = legend_words(&long, 60);
        assert!(shown.chars().count() <= 60, "{shown}");
        assert!(shown.ends_with("through…"), "cut inside a word: {shown}");
        // ...and after what came before it in the turn, both marked.
        let shown = legend_words(&format!("Draw a tile; {long}"), 60);
        assert!(
            shown.starts_with("… Drive") && shown.ends_with('…'),
            "{shown}"
        );
        assert!(shown.chars().count() <= 60, "{shown}");
        assert_eq!(legend_words("a\tb", 120), "a b");
    }
}
