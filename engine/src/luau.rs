//! How Luau source is compiled, shared by the loader (which compiles every script once, when
//! the mod loads) and the script host (whose VMs load that bytecode). Kept apart so that the
//! content model does not depend on the script host: `content` -> `luau` <- `script`, and
//! `script` -> `content`.

use std::sync::Arc;

/// Compiles Luau source to bytecode once, so that every game's VM loads it without parsing.
/// None when the source has a syntax error (the VM's own load then reports it).
pub fn compile(source: &str) -> Option<Arc<[u8]>> {
    compiler()
        .compile(source)
        .ok()
        .map(|b| Arc::from(b.into_boxed_slice()))
}

/// How every script is compiled. `setmetatable` is not treated as a builtin: the compiler would
/// otherwise call the library's own, past the guarded one the sandbox installs.
pub fn compiler() -> mlua::chunk::Compiler {
    mlua::chunk::Compiler::new().add_disabled_builtin("setmetatable")
}
