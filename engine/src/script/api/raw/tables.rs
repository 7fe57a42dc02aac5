//! The grid layers' tables filled through the C API (the `raw` module's safety rules hold
//! here too; this part uses nothing of the board's, so the board may use it).

use mlua::{Lua, Table, ffi};

use super::super::{R, err};

/// The two tables of a grid layer, `ids` (cell -> tile id) and `turns` (cell -> quarter
/// turns), for a grid of `n` cells: each `(cell, tile, turns)` of `cells`, cell and tile
/// counted from 1, sets `ids[cell]` to `names[tile]` and `turns[cell]` to its turns. Through
/// mlua each set cost some 800 instructions (references pushed, a protected call); here a
/// few dozen.
///
/// Both tables are made with room for `n` entries in their array part, and every cell is
/// checked to lie in 1..=n and every tile in 1..=#names before anything is set, so no set
/// allocates (and none can raise an error in a Rust frame); `names` is read with
/// `lua_rawgeti`, which never raises either. The stack is checked for room and put back as
/// it was.
pub(in crate::script::api) fn layer_tables(
    lua: &Lua,
    names: &Table,
    n: usize,
    cells: &[(i32, i32, i32)],
) -> R<(Table, Table)> {
    let known = names.raw_len();
    if cells
        .iter()
        .any(|&(cell, tile, _)| cell < 1 || cell as usize > n || tile < 1 || tile as usize > known)
    {
        return err("a grid layer names a cell or tile that is not there");
    }
    let ids = lua.create_table_with_capacity(n, 0)?;
    let turns = lua.create_table_with_capacity(n, 0)?;
    lua.exec_raw_lua(|raw| {
        let state = raw.state();
        // SAFETY: `state` is the VM's running state, on this thread; the three pushes use
        // the room checked for, and the stack goes back to `top` on every path. Each
        // `lua_rawgeti` pushes one value and each `lua_rawseti` pops one into a slot of the
        // array part made above (checked: 1..=n), so neither allocates nor raises.
        unsafe {
            if ffi::lua_checkstack(state, 5) == 0 {
                return err("the Luau stack is full");
            }
            let top = ffi::lua_gettop(state);
            let pushed = raw
                .push(&ids)
                .and_then(|()| raw.push(&turns))
                .and_then(|()| raw.push(names));
            if pushed.is_ok() {
                let (ids_at, turns_at, names_at) = (top + 1, top + 2, top + 3);
                for &(cell, tile, turn) in cells {
                    ffi::lua_rawgeti_(state, names_at, tile);
                    ffi::lua_rawseti_(state, ids_at, cell);
                    ffi::lua_pushnumber(state, f64::from(turn));
                    ffi::lua_rawseti_(state, turns_at, cell);
                }
            }
            ffi::lua_settop(state, top);
            pushed
        }
    })?;
    Ok((ids, turns))
}
