//! Java's monitors in BIR (LANGUAGE.md, version 3, "Locks"): a bounded buffer of capacity 2
//! with producers and consumers, each `synchronized` on the buffer's lock and waiting with
//! `while (cond) wait();`. With `notifyAll` nothing goes wrong; with `notify`, a producer
//! can wake another producer instead of a consumer, until every thread waits: the classic
//! deadlock, which bir finds.
//!
//! `cargo run --release --example java_monitor`

use bir::bir;

bir! {
    system JavaBoundedBuffer {
        const P { CAP = 2; }
        lock m;
        int (0, 2) count;

        active [4] thread Producer(int (0, 3) id) {
            while true do
                lock(m);
                while count == P.CAP do
                    wait(m);
                end
                count := count + 1;
                notifyAll(m);
                unlock(m);
            end
        }

        active [4] thread Consumer(int (0, 3) id) {
            while true do
                lock(m);
                while count == 0 do
                    wait(m);
                end
                count := count - 1;
                notifyAll(m);
                unlock(m);
            end
        }
    }
}

bir! {
    system JavaBoundedBufferNotify {
        const P { CAP = 2; }
        lock m;
        int (0, 2) count;

        active [3] thread Producer(int (0, 2) id) {
            while true do
                lock(m);
                while count == P.CAP do
                    wait(m);
                end
                count := count + 1;
                notify(m);
                unlock(m);
            end
        }

        active [3] thread Consumer(int (0, 2) id) {
            while true do
                lock(m);
                while count == 0 do
                    wait(m);
                end
                count := count - 1;
                notify(m);
                unlock(m);
            end
        }
    }
}

fn main() {
    println!("{}", JavaBoundedBuffer::checker().run());
    println!("{}", JavaBoundedBufferNotify::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_notify_all_no_thread_is_stuck() {
        // models/v3/README.md: big_java_buffer, 26,751 states and 43,000 transitions.
        let report = JavaBoundedBuffer::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (26_751, 43_000));
    }

    #[test]
    fn with_notify_every_thread_ends_up_waiting() {
        // models/v3/README.md: big_java_buffer_notify, 14,533 states, 22,878 transitions
        // and 2 deadlocks past the first.
        let all = JavaBoundedBufferNotify::checker()
            .keep_going(0)
            .progress(false)
            .run();
        assert_eq!(
            (all.states(), all.transitions(), all.deadlocks()),
            (14_533, 22_878, 2)
        );
        let report = JavaBoundedBufferNotify::checker().bfs().run();
        let deadlock = report.assert_deadlock();
        assert!(deadlock.message().contains("unwait"), "{report}");
    }
}
