//! Taking the hooks a script returns, and calling a hook through its chain: plain hooks, then
//! the `before` and `after` wraps of house rules, each step's value passed to the next.

use super::*;

impl Host {
    /// Adds the hooks script `idx` returned to the chains: its plain hooks first (each
    /// replaces the chain so far), then its `before` and `after` hooks around them.
    pub(super) fn take_hooks(&mut self, idx: usize, table: Table) -> Result<(), ScriptError> {
        let mut plain = vec![];
        let mut wraps = vec![];
        for pair in table.pairs::<LuaValue, LuaValue>() {
            let (key, value) = pair.map_err(|e| self.error(e, "load"))?;
            let name = self.hook_key(idx, &key, "")?;
            if let Some(w) = WRAPS.iter().position(|k| *k == name) {
                let LuaValue::Table(inner) = value else {
                    return Err(self.load_error(
                        idx,
                        format!(
                            "`{name}` must be a table of hooks ({name} = {{ apply = function(game, seat, action) ... end }}), not {}",
                            returns::what(&value)
                        ),
                    ));
                };
                for pair in inner.pairs::<LuaValue, LuaValue>() {
                    let (key, value) = pair.map_err(|e| self.error(e, "load"))?;
                    let hook = self.hook_key(idx, &key, &format!("{name}."))?;
                    let h = self.hook_named(idx, &hook, &format!("{name}."))?;
                    let f = self.hook_function(idx, &format!("{name}.{hook}"), value)?;
                    wraps.push((w, h, f));
                }
            } else {
                let h = self.hook_named(idx, &name, "")?;
                plain.push((h, self.hook_function(idx, &name, value)?));
            }
        }
        for (h, func) in plain {
            self.hooks[h] = Chain {
                base: Some(Step { func, script: idx }),
                ..Chain::default()
            };
        }
        for (w, h, func) in wraps {
            let step = Step { func, script: idx };
            if w == 0 {
                self.hooks[h].befores.insert(0, step);
            } else {
                self.hooks[h].afters.push(step);
            }
        }
        Ok(())
    }

    /// The name a key of a script's table of hooks gives (within `prefix`, "before." say).
    pub(super) fn hook_key(
        &self,
        idx: usize,
        key: &LuaValue,
        prefix: &str,
    ) -> Result<String, ScriptError> {
        match key {
            LuaValue::String(s) => Ok(s.to_string_lossy()),
            other => Err(self.load_error(
                idx,
                format!(
                    "the table of hooks{} has a key that is {}; hooks are named by strings (apply = function(game, seat, action) ... end)",
                    if prefix.is_empty() {
                        String::new()
                    } else {
                        format!(" in `{}`", prefix.trim_end_matches('.'))
                    },
                    returns::what(other)
                ),
            )),
        }
    }

    /// The index of hook `name` in [`HOOKS`], or an error with a suggestion.
    pub(super) fn hook_named(
        &self,
        idx: usize,
        name: &str,
        prefix: &str,
    ) -> Result<usize, ScriptError> {
        hook_index(name).ok_or_else(|| {
            let mut known: Vec<&str> = HOOKS.iter().map(|(h, _)| *h).collect();
            if prefix.is_empty() {
                known.extend(WRAPS);
            }
            let hint = suggestion(name, known);
            self.load_error(idx, format!("unknown hook `{prefix}{name}`{hint}"))
        })
    }

    pub(super) fn hook_function(
        &self,
        idx: usize,
        name: &str,
        value: LuaValue,
    ) -> Result<Function, ScriptError> {
        match value {
            LuaValue::Function(f) => Ok(f),
            other => Err(self.load_error(
                idx,
                format!(
                    "hook `{name}` must be a function, not {}",
                    returns::what(&other)
                ),
            )),
        }
    }

    pub(super) fn load_error(&self, idx: usize, message: String) -> ScriptError {
        let s = &self.scripts[idx];
        ScriptError {
            mod_id: s.mod_id.clone(),
            file: s.display.clone(),
            line: 0,
            hook: "load".into(),
            message,
            ..ScriptError::default()
        }
    }

    pub fn has_hook(&self, name: &str) -> bool {
        hook_index(name).is_some_and(|i| !self.hooks[i].is_empty())
    }

    /// How hook `name` is carried out once every script has had its say, in call order: the
    /// `before`s (the latest script's first), the base hook, then the `after`s. Empty when no
    /// script gives the hook or the name is not a hook. This is where the Studio learns which
    /// mod defines a hook and which house rule changed it last.
    pub fn hook_chain(&self, name: &str) -> Vec<HookStep> {
        let Some(chain) = hook_index(name).and_then(|i| self.hooks.get(i)) else {
            return vec![];
        };
        let step = |part: HookPart, s: &Step| {
            let script = self.scripts.get(s.script);
            HookStep {
                part,
                mod_id: script.map(|d| d.mod_id.clone()).unwrap_or_default(),
                script: script.map(|d| d.path.clone()).unwrap_or_default(),
                order: s.script,
            }
        };
        let mut out: Vec<HookStep> = chain
            .befores
            .iter()
            .map(|s| step(HookPart::Before, s))
            .collect();
        out.extend(chain.base.iter().map(|s| step(HookPart::Base, s)));
        out.extend(chain.afters.iter().map(|s| step(HookPart::After, s)));
        out
    }

    /// Runs a hook's chain: `before`s until one returns a value (not nil or false), which then
    /// stands for everything it wraps; else the base hook. Each `after` that wraps what ran
    /// gets the result so far after the hook's own arguments, and what it returns (if not nil)
    /// becomes the result. On error, also says which script's step was running.
    pub(super) fn call_chain<R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        chain: &Chain,
        nargs: usize,
        ctx: CallCtx,
        (game, seat, action): (Table, Option<i64>, Option<mlua::LuaString>),
    ) -> (CallCtx, Result<R, (mlua::Error, usize)>) {
        let running = Cell::new(0usize);
        let producer = RefCell::new(None::<Step>);
        let run = || -> mlua::Result<R> {
            let mut args = MultiValue::new();
            args.push_back(LuaValue::Table(game.clone()));
            if nargs >= 1 {
                args.push_back(seat.into_lua(&self.lua)?);
            }
            if nargs >= 2 {
                args.push_back(action.into_lua(&self.lua)?);
            }
            let first = |m: MultiValue| m.into_iter().next().unwrap_or(LuaValue::Nil);
            let mut result = LuaValue::Nil;
            // Afters of scripts before this one were inside what returned early, and do not run.
            let mut outer_from = 0;
            let mut done = false;
            for step in &chain.befores {
                running.set(step.script);
                let v = first(step.func.call::<MultiValue>(args.clone())?);
                if !matches!(v, LuaValue::Nil | LuaValue::Boolean(false)) {
                    result = v;
                    outer_from = step.script;
                    *producer.borrow_mut() = Some(step.clone());
                    done = true;
                    break;
                }
            }
            if !done && let Some(base) = &chain.base {
                running.set(base.script);
                result = first(base.func.call::<MultiValue>(args.clone())?);
                *producer.borrow_mut() = Some(base.clone());
            }
            for step in chain.afters.iter().filter(|s| s.script >= outer_from) {
                running.set(step.script);
                let mut with = args.clone();
                with.push_back(result.clone());
                let v = first(step.func.call::<MultiValue>(with)?);
                if !v.is_nil() {
                    result = v;
                }
                *producer.borrow_mut() = Some(step.clone());
            }
            let mut out = MultiValue::new();
            out.push_back(result);
            R::from_lua_multi(out, &self.lua)
        };
        self.arm();
        let (ctx, r) = self.lend(ctx, run);
        self.disarm(name);
        let r = self.unless_stopped(r);
        let ctx = match ctx {
            Some(c) => c,
            None => unreachable_ctx(),
        };
        let producer = producer.into_inner();
        let r = r.map_err(|e| {
            // A value of the wrong type is the fault of the step that produced it.
            let at = match (&e, &producer) {
                (mlua::Error::FromLuaConversionError { .. }, Some(p)) => p.script,
                _ => running.get(),
            };
            (e, at)
        });
        *self.producer.borrow_mut() = producer;
        (ctx, r)
    }
}
