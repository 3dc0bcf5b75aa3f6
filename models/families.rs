// The scalable reference models for any size N, as `macro_rules!` that expand to a `bir!`
// system named `$name` with `Param.N = $n`, followed by any further declarations given
// after N (properties, say). The body of each is the body of the `.bir` file of the same
// name in this folder, verbatim but for the system's name and N. Shared by the
// tests and benchmarks with `include!("../models/families.rs")` (path relative to the
// including file).

/// `models/dining_philosophers.bir` with N philosophers: deadlocks.
#[allow(unused_macros)]
macro_rules! dining_philosophers {
    ($name:ident, $n:tt $(, $($extra:tt)*)?) => {
        bir::bir! {
        system $name {
          const Param { N = $n; }

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
          $($($extra)*)?
        }
        }
    };
}

/// `models/dining_philosophers_fixed.bir` with N philosophers: no deadlock.
#[allow(unused_macros)]
macro_rules! dining_philosophers_fixed {
    ($name:ident, $n:tt $(, $($extra:tt)*)?) => {
        bir::bir! {
        system $name {
          const Param { N = $n; }

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
          $($($extra)*)?
        }
        }
    };
}

/// `models/peterson_filter.bir` with N threads: mutual exclusion holds.
#[allow(unused_macros)]
macro_rules! peterson_filter {
    ($name:ident, $n:tt $(, $($extra:tt)*)?) => {
        bir::bir! {
        system $name {
          const Param { N = $n; }

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
          $($($extra)*)?
        }
        }
    };
}

/// `models/toggle_bits.bir` with N bits: 2^N states, N + 1 orbits under symmetry.
#[allow(unused_macros)]
macro_rules! toggle_bits {
    ($name:ident, $n:tt $(, $($extra:tt)*)?) => {
        bir::bir! {
        system $name {
          const Param { N = $n; }

          boolean[Param.N] bit;

          active [Param.N] thread T(int index) {
            loc toggle:
              do { bit[index] := !bit[index]; } goto toggle;
          }
          $($($extra)*)?
        }
        }
    };
}

/// `models/peterson_local.bir` with N threads (BEEM's encoding, local loop counters): mutual
/// exclusion holds. From N = 5 its states are wider than a 64-bit word.
#[allow(unused_macros)]
macro_rules! peterson_local {
    ($name:ident, $n:tt $(, $($extra:tt)*)?) => {
        bir::bir! {
        system $name {
          const Param { N = $n; }

          int (0, Param.N - 1)[Param.N] pos;
          int (0, Param.N - 1)[Param.N] step;

          active [Param.N] thread P(int index) {
            int (0, Param.N) j;
            int (0, Param.N) k;

            loc idle:
              do { j := 1; } goto wait;
            loc wait:
              when j < Param.N do { pos[index] := j; } goto q2;
              when j == Param.N do {} goto critical;
            loc q2:
              do { step[j - 1] := index; k := 0; } goto q3;
            loc q3:
              when k < Param.N && (k == index || pos[k] < j) do { k := k + 1; } goto q3;
              when step[j - 1] != index || k == Param.N do { j := j + 1; } goto wait;
            loc critical:
              do { pos[index] := 0; } goto idle;
          }
          $($($extra)*)?
        }
        }
    };
}
