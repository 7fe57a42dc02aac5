//! Content: the TOML model of a mod, and loading it into a checked [`GameDef`].
//!
//! [`raw`] mirrors the files; [`def`] is what they mean; [`load`] reads files and layers
//! dependencies; [`version`] checks the versions a manifest gives; [`resolve`] and
//! [`board_def`] check everything and build the definition.

pub mod board_def;
pub mod catalog;
pub mod def;
pub mod files;
pub mod load;
pub mod print_file;
pub mod raw;
pub mod resolve;
pub mod version;

use crate::diag::Diagnostics;
use crate::source::ModSource;
pub use crate::source::{ModResolver, NoDependencies};
pub use def::GameDef;
pub use version::ENGINE_VERSION;

/// Loads and validates a mod with its dependencies. Content only: scripts are compiled when a
/// game is made (see [`crate::check_mod`] for both at once).
pub fn load_mod(src: &dyn ModSource, deps: &dyn ModResolver) -> Result<GameDef, Diagnostics> {
    let mut reader = load::Reader::new(deps);
    let mut merged = load::Merged::default();
    reader.read_mod(src, &mut merged);
    let files = std::mem::take(&mut reader.files);
    let mut diags = std::mem::take(&mut reader.diags);
    let def = resolve::resolve(merged, &files, &mut diags);
    match def {
        Some(d) if diags.is_empty() => Ok(d),
        _ => Err(diags),
    }
}
