//! Objects handed over a buffered channel of references (LANGUAGE.md, version 3, "Records
//! and the heap", "Channels"): producers allocate a message, fill it in, send the reference
//! and drop theirs; a consumer checks each message and drops it, and the garbage collector
//! removes it. bir verifies that every message arrives once and in its producer's order,
//! and finds the producer that writes its message after sending it. The model is
//! `models/v3/heap_handoff.bir`.
//!
//! `cargo run --release --example heap_handoff`

use bir::bir;

bir! {
    system HeapHandoff {
      const P {
        PRODUCERS = 2;
        CONSUMERS = 1;
        ITEMS = 3;
        BUF = 2;
        OBJS = 6;
      }
      record[P.OBJS] Msg {
        int (0, P.PRODUCERS * P.ITEMS - 1) payload;
        boolean seen;
      }
      channel (Msg) buffer P.BUF c;
      int (0, P.PRODUCERS * P.ITEMS) delivered;

      active [P.PRODUCERS] thread Producer(int (0, P.PRODUCERS - 1) id) {
        Msg m;
        int (0, P.ITEMS) i;
        while i < P.ITEMS do
          m := new Msg;
          m.payload := id * P.ITEMS + i;
          c!(m);
          atomic m := null; i := i + 1; end
        end
      }

      active [P.CONSUMERS] thread Consumer(int (0, P.CONSUMERS - 1) id) {
        Msg r;
        int (0, P.ITEMS)[P.PRODUCERS] after;
        while delivered < P.PRODUCERS * P.ITEMS do
          choose
            when !empty(c) do
              c?(r);
              assert(!r.seen);
              assert(r.payload % P.ITEMS >= after[r.payload / P.ITEMS]);
              after[r.payload / P.ITEMS] := r.payload % P.ITEMS + 1;
              r.seen := true;
              delivered := delivered + 1;
            when delivered == P.PRODUCERS * P.ITEMS do skip;
          end
          r := null;
        end
      }
    }
}

bir! {
    system WriteAfterSend {
      const P {
        PRODUCERS = 2;
        CONSUMERS = 1;
        ITEMS = 3;
        BUF = 2;
        OBJS = 6;
      }
      record[P.OBJS] Msg {
        int (0, P.PRODUCERS * P.ITEMS - 1) payload;
        boolean seen;
      }
      channel (Msg) buffer P.BUF c;
      int (0, P.PRODUCERS * P.ITEMS) delivered;

      active [P.PRODUCERS] thread Producer(int (0, P.PRODUCERS - 1) id) {
        Msg m;
        int (0, P.ITEMS) i;
        while i < P.ITEMS do
          m := new Msg;
          m.payload := id * P.ITEMS + i;
          c!(m);
          m.payload := 0;
          atomic m := null; i := i + 1; end
        end
      }

      active [P.CONSUMERS] thread Consumer(int (0, P.CONSUMERS - 1) id) {
        Msg r;
        int (0, P.ITEMS)[P.PRODUCERS] after;
        while delivered < P.PRODUCERS * P.ITEMS do
          choose
            when !empty(c) do
              c?(r);
              assert(!r.seen);
              assert(r.payload % P.ITEMS >= after[r.payload / P.ITEMS]);
              after[r.payload / P.ITEMS] := r.payload % P.ITEMS + 1;
              r.seen := true;
              delivered := delivered + 1;
            when delivered == P.PRODUCERS * P.ITEMS do skip;
          end
          r := null;
        end
      }
    }
}

fn main() {
    println!("{}", HeapHandoff::checker().run());
    println!("{}", WriteAfterSend::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_arrives_once_and_in_order() {
        // models/README.md, "Heap symmetry": 9,636 states and 25,392 transitions (147,818
        // states when the heap is not renumbered).
        let report = HeapHandoff::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (9_636, 25_392));
    }

    #[test]
    fn a_producer_that_writes_after_sending_breaks_the_order() {
        let report = WriteAfterSend::checker().bfs().run();
        let found = report.assert_assertion_failure();
        assert!(
            found.message().contains("after[r.payload / P.ITEMS]"),
            "{report}"
        );
        assert_eq!(found.len(), 19, "{report}");
    }
}
