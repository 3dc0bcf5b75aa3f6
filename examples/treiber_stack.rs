//! Treiber's lock-free stack over the heap (LANGUAGE.md, version 3, "Records and the heap"):
//! push and pop swing `top` with a compare-and-swap written as an `atomic ... end` block,
//! retrying when another thread got there first; ghosts updated in the CAS check LIFO
//! order and that nothing is popped twice. The garbage collector keeps a node alive while
//! a popper still holds it, so the ABA problem of manual reuse cannot happen. bir verifies
//! it, and finds the double pop of a CAS split into a test and a separate swing. The model
//! is `models/v3/treiber_stack.bir`.
//!
//! `cargo run --release --example treiber_stack`

use bir::bir;

bir! {
    system TreiberStack {
      const P {
        PUSHERS = 2;
        PUSHES = 1;
        POPPERS = 2;
        POPS = 1;
        NODES = 8;
      }
      record[P.NODES] Node {
        int (0, P.PUSHERS * P.PUSHES - 1) value;
        int (0, P.PUSHERS * P.PUSHES) height;
        Node next;
      }
      Node top;
      int (0, P.PUSHERS * P.PUSHES) size;
      boolean[P.PUSHERS * P.PUSHES] popped;

      invariant Heights: (top == null && size == 0)
        || (top != null && top.height == size - 1
            && (top.next == null ? size == 1 : top.next.height == size - 2));

      active [P.PUSHERS] thread Pusher(int (0, P.PUSHERS - 1) id) {
        Node n;
        Node t;
        int (0, P.PUSHES) i;
        boolean done;
        while i < P.PUSHES do
          atomic n := new Node; n.value := id * P.PUSHES + i; end
          while !done do
            atomic t := top; n.next := t; end
            atomic
              if top == t do
                top := n;
                n.height := size;
                size := size + 1;
                done := true;
              end
            end
          end
          atomic n := null; t := null; i := i + 1; done := false; end
        end
      }

      active [P.POPPERS] thread Popper(int (0, P.POPPERS - 1) id) {
        Node t;
        Node nx;
        int (0, P.PUSHERS * P.PUSHES - 1) v;
        int (0, P.POPS) got;
        while got < P.POPS do
          t := top;
          if t != null do
            atomic nx := t.next; v := t.value; end
            atomic
              if top == t do
                top := nx;
                assert(t.height == size - 1);
                assert(!popped[v]);
                size := size - 1;
                popped[v] := true;
                got := got + 1;
              end
            end
          end
          atomic t := null; nx := null; end
        end
      }
    }
}

bir! {
    system SplitCas {
      const P {
        PUSHERS = 2;
        PUSHES = 1;
        POPPERS = 2;
        POPS = 1;
        NODES = 8;
      }
      record[P.NODES] Node {
        int (0, P.PUSHERS * P.PUSHES - 1) value;
        int (0, P.PUSHERS * P.PUSHES) height;
        Node next;
      }
      Node top;
      int (0, P.PUSHERS * P.PUSHES) size;
      boolean[P.PUSHERS * P.PUSHES] popped;

      invariant Heights: (top == null && size == 0)
        || (top != null && top.height == size - 1
            && (top.next == null ? size == 1 : top.next.height == size - 2));

      active [P.PUSHERS] thread Pusher(int (0, P.PUSHERS - 1) id) {
        Node n;
        Node t;
        int (0, P.PUSHES) i;
        boolean done;
        while i < P.PUSHES do
          atomic n := new Node; n.value := id * P.PUSHES + i; end
          while !done do
            atomic t := top; n.next := t; end
            atomic
              if top == t do
                top := n;
                n.height := size;
                size := size + 1;
                done := true;
              end
            end
          end
          atomic n := null; t := null; i := i + 1; done := false; end
        end
      }

      active [P.POPPERS] thread Popper(int (0, P.POPPERS - 1) id) {
        Node t;
        Node nx;
        int (0, P.PUSHERS * P.PUSHES - 1) v;
        int (0, P.POPS) got;
        while got < P.POPS do
          t := top;
          if t != null do
            atomic nx := t.next; v := t.value; end
            if top == t do
              atomic
                top := nx;
                assert(t.height == size - 1);
                assert(!popped[v]);
                size := size - 1;
                popped[v] := true;
                got := got + 1;
              end
            end
          end
          atomic t := null; nx := null; end
        end
      }
    }
}

fn main() {
    println!("{}", TreiberStack::checker().run());
    println!("{}", SplitCas::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_treiber_stack_pops_in_lifo_order() {
        // models/README.md, "Heap symmetry": 14,993 states and 50,980 transitions (28,418
        // states when the heap is not renumbered).
        let report = TreiberStack::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (14_993, 50_980));
    }

    #[test]
    fn a_cas_split_in_two_steps_pops_one_node_twice() {
        let report = SplitCas::checker().bfs().run();
        let found = report.assert_assertion_failure();
        assert!(found.message().contains("t.height == size - 1"), "{report}");
        assert_eq!(found.len(), 15, "{report}");
    }
}
