// Random models built around one `active [N]` family whose instances are mostly
// interchangeable, for the differential tests of symmetry reduction. Included by the build
// script and by the library, after `generate.rs` (whose `Rng` it uses).
//
// Instance ids ("pids") flow through `index`, a global `owner`, a per-instance `peer`, an
// array `slot` indexed by small ints, and quantified variables; arrays `a` and `f` are
// indexed by pids. Guards and actions mix them with `==`, `!=`, `T[p]@loc`, quantifiers
// over all instances, shared counters and locals, and asserts, so that errors, deadlocks
// and range faults occur. Some models name an instance (`index == 0`, `a[1]`, `owner := 0`:
// the group shrinks to what fixes it) and a few do arithmetic on `index` (no symmetry),
// so that the analysis's every outcome is exercised.

/// A random model with a symmetric family, named `name`, from `seed`.
pub fn generate_symmetric(name: &str, seed: u64) -> String {
    let mut gen = Sym {
        rng: Rng::new(seed ^ 0x5133_7A11),
        quant: 0,
        locations: 0,
        breaking: false,
    };
    gen.system(name)
}

struct Sym {
    rng: Rng,
    /// Quantifiers nested around the expression being generated.
    quant: usize,
    locations: usize,
    /// This model may name instances and do arithmetic on `index`.
    breaking: bool,
}

impl Sym {
    fn system(&mut self, name: &str) -> String {
        let n = self.rng.range(2, 4);
        self.locations = 1 + self.rng.below(3);
        self.breaking = self.rng.chance(25);
        let owner = if self.breaking && self.rng.chance(50) {
            0
        } else {
            -1
        };
        let mut out = format!("system {name} {{\n  const P {{ N = {n}; }}\n");
        out.push_str("  int (0, 2)[P.N] a;\n  boolean[P.N] f;\n");
        out.push_str(&format!("  int (-1, P.N - 1) owner := {owner};\n"));
        out.push_str("  int (-1, P.N - 1)[3] slot := { -1, -1, -1 };\n");
        out.push_str("  int (0, 3) count;\n");
        if self.rng.chance(30) {
            let cond = self.boolean(2, false);
            out.push_str(&format!("  invariant Inv: {cond};\n"));
        }
        out.push_str("  active [P.N] thread T(int index) {\n");
        out.push_str("    int (-1, P.N - 1) peer := -1;\n    int (0, 2) x;\n");
        for l in 0..self.locations {
            out.push_str(&format!("    loc l{l}:\n"));
            for _ in 0..1 + self.rng.below(2) {
                let guard = if self.rng.chance(70) {
                    format!("when {} ", self.boolean(2, true))
                } else {
                    String::new()
                };
                let actions: Vec<String> = (0..1 + self.rng.below(3))
                    .map(|_| self.action())
                    .collect();
                let to = self.rng.below(self.locations);
                out.push_str(&format!(
                    "      {guard}do {{ {} }} goto l{to};\n",
                    actions.join(" ")
                ));
            }
        }
        out.push_str("  }\n}\n");
        out
    }

    /// A pid-valued expression (may be -1 but for `index` and quantified variables).
    fn pid(&mut self, in_thread: bool) -> String {
        let mut options = vec!["owner".to_string(), format!("slot[{}]", self.rng.below(3))];
        if in_thread {
            options.extend(["index".to_string(), "peer".to_string()]);
        }
        if self.quant > 0 {
            options.push(format!("k{}", self.rng.below(self.quant)));
        }
        if self.breaking && self.rng.chance(10) {
            options.push(format!("{}", self.rng.below(2)));
        }
        self.rng.pick(&options).clone()
    }

    /// A pid that is a valid index: `index` or a quantified variable (or a constant, when
    /// the model names instances).
    fn index(&mut self, in_thread: bool) -> String {
        let mut options = Vec::new();
        if in_thread {
            options.push("index".to_string());
        }
        if self.quant > 0 {
            options.push(format!("k{}", self.rng.below(self.quant)));
        }
        if options.is_empty() || (self.breaking && self.rng.chance(15)) {
            options.push(format!("{}", self.rng.below(2)));
        }
        if self.breaking && in_thread && self.rng.chance(5) {
            options.push("(index + 1) % P.N".to_string());
        }
        self.rng.pick(&options).clone()
    }

    /// An index that may be out of bounds (outside quantifiers only).
    fn any_index(&mut self, in_thread: bool) -> String {
        if self.quant == 0 && self.rng.chance(25) {
            self.pid(in_thread)
        } else {
            self.index(in_thread)
        }
    }

    fn int(&mut self, depth: usize, in_thread: bool) -> String {
        let mut options = vec![
            format!("{}", self.rng.below(3)),
            format!("a[{}]", self.any_index(in_thread)),
            "count".to_string(),
        ];
        if in_thread {
            options.push("x".to_string());
        }
        if depth > 0 && self.quant == 0 {
            let lhs = self.int(depth - 1, in_thread);
            options.push(format!("({lhs} + 1) % 3"));
        }
        self.rng.pick(&options).clone()
    }

    fn boolean(&mut self, depth: usize, in_thread: bool) -> String {
        let choice = self.rng.below(if depth == 0 { 5 } else { 8 });
        match choice {
            0 => {
                let (p, q) = (self.pid(in_thread), self.pid(in_thread));
                let op = if self.rng.chance(50) { "==" } else { "!=" };
                format!("{p} {op} {q}")
            }
            1 => format!("{} == -1", self.pid(in_thread)),
            2 => {
                let (i, j) = (self.int(1, in_thread), self.int(1, in_thread));
                let op = self.rng.pick(&["<", "<=", "==", "!="]).to_string();
                format!("{i} {op} {j}")
            }
            3 => format!("f[{}]", self.any_index(in_thread)),
            4 => {
                let location = self.rng.below(self.locations);
                format!("T[{}]@l{location}", self.any_index(in_thread))
            }
            5 => format!("!({})", self.boolean(depth - 1, in_thread)),
            6 => {
                let op = if self.rng.chance(50) { "&&" } else { "||" };
                let (a, b) = (
                    self.boolean(depth - 1, in_thread),
                    self.boolean(depth - 1, in_thread),
                );
                format!("({a} {op} {b})")
            }
            _ => {
                let k = self.quant;
                self.quant += 1;
                let body = self.boolean(depth - 1, in_thread);
                self.quant -= 1;
                let q = if self.rng.chance(50) {
                    "forall"
                } else {
                    "exists"
                };
                format!("{q} k{k} in 0 .. P.N : ({body})")
            }
        }
    }

    fn action(&mut self) -> String {
        match self.rng.below(9) {
            0 => format!("a[index] := {};", self.int(1, true)),
            1 => format!("f[{}] := {};", self.any_index(true), self.boolean(1, true)),
            2 => format!("owner := {};", self.pid(true)),
            3 => format!("peer := {};", self.pid(true)),
            4 => format!("slot[{}] := {};", self.rng.below(3), self.pid(true)),
            5 => "count := count + 1;".to_string(),
            6 => "count := 0;".to_string(),
            7 => format!("x := {};", self.int(1, true)),
            _ => format!("assert ({});", self.boolean(1, true)),
        }
    }
}
