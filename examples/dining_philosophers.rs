//! Dining philosophers (`models/dining_philosophers.bir`): five philosophers each take
//! the left fork, then the right one. bir finds the deadlock where every philosopher
//! holds a left fork, and prints the shortest path to it.
//!
//! `cargo run --release --example dining_philosophers`

use bir::bir;

bir! {
// N dining philosophers around a table; each takes the left fork, then the right one.
// Deadlocks when every philosopher holds its left fork.
system DiningPhilosophers {
  const Param { N = 5; }

  boolean[Param.N] fork;

  active [Param.N] thread Philosopher(int index) {
    loc takeLeft:
      when !fork[index] do { fork[index] := true; } goto takeRight;
    loc takeRight:
      when !fork[(index + 1) % Param.N] do { fork[(index + 1) % Param.N] := true; } goto putRight;
    loc putRight:
      do { fork[(index + 1) % Param.N] := false; } goto putLeft;
    loc putLeft:
      do { fork[index] := false; } goto takeLeft;
  }
}
}

fn main() {
    // Breadth-first, so that the counterexample is as short as possible.
    let report = DiningPhilosophers::checker().bfs().run();
    println!("{report}");
    // Every state, past the deadlock: the figures SPIN and Rumur report.
    let everything = DiningPhilosophers::checker().keep_going(0).run();
    println!("{}", everything.stats());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_392_states_by_1415_transitions_with_one_deadlock() {
        for checker in [
            DiningPhilosophers::checker(),
            DiningPhilosophers::checker().bfs(),
        ] {
            let report = checker.keep_going(1).run();
            assert_eq!((report.states(), report.transitions()), (392, 1_415));
            assert_eq!((report.errors(), report.deadlocks()), (0, 1));
        }
    }

    #[test]
    fn the_shortest_deadlock_takes_one_step_per_philosopher() {
        let report = DiningPhilosophers::checker().bfs().run();
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.len(), 5);
        // Five forks taken, five philosophers at takeRight.
        assert_eq!(deadlock.final_state(), [1; 10]);
    }
}
