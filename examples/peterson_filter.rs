//! Peterson's filter lock for three threads (`models/peterson_filter.bir`): mutual
//! exclusion holds (an assertion and an invariant say so) and nobody deadlocks.
//!
//! `cargo run --release --example peterson_filter`

use bir::bir;

bir! {
// Peterson's filter lock for N threads. A thread climbs levels 1..N-1; at each level it
// names itself the victim and waits until no other thread is at its level or above, or
// it is no longer the victim. The ghost counter incs counts threads in the critical
// section (it is a function of the locations, so it adds no states).
system PetersonFilter {
  const Param { N = 3; }

  int (0, Param.N - 1)[Param.N] level;
  int (0, Param.N - 1)[Param.N] victim;
  int (0, Param.N) incs;

  active [Param.N] thread P(int index) {
    loc idle:
      do { level[index] := 1; } goto announce;
    loc announce:
      do { victim[level[index]] := index; } goto waiting;
    loc waiting:
      when level[index] < Param.N - 1
           && ((forall k in 0 .. Param.N : (k == index || level[k] < level[index]))
               || victim[level[index]] != index)
      do { level[index] := level[index] + 1; } goto announce;
      when level[index] == Param.N - 1
           && ((forall k in 0 .. Param.N : (k == index || level[k] < level[index]))
               || victim[level[index]] != index)
      do { incs := incs + 1; assert (incs <= 1); } goto critical;
    loc critical:
      do { incs := incs - 1; level[index] := 0; } goto idle;
  }

  invariant MutualExclusion: incs <= 1;
}
}

fn main() {
    let report = PetersonFilter::checker().run();
    println!("{report}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_288_states_by_651_transitions_with_mutual_exclusion() {
        for checker in [PetersonFilter::checker(), PetersonFilter::checker().bfs()] {
            let report = checker.run();
            report.assert_verified();
            assert_eq!((report.states(), report.transitions()), (288, 651));
        }
    }
}
