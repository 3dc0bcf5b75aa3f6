//! The textbook's readers and writers (Figure 1.4): two readers and one writer; readers
//! enter when no writer is in, the writer when nobody is. No error, no deadlock.
//!
//! `cargo run --release --example readers_writers`

use bir::bir;

bir! {
system ReadersWriters {
  const Param {
    NUM_READERS = 2;
    NUM_WRITERS = 1;
  }

  // Invariant:
  // (nr = 0 ∨ nw = 0) ∧ nw ≤ 1

  int nr := 0;
  int nw := 0;

  active [Param.NUM_READERS]
  thread Reader(int index) {
    loc loc0:
      when nw == 0 do {
        nr := nr + 1;
      } goto loc1;
    loc loc1:
      do {
      } goto loc2;
    loc loc2:
      do {
        nr := nr - 1;
      } goto loc0;
  }

  active [Param.NUM_WRITERS]
  thread Writer(int index) {
    loc loc0:
      when nr == 0 && nw < 1 do {
        nw := nw + 1;
      } goto loc1;
    loc loc1:
      do {
      } goto loc2;
    loc loc2:
      do {
        nw := nw - 1;
      } goto loc0;
  }
}
}

fn main() {
    let report = ReadersWriters::checker().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_11_states_by_21_transitions_without_error_or_deadlock() {
        for checker in [ReadersWriters::checker(), ReadersWriters::checker().bfs()] {
            let report = checker.run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (11, 21));
        }
    }

    // The invariant the textbook states as a comment, declared: it holds, same counts.
    bir::bir! {
        system ReadersWritersChecked {
            const Param { NUM_READERS = 2; NUM_WRITERS = 1; }
            int nr := 0;
            int nw := 0;
            invariant RW: (nr == 0 || nw == 0) && nw <= 1;
            active [Param.NUM_READERS] thread Reader(int index) {
                loc loc0: when nw == 0 do { nr := nr + 1; } goto loc1;
                loc loc1: do { } goto loc2;
                loc loc2: do { nr := nr - 1; } goto loc0;
            }
            active [Param.NUM_WRITERS] thread Writer(int index) {
                loc loc0: when nr == 0 && nw < 1 do { nw := nw + 1; } goto loc1;
                loc loc1: do { } goto loc2;
                loc loc2: do { nw := nw - 1; } goto loc0;
            }
        }
    }

    #[test]
    fn the_readers_writers_invariant_holds() {
        let report = ReadersWritersChecked::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (11, 21));
    }
}
