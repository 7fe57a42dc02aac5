//! A bot's `choose` as a coroutine: started, stopped at each `game.try` or `game.undo`,
//! resumed with the engine's answer, and charged the steps its tries took.

use super::*;

impl Host {
    /// The `choose` function of bot `i`, running its script first if it has not run yet.
    pub(super) fn bot(&self, i: usize) -> Result<Function, ScriptError> {
        if let Some(Some(f)) = self.bots.borrow().get(i) {
            return Ok(f.clone());
        }
        let b = &self.def.bots[i];
        let table = self.run_script(self.def.scripts.len() + i)?;
        match table.get::<Option<Function>>("choose").ok().flatten() {
            Some(f) => {
                if let Some(slot) = self.bots.borrow_mut().get_mut(i) {
                    *slot = Some(f.clone());
                }
                Ok(f)
            }
            None => Err(ScriptError {
                mod_id: b.script.mod_id.clone(),
                file: b.script.display.clone(),
                line: 0,
                hook: "load".into(),
                message: format!(
                    "bot `{}` must return a table with a `choose` function",
                    b.id
                ),
                ..ScriptError::default()
            }),
        }
    }

    /// Starts a bot's `choose` on `actions`, as a coroutine: it runs until it chooses (see
    /// [`BotStep::Chose`]) or stops to try an action or take one back; the engine then does
    /// that and calls [`Host::resume_bot`]. The step budget and time limit cover the bot's
    /// whole `choose`, not each stretch of it (see [`Host::budget`]).
    pub fn start_bot(
        &self,
        bot: &str,
        ctx: CallCtx,
        seat: u8,
        actions: &[String],
    ) -> (CallCtx, Result<BotStep, ScriptError>) {
        let hook = format!("bot {bot}");
        let Some(i) = self.def.bots.iter().position(|b| b.id == bot) else {
            let e = ScriptError {
                mod_id: self.def.id.clone(),
                file: self.def.id.clone(),
                line: 0,
                hook,
                message: format!("no bot `{bot}`"),
                ..ScriptError::default()
            };
            return (ctx, Err(e));
        };
        let script = self.def.scripts.len() + i;
        let func = match self.bot(i) {
            Ok(f) => f,
            Err(e) => return (ctx, Err(e)),
        };
        let kept = self.bot_threads.borrow().get(i).cloned().flatten();
        let thread = match kept {
            Some(t) if t.reset(func.clone()).is_ok() => Ok(t),
            _ => self.lua.create_thread(func),
        };
        if let (Ok(t), Some(slot)) = (&thread, self.bot_threads.borrow_mut().get_mut(i)) {
            *slot = Some(t.clone());
        }
        let made = thread.and_then(|thread| {
            let list = self
                .lua
                .create_sequence_from(actions.iter().map(|a| a.as_str()))?;
            Ok((thread, list))
        });
        let (thread, list) = match made {
            Ok(x) => x,
            Err(e) => return (ctx, Err(self.error(e, &hook))),
        };
        *self.bot_run.borrow_mut() = Some(BotRun {
            thread,
            script,
            hook,
            actions: actions.to_vec(),
        });
        self.arm();
        if self.profiling.get() {
            self.bot_started
                .set(Some((Instant::now(), api::calls_made())));
        }
        self.resume_with(ctx, (self.game.clone(), seat as i64 + 1, list))
    }

    /// Resumes the bot stopped at `game.try` or `game.undo`, which returns `reply` to it.
    pub fn resume_bot(&self, ctx: CallCtx, reply: bool) -> (CallCtx, Result<BotStep, ScriptError>) {
        self.resume_with(ctx, reply)
    }

    /// The step budget and deadline left to the running call: kept across a bot's `try`,
    /// whose rules calls arm their own (see [`Host::charge_tries`]).
    pub fn budget(&self) -> (u64, Option<Instant>) {
        (self.steps_left.get(), self.deadline.get())
    }

    /// Steps used by every call this VM has finished so far (a running total, for
    /// [`Host::charge_tries`]).
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Gives the running bot back its budget after a try, less the `used` steps the try's
    /// rules took: a bot's whole `choose`, its tries included, runs under one step budget,
    /// so how long it may think never depends on the machine.
    pub fn charge_tries(&self, (steps, deadline): (u64, Option<Instant>), used: u64, bot: &str) {
        self.deadline.set(deadline);
        if used >= steps {
            self.steps_left.set(0);
            *self.stopped.why.borrow_mut() = format!(
                "step budget exceeded: the bot `{bot}` and the rules its tries ran took more than {} steps in one choose; try fewer actions",
                self.limits.steps
            );
        } else {
            self.stopped.why.borrow_mut().clear();
            self.steps_left.set(steps - used);
        }
    }

    pub(super) fn resume_with(
        &self,
        ctx: CallCtx,
        args: impl mlua::IntoLuaMulti,
    ) -> (CallCtx, Result<BotStep, ScriptError>) {
        let Some((thread, script, hook)) = self
            .bot_run
            .borrow()
            .as_ref()
            .map(|r| (r.thread.clone(), r.script, r.hook.clone()))
        else {
            let e = ScriptError {
                mod_id: self.def.id.clone(),
                file: self.def.id.clone(),
                line: 0,
                hook: "bot".into(),
                message: "no bot is waiting to go on".into(),
                ..ScriptError::default()
            };
            return (ctx, Err(e));
        };
        let (ctx, r) = self.lend(ctx, || thread.resume::<mlua::MultiValue>(args));
        let r = self.unless_stopped(r);
        let ctx = match ctx {
            Some(c) => c,
            None => unreachable_ctx(),
        };
        let values = match r {
            Ok(v) => v,
            Err(e) => {
                self.end_bot();
                return (ctx, Err(self.error_in(e, &hook, Some(script))));
            }
        };
        if thread.status() == mlua::thread::ThreadStatus::Resumable {
            let mut it = values.into_iter();
            let mark = it
                .next()
                .and_then(|v| v.as_string().map(|s| s.to_string_lossy()));
            let step = match mark.as_deref() {
                Some(TRY_MARK) => {
                    let action = it
                        .next()
                        .and_then(|v| v.as_string().map(|s| s.to_string_lossy()))
                        .unwrap_or_default();
                    BotStep::Try(action)
                }
                Some(UNDO_MARK) => BotStep::Undo,
                _ => {
                    self.end_bot();
                    let s = &self.scripts[script];
                    let e = ScriptError {
                        mod_id: s.mod_id.clone(),
                        file: s.display.clone(),
                        line: 0,
                        hook,
                        message: "choose stopped without choosing".into(),
                        ..ScriptError::default()
                    };
                    return (ctx, Err(e));
                }
            };
            return (ctx, Ok(step));
        }
        let actions = self
            .bot_run
            .borrow()
            .as_ref()
            .map(|r| r.actions.clone())
            .unwrap_or_default();
        self.end_bot();
        let v = values.into_iter().next().unwrap_or(LuaValue::Nil);
        let idx = match &v {
            LuaValue::Integer(i) => Some(*i as usize),
            LuaValue::Number(n) if n.fract() == 0.0 => Some(*n as usize),
            LuaValue::String(s) => actions
                .iter()
                .position(|a| s.to_str().is_ok_and(|x| *x == **a))
                .map(|i| i + 1),
            _ => None,
        };
        let r = match idx {
            Some(i) if (1..=actions.len()).contains(&i) => Ok(BotStep::Chose(i - 1)),
            _ => {
                let s = &self.scripts[script];
                Err(ScriptError {
                    mod_id: s.mod_id.clone(),
                    file: s.display.clone(),
                    line: 0,
                    hook,
                    message: format!(
                        "choose must return an index 1..{} or one of the actions, not {}",
                        actions.len(),
                        returns::shown(&v)
                    ),
                    ..ScriptError::default()
                })
            }
        };
        (ctx, r)
    }

    /// Forgets the bot under way (its coroutine is dropped) and stops the clock; a kept
    /// profile counts its whole `choose` as one call.
    pub fn end_bot(&self) {
        let run = self.bot_run.borrow_mut().take();
        self.deadline.set(None);
        self.call_started.set(None);
        if let (Some(run), Some(started)) = (run, self.bot_started.take()) {
            self.record(&run.hook, started);
        }
    }
}
