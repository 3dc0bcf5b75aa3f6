// Random well-typed BIR models, for differential testing of the generated checkers against
// the reference interpreter. Included by the build script (which writes the models of a
// test run as `bir!` invocations) and by the library (which exposes `generate`).
//
// The generator covers every construct of LANGUAGE.md version 1: const blocks, typealiases,
// enums, booleans, bytes, negative, wrapping and full 32-bit int ranges, arrays of every
// element type, initialisers, invariants, active, replicated and started threads with
// locals and parameters, guards, assignments, assert, assume, start, exit (with or without
// a jump after it), return, `?:`, `T@loc` and `T[i]@loc`, and bounded quantifiers; and
// the properties of version 2: `ltl` formulas with every operator, and `reachable` checks.
// Expressions may fault at run time (indices out of bounds, division by zero, writes out of
// range, 32-bit overflow, double starts): those paths are what the comparison is most
// interested in.

/// A deterministic pseudo-random generator (splitmix64), so that a seed names a model.
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x0005_EED0_FB12)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// An LTL formula of depth up to `depth` over the state predicates `atom` writes, every
/// operator of LANGUAGE.md's version 2 among its operators; `rng` is the generator's.
fn ltl_formula<G>(
    gen: &mut G,
    depth: usize,
    rng: fn(&mut G) -> &mut Rng,
    atom: fn(&mut G) -> String,
) -> String {
    if depth == 0 || rng(gen).chance(25) {
        return atom(gen);
    }
    let sub = |gen: &mut G| ltl_formula(gen, depth - 1, rng, atom);
    match rng(gen).below(11) {
        0 => format!("!{}", sub(gen)),
        1 => format!("[]{}", sub(gen)),
        2 => format!("<>{}", sub(gen)),
        3 => format!("X {}", sub(gen)),
        _ => {
            let op = *rng(gen).pick(&["&&", "||", "->", "<->", "U", "W", "R"]);
            format!("({} {op} {})", sub(gen), sub(gen))
        }
    }
}

/// The formula of an `ltl` property: two in five a progress pattern over the location
/// predicates `progress` writes (`[]<>p`, `<>p`, `[](a -> <>p)`, whose verdicts fairness
/// decides when another instance can run forever instead), the rest [`ltl_formula`]s.
fn ltl_property<G>(
    gen: &mut G,
    rng: fn(&mut G) -> &mut Rng,
    atom: fn(&mut G) -> String,
    progress: fn(&mut G) -> String,
) -> String {
    match rng(gen).below(10) {
        0 | 1 => format!("[]<>{}", progress(gen)),
        2 => format!("<>{}", progress(gen)),
        3 => format!("[]({} -> <>{})", atom(gen), progress(gen)),
        _ => ltl_formula(gen, 3, rng, atom),
    }
}

/// The kind of a scalar value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Bool,
    Int,
    /// Values of the enum `E{n}`.
    Enum(usize),
}

/// A scalar type as written, with its kind and domain.
#[derive(Clone, Debug)]
struct Scalar {
    text: String,
    kind: Kind,
    lo: i64,
    hi: i64,
}

/// A variable in scope: its name, element type and length if an array.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Scalar,
    len: Option<i64>,
}

/// A thread declaration, as other threads see it.
#[derive(Clone, Debug)]
struct Thread {
    name: String,
    /// `None`: started by `start`; `Some((k, replicated))`: active with k instances.
    active: Option<(i64, bool)>,
    /// The parameter of a started thread, and its type.
    param: Option<Scalar>,
    locations: Vec<String>,
}

struct Gen {
    rng: Rng,
    enums: Vec<Vec<String>>,
    aliases: Vec<(String, Scalar)>,
    globals: Vec<Var>,
    threads: Vec<Thread>,
    /// Quantified variables in scope while an expression is generated.
    quant: Vec<String>,
    next_quant: usize,
    /// This model's threads mostly work on their own locals: the thread-local work that
    /// partial-order reduction removes interleavings of (two models in five).
    local_work: bool,
    /// The declarations of a version-3 model (`v3.rs`); `None` in version 1, whose models
    /// draw nothing for it.
    v3: Option<V3>,
}

/// A random model named `name`, from `seed`: of version 3 for one seed in four
/// (`v3.rs`), else of version 1 as it always was for that seed.
pub fn generate(name: &str, seed: u64) -> String {
    if uses_version_3(seed) {
        return generate_v3(name, seed);
    }
    new_gen(seed).system(name, false)
}

/// A random model named `name`, from `seed`, whose threads mostly work on their own locals
/// (as two in five of [`generate`]'s do): models partial-order reduction applies to, for
/// the interpreter's reduction test.
#[allow(dead_code)] // The build script, which includes this file, generates mixed models.
pub fn generate_local_work(name: &str, seed: u64) -> String {
    new_gen(seed).system(name, true)
}

fn new_gen(seed: u64) -> Gen {
    Gen {
        rng: Rng::new(seed),
        enums: Vec::new(),
        aliases: Vec::new(),
        globals: Vec::new(),
        threads: Vec::new(),
        quant: Vec::new(),
        next_quant: 0,
        local_work: false,
        v3: None,
    }
}

impl Gen {
    /// The model; every model does thread-local work when `local_work`, two in five
    /// otherwise (drawn either way, so that a seed gives the same rest of the model).
    fn system(&mut self, name: &str, local_work: bool) -> String {
        self.local_work = self.rng.chance(40) || local_work;
        let mut out = format!("system {name} {{\n");
        out.push_str("  const C { K = 2; M = C.K + 1; F = C.K < C.M; }\n");
        for e in 0..self.rng.below(3) {
            let variants: Vec<String> = (0..2 + self.rng.below(2))
                .map(|v| format!("V{v}"))
                .collect();
            out.push_str(&format!("  enum E{e} {{ {} }}\n", variants.join(", ")));
            self.enums.push(variants);
        }
        if self.rng.chance(40) {
            let lo = self.rng.range(-3, 0);
            let hi = lo + self.rng.range(1, 4);
            let wrap = if self.rng.chance(50) { "wrap " } else { "" };
            let text = format!("int {wrap}({lo}, {hi})");
            out.push_str(&format!("  typealias Small {text};\n"));
            let scalar = Scalar {
                text: "Small".into(),
                kind: Kind::Int,
                lo,
                hi,
            };
            self.aliases.push(("Small".into(), scalar));
        }
        for g in 0..1 + self.rng.below(4) {
            let var = self.var_decl(&format!("g{g}"), true, &mut out, "  ");
            self.globals.push(var);
        }
        self.plan_threads();
        if self.rng.chance(30) {
            let cond = self.bool_expr(2, None, true);
            out.push_str(&format!("  invariant Inv: {cond};\n"));
        }
        for t in 0..self.threads.len() {
            let text = self.thread(t);
            out.push_str(&text);
        }
        // Drawn last, so that the rest of a seed's model is what it was before models had
        // properties.
        self.properties(&mut out, 40);
        out.push_str("}\n");
        out
    }

    /// Up to two `ltl` properties over the model's variables and locations, and with a
    /// chance of `reachable_percent` a `reachable` check.
    pub(crate) fn properties(&mut self, out: &mut String, reachable_percent: usize) {
        for p in 0..self.rng.below(3) {
            let atom = |gen: &mut Gen| format!("({})", gen.bool_expr(1, None, true));
            let progress = |gen: &mut Gen| format!("({})", gen.at(None));
            let formula = ltl_property(self, |gen| &mut gen.rng, atom, progress);
            out.push_str(&format!("  ltl P{p}: {formula};\n"));
        }
        if self.rng.chance(reachable_percent) {
            let predicate = self.bool_expr(2, None, true);
            out.push_str(&format!("  reachable R0: {predicate};\n"));
        }
    }

    /// Declares threads (names, kinds, parameters, locations) before their bodies, so that
    /// `T@loc` and `start T(..)` can name any of them.
    fn plan_threads(&mut self) {
        // Interleavings to reduce need two threads at least.
        let count = 1 + usize::from(self.local_work) + self.rng.below(3 - usize::from(self.local_work));
        for t in 0..count {
            let active = if t == 0 || self.rng.chance(70) {
                let replicated = self.rng.chance(50);
                let k = if replicated { self.rng.range(1, 3) } else { 1 };
                Some((k, replicated))
            } else {
                None
            };
            let param = match active {
                None if self.rng.chance(60) => Some(self.scalar(false)),
                _ => None,
            };
            let locations = (0..1 + self.rng.below(3))
                .map(|l| format!("l{l}"))
                .collect();
            self.threads.push(Thread {
                name: format!("T{t}"),
                active,
                param,
                locations,
            });
        }
    }

    /// A random scalar type: mostly small ranges so that state spaces stay small.
    fn scalar(&mut self, allow_big: bool) -> Scalar {
        match self.rng.below(if allow_big { 9 } else { 8 }) {
            0 | 1 => Scalar {
                text: "boolean".into(),
                kind: Kind::Bool,
                lo: 0,
                hi: 1,
            },
            2 => Scalar {
                text: "byte".into(),
                kind: Kind::Int,
                lo: 0,
                hi: 255,
            },
            3 if !self.enums.is_empty() => {
                let e = self.rng.below(self.enums.len());
                let hi = self.enums[e].len() as i64 - 1;
                Scalar {
                    text: format!("E{e}"),
                    kind: Kind::Enum(e),
                    lo: 0,
                    hi,
                }
            }
            4 if !self.aliases.is_empty() => self.aliases[0].1.clone(),
            5 => {
                let lo = self.rng.range(-4, 1);
                let hi = lo + self.rng.range(0, 5);
                Scalar {
                    text: format!("int wrap ({lo}, {hi})"),
                    kind: Kind::Int,
                    lo,
                    hi,
                }
            }
            6 => Scalar {
                text: "int (0, C.M)".into(),
                kind: Kind::Int,
                lo: 0,
                hi: 3,
            },
            8 => Scalar {
                text: "int".into(),
                kind: Kind::Int,
                lo: i64::from(i32::MIN),
                hi: i64::from(i32::MAX),
            },
            _ => {
                let lo = self.rng.range(-3, 1);
                let hi = lo + self.rng.range(1, 4);
                Scalar {
                    text: format!("int ({lo}, {hi})"),
                    kind: Kind::Int,
                    lo,
                    hi,
                }
            }
        }
    }

    /// `type name [:= init];` for a global or a local.
    fn var_decl(&mut self, name: &str, allow_big: bool, out: &mut String, indent: &str) -> Var {
        let ty = self.scalar(allow_big);
        let len = self.rng.chance(30).then(|| self.rng.range(1, 3));
        let ty_text = match len {
            Some(3) => format!("{}[C.M]", ty.text),
            Some(2) => format!("{}[C.K]", ty.text),
            Some(n) => format!("{}[{n}]", ty.text),
            None => ty.text.clone(),
        };
        let init = if self.rng.chance(50) {
            match len {
                Some(n) => {
                    let values: Vec<String> = (0..n).map(|_| self.constant(&ty)).collect();
                    format!(" := {{ {} }}", values.join(", "))
                }
                None => format!(" := {}", self.constant(&ty)),
            }
        } else {
            String::new()
        };
        out.push_str(&format!("{indent}{ty_text} {name}{init};\n"));
        Var {
            name: name.into(),
            ty,
            len,
        }
    }

    /// A constant of the type, within its domain (extreme values of 32-bit ints included).
    fn constant(&mut self, ty: &Scalar) -> String {
        match ty.kind {
            Kind::Bool => if self.rng.chance(50) { "true" } else { "false" }.into(),
            Kind::Enum(e) => {
                let variant = self.rng.below(self.enums[e].len());
                format!("E{e}.V{variant}")
            }
            Kind::Int if ty.hi - ty.lo > 1000 => {
                let value = *self
                    .rng
                    .pick(&[0, 1, -1, 2147483647, -2147483648, 2147483600]);
                value.to_string()
            }
            Kind::Int => self.rng.range(ty.lo, ty.hi).to_string(),
        }
    }

    fn thread(&mut self, t: usize) -> String {
        let thread = self.threads[t].clone();
        let mut out = String::new();
        let header = match thread.active {
            Some((k, true)) => format!("  active [{k}] thread {}(int index) {{\n", thread.name),
            Some((_, false)) => format!("  active thread {}() {{\n", thread.name),
            None => match &thread.param {
                Some(ty) => format!("  thread {}({} arg) {{\n", thread.name, ty.text),
                None => format!("  thread {}() {{\n", thread.name),
            },
        };
        out.push_str(&header);
        let mut locals = Vec::new();
        if let Some(ty) = &thread.param {
            locals.push(Var {
                name: "arg".into(),
                ty: ty.clone(),
                len: None,
            });
        }
        let locals_wanted = self.rng.below(3).max(usize::from(self.local_work) * 2);
        for l in 0..locals_wanted {
            let var = self.var_decl(&format!("v{l}"), false, &mut out, "    ");
            locals.push(var);
        }
        let scope = Scope {
            thread: t,
            locals,
            replicated: matches!(thread.active, Some((_, true))),
            instance: true,
        };
        for location in &thread.locations {
            out.push_str(&format!("    loc {location}:\n"));
            for _ in 0..1 + self.rng.below(2) {
                let transform = self.transform(&scope);
                out.push_str(&format!("      {transform}\n"));
            }
        }
        out.push_str("  }\n");
        out
    }

    fn transform(&mut self, scope: &Scope) -> String {
        let guard = if self.rng.chance(60) {
            format!("when {} ", self.bool_expr(2, Some(scope), true))
        } else {
            String::new()
        };
        let mut actions = Vec::new();
        for _ in 0..self.rng.below(4) {
            actions.push(self.action(scope));
        }
        let exits = self.rng.chance(5);
        if exits {
            actions.push("exit;".into());
        }
        let thread = &self.threads[scope.thread];
        // After `exit` the jump is optional (it would never be taken).
        let jump = if exits && self.rng.chance(50) {
            String::new()
        } else if self.rng.chance(8) {
            "return;".to_string()
        } else {
            format!("goto {};", self.rng.pick(&thread.locations))
        };
        let body = actions.join(" ");
        if self.rng.chance(50) {
            format!("{guard}do {{ {body} }} {jump}")
        } else {
            format!("{guard}do {{ {body} {jump} }}")
        }
    }

    fn action(&mut self, scope: &Scope) -> String {
        match self.rng.below(10) {
            0 => format!("assert ({});", self.bool_expr(2, Some(scope), true)),
            1 => format!("assume ({});", self.bool_expr(1, Some(scope), true)),
            2 => {
                let startable: Vec<Thread> = self
                    .threads
                    .iter()
                    .filter(|t| t.active.is_none())
                    .cloned()
                    .collect();
                if startable.is_empty() {
                    return self.assignment(scope);
                }
                let target = self.rng.pick(&startable).clone();
                match &target.param {
                    Some(ty) => {
                        let ty = ty.clone();
                        format!(
                            "start {}({});",
                            target.name,
                            self.expr(&ty, 2, Some(scope), true)
                        )
                    }
                    None => format!("start {}();", target.name),
                }
            }
            _ => self.assignment(scope),
        }
    }

    fn assignment(&mut self, scope: &Scope) -> String {
        let vars = if self.local_work && !scope.locals.is_empty() && self.rng.chance(85) {
            scope.locals.clone()
        } else {
            self.writable(scope)
        };
        let var = self.rng.pick(&vars).clone();
        let target = match var.len {
            Some(len) => format!("{}[{}]", var.name, self.index(len, Some(scope))),
            None => var.name.clone(),
        };
        format!("{target} := {};", self.expr(&var.ty, 2, Some(scope), true))
    }

    /// Globals and the thread's locals (a started thread's parameter included).
    fn writable(&self, scope: &Scope) -> Vec<Var> {
        self.globals
            .iter()
            .chain(scope.locals.iter())
            .cloned()
            .collect()
    }

    /// An expression of the type's kind (values may leave the type's range: that is a
    /// range error or a wrap when written).
    fn expr(&mut self, ty: &Scalar, depth: usize, scope: Option<&Scope>, state: bool) -> String {
        match ty.kind {
            Kind::Bool => self.bool_expr(depth, scope, state),
            Kind::Int => self.int_expr(depth, scope, state),
            Kind::Enum(e) => self.enum_expr(e, depth, scope, state),
        }
    }

    /// Readable variables of a kind in scope.
    fn readable(&self, kind: Kind, scope: Option<&Scope>) -> Vec<Var> {
        let locals = scope.map(|s| s.locals.as_slice()).unwrap_or(&[]);
        self.globals
            .iter()
            .chain(locals.iter())
            .filter(|v| v.ty.kind == kind)
            .cloned()
            .collect()
    }

    /// A read of a variable of `kind`, if there is one.
    fn read(&mut self, kind: Kind, scope: Option<&Scope>) -> Option<String> {
        let mut vars = self.readable(kind, scope);
        if self.local_work && self.rng.chance(85) {
            let locals: Vec<Var> = scope
                .map(|s| s.locals.iter().filter(|v| v.ty.kind == kind).cloned().collect())
                .unwrap_or_default();
            if !locals.is_empty() {
                vars = locals;
            }
        }
        if vars.is_empty() {
            return None;
        }
        let var = self.rng.pick(&vars).clone();
        Some(match var.len {
            Some(len) => format!("{}[{}]", var.name, self.index(len, scope)),
            None => var.name,
        })
    }

    /// An array index: mostly in bounds, sometimes computed, rarely out of bounds.
    fn index(&mut self, len: i64, scope: Option<&Scope>) -> String {
        match self.rng.below(10) {
            0 => self.int_expr(1, scope, true),
            1 if scope.is_some_and(|s| s.replicated) => "index".into(),
            2 if !self.quant.is_empty() => {
                let var = self.rng.pick(&self.quant).clone();
                format!("({var} % {len})")
            }
            3 => len.to_string(),
            _ => self.rng.range(0, len - 1).to_string(),
        }
    }

    fn int_expr(&mut self, depth: usize, scope: Option<&Scope>, state: bool) -> String {
        let leaf = depth == 0 || self.rng.chance(35);
        if leaf {
            // Version 3's leaves draw only in its models.
            if state && self.v3.is_some() && self.rng.chance(15) {
                if let Some(leaf) = self.v3_int_leaf(scope) {
                    return leaf;
                }
            }
            return match self.rng.below(6) {
                0 | 1 if state => self
                    .read(Kind::Int, scope)
                    .unwrap_or_else(|| self.rng.range(-3, 5).to_string()),
                2 if scope.is_some_and(|s| s.replicated) => "index".into(),
                3 if !self.quant.is_empty() => self.rng.pick(&self.quant).clone(),
                4 => "C.K".into(),
                _ => self.rng.range(-3, 5).to_string(),
            };
        }
        let sub = depth - 1;
        match self.rng.below(9) {
            0 => format!("-{}", self.int_expr(sub, scope, state)),
            1 => format!(
                "({} ? {} : {})",
                self.bool_expr(sub, scope, state),
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
            2 => format!(
                "({} * {})",
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
            3 => format!(
                "({} / {})",
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
            4 => format!(
                "({} % {})",
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
            5 => format!(
                "({} - {})",
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
            _ => format!(
                "({} + {})",
                self.int_expr(sub, scope, state),
                self.int_expr(sub, scope, state)
            ),
        }
    }

    fn enum_expr(&mut self, e: usize, depth: usize, scope: Option<&Scope>, state: bool) -> String {
        if depth > 0 && self.rng.chance(20) {
            let sub = depth - 1;
            return format!(
                "({} ? {} : {})",
                self.bool_expr(sub, scope, state),
                self.enum_expr(e, sub, scope, state),
                self.enum_expr(e, sub, scope, state)
            );
        }
        if state && self.rng.chance(50) {
            if let Some(read) = self.read(Kind::Enum(e), scope) {
                return read;
            }
        }
        format!("E{e}.V{}", self.rng.below(self.enums[e].len()))
    }

    fn bool_expr(&mut self, depth: usize, scope: Option<&Scope>, state: bool) -> String {
        let leaf = depth == 0 || self.rng.chance(25);
        if leaf {
            if state && self.v3.is_some() && self.rng.chance(15) {
                if let Some(leaf) = self.v3_bool_leaf(scope) {
                    return leaf;
                }
            }
            return match self.rng.below(6) {
                0 | 1 if state => self
                    .read(Kind::Bool, scope)
                    .unwrap_or_else(|| "true".into()),
                // A status read makes its thread's every location unsafe for partial-order
                // reduction: rarer in models of local work.
                2 if state && !(self.local_work && self.rng.chance(85)) => self.at(scope),
                3 => "C.F".into(),
                4 => if self.rng.chance(50) { "true" } else { "false" }.into(),
                _ => {
                    let op = *self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                    format!(
                        "({} {op} {})",
                        self.int_expr(0, scope, state),
                        self.int_expr(0, scope, state)
                    )
                }
            };
        }
        let sub = depth - 1;
        match self.rng.below(8) {
            0 => format!("!{}", self.bool_expr(sub, scope, state)),
            1 => format!(
                "({} && {})",
                self.bool_expr(sub, scope, state),
                self.bool_expr(sub, scope, state)
            ),
            2 => format!(
                "({} || {})",
                self.bool_expr(sub, scope, state),
                self.bool_expr(sub, scope, state)
            ),
            3 => self.quantifier(sub, scope, state),
            4 if !self.enums.is_empty() => {
                let e = self.rng.below(self.enums.len());
                let op = *self.rng.pick(&["==", "!="]);
                format!(
                    "({} {op} {})",
                    self.enum_expr(e, sub, scope, state),
                    self.enum_expr(e, sub, scope, state)
                )
            }
            5 => format!(
                "({} ? {} : {})",
                self.bool_expr(sub, scope, state),
                self.bool_expr(sub, scope, state),
                self.bool_expr(sub, scope, state)
            ),
            _ => {
                let op = *self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                format!(
                    "({} {op} {})",
                    self.int_expr(sub, scope, state),
                    self.int_expr(sub, scope, state)
                )
            }
        }
    }

    /// `T@loc` or `T[i]@loc` (index possibly out of bounds).
    fn at(&mut self, scope: Option<&Scope>) -> String {
        let thread = self.rng.pick(&self.threads).clone();
        let location = self.rng.pick(&thread.locations).clone();
        match thread.active {
            Some((k, true)) => {
                let index = if self.rng.chance(15) {
                    self.int_expr(1, scope, true)
                } else {
                    self.rng.range(0, k - 1).to_string()
                };
                format!("{}[{index}]@{location}", thread.name)
            }
            _ => format!("{}@{location}", thread.name),
        }
    }

    fn quantifier(&mut self, depth: usize, scope: Option<&Scope>, state: bool) -> String {
        let var = format!("q{}", self.next_quant);
        self.next_quant += 1;
        let lo = self.rng.range(-1, 1);
        let hi = lo + self.rng.range(0, 3);
        let keyword = if self.rng.chance(50) {
            "forall"
        } else {
            "exists"
        };
        self.quant.push(var.clone());
        let body = self.bool_expr(depth, scope, state);
        self.quant.pop();
        format!("({keyword} {var} in {lo} .. {hi} : ({body}))")
    }
}

/// Where an expression is generated: the thread and its locals.
#[derive(Clone, Debug)]
struct Scope {
    thread: usize,
    locals: Vec<Var>,
    /// The thread is `active [k]`: `index` may be read.
    replicated: bool,
    /// A thread's or function's body: the built-ins of "this instance" (`hasLock`, ...)
    /// may be read, as they may not in a `fun`.
    instance: bool,
}
