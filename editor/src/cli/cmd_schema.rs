//! `farebox schema`: write the JSON Schemas and Luau stubs.

use crate::cli::SchemaArgs;
use crate::common::{Fail, Io, schemas_dir, shown_path};

pub fn run(args: SchemaArgs, io: &mut Io) -> Result<i32, Fail> {
    let dir = args.out.unwrap_or_else(schemas_dir);
    std::fs::create_dir_all(&dir)
        .map_err(|e| Fail::Usage(format!("cannot create {}: {e}", shown_path(&dir))))?;
    let files = farebox::schema::write_all(&dir)
        .map_err(|e| Fail::Invalid(format!("writing schemas to {}: {e}", shown_path(&dir))))?;
    for f in &files {
        io.say(shown_path(f));
    }
    io.note(format!(
        "{} {} written to {}",
        files.len(),
        crate::common::plural(files.len(), "file"),
        shown_path(&dir)
    ));
    Ok(0)
}
