//! The textbook's two dining philosophers (Figure 1.1 of the BIR chapter): each takes
//! the forks in the opposite order, so they can deadlock holding one fork each.
//!
//! `cargo run --release --example two_dining_philosophers`

use bir::bir;

bir! {
system TwoDiningPhilosophers {
  boolean fork1;
  boolean fork2;

  active thread Philosopher1() {
    loc loc0: // take first fork
    when !fork1 do { fork1 := true; }
    goto loc1;

    loc loc1: // take second fork
    when !fork2 do { fork2 := true; }
    goto loc2;

    loc loc2: // put second fork
    do { fork2 := false; }
    goto loc3;

    loc loc3: // put first fork
    do { fork1 := false; }
    goto loc0;
  }

  active thread Philosopher2() {
    loc loc0: // take second fork
    when !fork2 do { fork2 := true; }
    goto loc1;

    loc loc1: // take first fork
    when !fork1 do { fork1 := true; }
    goto loc2;

    loc loc2: // put first fork
    do { fork1 := false; }
    goto loc3;

    loc loc3: // put second fork
    do { fork2 := false; }
    goto loc0;
  }
}
}

fn main() {
    // Depth-first, stopping at the first finding: the deadlock and the path to it.
    let report = TwoDiningPhilosophers::checker().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_10_states_by_14_transitions_and_deadlocks_once() {
        for checker in [
            TwoDiningPhilosophers::checker(),
            TwoDiningPhilosophers::checker().bfs(),
        ] {
            let report = checker.keep_going(1).run();
            assert_eq!((report.states(), report.transitions()), (10, 14));
            assert_eq!((report.errors(), report.deadlocks()), (0, 1));
        }
    }

    #[test]
    fn the_deadlock_is_each_philosopher_holding_one_fork() {
        let report = TwoDiningPhilosophers::checker().bfs().run();
        let deadlock = report.assert_deadlock();
        assert_eq!(deadlock.len(), 2);
        // fork1, fork2, Philosopher1 and Philosopher2 both at loc1.
        assert_eq!(deadlock.final_state(), [1, 1, 1, 1]);
    }
}
