//! Partial-order reduction over buffered channels (SPIN's `xs`/`xr` rule, found by the
//! analysis) against the full search, on random models of a few threads that send,
//! receive, test lengths and share a global: the reduced search finds every deadlock state
//! of the full one, an error exactly when the full one does, and stores no more states;
//! and enough of the models shrink that the rule is exercised.

use bir_interp::Interpreter;
use bir_runtime::{Checker, Report};

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// One random transformation of a thread with `locations` locations over `channels`
/// channels of capacity `capacity`.
fn transform(rng: &mut Rng, channels: u64, capacity: u64, locations: u64) -> String {
    let c = format!("c{}", rng.below(channels));
    let k = rng.below(capacity + 1);
    let op = rng.pick(&["==", "<", ">", "!=", "<=", ">="]);
    let step = match rng.below(18) {
        0 | 1 => format!("do {{ {c}!(x); }}"),
        2 => format!("when !full({c}) do {{ {c}!(1); }}"),
        3 => format!("when x == {} do {{ {c}!(x); }}", rng.below(3)),
        4..=6 => format!("do {{ {c}?(x); }}"),
        7 => format!("when !empty({c}) do {{ {c}?(_); }}"),
        8 => format!("when len({c}) {op} {k} do {{ x := (x + 1) % 3; }}"),
        9 => format!("when {} do {{ }}", rng.pick(&["empty(c0)", "full(c0)"])),
        10 => format!("do {{ x := len({c}) % 3; }}"),
        11 => "do { x := (x + 1) % 3; }".to_string(),
        // A branch on a value received.
        12 => format!("when x == {} do {{ }}", rng.below(3)),
        13 => "do { g := x; }".to_string(),
        14 => "when g == 1 do { x := 2; }".to_string(),
        15 => "do { assert(x != 2); }".to_string(),
        // Stuck: a location with only these is where an instance waits for ever.
        _ => "when false do { }".to_string(),
    };
    format!("{step} goto l{};", rng.below(locations))
}

/// A random model: two or three threads (sometimes a family of two), one or two channels.
fn model(rng: &mut Rng) -> String {
    let channels = 1 + rng.below(3) / 2;
    let capacity = 1 + rng.below(3) / 2;
    let mut text = String::from("system R {\n");
    for c in 0..channels {
        text.push_str(&format!("  channel (int (0, 2)) buffer {capacity} c{c};\n"));
    }
    text.push_str("  int (0, 2) g;\n");
    for t in 0..2 + rng.below(2) {
        let header = if rng.below(5) == 0 {
            format!("active [2] thread T{t}(int index)")
        } else {
            format!("active thread T{t}()")
        };
        text.push_str(&format!("  {header} {{\n    int (0, 2) x;\n"));
        let locations = 1 + rng.below(4);
        for l in 0..locations {
            text.push_str(&format!("    loc l{l}:"));
            for _ in 0..1 + rng.below(2) {
                text.push(' ');
                text.push_str(&transform(rng, channels, capacity, locations));
            }
            text.push('\n');
        }
        text.push_str("  }\n");
    }
    if rng.below(4) == 0 {
        text.push_str(&format!("  invariant I: len(c0) < {capacity};\n"));
    }
    text.push('}');
    text
}

/// A full search past every finding, with or without partial-order reduction.
fn search(model: &Interpreter, por: bool) -> Report {
    Checker::new(model.clone())
        .keep_going(0)
        .max_states(20_000)
        .por(por)
        .progress(false)
        .run()
}

/// Checks `count` random models from `seed`; returns how many the reduction shrank.
fn check_random_models(seed: u64, count: usize) -> usize {
    let mut rng = Rng(seed);
    let (mut checked, mut shrank) = (0, 0);
    while checked < count {
        let text = model(&mut rng);
        let Ok(model) = Interpreter::from_source(&text) else {
            continue;
        };
        let full = search(&model, false);
        if !full.is_complete() {
            continue;
        }
        let reduced = search(&model, true);
        // Every deadlock of the full search is reached (an ample set is a persistent set,
        // which keeps every deadlock state); an error is found when one is.
        let kinds = |r: &Report| (r.errors() > 0, r.deadlocks());
        assert_eq!(
            kinds(&full),
            kinds(&reduced),
            "model {checked}: {text}\n{full}\n{reduced}"
        );
        assert!(reduced.states() <= full.states(), "{text}");
        shrank += usize::from(reduced.states() < full.states());
        checked += 1;
    }
    shrank
}

// Leaving out any one of the rules of `bir-codegen`'s `analyse/por/channels.rs` (tried by
// hand, one at a time) makes one of these two tests lose a deadlock or an error within its
// first 500 models; but the rule that no other instance sends (receives), which the rule
// on the lengths a send (receive) allows implies, and the rule on arrays of channels, which
// these models do not have (the unit tests of `analyse::por` cover it).

#[test]
fn reduced_searches_over_channels_keep_every_deadlock_and_error() {
    let shrank = check_random_models(0x9e37_79b9_7f4a_7c15, 1_000);
    assert!(shrank > 100, "only {shrank} models shrank");
}

#[test]
fn reduced_searches_over_channels_keep_every_deadlock_and_error_too() {
    let shrank = check_random_models(0x2545_f491_4f6c_dd1d, 1_000);
    assert!(shrank > 100, "only {shrank} models shrank");
}
