// The steps of version 3 for `v3.rs`: low-level bodies (locations whose steps begin with a
// communication or a lock operation, or end in `invoke`), and what both kinds of bodies
// write: communications, calls, lock and channel operands, values and targets. Included
// after `v3.rs`.

impl Gen {
    /// Locations whose steps begin with a communication or lock operation as often as
    /// not; the required communications are the first steps of locations.
    fn low_level_body(&mut self, body: &Body, required: &[Part]) -> String {
        let mut out = String::new();
        let mut required: Vec<(usize, bool)> = required
            .iter()
            .filter_map(|part| match part {
                Part::Comm(c, send) => Some((*c, *send)),
                _ => None,
            })
            .collect();
        for location in &body.labels {
            out.push_str(&format!("    loc {location}:\n"));
            for _ in 0..1 + self.rng.below(2) {
                let forced = (!required.is_empty()).then(|| required.remove(0));
                let transform = self.transform_v3(body, forced);
                out.push_str(&format!("      {transform}\n"));
            }
        }
        for forced in required {
            let transform = self.transform_v3(body, Some(forced));
            out.push_str(&format!("      {transform}\n"));
        }
        out
    }

    /// A low-level transformation: its guard, a blocking action first (a communication,
    /// `lock`, `unwait`), actions, and a jump or an `invoke`.
    fn transform_v3(&mut self, body: &Body, forced: Option<(usize, bool)>) -> String {
        let scope = &body.scope;
        let guard = if self.rng.chance(50) {
            format!("when {} ", self.bool_expr(1, Some(scope), true))
        } else {
            String::new()
        };
        let mut actions = Vec::new();
        let mut rendezvous = false;
        let first = match forced {
            Some((c, send)) => Some((c, send)),
            None if self.rng.chance(40) && !self.v3().chans.is_empty() => {
                let c = { let n = self.v3().chans.len(); self.rng.below(n) };
                Some((c, self.rng.chance(50)))
            }
            None => None,
        };
        if let Some((c, send)) = first {
            rendezvous = self.v3().chans[c].buffer.is_none();
            actions.push(self.comm(body, c, send, "").trim().to_string());
        } else if !self.v3().locks.is_empty() && self.rng.chance(40) {
            let op = *self.rng.pick(&["lock", "lock", "unwait"]);
            actions.push(format!("{op}({});", self.lock_ref(scope)));
        }
        let mut notified = rendezvous;
        for _ in 0..self.rng.below(3) {
            if !self.v3().locks.is_empty() && self.rng.chance(25) {
                let op = *self.rng.pick(&["unlock", "wait", "notify", "notifyAll"]);
                if op == "notify" && notified {
                    continue;
                }
                notified |= op == "notify";
                actions.push(format!("{op}({});", self.lock_ref(scope)));
            } else if self.rng.chance(50) {
                actions.push(self.assignment_v3(scope));
            } else {
                actions.push(self.action(scope));
            }
        }
        let location = self.rng.pick(&body.labels).clone();
        let callable: Vec<Func> = self.v3().calls.clone();
        let body_text = actions.join(" ");
        if !rendezvous && !notified && !callable.is_empty() && self.rng.chance(25) {
            let call = self.call(scope, &callable);
            return format!("{guard}do {{ {body_text} }} invoke {call} goto {location};");
        }
        if self.rng.chance(8) {
            return format!("{guard}do {{ {body_text} }} return;");
        }
        // `exit` ends the instance (and, in a rendezvous, its own block only).
        if self.rng.chance(5) {
            return format!("{guard}do {{ {body_text} exit; }} goto {location};");
        }
        format!("{guard}do {{ {body_text} }} goto {location};")
    }

    /// `name(args)` or `x := name(args)` (without the `;`) for one of `callable`.
    fn call(&mut self, scope: &Scope, callable: &[Func]) -> String {
        let func = self.rng.pick(callable).clone();
        let args: Vec<String> = func
            .params
            .iter()
            .map(|ty| self.value(ty, scope))
            .collect();
        let call = format!("{}({})", func.name, args.join(", "));
        let Some(returns) = &func.returns else {
            return call;
        };
        if self.rng.chance(20) {
            return call;
        }
        match self.target(scope, returns.kind) {
            Some(target) => format!("{target} := {call}"),
            None => call,
        }
    }

    /// A value for a parameter or a field of type `ty`: half of them a constant of it,
    /// the others an expression that may leave it (a range error).
    fn value(&mut self, ty: &Scalar, scope: &Scope) -> String {
        if self.rng.chance(50) {
            self.constant(ty)
        } else {
            self.expr(ty, 1, Some(scope), true)
        }
    }

    /// A writable variable (or element) of `kind`, if there is one.
    fn target(&mut self, scope: &Scope, kind: Kind) -> Option<String> {
        let vars: Vec<Var> = self
            .writable(scope)
            .into_iter()
            .filter(|v| v.ty.kind == kind)
            .collect();
        if vars.is_empty() {
            return None;
        }
        let var = self.rng.pick(&vars).clone();
        Some(match var.len {
            Some(len) => format!("{}[{}]", var.name, self.index(len, Some(scope))),
            None => var.name,
        })
    }

    /// A lock, or an element of an array of locks.
    fn lock_ref(&mut self, scope: &Scope) -> String {
        let locks = self.v3().locks.clone();
        let (name, len) = self.rng.pick(&locks).clone();
        match len {
            Some(len) => format!("{name}[{}]", self.element(len, Some(scope))),
            None => name,
        }
    }

    /// A channel, or an element of an array of channels.
    fn chan_ref(&mut self, c: usize, scope: Option<&Scope>) -> String {
        let chan = self.v3().chans[c].clone();
        match chan.len {
            Some(len) => format!("{}[{}]", chan.name, self.element(len, scope)),
            None => chan.name,
        }
    }

    /// The index of a channel or lock: in bounds more often than an array's (which
    /// [`Gen::index`] writes a fifth of the time), so that communications happen.
    fn element(&mut self, len: i64, scope: Option<&Scope>) -> String {
        match self.rng.below(10) {
            0 => self.index(len, scope),
            1 | 2 if scope.is_some_and(|s| s.replicated) => "index".into(),
            _ => self.rng.range(0, len - 1).to_string(),
        }
    }

    /// An assignment, half of them of a constant of the variable's type (version 1's
    /// leave their ranges more often, and few steps would follow).
    fn assignment_v3(&mut self, scope: &Scope) -> String {
        if self.rng.chance(50) {
            return self.assignment(scope);
        }
        let vars = self.writable(scope);
        let var = self.rng.pick(&vars).clone();
        let target = match var.len {
            Some(len) => format!("{}[{}]", var.name, self.element(len, Some(scope))),
            None => var.name.clone(),
        };
        format!("{target} := {};", self.constant(&var.ty))
    }

    /// A send or a receive on channel `c`, as a statement.
    fn comm(&mut self, body: &Body, c: usize, send: bool, indent: &str) -> String {
        let scope = &body.scope;
        let chan = self.v3().chans[c].clone();
        let at = self.chan_ref(c, Some(scope));
        let parts: Vec<String> = chan
            .fields
            .iter()
            .map(|field| {
                if send {
                    self.value(field, scope)
                } else if self.rng.chance(20) {
                    "_".into()
                } else {
                    self.target(scope, field.kind).unwrap_or_else(|| "_".into())
                }
            })
            .collect();
        let op = if send { "!" } else { "?" };
        if parts.is_empty() {
            format!("{indent}{at}{op};\n")
        } else {
            format!("{indent}{at}{op}({});\n", parts.join(", "))
        }
    }
}
