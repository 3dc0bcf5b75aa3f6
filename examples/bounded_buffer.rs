//! The textbook's bounded buffer (Figure 1.3): a producer and a consumer share a
//! one-place buffer under a lock. No error, no deadlock.
//!
//! `cargo run --release --example bounded_buffer`

use bir::bir;

bir! {
system BoundedBuffer {
  boolean full := false;
  boolean locked := false;

  active thread Producer() {
    loc loc0:
      when !locked do {
        locked := true;
      } goto loc1;
    loc loc1:
      when full do {
        locked := false;
      } goto loc0;
      when !full do {
        goto loc2;
      }
    loc loc2:
      do {
        full := true;
      } goto loc3;
    loc loc3:
      do {
        locked := false;
      } goto loc0;
  }

  active thread Consumer() {
    loc loc0:
      when !locked do {
        locked := true;
      } goto loc1;
    loc loc1:
      when !full do {
        locked := false;
      } goto loc0;
      when full do {
        goto loc2;
      }
    loc loc2:
      do {
        full := false;
      } goto loc3;
    loc loc3:
      do {
        locked := false;
      } goto loc0;
  }
}
}

fn main() {
    let report = BoundedBuffer::checker().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_10_states_by_12_transitions_without_error_or_deadlock() {
        for checker in [BoundedBuffer::checker(), BoundedBuffer::checker().bfs()] {
            let report = checker.run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (10, 12));
        }
    }
}
