//! Edits of a track board's pieces (`[track]`): name, lanes, rows, turn, gates and tags.

use farebox::content::raw::RawValue;
use toml_edit::{Item, Value};

use super::{TrackChange, board_rel, err, put_list};
use crate::edit::EditError;
use crate::edit::doc::Layer;
use crate::edit::history::Tx;
use crate::edit::tree::{ListMut, put_key, set_key};

/// Track: changes a track piece's shape.
pub(super) fn set_track_piece(
    tx: &mut Tx<'_>,
    base: &[Layer],
    id: &str,
    change: &TrackChange,
) -> Result<(), EditError> {
    let rel = board_rel(tx, base)?;
    let doc = tx.doc_mut(&rel)?;
    let Some(track) = doc.get_mut("track").and_then(Item::as_table_like_mut) else {
        return err("the board is not a track board");
    };
    let Some(mut pieces) = ListMut::at(track, "pieces") else {
        return err("the track has no pieces");
    };
    let Some(i) = pieces.find("id", id) else {
        return err(format!("no track piece `{id}`"));
    };
    let Some(p) = pieces.get_mut(i) else {
        return err(format!("no track piece `{id}`"));
    };
    match change {
        TrackChange::Name(n) => {
            let v = (!n.is_empty()).then(|| RawValue::String(n.clone()));
            put_key(p, "name", v.as_ref());
        }
        TrackChange::Lanes(n) => set_key(p, "lanes", Value::from(i64::from(*n))),
        TrackChange::Rows(n) => set_key(p, "rows", Value::from(i64::from(*n))),
        TrackChange::Turn(t) => {
            let v = (*t != 0).then_some(RawValue::Integer((*t).into()));
            put_key(p, "turn", v.as_ref());
        }
        TrackChange::Gates(gates) => {
            let v = (!gates.is_empty()).then(|| {
                RawValue::Array(
                    gates
                        .iter()
                        .map(|g| {
                            let mut t = RawValue::Table(Default::default());
                            if let RawValue::Table(m) = &mut t {
                                m.insert(
                                    "lanes".into(),
                                    RawValue::Array(
                                        g.lanes
                                            .iter()
                                            .map(|l| RawValue::Integer((*l).into()))
                                            .collect(),
                                    ),
                                );
                                m.insert("size".into(), RawValue::Integer(g.size.into()));
                            }
                            t
                        })
                        .collect(),
                )
            });
            put_key(p, "gates", v.as_ref());
        }
        TrackChange::Tags(t) => put_list(p, "tags", t),
    }
    Ok(())
}
