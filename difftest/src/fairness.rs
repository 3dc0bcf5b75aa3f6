// Random models whose liveness verdicts fairness decides, for the differential test of the
// fair searches against the whole product (`tests/interpreted.rs`). Included by the
// library after `generate.rs` (whose `Rng` it uses).
//
// Two or three threads, each of its own declaration (`T0`, `T1`, `T2`, so that fairness
// counts each apart), of two or three locations, over two or three shared flags. A step
// waits for a flag or for none, and sets, clears or flips a flag, or does nothing: one
// thread flipping a flag forever enables another's step infinitely often but not
// continuously, the case where strong fairness forces a step that weak fairness does not,
// and one thread spinning while another waits with its step enabled throughout is the case
// where weak fairness forces it. The properties are progress patterns over the threads'
// locations (`<>p`, `[]<>p`, `[](a -> <>p)`). At most 3^3 locations times 2^3 flags: every
// product is small enough for the oracle.

/// A random model whose liveness verdicts depend on fairness, named `name`, from `seed`.
pub fn generate_fairness(name: &str, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0xFA12_0F17);
    let threads = rng.range(2, 3) as usize;
    let flags = rng.range(2, 3);
    let locations: Vec<usize> = (0..threads).map(|_| rng.range(2, 3) as usize).collect();
    let mut out = format!("system {name} {{\n  boolean[{flags}] b;\n");
    for (t, &count) in locations.iter().enumerate() {
        out.push_str(&format!("  active thread T{t}() {{\n"));
        for l in 0..count {
            out.push_str(&format!("    loc l{l}:\n"));
            for _ in 0..rng.range(1, 2) {
                let guard = match rng.below(4) {
                    0 => String::new(),
                    1 => format!("when !b[{}] ", rng.range(0, flags - 1)),
                    _ => format!("when b[{}] ", rng.range(0, flags - 1)),
                };
                let flag = rng.range(0, flags - 1);
                let action = match rng.below(4) {
                    0 => String::new(),
                    1 => format!("b[{flag}] := true;"),
                    2 => format!("b[{flag}] := false;"),
                    _ => format!("b[{flag}] := !b[{flag}];"),
                };
                let to = rng.below(count);
                out.push_str(&format!("      {guard}do {{ {action} }} goto l{to};\n"));
            }
        }
        out.push_str("  }\n");
    }
    let at = |rng: &mut Rng| {
        let t = rng.below(threads);
        format!("T{t}@l{}", rng.below(locations[t]))
    };
    for p in 0..rng.range(1, 3) {
        let formula = match rng.below(3) {
            0 => format!("<>({})", at(&mut rng)),
            1 => format!("[]<>({})", at(&mut rng)),
            _ => format!("[](({}) -> <>({}))", at(&mut rng), at(&mut rng)),
        };
        out.push_str(&format!("  ltl P{p}: {formula};\n"));
    }
    out.push_str("}\n");
    out
}
