// Random models of LANGUAGE.md's version 3, one in four of `generate`'s (chosen by the
// seed alone, so that the other seeds give the version-1 models they always gave): buffered
// channels (sends and receives under guards, `len`, `empty`, `full`), rendezvous channels
// with and without fields and arrays of channels (every rendezvous channel has a sender and
// a receiver in two threads, or in two instances of one), locks (`lock`/`unlock`, `wait`,
// `notify`, `notifyAll`, monitor sections, `hasLock`, `lockAvailable`, `wasNotified`),
// functions with and without results (calls in high-level bodies, `invoke` in low-level
// ones), one recursive function with a bound (a stack error past it), and high-level bodies (`if`/`elseif`/`else`, `while`, `choose` with and
// without `else`, `atomic`, labels, `goto`, `skip`, `return`, `exit`); some threads keep
// version 1's locations, whose steps begin with a communication or a lock operation. Faults
// stay as likely as in version 1: indices out of bounds, wrong lock owners, values outside
// a field's type, stack overflows. Included after `generate.rs`, whose expressions it uses.

/// A channel (or array of channels) as statements see it.
#[derive(Clone, Debug)]
struct Chan {
    name: String,
    fields: Vec<Scalar>,
    /// `buffer k`; `None` for a rendezvous channel.
    buffer: Option<i64>,
    /// The length of an array of channels.
    len: Option<i64>,
}

/// A `function` as callers see it.
#[derive(Clone, Debug)]
struct Func {
    name: String,
    params: Vec<Scalar>,
    returns: Option<Scalar>,
}

/// The version-3 declarations of a model, and what the body being written may use.
#[derive(Clone, Debug, Default)]
struct V3 {
    chans: Vec<Chan>,
    /// Locks: name and array length.
    locks: Vec<(String, Option<i64>)>,
    /// The `function`s the body being written may call.
    calls: Vec<Func>,
    /// What each thread's main loop must hold (thread, part): a sender and a receiver for
    /// every rendezvous channel and some buffered ones, the two sides of monitors, calls.
    required: Vec<(usize, Part)>,
}

/// A part of a protocol that a thread's main loop holds, so that the constructs of
/// version 3 meet their partners often (random statements alone seldom do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// A send (`true`) or receive on a channel.
    Comm(usize, bool),
    /// A monitor section on lock `l`, guarding its counter `k{l}` (`int (0, 2)`): the
    /// producer (`true`) waits while it is 2 and increments it, the consumer waits while it
    /// is 0 and decrements it; each notifies.
    Monitor(usize, bool),
    /// A call of a function.
    Call,
}

/// What a body being written may jump to.
struct Body {
    scope: Scope,
    /// Labels of the body that `goto` may name.
    labels: Vec<String>,
    /// In a function: its result type (`Some(None)` without one).
    returns: Option<Option<Scalar>>,
}

/// Whether `generate(_, seed)` writes a version-3 model: one seed in four, drawn from a
/// stream of its own.
fn uses_version_3(seed: u64) -> bool {
    Rng::new(seed.rotate_left(23) ^ 0x0033_0033_0033).below(4) == 0
}

/// A random model of version 3 named `name`, from `seed` (what [`generate`] writes for
/// one seed in four), for runs that want only those.
pub fn generate_v3(name: &str, seed: u64) -> String {
    let mut gen = new_gen(seed);
    gen.v3 = Some(V3::default());
    gen.system_v3(name)
}

impl Gen {
    fn v3(&mut self) -> &mut V3 {
        self.v3.as_mut().expect("a version-3 model")
    }

    fn system_v3(&mut self, name: &str) -> String {
        let mut out = format!("system {name} {{\n");
        out.push_str("  const C { K = 2; M = C.K + 1; F = C.K < C.M; }\n");
        if self.rng.chance(40) {
            out.push_str("  enum E0 { V0, V1, V2 }\n");
            self.enums.push(vec!["V0".into(), "V1".into(), "V2".into()]);
        }
        for g in 0..1 + self.rng.below(3) {
            let var = self.var_decl(&format!("g{g}"), false, &mut out, "  ");
            self.globals.push(var);
        }
        self.channels(&mut out);
        for l in 0..self.rng.below(3) {
            let len = self.rng.chance(30).then_some(2);
            let suffix = len.map(|n| format!("[{n}]")).unwrap_or_default();
            // The lock and the counter its monitor sections guard.
            out.push_str(&format!("  lock m{l}{suffix};\n  int (0, 2) k{l};\n"));
            self.v3().locks.push((format!("m{l}"), len));
            self.globals.push(Var {
                name: format!("k{l}"),
                ty: Scalar {
                    text: "int (0, 2)".into(),
                    kind: Kind::Int,
                    lo: 0,
                    hi: 2,
                },
                len: None,
            });
        }
        self.plan_threads_v3();
        self.functions(&mut out);
        if self.rng.chance(15) {
            let cond = self.bool_expr(2, None, true);
            out.push_str(&format!("  invariant Inv: {cond};\n"));
        }
        let calls = self.v3().calls.clone();
        for t in 0..self.threads.len() {
            if !calls.is_empty() && self.rng.chance(50) {
                self.v3().required.push((t, Part::Call));
            }
        }
        for t in 0..self.threads.len() {
            // A thread calls every function but the ones only others call.
            let text = self.thread_v3(t);
            out.push_str(&text);
            self.v3().calls = calls.clone();
        }
        self.properties(&mut out, 30);
        out.push_str("}\n");
        out
    }

    /// Buffered and rendezvous channels, at least one.
    fn channels(&mut self, out: &mut String) {
        for c in 0..1 + self.rng.below(3) {
            let fields: Vec<Scalar> = (0..self.rng.below(3))
                .map(|_| self.small_scalar())
                .collect();
            let buffer = self.rng.chance(50).then(|| self.rng.range(1, 2));
            let len = self.rng.chance(30).then_some(2);
            let types: Vec<&str> = fields.iter().map(|f| f.text.as_str()).collect();
            let types = if types.is_empty() {
                String::new()
            } else {
                format!(" ({})", types.join(", "))
            };
            let buffered = buffer.map(|k| format!(" buffer {k}")).unwrap_or_default();
            let suffix = len.map(|n| format!("[{n}]")).unwrap_or_default();
            out.push_str(&format!("  channel{types}{buffered} c{c}{suffix};\n"));
            self.v3().chans.push(Chan {
                name: format!("c{c}"),
                fields,
                buffer,
                len,
            });
        }
    }

    /// A scalar type with few values, for fields and parameters.
    fn small_scalar(&mut self) -> Scalar {
        match self.rng.below(4) {
            0 => Scalar {
                text: "boolean".into(),
                kind: Kind::Bool,
                lo: 0,
                hi: 1,
            },
            1 if !self.enums.is_empty() => Scalar {
                text: "E0".into(),
                kind: Kind::Enum(0),
                lo: 0,
                hi: 2,
            },
            2 => Scalar {
                text: "int wrap (0, 2)".into(),
                kind: Kind::Int,
                lo: 0,
                hi: 2,
            },
            _ => {
                let hi = self.rng.range(1, 3);
                Scalar {
                    text: format!("int (0, {hi})"),
                    kind: Kind::Int,
                    lo: 0,
                    hi,
                }
            }
        }
    }

    /// Two or three threads, and which of them must send and receive on each rendezvous
    /// channel (two threads, or two instances of a replicated one).
    fn plan_threads_v3(&mut self) {
        let count = 2 + self.rng.below(2);
        for t in 0..count {
            let active = if t < 2 || self.rng.chance(70) {
                let replicated = self.rng.chance(40);
                let k = if replicated { 2 } else { 1 };
                Some((k, replicated))
            } else {
                None
            };
            let param = match active {
                None if self.rng.chance(50) => Some(self.small_scalar()),
                _ => None,
            };
            let locations = (0..1 + self.rng.below(2)).map(|l| format!("l{l}")).collect();
            self.threads.push(Thread {
                name: format!("T{t}"),
                active,
                param,
                locations,
            });
        }
        for c in 0..self.v3().chans.len() {
            if self.v3().chans[c].buffer.is_some() && self.rng.chance(30) {
                continue;
            }
            let (sender, receiver) = self.two_threads(count);
            self.v3().required.push((sender, Part::Comm(c, true)));
            self.v3().required.push((receiver, Part::Comm(c, false)));
        }
        for l in 0..self.v3().locks.len() {
            if self.rng.chance(25) {
                continue;
            }
            let (producer, consumer) = self.two_threads(count);
            self.v3().required.push((producer, Part::Monitor(l, true)));
            self.v3().required.push((consumer, Part::Monitor(l, false)));
        }
    }

    /// Two threads of `count`: two instances of a replicated thread now and then.
    fn two_threads(&mut self, count: usize) -> (usize, usize) {
        let first = self.rng.below(count);
        let second = match self.threads[first].active {
            Some((2, true)) if self.rng.chance(40) => first,
            _ => (first + 1 + self.rng.below(count - 1)) % count,
        };
        (first, second)
    }

    /// Zero to two plain functions (each may call the earlier ones) and, one model in
    /// three, a recursive one with a bound.
    fn functions(&mut self, out: &mut String) {
        for f in 0..self.rng.below(3) {
            let params: Vec<Scalar> = (0..self.rng.below(3))
                .map(|_| self.small_scalar())
                .collect();
            let returns = self.rng.chance(60).then(|| self.small_scalar());
            let mut locals: Vec<Var> = params
                .iter()
                .enumerate()
                .map(|(p, ty)| Var {
                    name: format!("a{p}"),
                    ty: ty.clone(),
                    len: None,
                })
                .collect();
            let header_params: Vec<String> = locals
                .iter()
                .map(|v| format!("{} {}", v.ty.text, v.name))
                .collect();
            let result = returns
                .as_ref()
                .map(|r| format!(" returns {}", r.text))
                .unwrap_or_default();
            let mut text = format!(
                "  function f{f}({}){result} {{\n",
                header_params.join(", ")
            );
            for w in 0..self.rng.below(2) {
                locals.push(self.var_decl(&format!("w{w}"), false, &mut text, "    "));
            }
            let body = Body {
                scope: Scope {
                    thread: 0,
                    locals,
                    replicated: false,
                    instance: true,
                },
                labels: Vec::new(),
                returns: Some(returns.clone()),
            };
            let count = 1 + self.rng.below(3);
            text.push_str(&self.stmts(&body, count, 1, "    "));
            if let Some(ty) = &returns {
                let value = self.expr(ty, 1, Some(&body.scope), true);
                text.push_str(&format!("    return {value};\n"));
            }
            text.push_str("  }\n");
            out.push_str(&text);
            self.v3().calls.push(Func {
                name: format!("f{f}"),
                params,
                returns,
            });
        }
        if self.rng.chance(35) {
            let bound = self.rng.range(1, 3);
            let stop = self.rng.range(0, 1);
            let step = self.int_expr(1, None, true);
            out.push_str(&format!(
                "  function[{bound}] r(int (0, 3) n) returns int (0, 9) {{\n    int (0, 9) t;\n    \
                 if n <= {stop} do return n; end\n    t := r(n - 1);\n    return t + ({step} % 3);\n  }}\n"
            ));
            self.v3().calls.push(Func {
                name: "r".into(),
                params: vec![Scalar {
                    text: "int (0, 3)".into(),
                    kind: Kind::Int,
                    lo: 0,
                    hi: 3,
                }],
                returns: Some(Scalar {
                    text: "int (0, 9)".into(),
                    kind: Kind::Int,
                    lo: 0,
                    hi: 9,
                }),
            });
        }
    }

    fn thread_v3(&mut self, t: usize) -> String {
        let thread = self.threads[t].clone();
        let mut out = match thread.active {
            Some((k, true)) => format!("  active [{k}] thread {}(int index) {{\n", thread.name),
            Some((_, false)) => format!("  active thread {}() {{\n", thread.name),
            None => match &thread.param {
                Some(ty) => format!("  thread {}({} arg) {{\n", thread.name, ty.text),
                None => format!("  thread {}() {{\n", thread.name),
            },
        };
        let mut locals = Vec::new();
        if let Some(ty) = &thread.param {
            locals.push(Var {
                name: "arg".into(),
                ty: ty.clone(),
                len: None,
            });
        }
        for l in 0..1 + self.rng.below(2) {
            locals.push(self.var_decl(&format!("v{l}"), false, &mut out, "    "));
        }
        let body = Body {
            scope: Scope {
                thread: t,
                locals,
                replicated: matches!(thread.active, Some((_, true))),
                instance: true,
            },
            labels: thread.locations.clone(),
            returns: None,
        };
        let required: Vec<Part> = self
            .v3()
            .required
            .iter()
            .filter(|(thread, _)| *thread == t)
            .map(|&(_, part)| part)
            .collect();
        // A monitor section needs statements.
        let monitors = required.iter().any(|p| matches!(p, Part::Monitor(..)));
        if !monitors && self.rng.chance(30) {
            out.push_str(&self.low_level_body(&body, &required));
        } else {
            out.push_str(&self.high_level_body(&body, &required));
        }
        out.push_str("  }\n");
        out
    }

    /// Statements: the first labelled `l0`, a loop holding the required parts (or those
    /// at the top), the second location `l1` if planned, maybe a jump back.
    fn high_level_body(&mut self, body: &Body, required: &[Part]) -> String {
        let mut out = format!("    loc l0: {}", self.first_stmt(body).trim_start());
        let count = self.rng.below(3);
        let looped = self.rng.chance(80);
        let indent = if looped { "      " } else { "    " };
        let mut inner = String::new();
        for (n, &part) in required.iter().enumerate() {
            inner.push_str(&self.part(body, part, &required[..n], indent));
        }
        inner.push_str(&self.stmts(body, count, 2, indent));
        if looped && !inner.is_empty() {
            let cond = if self.rng.chance(85) {
                "true".to_string()
            } else {
                self.bool_expr(1, Some(&body.scope), true)
            };
            out.push_str(&format!("    while {cond} do\n{inner}    end\n"));
        } else {
            out.push_str(&inner);
        }
        if body.labels.len() > 1 {
            out.push_str(&format!("    loc l1: {}", self.first_stmt(body).trim_start()));
        }
        if self.rng.chance(25) {
            let target = self.rng.pick(&body.labels).clone();
            out.push_str(&format!("    goto {target};\n"));
        }
        out
    }

    /// The statement at a label: as random as the others one time in three, else one that
    /// lets the thread go on (`skip`, a constant assignment), so that the parts after it
    /// run often.
    fn first_stmt(&mut self, body: &Body) -> String {
        match self.rng.below(6) {
            0 | 1 => self.stmt(body, 1, "    "),
            2 => "    skip;\n".into(),
            _ => {
                let vars = self.writable(&body.scope);
                let var = self.rng.pick(&vars).clone();
                let target = match var.len {
                    Some(len) => format!("{}[{}]", var.name, self.rng.range(0, len - 1)),
                    None => var.name.clone(),
                };
                format!("    {target} := {};\n", self.constant(&var.ty))
            }
        }
    }

    /// A required part, as statements. Where both sides of a channel or a monitor are in
    /// one (replicated) thread, instance 0 takes the first side and the others the second
    /// (`earlier` holds the parts written before).
    fn part(&mut self, body: &Body, part: Part, earlier: &[Part], indent: &str) -> String {
        let inner = format!("{indent}  ");
        let (first, second) = match part {
            Part::Comm(c, false) if earlier.contains(&Part::Comm(c, true)) => {
                (self.comm(body, c, true, &inner), self.comm(body, c, false, &inner))
            }
            Part::Monitor(l, false) if earlier.contains(&Part::Monitor(l, true)) => (
                self.monitor_part(body, l, true, &inner),
                self.monitor_part(body, l, false, &inner),
            ),
            Part::Comm(c, send) => {
                // Written with its partner, when both are here.
                if send && body.scope.replicated && self.required_here(body, Part::Comm(c, false)) {
                    return String::new();
                }
                return self.comm(body, c, send, indent);
            }
            Part::Monitor(l, producer) => {
                if producer && body.scope.replicated && self.required_here(body, Part::Monitor(l, false)) {
                    return String::new();
                }
                return self.monitor_part(body, l, producer, indent);
            }
            Part::Call => {
                let calls = self.v3().calls.clone();
                return format!("{indent}{};\n", self.call(&body.scope, &calls));
            }
        };
        format!("{indent}if index == 0 do\n{first}{indent}else do\n{second}{indent}end\n")
    }

    /// Whether the thread of `body` must also hold `part`.
    fn required_here(&mut self, body: &Body, part: Part) -> bool {
        let thread = body.scope.thread;
        self.v3().required.contains(&(thread, part))
    }
}
