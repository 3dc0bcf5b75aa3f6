// Random small models of LANGUAGE.md's records and heap ("Records and the heap"), for the
// brute-force check of the canonical heap (`tests/heap.rs`) and the differential test
// (`build.rs` compiles `BIR_DIFF_HEAP` of them): one or two record types with bounds 1 to
// 3, each with an int field and one or two reference fields (to its own type or the
// other), global and local references, one or two threads (one of them sometimes
// `active [2]`) whose bodies allocate (`new`), link (`x.f := y`), follow (`x := y.f`),
// unlink and drop (`:= null`) references, write and read int fields, and compare
// references (`==`, `!=` against each other and against `null`), in `if`, `choose`,
// `atomic` blocks and an optional outer loop; in three models of ten, a buffered channel of
// references that the threads send on and receive from (its messages are roots too). Null errors (a field through `null`) and heap
// errors (more live objects than the bound) are as likely as the random walk makes them.
// In two models of five, exceptions (LANGUAGE.md, "Exceptions"): a `throwable record` X
// (with a reference field, so that a thrown object holds others alive) and Y, a function
// `fx(k)` that allocates an X and throws it when `k == 0`, a function `fz(k)` that calls it
// in a `try` catching only Y (so an X is caught in a caller's frame, two frames up), and in
// the threads `try`/`catch` around those calls and around a direct `throw`, calls outside
// any `try` (uncaught exceptions) and, sometimes, a low-level thread whose `catch` clauses
// cover some of its locations (the first matching clause in source order wins; a throw at
// a location no clause covers is uncaught). Those choices come from a stream of their own,
// so that a model without exceptions is what it was for its seed.
// In one model of three, array fields (`R1[2] a;`): some record types get an array of two
// references, which the threads link (`x.a[i] := y`, `:= null`) and follow
// (`y := x.a[i]`) by constant indices and, where the model has the int global `g`
// (`int (0, 2)`), by `g`, whose 2 is an index error. Those choices too come from a stream
// of their own.
// Included after `generate.rs` (whose `Rng` it uses), on its own: it shares no state with
// the other generators, so that their models stay what they were for every seed.

/// One record type of a heap model.
struct HeapRecord {
    name: String,
    /// The int field `v`'s upper bound (`int (0, hi)`).
    hi: i64,
    /// The reference fields: name and the index of the record type they refer to.
    refs: Vec<(String, usize)>,
    /// The array fields of references: name, the record type they refer to, length.
    arrays: Vec<(String, usize, usize)>,
}

/// A reference variable in scope: its name and record type.
#[derive(Clone)]
struct HeapVar {
    name: String,
    record: usize,
}

/// The generator of one heap model.
struct HeapGen {
    rng: Rng,
    records: Vec<HeapRecord>,
    /// Global reference variables.
    globals: Vec<HeapVar>,
    /// Whether the model has the int global `g` (`int (0, 2)`).
    int_global: bool,
    /// The record type of the buffered channel `c` of references, when there is one.
    channel: Option<usize>,
    /// The choices of the exceptions, when the model has them.
    exceptions: Option<Rng>,
    /// The choices of the array fields' statements, when the model has array fields.
    arrays: Option<Rng>,
}

/// A random heap model named `name`, from `seed`.
pub fn generate_heap(name: &str, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x4EA9_0000_4EA9);
    let types = 1 + rng.below(2);
    let mut records = Vec::new();
    for r in 0..types {
        let mut refs = Vec::new();
        for f in 0..1 + rng.below(2) {
            refs.push((format!("f{f}"), rng.below(types)));
        }
        // A reference field to the other type, so that both are reachable from each other
        // now and then.
        if types == 2 && refs.iter().all(|&(_, to)| to == r) && rng.chance(50) {
            refs[0].1 = 1 - r;
        }
        records.push(HeapRecord {
            name: format!("R{r}"),
            hi: 1 + rng.below(2) as i64,
            refs,
            arrays: Vec::new(),
        });
    }
    let mut arrays = Rng::new(seed ^ 0xA77A_0000_A77A);
    let mut arrays = arrays.chance(33).then_some(arrays);
    if let Some(arng) = arrays.as_mut() {
        for record in &mut records {
            if arng.chance(60) {
                record.arrays.push(("a".to_string(), arng.below(types), 2));
            }
        }
        if records.iter().all(|r| r.arrays.is_empty()) {
            records[0].arrays.push(("a".to_string(), arng.below(types), 2));
        }
    }
    let mut globals = Vec::new();
    for g in 0..1 + rng.below(2) {
        globals.push(HeapVar {
            name: format!("g{g}"),
            record: rng.below(types),
        });
    }
    let int_global = rng.chance(50);
    let channel = if rng.chance(30) {
        Some(rng.below(types))
    } else {
        None
    };
    let mut exceptions = Rng::new(seed ^ 0xE8C3_0000_E8C3);
    let exceptions = exceptions.chance(40).then_some(exceptions);
    let mut gen = HeapGen {
        rng,
        records,
        globals,
        int_global,
        channel,
        exceptions,
        arrays,
    };
    gen.system(name)
}

impl HeapGen {
    fn system(&mut self, name: &str) -> String {
        let mut out = format!("system {name} {{\n");
        for record in &self.records {
            let bound = 1 + self.rng.below(3);
            out += &format!(
                "  record[{bound}] {} {{ int (0, {}) v; ",
                record.name, record.hi
            );
            for (field, to) in &record.refs {
                out += &format!("{} {field}; ", self.records[*to].name);
            }
            for (field, to, len) in &record.arrays {
                out += &format!("{}[{len}] {field}; ", self.records[*to].name);
            }
            out += "}\n";
        }
        for global in &self.globals {
            out += &format!("  {} {};\n", self.records[global.record].name, global.name);
        }
        if self.int_global {
            out += "  int (0, 2) g;\n";
        }
        if let Some(r) = self.channel {
            let buffer = 1 + self.rng.below(2);
            out += &format!("  channel ({}) buffer {buffer} c;\n", self.records[r].name);
        }
        if self.exceptions.is_some() {
            out += &self.exception_declarations();
        }
        let threads = 1 + self.rng.below(2);
        for t in 0..threads {
            out += &self.thread(t);
        }
        if let Some(erng) = &mut self.exceptions {
            if erng.chance(40) {
                out += &low_level_catcher(erng);
            }
        }
        out += "}\n";
        out
    }

    fn thread(&mut self, t: usize) -> String {
        let replicated = self.rng.chance(25);
        let mut out = if replicated {
            format!("  active [2] thread T{t}(int (0, 1) id) {{\n")
        } else {
            format!("  active thread T{t}() {{\n")
        };
        let mut scope = self.globals.clone();
        for l in 0..1 + self.rng.below(2) {
            let record = self.rng.below(self.records.len());
            let name = format!("t{t}l{l}");
            out += &format!("    {} {name};\n", self.records[record].name);
            scope.push(HeapVar { name, record });
        }
        if self.exceptions.is_some() {
            out += "    X xl;\n";
        }
        // Most threads begin with an allocation, so that their field accesses find an
        // object more often than not.
        if self.rng.chance(70) {
            let local = scope.last().expect("a local").clone();
            out += &format!(
                "    {} := new {};\n",
                local.name, self.records[local.record].name
            );
        }
        let looping = self.rng.chance(50);
        let steps = 2 + self.rng.below(if looping { 4 } else { 6 });
        let indent = if looping { "      " } else { "    " };
        if looping {
            out += "    while true do\n";
        }
        for _ in 0..steps {
            out += &self.statement(&scope, indent, 1);
            out += &self.exception_statement(replicated, indent);
            out += &self.array_statement(&scope, indent);
        }
        if looping {
            out += "    end\n";
        }
        out += "  }\n";
        out
    }

    /// The throwable records X and Y and the functions `fx` and `fz`.
    fn exception_declarations(&mut self) -> String {
        let erng = self.exceptions.as_mut().expect("exceptions");
        let bound = 1 + erng.below(2);
        let held = &self.records[erng.below(self.records.len())].name;
        let mut out = format!(
            "  throwable record[{bound}] X {{ int (0, 2) code; {held} keep; }}\n\
             \x20 throwable record[1] Y {{ boolean b; }}\n"
        );
        // The thrown object holds a global's object now and then.
        let keep = self
            .globals
            .iter()
            .find(|g| self.records[g.record].name == *held)
            .filter(|_| erng.chance(50))
            .map(|g| format!("    e.keep := {};\n", g.name))
            .unwrap_or_default();
        out += &format!(
            "  function fx(int (0, 1) k) {{\n    X e;\n    e := new X;\n    e.code := k + 1;\n\
             {keep}    if k == 0 do throw e; end\n  }}\n"
        );
        out += "  function fz(int (0, 1) k) {\n    try\n      fx(k);\n    catch (Y y)\n      \
                skip;\n    end\n  }\n";
        out
    }

    /// Now and then, after a thread's statement, one with exceptions: a `try` around a
    /// call of `fx` (caught one frame up) or `fz` (two frames up) or around a direct
    /// `throw`, a `try` whose handler does not match, or a call outside any `try`.
    fn exception_statement(&mut self, replicated: bool, indent: &str) -> String {
        let int_global = self.int_global;
        let Some(erng) = self.exceptions.as_mut() else {
            return String::new();
        };
        if !erng.chance(35) {
            return String::new();
        }
        let k = match erng.below(3) {
            0 if replicated => "id".to_string(),
            n => (n % 2).to_string(),
        };
        let inner = format!("{indent}  ");
        let handler = match erng.below(3) {
            0 => "skip;".to_string(),
            1 if int_global => "g := x.code;".to_string(),
            _ => "xl := x;".to_string(),
        };
        let catch_x = |body: String| {
            format!("{indent}try\n{body}{indent}catch (X x)\n{inner}{handler}\n{indent}end\n")
        };
        match erng.below(10) {
            0..=3 => catch_x(format!("{inner}fx({k});\n")),
            4 | 5 => catch_x(format!("{inner}fz({k});\n")),
            6 => catch_x(format!("{inner}xl := new X;\n{inner}throw xl;\n")),
            7 => format!("{indent}try\n{inner}fx(1);\n{indent}catch (Y y)\n{inner}skip;\n{indent}end\n"),
            _ => format!("{indent}fx({k});\n"),
        }
    }

    /// Now and then, after a thread's statement, one on an array field: a link, an
    /// unlink or a follow of an element, by a constant index or by `g`.
    fn array_statement(&mut self, scope: &[HeapVar], indent: &str) -> String {
        let int_global = self.int_global;
        let Some(arng) = self.arrays.as_mut() else {
            return String::new();
        };
        if !arng.chance(50) {
            return String::new();
        }
        let holders: Vec<&HeapVar> = scope
            .iter()
            .filter(|v| !self.records[v.record].arrays.is_empty())
            .collect();
        if holders.is_empty() {
            return String::new();
        }
        let x = holders[arng.below(holders.len())].clone();
        let arrays = &self.records[x.record].arrays;
        let (field, to, len) = arrays[arng.below(arrays.len())].clone();
        let index = if int_global && arng.chance(25) {
            "g".to_string()
        } else {
            arng.below(len).to_string()
        };
        let element = format!("{}.{field}[{index}]", x.name);
        let same: Vec<&HeapVar> = scope.iter().filter(|v| v.record == to).collect();
        let other = (!same.is_empty()).then(|| same[arng.below(same.len())].name.clone());
        let action = match (arng.below(4), other) {
            (0 | 1, Some(y)) => format!("{element} := {y};"),
            (2, Some(y)) => format!("{y} := {element};"),
            _ => format!("{element} := null;"),
        };
        if arng.chance(60) {
            format!("{indent}if {} != null do {action} end\n", x.name)
        } else {
            format!("{indent}{action}\n")
        }
    }

    /// A reference variable of `scope`, of type `record` when given.
    fn var(&mut self, scope: &[HeapVar], record: Option<usize>) -> Option<HeapVar> {
        let fitting: Vec<&HeapVar> = scope
            .iter()
            .filter(|v| record.is_none_or(|r| v.record == r))
            .collect();
        if fitting.is_empty() {
            None
        } else {
            Some(fitting[self.rng.below(fitting.len())].clone())
        }
    }

    /// A reference expression of type `record`: a variable, a field of one, or `null`.
    fn reference(&mut self, scope: &[HeapVar], record: usize) -> String {
        match self.rng.below(6) {
            0 => "null".to_string(),
            1 | 2 => {
                // A field of type `record` of some variable.
                let holders: Vec<(String, String)> = scope
                    .iter()
                    .flat_map(|v| {
                        self.records[v.record]
                            .refs
                            .iter()
                            .filter(|(_, to)| *to == record)
                            .map(|(f, _)| (v.name.clone(), f.clone()))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                if holders.is_empty() {
                    "null".to_string()
                } else {
                    let (v, f) = &holders[self.rng.below(holders.len())];
                    format!("{v}.{f}")
                }
            }
            _ => match self.var(scope, Some(record)) {
                Some(v) => v.name,
                None => "null".to_string(),
            },
        }
    }

    /// A boolean condition over references (and the int global).
    fn condition(&mut self, scope: &[HeapVar]) -> String {
        let v = self.var(scope, None).expect("every scope has a reference");
        match self.rng.below(5) {
            0 | 1 => {
                let op = if self.rng.chance(50) { "==" } else { "!=" };
                format!("{} {op} null", v.name)
            }
            2 => {
                let other = self.reference(scope, v.record);
                let op = if self.rng.chance(50) { "==" } else { "!=" };
                format!("{} {op} {other}", v.name)
            }
            3 if self.int_global => format!("g < {}", 1 + self.rng.below(2)),
            _ => format!(
                "{} != null && {}.v == {}",
                v.name,
                v.name,
                self.rng.range(0, self.records[v.record].hi)
            ),
        }
    }

    /// One simple action, with its `;`: allocations and links are the likeliest, field
    /// accesses through a variable that may be null are guarded half of the time.
    fn action(&mut self, scope: &[HeapVar]) -> String {
        let v = self.var(scope, None).expect("every scope has a reference");
        let record = v.record;
        let guarded = |rng: &mut Rng, action: String| {
            if rng.chance(50) {
                format!("if {} != null do {action} end", v.name)
            } else {
                action
            }
        };
        match self.rng.below(12) {
            0..=2 => format!("{} := new {};", v.name, self.records[record].name),
            3 => format!("{} := null;", v.name),
            4 | 5 => {
                let value = self.reference(scope, record);
                format!("{} := {value};", v.name)
            }
            6..=8 => {
                // Link or unlink: a reference field of `v`.
                let refs = &self.records[record].refs;
                let (field, to) = refs[self.rng.below(refs.len())].clone();
                let value = if self.rng.chance(20) {
                    "null".to_string()
                } else {
                    match self.var(scope, Some(to)) {
                        Some(w) if self.rng.chance(70) => w.name,
                        _ => self.reference(scope, to),
                    }
                };
                guarded(&mut self.rng, format!("{}.{field} := {value};", v.name))
            }
            9 => {
                let value = self.rng.range(0, self.records[record].hi);
                guarded(&mut self.rng, format!("{}.v := {value};", v.name))
            }
            10 if self.int_global => {
                let hi = self.records[record].hi.min(2);
                guarded(&mut self.rng, format!("g := {}.v % {};", v.name, hi + 1))
            }
            _ => {
                let c = self.condition(scope);
                format!("assert({c} || true);")
            }
        }
    }

    /// A statement at `indent`, blocks nested up to `depth` more levels.
    fn statement(&mut self, scope: &[HeapVar], indent: &str, depth: usize) -> String {
        let inner = format!("{indent}  ");
        match self.rng.below(10) {
            0 | 1 if depth > 0 => {
                let c = self.condition(scope);
                let mut out = format!("{indent}if {c} do\n");
                out += &self.statement(scope, &inner, depth - 1);
                if self.rng.chance(50) {
                    out += &format!("{indent}else do\n");
                    out += &self.statement(scope, &inner, depth - 1);
                }
                out + &format!("{indent}end\n")
            }
            2 if depth > 0 => {
                let mut out = format!("{indent}choose\n");
                for _ in 0..2 {
                    let c = if self.rng.chance(50) {
                        "true".to_string()
                    } else {
                        self.condition(scope)
                    };
                    out += &format!("{indent}when {c} do\n");
                    out += &self.statement(scope, &format!("{inner}  "), 0);
                }
                if self.rng.chance(50) {
                    out += &format!("{indent}else do skip;\n");
                }
                out + &format!("{indent}end\n")
            }
            4 if self.channel.is_some() => {
                // A send or a receive of a reference, or nothing when it is not ready.
                let r = self.channel.expect("a channel");
                let Some(v) = self.var(scope, Some(r)) else {
                    return format!("{indent}skip;\n");
                };
                let comm = if self.rng.chance(50) {
                    format!("when !full(c) do c!({});", v.name)
                } else {
                    format!("when !empty(c) do c?({});", v.name)
                };
                format!("{indent}choose {comm} else do skip; end\n")
            }
            3 => {
                let mut out = format!("{indent}atomic\n");
                for _ in 0..2 {
                    out += &format!("{inner}{}\n", self.action(scope));
                }
                out + &format!("{indent}end\n")
            }
            _ => format!("{indent}{}\n", self.action(scope)),
        }
    }
}

/// A low-level thread that allocates an X, throws it, and catches it (or not) with
/// `catch` clauses among its locations: a clause for Y first now and then (which never
/// matches), the X clause covering `throwing` (or, one time in five, only `make`: the throw
/// is then uncaught), the handler going on or starting again.
fn low_level_catcher(erng: &mut Rng) -> String {
    let mut out = String::from("  active thread TL() {\n    X a;\n");
    out += "    loc make: do { a := new X; } goto throwing;\n";
    out += "    loc throwing: do { throw a; } goto make;\n";
    let after = if erng.chance(50) { "done" } else { "make" };
    out += &format!("    loc caught: do {{ a := null; }} goto {after};\n");
    out += "    loc done: do { } return;\n";
    if erng.chance(40) {
        out += "    catch Y y at make, throwing goto done;\n";
    }
    let covered = if erng.chance(20) {
        "make"
    } else if erng.chance(50) {
        "make, throwing"
    } else {
        "throwing"
    };
    out += &format!("    catch X x at {covered} goto caught;\n");
    out += "  }\n";
    out
}
