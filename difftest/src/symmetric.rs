// Random models built around `active [N]` families whose instances are mostly
// interchangeable, for the differential tests of symmetry reduction. Included by the build
// script and by the library, after `generate.rs` (whose `Rng` it uses).
//
// Every model has a family `T` (`P.N` instances, 2 to 4); two in five have a second family
// `U` (`P.M` instances, 2 or 3). A family's instance ids ("pids") flow through `index`, a
// global (`owner` for `T`, `offer` for `U`), a small array of pids indexed by ints (`slot`,
// `uslot`), a per-instance local `peer`, and quantified variables; arrays indexed by pids
// (`a`, `f` of `P.N` elements, `b`, `g` of `P.M`) move with the instances. With two
// families, each one's local `mate` holds the other's ids, copied from the other's globals
// (`offer := index` in `U`, `mate := offer` in `T`, as in the suite's `Pairing`), and is
// compared, used as an index of the other's arrays and in `U[mate]@m0`, so that the
// canonical form must permute both families together. Such models offer and take ids more
// often than the generic actions would, and guard fewer transitions: the states where each
// family's ids sit in the other's rows are those a family-by-family canonical form gets
// wrong (it stores more states than there are orbits in about one two-family model in 30).
// Guards and actions mix the pids with `==`, `!=`, `T[p]@loc`, quantifiers over all of a
// family's instances, shared counters and locals, and asserts, so that errors, deadlocks
// and range faults occur. Each family's pids stay apart from the other's (a pid of one is
// never compared with, stored in or used as an index of the other's), except on purpose.
// The models stay small: the differential searches stop at 3,000 states, and nearly every
// symmetry-reduced search is complete, so its count can be held against the orbits.
//
// So that the analysis's every outcome is exercised, some models break the symmetry of one
// family or both: a *breaking* family is named by constants (`index == 0`, `a[1]`,
// `owner := 0`, an initial `a := {1, 0, 0}`: the group shrinks to what fixes those
// instances) and now and then has arithmetic on its `index` (no symmetry); in a few
// two-family models a pid of one family stands where the other's is expected (neither
// family has symmetry). An invariant indexes with a constant where no quantified variable is at hand,
// which names an instance of any family. A pid read outside quantifiers may be -1 or out
// of bounds, so indexing with it faults; inside a quantifier every index is in bounds (a
// quantifier whose body may fault breaks the symmetry of the family it ranges over; a
// negated constant such as the `-1` of `p == -1` cannot fault).

/// A random model with one or two symmetric families, named `name`, from `seed`.
pub fn generate_symmetric(name: &str, seed: u64) -> String {
    let mut gen = Sym {
        rng: Rng::new(seed ^ 0x5133_7A11),
        quants: Vec::new(),
        here: None,
        two: false,
        locations: [0; 2],
        breaking: [false; 2],
        mixing: false,
        in_formula: false,
    };
    gen.system(name)
}

/// A family of a symmetric model, with the names of what holds or is indexed by its pids.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fam {
    /// `T`, in every model.
    T,
    /// `U`, in the models with two families.
    U,
}

impl Fam {
    /// Its position in the per-family arrays.
    fn at(self) -> usize {
        self as usize
    }

    /// The other family.
    fn other(self) -> Fam {
        match self {
            Fam::T => Fam::U,
            Fam::U => Fam::T,
        }
    }

    /// The thread's name.
    fn thread(self) -> &'static str {
        ["T", "U"][self.at()]
    }

    /// The number of instances, as the models write it.
    fn size(self) -> &'static str {
        ["P.N", "P.M"][self.at()]
    }

    /// The array of small ints indexed by the family's pids.
    fn ints(self) -> &'static str {
        ["a", "b"][self.at()]
    }

    /// The array of booleans indexed by the family's pids.
    fn flags(self) -> &'static str {
        ["f", "g"][self.at()]
    }

    /// The global that holds one of the family's pids.
    fn owner(self) -> &'static str {
        ["owner", "offer"][self.at()]
    }

    /// The array of the family's pids, indexed by small ints, and its length.
    fn slots(self) -> (&'static str, usize) {
        [("slot", 3), ("uslot", 2)][self.at()]
    }

    /// The prefix of the family's location names.
    fn location(self) -> &'static str {
        ["l", "m"][self.at()]
    }
}

/// The state of the generation of one model.
struct Sym {
    rng: Rng,
    /// The family each enclosing quantifier ranges over: `k{i}` is a pid of `quants[i]`.
    quants: Vec<Fam>,
    /// The family whose thread is being generated (`None`: the invariant).
    here: Option<Fam>,
    /// The model has the family `U` too.
    two: bool,
    /// Each family's number of locations.
    locations: [usize; 2],
    /// Per family: the model may name its instances and do arithmetic on its `index`.
    breaking: [bool; 2],
    /// The model may use one family's pid global where the other's pid is expected.
    mixing: bool,
    /// An `ltl` formula is being written: inside one `U` is the until operator, so the
    /// family `U`'s thread cannot be named (`U[i]@m0`).
    in_formula: bool,
}

impl Sym {
    fn system(&mut self, name: &str) -> String {
        let n = self.rng.range(2, 4);
        self.two = self.rng.chance(40);
        let m = self.rng.range(2, 3);
        // Two families make larger state spaces: fewer locations keep most searches whole.
        let most = if self.two { 2 } else { 3 };
        self.locations = [1 + self.rng.below(most), 1 + self.rng.below(2)];
        self.breaking = [self.rng.chance(25), self.two && self.rng.chance(25)];
        self.mixing = self.two && self.rng.chance(5);
        let families: &[(Fam, i64)] = if self.two {
            &[(Fam::T, n), (Fam::U, m)]
        } else {
            &[(Fam::T, n)]
        };
        let mut out = if self.two {
            format!("system {name} {{\n  const P {{ N = {n}; M = {m}; }}\n")
        } else {
            format!("system {name} {{\n  const P {{ N = {n}; }}\n")
        };
        for &(fam, count) in families {
            out.push_str(&self.globals(fam, count));
        }
        out.push_str("  int (0, 3) count;\n");
        if self.rng.chance(30) {
            let cond = self.boolean(2);
            out.push_str(&format!("  invariant Inv: {cond};\n"));
        }
        for &(fam, _) in families {
            out.push_str(&self.thread(fam));
        }
        // Drawn last, so that the rest of a seed's model is what it was before models had
        // properties. A property that names an instance shrinks its family's group.
        self.in_formula = true;
        for p in 0..self.rng.below(3) {
            let atom = |gen: &mut Sym| format!("({})", gen.boolean(1));
            let formula = ltl_property(self, |gen| &mut gen.rng, atom, Sym::progress);
            out.push_str(&format!("  ltl P{p}: {formula};\n"));
        }
        self.in_formula = false;
        out.push_str("}\n");
        out
    }

    /// A location predicate of family `T` for a progress pattern: that one of its
    /// instances is at a location (symmetric), or that the first one is.
    fn progress(&mut self) -> String {
        let location = self.rng.below(self.locations[Fam::T.at()]);
        if self.rng.chance(50) {
            format!("(exists k0 in 0 .. P.N : (T[k0]@l{location}))")
        } else {
            format!("(T[0]@l{location})")
        }
    }

    /// The globals of family `fam` of `count` instances: its arrays indexed by pids (which
    /// start alike for every instance, unless a breaking family's first one starts apart),
    /// its pid global and its array of pids.
    fn globals(&mut self, fam: Fam, count: i64) -> String {
        let (size, (slots, len)) = (fam.size(), fam.slots());
        let breaking = self.breaking[fam.at()];
        let ints = if breaking && self.rng.chance(20) {
            let rest = ", 0".repeat(count as usize - 1);
            format!(" := {{ 1{rest} }}")
        } else {
            String::new()
        };
        let owner = if breaking && self.rng.chance(50) {
            0
        } else {
            -1
        };
        let nobody = vec!["-1"; len].join(", ");
        format!(
            "  int (0, 2)[{size}] {}{ints};\n  boolean[{size}] {};\n  \
             int (-1, {size} - 1) {} := {owner};\n  \
             int (-1, {size} - 1)[{len}] {slots} := {{ {nobody} }};\n",
            fam.ints(),
            fam.flags(),
            fam.owner(),
        )
    }

    /// The thread of family `fam`: its locals (`mate` holds the other family's pids) and
    /// its locations.
    fn thread(&mut self, fam: Fam) -> String {
        self.here = Some(fam);
        let size = fam.size();
        let mut out = format!("  active [{size}] thread {}(int index) {{\n", fam.thread());
        out.push_str(&format!("    int (-1, {size} - 1) peer := -1;\n"));
        if self.two {
            let other = fam.other().size();
            out.push_str(&format!("    int (-1, {other} - 1) mate := -1;\n"));
        }
        out.push_str("    int (0, 2) x;\n");
        let locations = self.locations[fam.at()];
        for l in 0..locations {
            out.push_str(&format!("    loc {}{l}:\n", fam.location()));
            for _ in 0..1 + self.rng.below(2) {
                // Fewer guards with two families, so that more ids change hands.
                let guard = if self.rng.chance(if self.two { 50 } else { 70 }) {
                    format!("when {} ", self.boolean(2))
                } else {
                    String::new()
                };
                let actions: Vec<String> = (0..1 + self.rng.below(3))
                    .map(|_| self.action(fam))
                    .collect();
                let to = self.rng.below(locations);
                out.push_str(&format!(
                    "      {guard}do {{ {} }} goto {}{to};\n",
                    actions.join(" "),
                    fam.location()
                ));
            }
        }
        out.push_str("  }\n");
        self.here = None;
        out
    }

    /// A family, `U` only in two-family models.
    fn family(&mut self) -> Fam {
        if self.two && self.rng.chance(50) {
            Fam::U
        } else {
            Fam::T
        }
    }

    /// A family whose arrays can be indexed here (see [`Self::index`]).
    fn indexable_family(&mut self) -> Fam {
        let fam = self.family();
        if self.has_index(fam) {
            fam
        } else {
            fam.other()
        }
    }

    /// Whether an index of `fam`'s arrays can be written here: inside a quantifier, one
    /// that cannot fault (the family's `index` or a variable quantified over its
    /// instances), or a constant if the family is breaking.
    fn has_index(&self, fam: Fam) -> bool {
        self.quants.is_empty()
            || self.here == Some(fam)
            || self.quants.contains(&fam)
            || self.breaking[fam.at()]
    }

    /// The variables quantified over `fam`'s instances in scope.
    fn quantified(&self, fam: Fam) -> Vec<String> {
        (0..self.quants.len())
            .filter(|&k| self.quants[k] == fam)
            .map(|k| format!("k{k}"))
            .collect()
    }

    /// A pid of `fam` (may be -1 but for `index` and quantified variables).
    fn pid(&mut self, fam: Fam) -> String {
        let (slots, len) = fam.slots();
        let mut options = vec![
            fam.owner().to_string(),
            format!("{slots}[{}]", self.rng.below(len)),
        ];
        if self.here == Some(fam) {
            options.extend(["index".to_string(), "peer".to_string()]);
        } else if self.here.is_some() {
            options.push("mate".to_string());
        }
        options.extend(self.quantified(fam));
        if self.breaking[fam.at()] && self.rng.chance(10) {
            options.push(format!("{}", self.rng.below(2)));
        }
        if self.mixing && self.rng.chance(10) {
            // The other family's pid where one of `fam`'s is expected: both lose symmetry.
            options.push(fam.other().owner().to_string());
        }
        self.rng.pick(&options).clone()
    }

    /// A valid index of `fam`'s arrays: its `index` or a variable quantified over its
    /// instances (or a constant, when the family is breaking, or in the invariant). Outside
    /// quantifiers, in the other family's thread, `mate`, which may be out of bounds.
    fn index(&mut self, fam: Fam) -> String {
        let mut options = Vec::new();
        if self.here == Some(fam) {
            options.push("index".to_string());
        }
        options.extend(self.quantified(fam));
        if options.is_empty() && self.quants.is_empty() && self.here.is_some() {
            options.push("mate".to_string());
        }
        if options.is_empty() || (self.breaking[fam.at()] && self.rng.chance(15)) {
            options.push(format!("{}", self.rng.below(2)));
        }
        // Not in a quantifier, whose body could then fault: that would break the symmetry
        // of the family it ranges over, which may be the other one.
        if self.breaking[fam.at()]
            && self.here == Some(fam)
            && self.quants.is_empty()
            && self.rng.chance(5)
        {
            options.push(format!("(index + 1) % {}", fam.size()));
        }
        self.rng.pick(&options).clone()
    }

    /// An index of `fam`'s arrays that may be out of bounds (outside quantifiers only).
    fn any_index(&mut self, fam: Fam) -> String {
        if self.quants.is_empty() && self.rng.chance(25) {
            self.pid(fam)
        } else {
            self.index(fam)
        }
    }

    /// An int expression, of small values, with at most `depth` increments nested.
    fn int(&mut self, depth: usize) -> String {
        let fam = self.indexable_family();
        let mut options = vec![
            format!("{}", self.rng.below(3)),
            format!("{}[{}]", fam.ints(), self.any_index(fam)),
            "count".to_string(),
        ];
        if self.here.is_some() {
            options.push("x".to_string());
        }
        if depth > 0 && self.quants.is_empty() {
            let lhs = self.int(depth - 1);
            options.push(format!("({lhs} + 1) % 3"));
        }
        self.rng.pick(&options).clone()
    }

    /// A condition, with at most `depth` operators or quantifiers nested.
    fn boolean(&mut self, depth: usize) -> String {
        let choice = self.rng.below(if depth == 0 { 5 } else { 8 });
        match choice {
            0 => {
                let fam = self.family();
                let (p, q) = (self.pid(fam), self.pid(fam));
                let op = if self.rng.chance(50) { "==" } else { "!=" };
                format!("{p} {op} {q}")
            }
            1 => {
                let fam = self.family();
                format!("{} == -1", self.pid(fam))
            }
            2 => {
                let (i, j) = (self.int(1), self.int(1));
                let op = self.rng.pick(&["<", "<=", "==", "!="]).to_string();
                format!("{i} {op} {j}")
            }
            3 => {
                let fam = self.indexable_family();
                format!("{}[{}]", fam.flags(), self.any_index(fam))
            }
            4 => {
                let fam = match self.indexable_family() {
                    Fam::U if self.in_formula => Fam::T,
                    fam => fam,
                };
                let location = self.rng.below(self.locations[fam.at()]);
                format!(
                    "{}[{}]@{}{location}",
                    fam.thread(),
                    self.any_index(fam),
                    fam.location()
                )
            }
            5 => format!("!({})", self.boolean(depth - 1)),
            6 => {
                let op = if self.rng.chance(50) { "&&" } else { "||" };
                let (a, b) = (self.boolean(depth - 1), self.boolean(depth - 1));
                format!("({a} {op} {b})")
            }
            _ => {
                let fam = self.family();
                let k = self.quants.len();
                self.quants.push(fam);
                let body = self.boolean(depth - 1);
                self.quants.pop();
                let q = if self.rng.chance(50) {
                    "forall"
                } else {
                    "exists"
                };
                format!("{q} k{k} in 0 .. {} : ({body})", fam.size())
            }
        }
    }

    /// An action of `fam`'s thread. Writes to the other family's variables go through
    /// `mate` or the other's globals, as the ids of `Pairing`'s server and client do.
    fn action(&mut self, fam: Fam) -> String {
        let other = if self.two { fam.other() } else { fam };
        match self.rng.below(if self.two { 16 } else { 9 }) {
            0 => format!("{}[index] := {};", fam.ints(), self.int(1)),
            1 => {
                let to = self.family();
                let at = self.any_index(to);
                format!("{}[{at}] := {};", to.flags(), self.boolean(1))
            }
            2 => {
                let to = self.family();
                format!("{} := {};", to.owner(), self.pid(to))
            }
            3 => format!("peer := {};", self.pid(fam)),
            4 => {
                let to = self.family();
                let (slots, len) = to.slots();
                let at = self.rng.below(len);
                format!("{slots}[{at}] := {};", self.pid(to))
            }
            5 => "count := count + 1;".to_string(),
            6 => "count := 0;".to_string(),
            7 => format!("x := {};", self.int(1)),
            8 => format!("assert ({});", self.boolean(1)),
            // Only with two families: the cross references.
            9 => format!("mate := {};", self.pid(other)),
            // Offering one's id and taking the other family's, more often than the
            // generic actions above would: the states where both families' ids sit in
            // each other's rows are those a family-by-family canonical form gets wrong.
            10..=12 => {
                let (slots, len) = fam.slots();
                if self.rng.chance(50) {
                    format!("{} := index;", fam.owner())
                } else {
                    format!("{slots}[{}] := index;", self.rng.below(len))
                }
            }
            13 | 14 => {
                let (slots, len) = other.slots();
                if self.rng.chance(50) {
                    format!("mate := {};", other.owner())
                } else {
                    format!("mate := {slots}[{}];", self.rng.below(len))
                }
            }
            _ => {
                let at = self.any_index(other);
                format!("{}[{at}] := {};", other.ints(), self.int(1))
            }
        }
    }
}
