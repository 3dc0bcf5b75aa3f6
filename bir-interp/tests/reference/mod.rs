//! The seven reference models compiled by `bir!`, each module's body a byte-for-byte copy of
//! `models/<name>.bir` (checked by `differential.rs`, which also gives the interpreter the
//! same text at the same lines, so that line numbers in the tables agree). Not formatted by
//! rustfmt (`#[rustfmt::skip]` where the module is declared), which would indent the models.

/// `models/two_dining_philosophers.bir`.
pub mod two_dining_philosophers {
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
}

/// `models/bounded_buffer.bir`.
pub mod bounded_buffer {
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
}

/// `models/readers_writers.bir`.
pub mod readers_writers {
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
}

/// `models/sum_to_n.bir`.
pub mod sum_to_n {
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
}

/// `models/dining_philosophers.bir`.
pub mod dining_philosophers {
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
}

/// `models/dining_philosophers_fixed.bir`.
pub mod dining_philosophers_fixed {
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
}

/// `models/peterson_filter.bir`.
pub mod peterson_filter {
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
}

/// `features.bir` beside this file.
pub mod features {
    use bir::bir;

bir! {
// Every construct and every kind of finding in one small model, for the differential test:
// enums, aliases, wrapping and checked ranges, arrays, started threads with a parameter,
// exit, return, assume, `?:`, `T[i]@loc`, quantifiers, invariants; deadlock, invariant
// violation and fault, assertion, range (write, start argument, 64-bit overflow), index
// (write, guard), division and start errors.
system Features {
  const Param { N = 2; }
  enum Phase { Idle, Busy, Done }
  typealias Small int (0, 2);

  byte counter := 254;
  int wrap (-1, 1) w;
  Small[Param.N] a;
  Phase phase;
  int (0, 3) d := 1;
  boolean started;

  active [2] thread Worker(int id) {
    int (0, 2) k;
    loc run:
      when phase == Phase.Idle do { phase := Phase.Busy; counter := counter + 3; } goto work;
      when phase == Phase.Busy && k == 0 do { w := w + (id == 0 ? 1 : 2); k := 1; } goto work;
      when counter < 5 && k == 1 do { k := 2; } goto run;
      when k == 2 && Worker[k]@run do { } goto run;
    loc work:
      when a[id] < 2 do { a[id] := a[id] + 1; assume (a[id] < 2); } goto run;
      when a[id] == 1 do { a[id] := a[id] + 2; } goto run;
      when k == 1 do { exit; a[0] := 9; } goto run;
      when k == 2 do { a[k + id] := 1; } goto done;
      do { } goto done;
    loc done:
      do { phase := Phase.Done; } return;
  }

  active thread Starter() {
    loc s:
      when d > 0 do { d := d - 1; } goto s;
      when !started do { started := true; start Helper(d + 2); } goto s2;
      when d == 0 && exists i in 0 .. Param.N : (a[i] == 1) do { d := 3; } goto s;
    loc s2:
      when w == 1 do { start Helper(1); } return;
      when phase == Phase.Done do { } return;
  }

  thread Helper(int (0, 3) p) {
    int x;
    loc h:
      do { x := 12 / (p - 3); } goto h2;
      when p == 0 do { start Helper(0); } return;
    loc h2:
      do { assert (x != -12); } return;
      when p == 2 do { x := (p + 2147483645) * (p + 2147483645) * 4; } return;
      do { x := -x % 5; } goto h2;
  }

  invariant Bounded: forall i in 0 .. Param.N : (a[i] <= 2);
  invariant Indexed: w != -1 || a[w + 3] <= 2;
  invariant NotBoth: !(Worker[0]@done && Worker[1]@done);
}
}
}
