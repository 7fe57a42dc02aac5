//! How the "Decks & tables" tab writes a value in a cell, and where an item comes from: the
//! text both the card and row sheets (`sheets`) and the other lists (`items`) show.

use farebox::content::raw::RawValue;

use crate::edit::Origin;

/// Where an item comes from: its mod, and the one that changed it last.
pub(crate) fn origin_text(o: &Origin) -> String {
    if o.defined_by == o.changed_by {
        format!("from {} ({})", o.defined_by, o.file)
    } else {
        format!(
            "defined by {}, changed by {} ({})",
            o.defined_by, o.changed_by, o.file
        )
    }
}

/// A value as a cell shows it: strings without quotes.
pub(crate) fn show(v: &RawValue) -> String {
    match v {
        RawValue::String(s) => s.clone(),
        other => other.to_string(),
    }
}
