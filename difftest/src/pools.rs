/// A random model with a pool of threads created at run time (LANGUAGE.md, version 3,
/// "Threads created at run time"): a pool `thread[k] W(int (0, 3) a, tid peer)` whose
/// instances clients start in a loop, keeping their tids in locals, globals and (sometimes)
/// a channel of tids; workers that read the tids they were given, wait on
/// `threadTerminated`, may `exit` early, take a lock and end holding it; sometimes a
/// version-1 started thread whose tid is kept too; sometimes an invariant on the pool's last
/// step, over all its instances or naming `W[0]`. Starts past the pool's size are start
/// errors where all instances run, so that the searches meet faults as well as freed and
/// reused slots. Its own stream of seeds: the other generators' models do not change.
pub fn generate_pools(name: &str, seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x7001_5EED);
    let size = 1 + rng.below(3);
    let starts = 1 + rng.below(3);
    let clients = 1 + rng.below(2);
    let buffered = rng.chance(50);
    let lock = rng.chance(40);
    let started = rng.chance(30);
    let mut out = format!("system {name} {{\n");
    out.push_str("  int (0, 3) g;\n  tid t0;\n  tid[2] ts;\n");
    if buffered {
        out.push_str("  channel (tid) buffer 2 c;\n");
    }
    if lock {
        out.push_str("  lock m;\n");
    }
    out.push_str(&format!("  thread[{size}] W(int (0, 3) a, tid peer) {{\n"));
    let mut steps: Vec<&str> = vec![
        "    g := (g + a) % 4;\n",
        "    if peer != null do t0 := peer; else do t0 := null; end\n",
        "    choose when threadTerminated(peer) do g := 0; when g < 2 do skip; end\n",
        "    if g == 3 do exit; end\n",
        "    if a < 3 do a := a + 1; end\n",
        "    ts[a % 2] := peer;\n",
    ];
    if lock {
        steps.push("    lock(m);\n");
        steps.push("    if hasLock(m) do unlock(m); end\n");
    }
    if buffered {
        steps.push("    if !full(c) do c!(peer); end\n");
    }
    let count = 1 + rng.below(3);
    // Where the last step starts: the location a pool invariant may name (below).
    let mut last_step = out.len();
    for _ in 0..count {
        let step = *rng.pick(&steps);
        last_step = out.len();
        out.push_str(step);
    }
    out.push_str("  }\n");
    if started {
        out.push_str("  thread S(int (0, 3) x) {\n    g := x;\n  }\n");
    }
    let header = if clients == 2 {
        "  active [2] thread C(int index) {\n"
    } else {
        "  active thread C() {\n"
    };
    out.push_str(header);
    out.push_str("    int (0, 3) n;\n    tid mine;\n");
    out.push_str(&format!("    while n < {starts} do\n"));
    let start = *rng.pick(&[
        "      mine := start W(n, mine);\n",
        "      mine := start W(g, t0);\n",
        "      ts[n % 2] := start W(n, null);\n      mine := ts[n % 2];\n",
    ]);
    out.push_str(start);
    let mut loop_steps: Vec<&str> = vec![
        "      choose when threadTerminated(mine) do skip; else do skip; end\n",
        "      choose when threadTerminated(mine) do skip; end\n",
        "      t0 := mine;\n",
        "      if mine == ts[0] do g := 1; end\n",
    ];
    if buffered {
        loop_steps.push("      if !empty(c) do c?(mine); end\n");
    }
    if rng.chance(70) {
        let step = *rng.pick(&loop_steps);
        out.push_str(step);
    }
    out.push_str("      n := n + 1;\n    end\n");
    if started {
        out.push_str("    if t0 == null do t0 := start S(n); end\n");
    }
    if lock && rng.chance(50) {
        out.push_str("    lock(m);\n    unlock(m);\n");
    }
    if rng.chance(40) {
        out.push_str("    assert(threadTerminated(ts[0]) || g != 2);\n");
    }
    out.push_str("  }\n");
    let invariants = [
        "  invariant I: g != 3 || t0 == null || ts[1] != null;\n",
        "  invariant I: threadTerminated(ts[1]) || ts[0] != ts[1];\n",
    ];
    if rng.chance(50) {
        let invariant = *rng.pick(&invariants);
        out.push_str(invariant);
    }
    // Drawn last, so that the rest of a seed's model is what it was before: an invariant on
    // the pool's last step, over all its instances (the group stays whole) or naming
    // `W[0]` (which the group then fixes); the step is labelled `busy` only then.
    if size >= 2 && rng.chance(30) {
        let named = if rng.chance(50) {
            "W[0]@busy".to_string()
        } else {
            format!("(exists k in 0 .. {size} : (W[k]@busy))")
        };
        out.push_str(&format!("  invariant Busy: !({named} && g == 3);\n"));
        out.insert_str(last_step + 4, "loc busy: ");
    }
    out.push_str("}\n");
    out
}
