//! Michael & Scott's two-lock queue over the heap (LANGUAGE.md, version 3, "Records and the
//! heap"): a linked list of `new` nodes with a dummy at `head`, one lock for each end, two
//! enqueuers and two dequeuers; ghost counters updated at the linearisation points check
//! FIFO order and that no element is lost or doubled. bir verifies it, and finds the
//! double dequeue of dequeuers that skip the head lock. The model is
//! `models/v3/linked_queue.bir`.
//!
//! `cargo run --release --example linked_queue`

use bir::bir;

bir! {
    system LinkedQueue {
      const P {
        ENQ = 2;
        OPS = 2;
        DEQ = 2;
        TAKE = 2;
        NODES = 8;
      }
      record[P.NODES] Node {
        int (0, P.ENQ * P.OPS - 1) value;
        int (0, P.ENQ * P.OPS) pos;
        Node next;
      }
      Node head;
      Node tail;
      lock headLock;
      lock tailLock;
      int (0, P.ENQ * P.OPS) linked;
      int (0, P.ENQ * P.OPS) taken;
      int (0, P.OPS)[P.ENQ] expect;

      invariant TailLagsAtMostOne: tail == null || tail.next == null || tail.next.next == null;

      active thread Init() {
        atomic head := new Node; tail := head; end
      }

      active [P.ENQ] thread Enqueuer(int (0, P.ENQ - 1) id) {
        Node n;
        int (0, P.OPS) i;
        choose when tail != null do skip; end
        while i < P.OPS do
          n := new Node;
          n.value := id * P.OPS + i;
          lock(tailLock);
          atomic tail.next := n; n.pos := linked; linked := linked + 1; end
          tail := n;
          unlock(tailLock);
          atomic n := null; i := i + 1; end
        end
      }

      active [P.DEQ] thread Dequeuer(int (0, P.DEQ - 1) id) {
        Node node;
        Node newHead;
        int (0, P.ENQ * P.OPS - 1) v;
        int (0, P.TAKE) got;
        choose when head != null do skip; end
        while got < P.TAKE do
          lock(headLock);
          node := head;
          atomic
            newHead := node.next;
            if newHead == null do assert(taken == linked); end
          end
          if newHead == null do
            atomic unlock(headLock); node := null; end
          else do
            v := newHead.value;
            atomic
              head := newHead;
              assert(newHead.pos == taken);
              assert(v % P.OPS == expect[v / P.OPS]);
              taken := taken + 1;
              expect[v / P.OPS] := expect[v / P.OPS] + 1;
            end
            unlock(headLock);
            atomic node := null; newHead := null; got := got + 1; end
          end
        end
      }
    }
}

bir! {
    system UnlockedDequeue {
      const P {
        ENQ = 2;
        OPS = 2;
        DEQ = 2;
        TAKE = 2;
        NODES = 8;
      }
      record[P.NODES] Node {
        int (0, P.ENQ * P.OPS - 1) value;
        int (0, P.ENQ * P.OPS) pos;
        Node next;
      }
      Node head;
      Node tail;
      lock headLock;
      lock tailLock;
      int (0, P.ENQ * P.OPS) linked;
      int (0, P.ENQ * P.OPS) taken;
      int (0, P.OPS)[P.ENQ] expect;

      invariant TailLagsAtMostOne: tail == null || tail.next == null || tail.next.next == null;

      active thread Init() {
        atomic head := new Node; tail := head; end
      }

      active [P.ENQ] thread Enqueuer(int (0, P.ENQ - 1) id) {
        Node n;
        int (0, P.OPS) i;
        choose when tail != null do skip; end
        while i < P.OPS do
          n := new Node;
          n.value := id * P.OPS + i;
          lock(tailLock);
          atomic tail.next := n; n.pos := linked; linked := linked + 1; end
          tail := n;
          unlock(tailLock);
          atomic n := null; i := i + 1; end
        end
      }

      active [P.DEQ] thread Dequeuer(int (0, P.DEQ - 1) id) {
        Node node;
        Node newHead;
        int (0, P.ENQ * P.OPS - 1) v;
        int (0, P.TAKE) got;
        choose when head != null do skip; end
        while got < P.TAKE do
          skip;
          node := head;
          atomic
            newHead := node.next;
            if newHead == null do assert(taken == linked); end
          end
          if newHead == null do
            node := null;
          else do
            v := newHead.value;
            atomic
              head := newHead;
              assert(newHead.pos == taken);
              assert(v % P.OPS == expect[v / P.OPS]);
              taken := taken + 1;
              expect[v / P.OPS] := expect[v / P.OPS] + 1;
            end
            skip;
            atomic node := null; newHead := null; got := got + 1; end
          end
        end
      }
    }
}

fn main() {
    println!("{}", LinkedQueue::checker().run());
    println!("{}", UnlockedDequeue::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_lock_queue_keeps_fifo_order() {
        // models/README.md, "Heap symmetry": 99,661 states and 324,185 transitions
        // (827,957 states when the heap is not renumbered).
        let report = LinkedQueue::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (99_661, 324_185));
    }

    #[test]
    fn dequeuers_without_the_head_lock_take_one_node_twice() {
        let report = UnlockedDequeue::checker().bfs().run();
        let found = report.assert_assertion_failure();
        assert!(found.message().contains("newHead.pos == taken"), "{report}");
        assert_eq!(found.len(), 18, "{report}");
    }
}
