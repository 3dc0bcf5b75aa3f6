// The statements of version 3's high-level bodies for `v3.rs`, and the expressions that
// version 3 adds (`len`, `empty`, `full`, the lock built-ins). Included after
// `v3.rs`.

impl Gen {
    /// `count` statements at `indent`, the last one a jump now and then (a jump is never
    /// followed by a statement it would skip).
    fn stmts(&mut self, body: &Body, count: usize, depth: usize, indent: &str) -> String {
        let mut out = String::new();
        for n in 0..count {
            if n + 1 == count && n > 0 && self.rng.chance(12) {
                out.push_str(&self.jump(body, indent));
            } else {
                out.push_str(&self.stmt(body, depth, indent));
            }
        }
        out
    }

    /// `goto` a label, `return` (with a value in a function that returns one).
    fn jump(&mut self, body: &Body, indent: &str) -> String {
        match &body.returns {
            Some(Some(ty)) => {
                let value = self.expr(&ty.clone(), 1, Some(&body.scope), true);
                format!("{indent}return {value};\n")
            }
            Some(None) => format!("{indent}return;\n"),
            None if !body.labels.is_empty() && self.rng.chance(85) => {
                format!("{indent}goto {};\n", self.rng.pick(&body.labels))
            }
            None => format!("{indent}return;\n"),
        }
    }

    /// One statement (a monitor section is several), nesting blocks `depth` deep at most.
    fn stmt(&mut self, body: &Body, depth: usize, indent: &str) -> String {
        let scope = &body.scope;
        let inner = format!("{indent}  ");
        let has_chans = !self.v3().chans.is_empty();
        let has_locks = !self.v3().locks.is_empty();
        let calls = self.v3().calls.clone();
        match self.rng.below(100) {
            25..=44 if has_chans => {
                let c = { let n = self.v3().chans.len(); self.rng.below(n) };
                let send = self.rng.chance(50);
                self.comm(body, c, send, indent)
            }
            45..=49 if has_locks => {
                let op = *self.rng.pick(&["lock", "unlock", "wait", "notify", "notifyAll"]);
                format!("{indent}{op}({});\n", self.lock_ref(scope))
            }
            50..=54 if has_locks => self.monitor(body, indent),
            55..=62 if !calls.is_empty() => format!("{indent}{};\n", self.call(scope, &calls)),
            63..=70 if depth > 0 => {
                let mut out = format!("{indent}if {} do\n", self.bool_expr(1, Some(scope), true));
                let count = 1 + self.rng.below(2);
                out.push_str(&self.stmts(body, count, depth - 1, &inner));
                if self.rng.chance(30) {
                    let cond = self.bool_expr(1, Some(scope), true);
                    out.push_str(&format!("{indent}elseif {cond} do\n"));
                    out.push_str(&self.stmts(body, 1, depth - 1, &inner));
                }
                if self.rng.chance(50) {
                    out.push_str(&format!("{indent}else do\n"));
                    let count = self.rng.below(2);
                    out.push_str(&self.stmts(body, count, depth - 1, &inner));
                }
                out.push_str(&format!("{indent}end\n"));
                out
            }
            71..=75 if depth > 0 => {
                let cond = self.bool_expr(1, Some(scope), true);
                let count = 1 + self.rng.below(2);
                let stmts = self.stmts(body, count, depth - 1, &inner);
                format!("{indent}while {cond} do\n{stmts}{indent}end\n")
            }
            76..=82 if depth > 0 => {
                let mut out = format!("{indent}choose\n");
                for _ in 0..1 + self.rng.below(2) {
                    let cond = self.bool_expr(1, Some(scope), true);
                    out.push_str(&format!("{indent}when {cond} do\n"));
                    let count = 1 + self.rng.below(2);
                    out.push_str(&self.stmts(body, count, depth - 1, &inner));
                }
                if self.rng.chance(40) {
                    out.push_str(&format!("{indent}else do\n"));
                    out.push_str(&self.stmts(body, 1, depth - 1, &inner));
                }
                out.push_str(&format!("{indent}end\n"));
                out
            }
            83..=89 => self.atomic(body, indent),
            90..=93 => format!(
                "{indent}assert({});\n",
                self.bool_expr(1, Some(scope), true)
            ),
            94..=95 => format!(
                "{indent}assume({});\n",
                self.bool_expr(1, Some(scope), true)
            ),
            96 => format!("{indent}skip;\n"),
            97 | 98 if body.returns.is_none() => match self.action(scope) {
                action if action.starts_with("start") => format!("{indent}{action}\n"),
                _ => format!("{indent}skip;\n"),
            },
            // In a function, `exit` pops every frame and ends the instance.
            99 => format!("{indent}exit;\n"),
            _ => format!("{indent}{}\n", self.assignment_v3(scope)),
        }
    }

    /// A monitor section on one lock: `lock`, a guarded wait, a write, a notification,
    /// `unlock`; five statements.
    fn monitor(&mut self, body: &Body, indent: &str) -> String {
        let scope = &body.scope;
        let lock = self.lock_ref(scope);
        let mut out = format!("{indent}lock({lock});\n");
        if self.rng.chance(70) {
            let cond = self.bool_expr(1, Some(scope), true);
            out.push_str(&format!("{indent}while {cond} do\n{indent}  wait({lock});\n{indent}end\n"));
        }
        out.push_str(&format!("{indent}{}\n", self.assignment_v3(scope)));
        let notify = *self.rng.pick(&["notify", "notifyAll"]);
        out.push_str(&format!("{indent}{notify}({lock});\n{indent}unlock({lock});\n"));
        out
    }

    /// One side of lock `l`'s monitor (see [`Part::Monitor`]), mostly as Java writes it;
    /// now and then with `if` for `while`, the write inside an `atomic` with the `lock`,
    /// or `notifyAll`.
    fn monitor_part(&mut self, body: &Body, l: usize, producer: bool, indent: &str) -> String {
        let lock = {
            let (name, len) = self.v3().locks[l].clone();
            match len {
                Some(len) => format!("{name}[{}]", self.element(len, Some(&body.scope))),
                None => name,
            }
        };
        let (full, step) = if producer { (2, "+") } else { (0, "-") };
        let wait = if self.rng.chance(85) { "while" } else { "if" };
        let notify = if self.rng.chance(60) { "notify" } else { "notifyAll" };
        let mut out = format!("{indent}lock({lock});\n");
        out.push_str(&format!(
            "{indent}{wait} k{l} == {full} do\n{indent}  wait({lock});\n{indent}end\n"
        ));
        if self.rng.chance(20) {
            let extra = self.assignment_v3(&body.scope);
            out.push_str(&format!("{indent}atomic k{l} := k{l} {step} 1; {extra} end\n"));
        } else {
            out.push_str(&format!("{indent}k{l} := k{l} {step} 1;\n"));
        }
        out.push_str(&format!("{indent}{notify}({lock});\n{indent}unlock({lock});\n"));
        out
    }

    /// `atomic .. end`: a blocking action first now and then (a communication or `lock`),
    /// then actions, `if`s and `choose`s of actions; at most one `notify`, none after a
    /// rendezvous.
    fn atomic(&mut self, body: &Body, indent: &str) -> String {
        let scope = &body.scope;
        let inner = format!("{indent}  ");
        let mut out = format!("{indent}atomic\n");
        let mut notified = false;
        if !self.v3().chans.is_empty() && self.rng.chance(40) {
            let c = { let n = self.v3().chans.len(); self.rng.below(n) };
            notified = self.v3().chans[c].buffer.is_none();
            let send = self.rng.chance(50);
            out.push_str(&self.comm(body, c, send, &inner));
        } else if !self.v3().locks.is_empty() && self.rng.chance(40) {
            out.push_str(&format!("{inner}lock({});\n", self.lock_ref(scope)));
        }
        for _ in 0..1 + self.rng.below(3) {
            match self.rng.below(10) {
                0 => {
                    let cond = self.bool_expr(1, Some(scope), true);
                    let then = self.atomic_action(scope, &mut notified);
                    out.push_str(&format!("{inner}if {cond} do {then}"));
                    if self.rng.chance(50) {
                        let otherwise = self.atomic_action(scope, &mut notified);
                        out.push_str(&format!(" else do {otherwise}"));
                    }
                    out.push_str(" end\n");
                }
                1 => {
                    let (a, b) = (
                        self.bool_expr(1, Some(scope), true),
                        self.bool_expr(1, Some(scope), true),
                    );
                    let (x, y) = (
                        self.atomic_action(scope, &mut notified),
                        self.atomic_action(scope, &mut notified),
                    );
                    out.push_str(&format!("{inner}choose when {a} do {x} when {b} do {y} end\n"));
                }
                _ => {
                    let action = self.atomic_action(scope, &mut notified);
                    out.push_str(&format!("{inner}{action}\n"));
                }
            }
        }
        out.push_str(&format!("{indent}end\n"));
        out
    }

    /// An action of an `atomic` block; `notified` once a `notify` (or a rendezvous) is in.
    fn atomic_action(&mut self, scope: &Scope, notified: &mut bool) -> String {
        if self.rng.chance(3) {
            return "exit;".into();
        }
        match self.rng.below(10) {
            0 => format!("assert({});", self.bool_expr(1, Some(scope), true)),
            1 => format!("assume({});", self.bool_expr(1, Some(scope), true)),
            2 => "skip;".into(),
            3 | 4 if !self.v3().locks.is_empty() => {
                let op = *self.rng.pick(&["unlock", "notify", "notifyAll"]);
                if op == "notify" && *notified {
                    return "skip;".into();
                }
                *notified |= op == "notify";
                format!("{op}({});", self.lock_ref(scope))
            }
            _ => self.assignment_v3(scope),
        }
    }

    /// An int leaf of version 3: `len(c)`; `None` where there is none.
    fn v3_int_leaf(&mut self, scope: Option<&Scope>) -> Option<String> {
        let v3 = self.v3.clone()?;
        if self.rng.chance(50) && !v3.chans.is_empty() {
            let c = self.rng.below(v3.chans.len());
            return Some(format!("len({})", self.chan_ref(c, scope)));
        }
        None
    }

    /// A boolean leaf of version 3: `empty(c)`, `full(c)`, a lock built-in (in a body's
    /// scope only); `None` where there is none.
    fn v3_bool_leaf(&mut self, scope: Option<&Scope>) -> Option<String> {
        let v3 = self.v3.clone()?;
        let instance = scope.is_some_and(|s| s.instance);
        match self.rng.below(3) {
            0 if !v3.chans.is_empty() => {
                let c = self.rng.below(v3.chans.len());
                let builtin = *self.rng.pick(&["empty", "full"]);
                Some(format!("{builtin}({})", self.chan_ref(c, scope)))
            }
            1 if instance && !v3.locks.is_empty() => {
                let builtin = *self.rng.pick(&["hasLock", "lockAvailable", "wasNotified"]);
                let (name, len) = self.rng.pick(&v3.locks).clone();
                let lock = match len {
                    Some(len) => format!("{name}[{}]", self.element(len, scope)),
                    None => name,
                };
                Some(format!("{builtin}({lock})"))
            }
            _ => None,
        }
    }
}
