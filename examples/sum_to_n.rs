//! SumToN (after Figure 1.5): two threads double `x` through shared temporaries while a
//! third asserts, once, at any moment, that `x != N`. The assertion can fail, and a
//! schedule where the byte wraps to 0 deadlocks.
//!
//! `cargo run --release --example sum_to_n`

use bir::bir;

bir! {
// SumToN, after Figure 1.5 of the BIR chapter: Thread1 and Thread2 copy x into the
// temporaries and write their sum back; Thread0 asserts once, at any moment, that x != N.
// The figure itself is not in the text we have; this reconstruction fixes x := 1 and
// shared temporaries, as in the Bogor course version of the example.
system SumToN {
  const Param { N = 2; }

  byte x := 1;
  byte t1;
  byte t2;

  active thread Thread0() {
    loc loc0:
      do { assert (x != Param.N); } return;
  }

  active thread Thread1() {
    loc loc0:
      when x != 0 do { t1 := x; } goto loc1;
    loc loc1:
      do { t2 := x; } goto loc2;
    loc loc2:
      do { x := t1 + t2; } goto loc0;
  }

  active thread Thread2() {
    loc loc0:
      when x != 0 do { t1 := x; } goto loc1;
    loc loc1:
      do { t2 := x; } goto loc2;
    loc loc2:
      do { x := t1 + t2; } goto loc0;
  }
}
}

fn main() {
    // Breadth-first: the shortest path to the first finding.
    let report = SumToN::checker().bfs().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    use bir::FindingKind;

    #[test]
    fn the_default_depth_first_search_stops_at_a_deadlock_after_25_steps() {
        let report = SumToN::checker().run();
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.len(), 25);
        // Thread0 has asserted and ended; the byte x has wrapped to 0.
        assert_eq!(deadlock.final_state()[0], 0);
    }

    #[test]
    fn breadth_first_search_finds_the_assertion_after_4_steps() {
        let report = SumToN::checker().bfs().run();
        let failure = report.assert_found(FindingKind::Assertion);
        assert_eq!(failure.len(), 4);
        assert!(failure.message().contains("x != Param.N"));
    }

    #[test]
    fn exploring_everything_finds_42_error_steps_and_1_deadlock() {
        for checker in [SumToN::checker(), SumToN::checker().bfs()] {
            let report = checker.keep_going(100).run();
            assert_eq!((report.states(), report.transitions()), (15_276, 38_174));
            assert_eq!((report.errors(), report.deadlocks()), (42, 1));
            assert_eq!(report.findings().len(), 43);
        }
    }
}
