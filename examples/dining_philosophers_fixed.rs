//! Dining philosophers where the last one takes the right fork first
//! (`models/dining_philosophers_fixed.bir`): the cycle is broken, no deadlock.
//!
//! `cargo run --release --example dining_philosophers_fixed`

use bir::bir;

bir! {
// The same table, but the last philosopher takes the right fork first: no deadlock.
system DiningPhilosophersFixed {
  const Param { N = 5; }

  boolean[Param.N] fork;

  active [Param.N] thread Philosopher(int index) {
    loc takeFirst:
      when !fork[index == Param.N - 1 ? (index + 1) % Param.N : index]
      do { fork[index == Param.N - 1 ? (index + 1) % Param.N : index] := true; } goto takeSecond;
    loc takeSecond:
      when !fork[index == Param.N - 1 ? index : (index + 1) % Param.N]
      do { fork[index == Param.N - 1 ? index : (index + 1) % Param.N] := true; } goto putSecond;
    loc putSecond:
      do { fork[index == Param.N - 1 ? index : (index + 1) % Param.N] := false; } goto putFirst;
    loc putFirst:
      do { fork[index == Param.N - 1 ? (index + 1) % Param.N : index] := false; } goto takeFirst;
  }
}
}

fn main() {
    let report = DiningPhilosophersFixed::checker().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_261_states_by_876_transitions_without_deadlock() {
        for checker in [
            DiningPhilosophersFixed::checker(),
            DiningPhilosophersFixed::checker().bfs(),
        ] {
            let report = checker.run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (261, 876));
        }
    }
}
