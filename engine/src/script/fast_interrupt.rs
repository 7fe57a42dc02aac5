//! The interrupt's fast path: the one module of the engine with unsafe code.
//!
//! Luau calls the VM's interrupt at every function call and loop back edge, about 200 times
//! per Curbside decision. mlua's interrupt procedure finds the closure through the state,
//! clones a reference-counted pointer to it and runs it inside its error-catching wrapper:
//! some 130 instructions before the closure counts one step. Most calls the closure does
//! nothing but count (it checks memory at every fourth step, the clock at every 1024th and
//! stops the call at zero), so this module puts a procedure of its own in front of mlua's:
//! it counts those steps itself, in the same counter, and hands every other call to mlua's
//! procedure unchanged. Given the VM's memory check ([`Memory`]), it also makes the check of
//! every fourth step itself when the check finds nothing to do (the VM well under its room
//! and under an eighth of the limit, where the closure reads no clock and keeps no line), and
//! hands the call on otherwise, so the closure makes the same check again and acts on it. The
//! steps counted, and where a limit stops a script, are exactly what they were; only the cost
//! changes.
//!
//! What the fast path reads for a VM (its step counter and memory check, an [`Entry`]) lives
//! in the VM's app data, so as long as the VM, and the VM's main state points at it through
//! Luau's per-thread user pointer (`lua_setthreaddata`, which neither Luau nor mlua use
//! otherwise): finding it costs two calls into the VM, where a per-thread list of armed VMs
//! searched by address cost some 35 instructions an interrupt, about 4% of a Curbside
//! decision. [`arm`] sets the pointer right after storing the entry, with no Lua running in
//! between; dropping the [`Armed`] clears it (when the VM still lives) before the entry goes,
//! so the pointer is never left pointing at a freed entry while the VM can run. A VM without
//! the pointer takes mlua's path, which is correct, only slower. A VM (`mlua::Lua`) cannot
//! move to another thread, so the entry's reference-counted cells are only read on the
//! thread that made them.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::ffi::c_int;
use std::rc::Rc;
use std::sync::OnceLock;

use mlua::{Lua, WeakLua, ffi};

type Proc = unsafe extern "C-unwind" fn(*mut ffi::lua_State, c_int);

/// mlua's interrupt procedure. It is one function for every VM (it finds each VM's closure
/// through the state), so it is kept once.
static SLOW: OnceLock<Proc> = OnceLock::new();

/// The memory check the closure makes at every fourth step, as the fast path repeats it: the
/// VM (held weakly, so the list never keeps a VM alive), the room it may fill (the limit less
/// what the game holds outside it) and the limit, whose eighth is where the closure starts
/// reading the clock at every check.
pub(super) struct Memory {
    pub lua: WeakLua,
    pub room: Rc<Cell<usize>>,
    pub limit: usize,
}

/// A VM's step counter, and its memory check if the fast path may make it.
struct Entry {
    steps: Rc<Cell<u64>>,
    memory: Option<Memory>,
}

/// The VM's app data holding its [`Entry`]: boxed, so the entry stays where the main state's
/// pointer says while the app data lives.
struct Slot(#[allow(dead_code)] Box<Entry>);

#[cfg(test)]
thread_local! {
    /// Steps the fast path counted on this thread, so tests see it at work.
    static FAST_STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Keeps a VM on the fast path; dropping it takes the VM off (when the VM still lives).
pub(super) struct Armed {
    lua: WeakLua,
}

impl Drop for Armed {
    fn drop(&mut self) {
        let Some(lua) = self.lua.try_upgrade() else {
            // The VM is gone, and with it the entry and the pointer.
            return;
        };
        let state = lua.exec_raw_lua(|raw| raw.state());
        // SAFETY: `state` belongs to `lua`, alive here; the pointer is cleared before the
        // entry it points at is dropped, and no Lua runs in between.
        unsafe { ffi::lua_setthreaddata(ffi::lua_mainthread(state), std::ptr::null_mut()) };
        let _ = lua.remove_app_data::<Slot>();
    }
}

/// Puts the fast path in front of the interrupt mlua's `set_interrupt` installed on `lua`,
/// counting down `steps` (the counter that interrupt's closure counts down) and, with
/// `memory`, making the closure's memory check where it finds nothing to do. Without an
/// interrupt set, or with one that is not mlua's, nothing changes and None comes back.
pub(super) fn arm(lua: &Lua, steps: Rc<Cell<u64>>, memory: Option<Memory>) -> Option<Armed> {
    let state = lua.exec_raw_lua(|raw| raw.state());
    // SAFETY: `state` belongs to `lua`, which is alive for this call; `lua_mainthread` only
    // reads it, and `lua_callbacks` returns the main state's callback block, which lives as
    // long as the VM. Nothing runs Lua while the block is read and written here (this
    // thread holds the VM, and a VM is not shared between threads).
    let main = unsafe {
        let main = ffi::lua_mainthread(state);
        let callbacks = ffi::lua_callbacks(main);
        let current: Proc = (*callbacks).interrupt?;
        let fast: Proc = fast;
        // Compared as addresses: the procedures are told apart by where they are.
        if current as usize != fast as usize {
            if *SLOW.get_or_init(|| current) as usize != current as usize {
                // Some other procedure than mlua's: leave it alone.
                return None;
            }
            (*callbacks).interrupt = Some(fast);
        }
        main
    };
    let entry = Box::new(Entry { steps, memory });
    let at: *const Entry = &*entry;
    // An entry stored before (a VM armed twice) is dropped here; the pointer is set to the
    // new one next, before any Lua runs.
    lua.set_app_data(Slot(entry));
    // SAFETY: `main` is the live main state of `lua`; `at` points into the box the VM's app
    // data now owns, which stays put until the app data is replaced (by `arm`, which sets the
    // pointer again) or removed (by `Armed::drop`, after clearing it) or the VM is closed.
    unsafe { ffi::lua_setthreaddata(main, at.cast_mut().cast()) };
    Some(Armed { lua: lua.weak() })
}

/// Counts a step when mlua's closure would only count it; otherwise runs mlua's procedure.
unsafe extern "C-unwind" fn fast(state: *mut ffi::lua_State, gc: c_int) {
    // gc >= 0 is a garbage-collection interrupt, which mlua's procedure ignores.
    if gc < 0 {
        // SAFETY: Luau passes the running thread's live state to its interrupt; the main
        // state's user pointer is null or points at the entry in the VM's app data (see
        // `arm`), alive while the VM runs.
        let counted = unsafe {
            let entry = ffi::lua_getthreaddata(ffi::lua_mainthread(state)).cast::<Entry>();
            !entry.is_null() && counts(&*entry)
        };
        if counted {
            return;
        }
    }
    if let Some(&slow) = SLOW.get() {
        // SAFETY: `slow` is mlua's interrupt procedure, read from a VM's callback block in
        // `arm`, valid for the whole program; it is called with the arguments Luau gave, as
        // Luau would have called it.
        unsafe { slow(state, gc) }
    }
}

/// The closure's own logic for one step of `e`'s VM where it would only count (no limit
/// reached, no clock due, the memory check finding nothing to do): counts the step and
/// says so; anything else is left to the closure, uncounted.
fn counts(e: &Entry) -> bool {
    let left = e.steps.get();

    if left == 0 || left.is_multiple_of(1024) {
        return false;
    }
    if left.is_multiple_of(4) {
        // The closure reads the same figures, in the same order, and acts only where one of
        // these two comparisons is true.
        let Some(m) = &e.memory else {
            return false;
        };
        let Some(lua) = m.lua.try_upgrade() else {
            return false;
        };
        let used = lua.used_memory();
        if used > m.room.get() || used > m.limit / 8 {
            return false;
        }
    }
    e.steps.set(left - 1);
    #[cfg(test)]
    FAST_STEPS.with(|n| n.set(n.get() + 1));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use mlua::VmState;

    /// A VM whose interrupt counts down `steps` the way the engine's does (a limit at 0, a
    /// check at every fourth step, noted in `checks`).
    fn vm(steps: &Rc<Cell<u64>>, checks: &Rc<Cell<u64>>) -> Lua {
        let lua = Lua::new();
        let (s, c) = (steps.clone(), checks.clone());
        lua.set_interrupt(move |_| {
            let left = s.get();
            if left == 0 {
                return Err(mlua::Error::RuntimeError("out of steps".into()));
            }
            s.set(left - 1);
            if left.is_multiple_of(4) {
                c.set(c.get() + 1);
            }
            Ok(VmState::Continue)
        });
        lua
    }

    const LOOP: &str = "local n = 0 for i = 1, 1000 do n += i end return n";

    #[test]
    fn the_fast_path_counts_exactly_the_steps_and_checks_of_mlua_s() {
        let run = |fast: bool, budget: u64| {
            let (steps, checks) = (Rc::new(Cell::new(budget)), Rc::new(Cell::new(0)));
            let lua = vm(&steps, &checks);
            let armed = fast.then(|| arm(&lua, steps.clone(), None).expect("armed"));
            let r = lua.load(LOOP).eval::<i64>().map_err(|e| e.to_string());
            drop(armed);
            (r, steps.get(), checks.get())
        };
        // Plenty of budget: the same sum, the same steps left, the same checks made.
        let slow = run(false, 100_000);
        assert_eq!(slow.0, Ok(500_500));
        let used = 100_000 - slow.1;
        assert!(used > 900, "the loop counted {used} steps");
        let before = FAST_STEPS.with(Cell::get);
        assert_eq!(run(true, 100_000), slow);
        // Every step counted at a value off the multiples of 4 went the fast way.
        let fast = FAST_STEPS.with(Cell::get) - before;
        let off = (100_000 - used + 1..=100_000)
            .filter(|l| l % 4 != 0)
            .count() as u64;
        assert_eq!(fast, off, "{fast} of {used} steps counted fast");
        // A budget that runs out mid-loop: stopped at the same step, with the same error.
        for budget in [1, 2, 3, 4, 5, 97, 500] {
            let (slow, fast) = (run(false, budget), run(true, budget));
            assert!(slow.0.is_err(), "budget {budget}");
            assert_eq!(fast, slow, "budget {budget}");
        }
    }

    #[test]
    fn a_disarmed_vm_takes_mlua_s_path_and_two_vms_keep_their_own_counts() {
        let (a_steps, a_checks) = (Rc::new(Cell::new(50_000)), Rc::new(Cell::new(0)));
        let (b_steps, b_checks) = (Rc::new(Cell::new(50_000)), Rc::new(Cell::new(0)));
        let a = vm(&a_steps, &a_checks);
        let b = vm(&b_steps, &b_checks);
        let _a_armed = arm(&a, a_steps.clone(), None).expect("armed");
        let b_armed = arm(&b, b_steps.clone(), None).expect("armed");
        a.load(LOOP).exec().unwrap();
        let used_a = 50_000 - a_steps.get();
        assert_eq!(b_steps.get(), 50_000, "running a counted in b");
        b.load(LOOP).exec().unwrap();
        assert_eq!(50_000 - b_steps.get(), used_a);
        // Taken out of the list, b still counts every step, through mlua's procedure.
        drop(b_armed);
        b_steps.set(50_000);
        b.load(LOOP).exec().unwrap();
        assert_eq!(50_000 - b_steps.get(), used_a);
        assert_eq!(b_checks.get(), 2 * a_checks.get());
    }

    /// A VM whose interrupt makes the engine's memory check: at every fourth step, an error
    /// past `room`, and past an eighth of `limit` a note in `acted` (where the engine reads
    /// the clock); at every 1024th step a note in `clocks`.
    fn vm_with_memory(
        steps: &Rc<Cell<u64>>,
        room: &Rc<Cell<usize>>,
        limit: usize,
        acted: &Rc<Cell<u64>>,
        clocks: &Rc<Cell<u64>>,
    ) -> Lua {
        let lua = Lua::new();
        let (s, r, a, c) = (steps.clone(), room.clone(), acted.clone(), clocks.clone());
        lua.set_interrupt(move |lua| {
            let left = s.get();
            if left == 0 {
                return Err(mlua::Error::RuntimeError("out of steps".into()));
            }
            s.set(left - 1);
            if left.is_multiple_of(4) {
                let used = lua.used_memory();
                if used > r.get() {
                    return Err(mlua::Error::RuntimeError(format!(
                        "out of memory at {left}"
                    )));
                }
                if used > limit / 8 {
                    a.set(a.get() + 1);
                }
            }
            if left.is_multiple_of(1024) {
                c.set(c.get() + 1);
            }
            Ok(VmState::Continue)
        });
        lua
    }

    #[test]
    fn the_fast_memory_check_stops_and_acts_where_mlua_s_path_does() {
        // Builds a list of tables: memory grows step by step.
        const GROW: &str = "local t = {} for i = 1, 20000 do t[i] = { i, i + 1 } end return #t";
        let run = |fast: bool, budget: u64, room_over: Option<usize>, limit: usize| {
            let steps = Rc::new(Cell::new(1_000));
            let room = Rc::new(Cell::new(usize::MAX));
            let (acted, clocks) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
            let lua = vm_with_memory(&steps, &room, limit, &acted, &clocks);
            // mlua's path allocates what it keeps for errors at its first call: done here,
            // so that both runs start from the same memory.
            lua.load("local n = 0 for i = 1, 10 do n += i end")
                .exec()
                .unwrap();
            steps.set(budget);
            if let Some(more) = room_over {
                room.set(lua.used_memory() + more);
            }
            let armed = fast.then(|| {
                let memory = Memory {
                    lua: lua.weak(),
                    room: room.clone(),
                    limit,
                };
                arm(&lua, steps.clone(), Some(memory)).expect("armed")
            });
            let before = FAST_STEPS.with(Cell::get);
            let r = lua.load(GROW).eval::<i64>().map_err(|e| e.to_string());
            let fast_steps = FAST_STEPS.with(Cell::get) - before;
            drop(armed);
            ((r, steps.get(), acted.get(), clocks.get()), fast_steps)
        };
        // Far from any limit: the same run, and every step but the clock's counted fast.
        let (slow, _) = run(false, 1_000_000, None, usize::MAX);
        assert_eq!(slow.0, Ok(20_000));
        let used = 1_000_000 - slow.1;
        assert!(used > 20_000, "the loop counted {used} steps");
        assert!(slow.3 > 10, "{} clock checks", slow.3);
        let (fast, fast_steps) = run(true, 1_000_000, None, usize::MAX);
        assert_eq!(fast, slow);
        assert_eq!(fast_steps, used - slow.3);
        // Past an eighth of the limit the closure acts at every check: so it does here too.
        // (an eighth a little over what a new VM holds, which the loop passes half way)
        let limit = 8 * (Lua::new().used_memory() + 300_000);
        let (slow, _) = run(false, 1_000_000, None, limit);
        assert!(slow.2 > 100, "acted {} times", slow.2);
        assert_eq!(run(true, 1_000_000, None, limit).0, slow);
        // The room runs out mid-loop: stopped at the same step with the same error.
        for more in [0, 1_000, 50_000, 300_000] {
            let (slow, _) = run(false, 1_000_000, Some(more), usize::MAX);
            assert!(
                slow.0.as_ref().is_err_and(|e| e.contains("out of memory")),
                "{more}: {slow:?}"
            );
            assert_eq!(
                run(true, 1_000_000, Some(more), usize::MAX).0,
                slow,
                "{more}"
            );
        }
        // And the step budget running out is unchanged.
        for budget in [1, 4, 1024, 1025, 5_000] {
            let (slow, _) = run(false, budget, None, usize::MAX);
            assert!(slow.0.is_err(), "budget {budget}");
            assert_eq!(
                run(true, budget, None, usize::MAX).0,
                slow,
                "budget {budget}"
            );
        }
    }
}
