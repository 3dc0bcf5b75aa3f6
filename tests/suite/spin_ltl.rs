//! LTL differential with SPIN on random formulas: for each model with a Promela peer
//! (`peers/*.pml`, same states and transitions as the `.bir` model, one SPIN process per bir
//! thread instance), random LTL formulas over a few atomic predicates that exist in both
//! encodings are checked by bir and by SPIN, without fairness and under weak fairness, and
//! every verdict must agree.
//!
//! * bir: the `bir` command (`bir-cli`) on the model's `.bir` text with every formula
//!   appended as `ltl F0: ...;`, `ltl F1: ...;`, ... (one file, so one compiled checker per
//!   model), `bir check --ltl F --json` and `--weak-fairness`, each with the compiled checker
//!   and with the reference interpreter (`--interpret`), which must agree; the verdict is
//!   `verified` (holds) or `property` (violated), anything else fails the test. Strong fairness has no SPIN counterpart; bir's verdict under it is
//!   only checked to be consistent (what holds under weak fairness holds under strong).
//! * SPIN: the peer with every formula of the model as a named `ltl` block, `spin -a`,
//!   `gcc -DNOREDUCE` (-O0: these state spaces are tiny and compiling dominates; the
//!   verdict does not depend on it), then per formula `./pan -a -N F` and `./pan -a -f -N F`
//!   (weak fairness); a nonzero `errors:` means violated.
//!
//! The formulas use `[] <> U W R ! && || -> <->` but not `X`: the Debian build of SPIN
//! 6.5.2 rejects it ("expected predicate, saw 'X'", it is compiled without `-DNXT`). Half are
//! random trees of depth up to four over the atoms, half instances of specification
//! patterns (response, precedence, recurrence, ...) over random boolean combinations of the
//! atoms, so that both verdicts are common. Each atom is written in parentheses in both
//! languages, every subformula too.
//!
//! The seed is `BIR_SPIN_LTL_SEED` (a fresh one otherwise, printed); `BIR_SPIN_LTL_FORMULAS`
//! sets the formulas per model (default 40). Every failure message carries the seed and the
//! formula in both syntaxes, and keeps the work directory. Run more, e.g.:
//!
//! ```text
//! BIR_SPIN_LTL_FORMULAS=500 cargo test --test suite spin_ltl -- --ignored --nocapture
//! ```
//!
//! Needs `spin` and `gcc` (Debian packages); `.ci/run` runs it with `--ignored`. The test
//! builds the `bir` binary itself (`cargo build --workspace --bin bir`, in the profile and target
//! directory of this test), so that it never runs a stale one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long SPIN may take to translate one formula (`spin -a` on the peer with it alone):
/// its tableau is exponential in the formula, and a few random formulas of depth four take
/// it minutes and gigabytes. Such formulas are left out of the comparison (counted and
/// printed).
const SPIN_TRANSLATION_LIMIT: Duration = Duration::from_secs(3);

/// How long one `bir check` may take on these models of at most a few hundred states:
/// longer is a failure of the test, not a skipped formula.
const BIR_LIMIT: Duration = Duration::from_secs(120);

/// A model with a Promela peer and the atoms shared by both encodings.
struct Spec {
    /// The `.bir` file of `models/`, without extension.
    model: &'static str,
    /// `Param.N`, for the scalable families (also `-DN=` for SPIN).
    n: Option<u32>,
    /// The peer in `peers/`.
    pml: &'static str,
    /// Further `-D` definitions for `spin -a`.
    defines: &'static [&'static str],
    /// The atomic predicates: BIR text and Promela text of each.
    atoms: Vec<(String, String)>,
    /// For a model that deadlocks: a Promela expression true exactly in its deadlock states
    /// (checked: the peer with a process looping on it has no deadlock and no new state).
    deadlock: Option<String>,
}

/// `Philosopher[i]@loc` in bir, `Phil[i]@locK` in SPIN (the peers name locations `loc0..3`
/// in order of declaration; a process's pid is its instance index).
fn phil(i: u32, bir_loc: &str, locs: [&str; 4]) -> (String, String) {
    let k = locs
        .iter()
        .position(|loc| *loc == bir_loc)
        .expect("a location of the philosophers");
    (
        format!("Philosopher[{i}]@{bir_loc}"),
        format!("Phil[{i}]@loc{k}"),
    )
}

fn same(text: &str) -> (String, String) {
    (text.to_string(), text.to_string())
}

const SYMMETRIC: [&str; 4] = ["takeLeft", "takeRight", "putRight", "putLeft"];
const FIXED: [&str; 4] = ["takeFirst", "takeSecond", "putSecond", "putFirst"];

fn dining_philosophers() -> Spec {
    // The one deadlock: everyone holds the left fork.
    Spec {
        model: "dining_philosophers",
        n: Some(4),
        pml: "phils.pml",
        defines: &[],
        atoms: vec![
            phil(0, "takeRight", SYMMETRIC),
            phil(0, "putRight", SYMMETRIC),
            phil(1, "putRight", SYMMETRIC),
            phil(3, "takeLeft", SYMMETRIC),
            same("fork[2]"),
        ],
        deadlock: Some(
            (0..4)
                .map(|i| format!("Phil[{i}]@loc1"))
                .collect::<Vec<_>>()
                .join(" && "),
        ),
    }
}

fn dining_philosophers_fixed() -> Spec {
    Spec {
        model: "dining_philosophers_fixed",
        n: Some(4),
        pml: "phils.pml",
        defines: &["ASYM"],
        atoms: vec![
            phil(0, "takeSecond", FIXED),
            phil(0, "putSecond", FIXED),
            phil(3, "putSecond", FIXED),
            same("fork[0]"),
            (
                "exists i in 0 .. Param.N : (Philosopher[i]@putSecond)".to_string(),
                "Phil[0]@loc2 || Phil[1]@loc2 || Phil[2]@loc2 || Phil[3]@loc2".to_string(),
            ),
        ],
        deadlock: None,
    }
}

fn peterson_filter() -> Spec {
    // idle, announce, waiting, critical = loc0..loc3.
    Spec {
        model: "peterson_filter",
        n: Some(3),
        pml: "peterson.pml",
        defines: &[],
        atoms: vec![
            ("P[0]@waiting".to_string(), "P[0]@loc2".to_string()),
            ("P[0]@critical".to_string(), "P[0]@loc3".to_string()),
            same("incs == 1"),
            ("P[1]@critical".to_string(), "P[1]@loc3".to_string()),
            same("level[2] == 2"),
        ],
        deadlock: None,
    }
}

fn two_dining_philosophers() -> Spec {
    // Philosopher1 is process 0, Philosopher2 process 1; the deadlock: each holds a fork.
    Spec {
        model: "two_dining_philosophers",
        n: None,
        pml: "two_dining_philosophers.pml",
        defines: &[],
        atoms: vec![
            (
                "Philosopher1@loc2".to_string(),
                "Philosopher1[0]@loc2".to_string(),
            ),
            (
                "Philosopher2@loc1".to_string(),
                "Philosopher2[1]@loc1".to_string(),
            ),
            (
                "Philosopher2@loc2".to_string(),
                "Philosopher2[1]@loc2".to_string(),
            ),
            same("fork1"),
            same("fork2"),
        ],
        deadlock: Some("Philosopher1[0]@loc1 && Philosopher2[1]@loc1".to_string()),
    }
}

fn readers_writers() -> Spec {
    // Reader[0], Reader[1] and Writer[0] are processes 0, 1 and 2.
    Spec {
        model: "readers_writers",
        n: None,
        pml: "readers_writers.pml",
        defines: &[],
        atoms: vec![
            same("Reader[0]@loc1"),
            same("Reader[1]@loc2"),
            ("Writer[0]@loc1".to_string(), "Writer[2]@loc1".to_string()),
            same("nr == 2"),
            same("nw == 1"),
        ],
        deadlock: None,
    }
}

fn bounded_buffer() -> Spec {
    // Producer is process 0, Consumer process 1; `full` is `bfull` in the peer.
    Spec {
        model: "bounded_buffer",
        n: None,
        pml: "bounded_buffer.pml",
        defines: &[],
        atoms: vec![
            ("Producer@loc2".to_string(), "Producer[0]@loc2".to_string()),
            ("Producer@loc1".to_string(), "Producer[0]@loc1".to_string()),
            ("Consumer@loc2".to_string(), "Consumer[1]@loc2".to_string()),
            ("full".to_string(), "bfull".to_string()),
            same("locked"),
        ],
        deadlock: None,
    }
}

/// splitmix64: a small seeded generator, the same sequence on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Copy, Debug)]
enum Unary {
    Not,
    Always,
    Eventually,
}

#[derive(Clone, Copy, Debug)]
enum Binary {
    And,
    Or,
    Implies,
    Iff,
    Until,
    WeakUntil,
    Release,
}

#[derive(Clone, Debug)]
enum Formula {
    Atom(usize),
    Unary(Unary, Box<Formula>),
    Binary(Binary, Box<Formula>, Box<Formula>),
}

use Formula::{Atom, Binary as Bin, Unary as Un};

fn not(f: Formula) -> Formula {
    Un(Unary::Not, Box::new(f))
}
fn always(f: Formula) -> Formula {
    Un(Unary::Always, Box::new(f))
}
fn eventually(f: Formula) -> Formula {
    Un(Unary::Eventually, Box::new(f))
}
fn bin(op: Binary, a: Formula, b: Formula) -> Formula {
    Bin(op, Box::new(a), Box::new(b))
}

/// The two syntaxes: bir writes release `R`, SPIN `V`; the rest is spelled alike.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Bir,
    Spin,
}

impl Formula {
    fn render(&self, atoms: &[(String, String)], syntax: Syntax) -> String {
        match self {
            Atom(i) => {
                let (bir, spin) = &atoms[*i];
                format!("({})", if syntax == Syntax::Bir { bir } else { spin })
            }
            Un(op, f) => {
                let op = match op {
                    Unary::Not => "!",
                    Unary::Always => "[]",
                    Unary::Eventually => "<>",
                };
                format!("{op} {}", f.operand(atoms, syntax))
            }
            Bin(op, a, b) => {
                let op = match (op, syntax) {
                    (Binary::And, _) => "&&",
                    (Binary::Or, _) => "||",
                    (Binary::Implies, _) => "->",
                    (Binary::Iff, _) => "<->",
                    (Binary::Until, _) => "U",
                    (Binary::WeakUntil, _) => "W",
                    (Binary::Release, Syntax::Bir) => "R",
                    (Binary::Release, Syntax::Spin) => "V",
                };
                format!(
                    "{} {op} {}",
                    a.operand(atoms, syntax),
                    b.operand(atoms, syntax)
                )
            }
        }
    }

    /// The formula as an operand: in parentheses (an atom already is).
    fn operand(&self, atoms: &[(String, String)], syntax: Syntax) -> String {
        match self {
            Atom(_) => self.render(atoms, syntax),
            _ => format!("({})", self.render(atoms, syntax)),
        }
    }
}

/// A random formula of depth at most `depth` over `atoms` atoms. `<->` only joins
/// subformulas of depth at most one: it doubles both sides in SPIN's translation, which
/// then takes minutes on larger ones.
fn random_formula(rng: &mut Rng, atoms: usize, depth: u32) -> Formula {
    if depth == 0 || rng.below(5) == 0 {
        return Atom(rng.below(atoms));
    }
    let sub = |rng: &mut Rng| random_formula(rng, atoms, depth - 1);
    let binary = [
        Binary::And,
        Binary::Or,
        Binary::Implies,
        Binary::Until,
        Binary::WeakUntil,
        Binary::Release,
        Binary::Iff,
    ];
    let choices = if depth <= 2 { 10 } else { 9 };
    match rng.below(choices) {
        0 => not(sub(rng)),
        1 => always(sub(rng)),
        2 => eventually(sub(rng)),
        k => {
            let a = sub(rng);
            bin(binary[k - 3], a, sub(rng))
        }
    }
}

/// A state predicate: an atom, its negation, or a conjunction or disjunction of two.
fn predicate(rng: &mut Rng, atoms: usize) -> Formula {
    let literal = |rng: &mut Rng| {
        let atom = Atom(rng.below(atoms));
        if rng.below(3) == 0 {
            not(atom)
        } else {
            atom
        }
    };
    match rng.below(4) {
        0 => {
            let a = literal(rng);
            bin(Binary::And, a, literal(rng))
        }
        1 => {
            let a = literal(rng);
            bin(Binary::Or, a, literal(rng))
        }
        _ => literal(rng),
    }
}

/// An instance of a specification pattern over random predicates.
fn pattern(rng: &mut Rng, atoms: usize) -> Formula {
    let p = predicate(rng, atoms);
    let q = predicate(rng, atoms);
    let r = predicate(rng, atoms);
    use Binary::*;
    match rng.below(12) {
        // Response, recurrence, stability.
        0 => always(bin(Implies, p, eventually(q))),
        1 => always(eventually(p)),
        2 => eventually(always(p)),
        // Precedence: q does not come before p.
        3 => bin(WeakUntil, not(q), p),
        4 => bin(Implies, eventually(p.clone()), bin(Until, not(q), p)),
        // Invariance, after p.
        5 => always(p),
        6 => always(bin(Implies, p, always(q))),
        // Chains and fairness-like hypotheses.
        7 => always(bin(Implies, p, eventually(bin(And, q, eventually(r))))),
        8 => bin(Implies, always(eventually(p)), always(eventually(q))),
        9 => always(bin(Implies, p, bin(Until, q, r))),
        10 => bin(Release, p, q),
        _ => bin(Implies, eventually(always(p)), always(eventually(q))),
    }
}

/// What the tools said about one formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Holds,
    Violated,
}

/// The `bir` binary, built once, fresh: `cargo build --workspace --bin bir` in this test's profile and
/// target directory (`target/<profile>/deps/suite-...` is this test).
fn bir_binary() -> &'static Path {
    static BIR: OnceLock<PathBuf> = OnceLock::new();
    BIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test's path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("the test runs from <target>/<profile>/deps");
        let target_dir = profile_dir.parent().expect("a target directory");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build
            .current_dir(crate::repo_root())
            .args([
                "build",
                "-q",
                // The workspace's features, as `cargo test --workspace` built them: nothing
                // is compiled again.
                "--workspace",
                "--bin",
                "bir",
                "--target-dir",
            ])
            .arg(target_dir);
        if profile_dir
            .file_name()
            .is_some_and(|name| name == "release")
        {
            build.arg("--release");
        }
        let status = build.status().expect("cannot run cargo");
        assert!(status.success(), "cargo build --workspace --bin bir failed");
        let bir = profile_dir.join(format!("bir{}", std::env::consts::EXE_SUFFIX));
        assert!(bir.exists(), "no bir binary at {}", bir.display());
        bir
    })
}

/// Runs `command`, returning stdout and the exit status; panics with `context` if it
/// cannot start.
fn output(command: &mut Command, context: &str) -> (String, Option<i32>, String) {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {context}: {error}"));
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `command` with its output in `log` (and `log`.err), for at most `limit`: stdout and
/// the exit status, or `None` when it ran out of time (it is killed then).
fn output_within(
    command: &mut Command,
    log: &Path,
    limit: Duration,
    context: &str,
) -> Option<(String, Option<i32>, String)> {
    let err = log.with_extension("err");
    let file = |path: &Path| std::fs::File::create(path).expect("a log file");
    let mut child = command
        .stdout(file(log))
        .stderr(file(&err))
        .spawn()
        .unwrap_or_else(|error| panic!("cannot run {context}: {error}"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
    Some((read(log), status.code(), read(&err)))
}

/// The string value of `"key": "value"` in the JSON object `json` (the report's top-level
/// keys come before its counterexamples, so the first occurrence is the report's).
fn json_string<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let rest = &json[json.find(&format!("\"{key}\""))? + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The number value of `"key": 123` in the JSON object `json` (first occurrence).
fn json_number(json: &str, key: &str) -> Option<u64> {
    let rest = &json[json.find(&format!("\"{key}\""))? + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The number after `prefix` on the first line of `text` that contains it.
fn pan_number(text: &str, prefix: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = &line[line.find(prefix)? + prefix.len()..];
        let digits: String = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    })
}

/// pan's depth bound (`-m`): far above these models' depths, so a search that reaches it
/// is one caught going round a cycle without end (see [`Differential::spin`]).
const PAN_DEPTH: u64 = 100_000;

/// Verdicts compared, per fairness: [holds, violated, SPIN inconclusive].
type Tally = [[usize; 3]; 2];

/// The per-model state of one run of the differential.
struct Differential {
    spec: Spec,
    seed: u64,
    dir: PathBuf,
    root: PathBuf,
}

impl Differential {
    fn label(&self) -> String {
        match self.spec.n {
            Some(n) => format!("{} N={n}", self.spec.model),
            None => self.spec.model.to_string(),
        }
    }

    /// `bir check file [--set Param.N=n] args... --json`: the JSON report and exit status.
    fn bir_json(&self, file: &Path, args: &[&str], log: &str, context: &str) -> (String, i32) {
        let mut command = Command::new(bir_binary());
        // The compiled checkers go to this test's cache and are built unoptimised: a model
        // of a few hundred states is checked as fast, and built in seconds.
        command
            .env(
                "XDG_CACHE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache"),
            )
            .env("BIR_CACHE_PROFILE", "dev")
            .arg("check")
            .arg(file);
        if let Some(n) = self.spec.n {
            command.arg("--set").arg(format!("Param.N={n}"));
        }
        command.args(args).arg("--json");
        let log = self.dir.join(log);
        let Some((json, status, stderr)) = output_within(&mut command, &log, BIR_LIMIT, "bir")
        else {
            panic!("{context}\nbir check {args:?} took more than {BIR_LIMIT:?}");
        };
        let Some(status) = status.filter(|&status| status == 0 || status == 1) else {
            panic!("{context}\nbir check {args:?} failed (status {status:?}):\n{json}\n{stderr}");
        };
        (json, status)
    }

    /// bir's verdict on formula `name` (declared in `file`) under `fairness` (a flag or "").
    fn bir(&self, file: &Path, name: &str, fairness: &str, context: &str) -> Verdict {
        let mut args = vec!["--ltl", name];
        if !fairness.is_empty() {
            args.push(fairness);
        }
        let verdict = |args: &[&str], log: String| {
            let (json, status) = self.bir_json(file, args, &log, context);
            match (json_string(&json, "verdict"), status) {
                (Some("verified"), 0) => Verdict::Holds,
                (Some("property"), 1) => Verdict::Violated,
                _ => panic!(
                    "{context}\nbir {args:?} gave neither holds nor violated (status {status}):\n{json}"
                ),
            }
        };
        let compiled = verdict(&args, format!("{name}{fairness}.json"));
        args.push("--interpret");
        let interpreted = verdict(&args, format!("{name}{fairness}-interpreted.json"));
        assert_eq!(
            compiled, interpreted,
            "{context}\nbir {fairness}: the compiled checker (left) and the interpreter (right) differ"
        );
        compiled
    }

    /// SPIN's verdict on claim `name` of the compiled pan, with `-f` when `fair`; `None` when
    /// the search reached pan's depth bound without an error, which says nothing.
    ///
    /// SPIN 6.5.2's weak fairness (`-f`) has two known ways of never finishing a nested
    /// search: its second search can go round a cycle of states on the first search's stack
    /// again and again without storing them ("1st dfs-stack intersected ... fairness count
    /// non-zero" in a `-DVERBOSE` pan), down to the depth bound; and a deadlock's stutter,
    /// which moves only the claim, never completes the fairness counter, so a stuttered
    /// deadlock is never found as a fair cycle (the peers of the models that deadlock get an
    /// explicit stutter process for this, see [`Spec::deadlock`]). A violation found is
    /// still a real one.
    fn spin(&self, name: &str, fair: bool, context: &str) -> Option<Verdict> {
        let mut command = Command::new(self.dir.join("pan"));
        command
            .current_dir(&self.dir)
            .args(["-a", &format!("-m{PAN_DEPTH}"), "-w18", "-N", name]);
        if fair {
            command.arg("-f");
        }
        let (text, _, stderr) = output(&mut command, "pan");
        assert!(
            text.contains(&format!("never claim         \t+ ({name})")),
            "{context}\npan did not check claim {name}:\n{text}\n{stderr}"
        );
        let errors = pan_number(&text, "errors:")
            .unwrap_or_else(|| panic!("{context}\nno error count in pan's output:\n{text}"));
        let depth = pan_number(&text, "depth reached")
            .unwrap_or_else(|| panic!("{context}\nno depth in pan's output:\n{text}"));
        let cut = depth + 1 >= PAN_DEPTH || text.contains("max search depth too small");
        match (errors, cut) {
            (0, false) => Some(Verdict::Holds),
            (0, true) => None,
            _ => Some(Verdict::Violated),
        }
    }

    /// `spin -a` on `model.pml` of `dir`, with the model's definitions.
    fn spin_a(&self, dir: &Path) -> Command {
        let mut spin = Command::new("spin");
        spin.current_dir(dir).arg("-a");
        if let Some(n) = self.spec.n {
            spin.arg(format!("-DN={n}"));
        }
        for define in self.spec.defines {
            spin.arg(format!("-D{define}"));
        }
        spin.arg("model.pml");
        spin
    }

    /// `spin -a` and gcc (`-O0 -DNOREDUCE` and `extra`) on `pml`, in `dir`: `dir/pan`.
    fn compile_pan(&self, dir: &Path, pml: &str, extra: &[&str]) {
        std::fs::create_dir_all(dir).expect("a directory");
        std::fs::write(dir.join("model.pml"), pml).expect("writing the peer");
        let (text, status, stderr) = output(
            &mut self.spin_a(dir),
            "spin -a (install the Debian package spin)",
        );
        assert!(
            status == Some(0) && dir.join("pan.c").exists(),
            "seed {}: spin -a failed on {}:\n{text}\n{stderr}",
            self.seed,
            dir.join("model.pml").display()
        );
        let (text, status, stderr) = output(
            Command::new("gcc")
                .current_dir(dir)
                .args(["-O0", "-DNOREDUCE", "-DMEMLIM=1000"])
                .args(extra)
                .args(["-o", "pan", "pan.c"]),
            "gcc",
        );
        assert_eq!(status, Some(0), "gcc failed:\n{text}\n{stderr}");
    }

    /// The peer as compared: the Promela file, plus, for a model that deadlocks, a process
    /// that loops exactly in its deadlock states (the last process, so the others keep their
    /// pids): the stutter made explicit, which SPIN's weak fairness handles.
    fn peer(&self) -> String {
        let mut pml = std::fs::read_to_string(self.root.join("peers").join(self.spec.pml))
            .expect("the Promela peer");
        if let Some(deadlock) = &self.spec.deadlock {
            let _ = writeln!(
                pml,
                "\n/* The deadlock's stutter, explicit. */\n\
                 active proctype Stutter() {{ do :: ({deadlock}) od }}"
            );
        }
        pml
    }

    /// The peer as compared has the model's states, the model's transitions plus one
    /// stutter step per deadlock state, and no deadlock: so its processes are bir's thread
    /// instances (and the stutter process runs exactly where bir stutters).
    fn check_the_peer(&self, peer: &str, model: &Path) {
        let dir = self.dir.join("safety");
        self.compile_pan(&dir, peer, &["-DSAFETY"]);
        let (text, _, stderr) = output(
            Command::new(dir.join("pan")).current_dir(&dir).args([
                "-c0",
                &format!("-m{PAN_DEPTH}"),
                "-w18",
            ]),
            "pan",
        );
        let (json, _) = self.bir_json(model, &["--keep-going", "1"], "safety.json", "");
        let number = |key| {
            json_number(&json, key).unwrap_or_else(|| panic!("no {key} in bir's report:\n{json}"))
        };
        let (states, transitions, deadlocks) =
            (number("states"), number("transitions"), number("deadlocks"));
        let pan = |prefix| {
            pan_number(&text, prefix)
                .unwrap_or_else(|| panic!("no `{prefix}` in pan's output:\n{text}\n{stderr}"))
        };
        // pan prints its counts before their names.
        let pan_before = |suffix: &str| -> u64 {
            text.lines()
                .find_map(|line| line.trim().strip_suffix(suffix)?.trim().parse().ok())
                .or_else(|| {
                    text.lines().find_map(|line| {
                        let at = line.find(suffix)?;
                        line[..at].trim().parse().ok()
                    })
                })
                .unwrap_or_else(|| panic!("no `{suffix}` in pan's output:\n{text}"))
        };
        let label = self.label();
        assert_eq!(pan_before("states, stored"), states, "{label}: states");
        assert_eq!(
            pan_before("transitions (= stored+matched)") - 1,
            transitions + deadlocks,
            "{label}: transitions (pan counts one more)"
        );
        assert_eq!(
            pan("errors:"),
            0,
            "{label}: the peer as compared deadlocks:\n{text}"
        );
        assert_eq!(
            deadlocks > 0,
            self.spec.deadlock.is_some(),
            "{label}: bir finds {deadlocks} deadlock(s)"
        );
    }

    fn run(&self, count: usize) {
        let spec = &self.spec;
        let mut rng = Rng(self.seed ^ fnv(spec.model));
        let atoms = spec.atoms.len();
        let formulas: Vec<Formula> = (0..count)
            .map(|i| {
                if i % 2 == 0 {
                    random_formula(&mut rng, atoms, 4)
                } else {
                    pattern(&mut rng, atoms)
                }
            })
            .collect();

        let bir_path = self.root.join("models").join(format!("{}.bir", spec.model));
        let text = std::fs::read_to_string(&bir_path).expect("the .bir model");
        let end = text.rfind('}').expect("the system's closing brace");
        let peer = self.peer();
        self.check_the_peer(&peer, &bir_path);

        // SPIN: each formula alone first, to leave out those it cannot translate in time;
        // then one pan with every other formula as a named claim.
        let probe = self.dir.join("probe");
        std::fs::create_dir_all(&probe).expect("a directory");
        let mut kept = Vec::new();
        let mut skipped = Vec::new();
        for (i, formula) in formulas.iter().enumerate() {
            let claim = format!(
                "ltl F{i} {{ {} }}\n",
                formula.render(&spec.atoms, Syntax::Spin)
            );
            std::fs::write(probe.join("model.pml"), format!("{peer}{claim}"))
                .expect("writing the peer");
            let log = probe.join("spin.log");
            match output_within(
                &mut self.spin_a(&probe),
                &log,
                SPIN_TRANSLATION_LIMIT,
                "spin",
            ) {
                None => skipped.push(i),
                Some((text, status, stderr)) => {
                    assert!(
                        status == Some(0) && probe.join("pan.c").exists(),
                        "seed {}: spin -a failed on {claim}:\n{text}\n{stderr}",
                        self.seed
                    );
                    kept.push(i);
                }
            }
        }
        let mut pml = peer;
        for &i in &kept {
            let text = formulas[i].render(&spec.atoms, Syntax::Spin);
            let _ = writeln!(pml, "ltl F{i} {{ {text} }}");
        }
        self.compile_pan(&self.dir, &pml, &[]);
        // bir: the model's text with every kept formula appended, one file, so that `bir
        // check` compiles one checker per model, not one per formula.
        let mut bir_model = text[..end].to_string();
        for &i in &kept {
            let bir_text = formulas[i].render(&spec.atoms, Syntax::Bir);
            let _ = writeln!(bir_model, "  ltl F{i}: {bir_text};");
        }
        bir_model.push_str("}\n");
        let file = self.dir.join("formulas.bir");
        std::fs::write(&file, bir_model).expect("writing the model");

        let mut tally: Tally = [[0; 3]; 2];
        let mut inconclusive = Vec::new();
        for &i in &kept {
            let formula = &formulas[i];
            let name = format!("F{i}");
            let bir_text = formula.render(&spec.atoms, Syntax::Bir);
            let spin_text = formula.render(&spec.atoms, Syntax::Spin);
            let context = format!(
                "{}: formula {name} of seed {} (BIR_SPIN_LTL_SEED={} BIR_SPIN_LTL_FORMULAS={count})\n  \
                 bir:  {bir_text}\n  SPIN: {spin_text}\n  files: {} and {}",
                self.label(),
                self.seed,
                self.seed,
                file.display(),
                self.dir.join("model.pml").display()
            );
            let bir = [
                self.bir(&file, &name, "", &context),
                self.bir(&file, &name, "--weak-fairness", &context),
                self.bir(&file, &name, "--strong-fairness", &context),
            ];
            let spin = [
                self.spin(&name, false, &context),
                self.spin(&name, true, &context),
            ];
            for (fairness, (pan, label)) in [
                ("pan -a", "without fairness"),
                ("pan -a -f", "under weak fairness"),
            ]
            .into_iter()
            .enumerate()
            {
                match spin[fairness] {
                    Some(verdict) => {
                        assert_eq!(
                            bir[fairness], verdict,
                            "{context}\n{label}: bir says {:?}, SPIN ({pan}) {verdict:?}",
                            bir[fairness]
                        );
                        tally[fairness][usize::from(verdict == Verdict::Violated)] += 1;
                    }
                    None => {
                        tally[fairness][2] += 1;
                        inconclusive.push(format!(
                            "{name} {label} (bir: {:?}): {spin_text}",
                            bir[fairness]
                        ));
                    }
                }
            }
            // Fairness only removes runs: what holds without holds with it, weak or strong.
            assert!(
                bir[0] == Verdict::Violated || bir[1] == Verdict::Holds,
                "{context}\nholds without fairness but not under weak fairness"
            );
            assert!(
                bir[1] == Verdict::Violated || bir[2] == Verdict::Holds,
                "{context}\nholds under weak fairness but not under strong fairness"
            );
        }
        let label = self.label();
        for &i in &skipped {
            eprintln!(
                "spin_ltl: {label}: seed {}: F{i} left out, SPIN did not translate it within {:?}: {}",
                self.seed,
                SPIN_TRANSLATION_LIMIT,
                formulas[i].render(&spec.atoms, Syntax::Spin)
            );
        }
        for line in &inconclusive {
            eprintln!(
                "spin_ltl: {label}: seed {}: SPIN inconclusive (depth bound reached, no error): {line}",
                self.seed
            );
        }
        let [none, weak] = tally;
        eprintln!(
            "spin_ltl: {label}: seed {}: {} formulas ({} left out); verdicts equal: \
             no fairness {} hold, {} violated ({} SPIN inconclusive); \
             weak fairness {} hold, {} violated ({} SPIN inconclusive)",
            self.seed,
            kept.len(),
            skipped.len(),
            none[0],
            none[1],
            none[2],
            weak[0],
            weak[1],
            weak[2]
        );
        // Most formulas must be compared, with both verdicts, or the comparison says little.
        assert!(
            kept.len() * 3 >= count * 2,
            "{label}: seed {}: SPIN could not translate {} of {count} formulas in time",
            self.seed,
            skipped.len()
        );
        assert!(
            none[0] + weak[0] > 0 && none[1] + weak[1] > 0,
            "{label}: seed {}: the verdicts were all alike: {tally:?}",
            self.seed
        );
        assert!(
            none[2] == 0,
            "{label}: seed {}: SPIN without fairness reached its depth bound",
            self.seed
        );
    }
}

/// FNV-1a of `text`: a per-model offset of the seed, so the models get different formulas.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seed of this run: `BIR_SPIN_LTL_SEED`, or one from the clock (printed).
fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        let seed = match std::env::var("BIR_SPIN_LTL_SEED") {
            Ok(text) => text
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("BIR_SPIN_LTL_SEED must be a number, got `{text}`")),
            Err(_) => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs()),
        };
        eprintln!("spin_ltl: BIR_SPIN_LTL_SEED={seed}");
        seed
    })
}

fn differential(spec: Spec) {
    let count = match std::env::var("BIR_SPIN_LTL_FORMULAS") {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("BIR_SPIN_LTL_FORMULAS must be a number, got `{text}`")),
        Err(_) => 40,
    };
    let seed = seed();
    let dir = std::env::temp_dir().join(format!(
        "bir-spin-ltl-{}-{}",
        spec.model,
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let differential = Differential {
        spec,
        seed,
        dir,
        root: crate::repo_root().to_path_buf(),
    };
    differential.run(count);
    // Kept when the run panicked, for the files the failure message names.
    let _ = std::fs::remove_dir_all(&differential.dir);
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_dining_philosophers() {
    differential(dining_philosophers());
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_dining_philosophers_fixed() {
    differential(dining_philosophers_fixed());
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_peterson_filter() {
    differential(peterson_filter());
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_two_dining_philosophers() {
    differential(two_dining_philosophers());
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_readers_writers() {
    differential(readers_writers());
}

#[test]
#[ignore = "needs spin and gcc: run by .ci/run"]
fn spin_agrees_on_random_ltl_bounded_buffer() {
    differential(bounded_buffer());
}

#[test]
fn formulas_render_alike_in_both_syntaxes() {
    let atoms = [
        ("P[0]@waiting".to_string(), "P[0]@loc2".to_string()),
        ("full".to_string(), "bfull".to_string()),
    ];
    let formula = always(bin(
        Binary::Implies,
        Atom(0),
        bin(Binary::Release, not(Atom(1)), eventually(Atom(0))),
    ));
    assert_eq!(
        formula.render(&atoms, Syntax::Bir),
        "[] ((P[0]@waiting) -> ((! (full)) R (<> (P[0]@waiting))))"
    );
    assert_eq!(
        formula.render(&atoms, Syntax::Spin),
        "[] ((P[0]@loc2) -> ((! (bfull)) V (<> (P[0]@loc2))))"
    );
    let json = r#"{"model": "S", "verdict": "property", "counterexamples": [{"kind": "x"}]}"#;
    assert_eq!(json_string(json, "verdict"), Some("property"));
    assert_eq!(json_string(json, "kind"), Some("x"));
    assert_eq!(json_string(json, "missing"), None);
    // The seeded generator is deterministic.
    let (mut a, mut b) = (Rng(7), Rng(7));
    let (fa, fb) = (pattern(&mut a, 5), pattern(&mut b, 5));
    assert_eq!(
        fa.render(&atoms_of(5), Syntax::Bir),
        fb.render(&atoms_of(5), Syntax::Bir)
    );
}

fn atoms_of(n: usize) -> Vec<(String, String)> {
    (0..n).map(|i| same(&format!("a{i}"))).collect()
}
