//! `farebox new`: the command line of [`crate::scaffold`] (which the Studio's "New" uses
//! too): start a mod in a folder and say what was written.

use std::path::PathBuf;

use crate::cli::NewArgs;
use crate::common::{Fail, Io, shown_path};
use crate::scaffold::create;

pub fn run(args: NewArgs, io: &mut Io) -> Result<i32, Fail> {
    let dir = args.dir.unwrap_or_else(|| PathBuf::from("."));
    let (folder, files) = create(&args.name, args.from.as_deref(), &dir)?;
    for rel in &files {
        io.say(shown_path(&folder.join(rel)));
    }
    let shown = shown_path(&folder);
    io.note(format!(
        "created {shown}. Next: `farebox validate {shown}`, `farebox play {shown}`; the mod guide is mods/README.md"
    ));
    Ok(0)
}
