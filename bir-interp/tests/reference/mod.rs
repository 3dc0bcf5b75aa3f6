//! The seven reference models compiled by `bir!`: the examples themselves, each of which
//! embeds `models/<name>.bir` byte for byte (the root crate's `tests/suite/verbatim.rs`
//! checks that), included here as modules; `differential.rs` gives the interpreter the same
//! text at the same lines, so that line numbers in the tables agree. Plus `features.bir`,
//! `arithmetic.bir`, `operands.bir` and `certain_faults.bir`, embedded below; not formatted
//! by rustfmt (`#[rustfmt::skip]` where this module is declared), which would indent it.

/// `examples/two_dining_philosophers.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/two_dining_philosophers.rs"]
pub mod two_dining_philosophers;

/// `examples/bounded_buffer.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/bounded_buffer.rs"]
pub mod bounded_buffer;

/// `examples/readers_writers.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/readers_writers.rs"]
pub mod readers_writers;

/// `examples/sum_to_n.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/sum_to_n.rs"]
pub mod sum_to_n;

/// `examples/dining_philosophers.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/dining_philosophers.rs"]
pub mod dining_philosophers;

/// `examples/dining_philosophers_fixed.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/dining_philosophers_fixed.rs"]
pub mod dining_philosophers_fixed;

/// `examples/peterson_filter.rs` (its `main` is unused here).
#[allow(dead_code)]
#[path = "../../../examples/peterson_filter.rs"]
pub mod peterson_filter;

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

/// `arithmetic.bir` beside this file.
pub mod arithmetic {
    use bir::bir;

bir! {
// Arithmetic at the edges of 64 bits, for the differential test: x * x * -2 is i64::MIN;
// its remainder by -1 is 0 (where Rust's `%` panics), by a divisor that may be 0 too; its
// quotient by -1 and its negation do not fit, range errors; division and remainder by zero
// are division errors; and a step that executes `exit` ends the instance.
system Arithmetic {
  int x := -2147483648;
  int (-1, 1) d := -1;
  int (0, 3) step;

  active thread T() {
    loc l:
      when step == 0 && x * x * -2 % -1 == 0 do { step := 1; } goto l;
      when step == 1 && x * x * -2 % d == 0 do { step := 2; } goto l;
      when step == 1 do { x := x * x * -2 / -1 % 2; } goto l;
      when step == 1 do { x := -(x * x * -2) % 2; } goto l;
      when step == 2 do { d := 0; step := 3; } goto l;
      when step == 3 do { x := x / d; } goto l;
      when step == 3 do { x := x % d; } goto l;
      when step == 3 do { exit; step := 0; } goto l;
  }
}
}
}

/// `operands.bir` beside this file.
pub mod operands {
    use bir::bir;

bir! {
// Failing checks and what they read, for the differential test: assertions after
// assignments of their own step, array elements with computed (nested) indices, locals,
// enums, booleans, `T[i]@loc` with a computed index, quantifiers; each operand once, in
// source order.
system Operands {
  const Param { N = 3; }
  enum Mode { Off, On }

  int (0, 3)[Param.N] buf;
  int (0, 2) head;
  int (0, 3) expect := 1;
  boolean flag;
  Mode mode;

  active [2] thread W(int id) {
    int (0, 3) mine;
    loc a:
      when head < 2 do {
        buf[head] := id; head := head + 1; mine := buf[head - 1] + 1;
        assert (buf[head - 1] == expect || mine == 3 || W[head - 1]@b);
      } goto b;
      when flag do { mode := Mode.On; assert (mode == Mode.On && buf[buf[0] + 1] == head); } goto a;
      do { flag := !flag; } goto b;
    loc b:
      do { } goto a;
  }

  invariant Bounded: forall i in 0 .. Param.N : (buf[i] + head <= 2 || !flag);
  invariant Modes: mode == Mode.Off || exists i in 0 .. 2 : (W[i]@b);
}
}
}

/// `certain_faults.bir` beside this file. `bir!` warns about each of its certain faults (a
/// `deprecated` warning on the operand); they are what the model is for.
#[allow(deprecated)]
pub mod certain_faults {
    use bir::bir;

bir! {
// Faults that every evaluation of a construct meets are run-time errors, as any other
// (LANGUAGE.md has no compile-time check for them), for the differential test: an index
// outside the array for every value, in a write and in a guard; division by the constant
// zero and remainder by x - x; an out-of-range constant written; a start argument outside the
// parameter's type; a product past 64 bits. Each is reached from the initial state.
// Helper's steps are never reached: its faults are never reported.
system CertainFaults {
  boolean[2] a;
  int (0, 3) x;
  int y;

  thread W(int (0, 1) job) { loc w: do {} return; }

  active thread T() {
    loc l:
      do { a[2] := true; } goto l;
      when a[x + 2] do {} goto l;
      do { x := x / 0; } goto l;
      do { x := x % (x - x); } goto l;
      do { x := 5; } goto l;
      do { start W(2); } goto l;
      do { y := (x + 2147483647) * 2147483647 * 4 % 2; } goto l;
  }

  thread Helper() {
    loc h: do { a[2] := true; x := 1 / 0; x := 7; } return;
  }
}
}
}
