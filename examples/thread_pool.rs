//! A pool of worker threads created at run time (LANGUAGE.md, version 3, "Threads created
//! at run time"): `thread[2] Worker(..)` is a pool of two instances; `start` takes the free
//! instance of lowest index and yields its `tid`; a worker that ends is freed at the end of
//! its step, and every `tid` that named it becomes `null`, so its slot serves the next
//! request. bir verifies the server that waits for a free slot, and finds the start error
//! of the one that does not: a third request while both workers are busy.
//!
//! `cargo run --release --example thread_pool`

use bir::bir;

bir! {
    /// `models/thread_pool.bir`: Main waits until the worker of the request two before has
    /// ended, so that a slot is free.
    system ThreadPool {
        const P { N = 3; WAIT = true; }
        int (0, 6) served;
        tid[3] workers;

        thread[2] Worker(int (1, 3) req) {
            loc serve: served := served + req;
        }

        active thread Main() {
            int (0, 3) next;
            while next < P.N do
                loc wait: choose when !P.WAIT || next < 2 || threadTerminated(workers[next - 2]) do skip; end
                workers[next] := start Worker(next + 1);
                next := next + 1;
            end
            loc drain: choose when forall i in 0 .. P.N : (threadTerminated(workers[i])) do skip; end
            assert(served == P.N * (P.N + 1) / 2);
        }
    }
}

bir! {
    /// The same server without the wait (`P.WAIT = false`): three requests for two workers.
    system Overloaded {
        const P { N = 3; WAIT = false; }
        int (0, 6) served;
        tid[3] workers;

        thread[2] Worker(int (1, 3) req) {
            loc serve: served := served + req;
        }

        active thread Main() {
            int (0, 3) next;
            while next < P.N do
                loc wait: choose when !P.WAIT || next < 2 || threadTerminated(workers[next - 2]) do skip; end
                workers[next] := start Worker(next + 1);
                next := next + 1;
            end
            loc drain: choose when forall i in 0 .. P.N : (threadTerminated(workers[i])) do skip; end
            assert(served == P.N * (P.N + 1) / 2);
        }
    }
}

fn main() {
    println!("{}", ThreadPool::checker().run());
    println!("{}", Overloaded::checker().bfs().run());
}

#[cfg(test)]
mod tests {
    use super::*;
    use bir::{FindingKind, Verdict};

    #[test]
    fn a_server_that_waits_for_a_free_worker_is_verified() {
        // models/README.md: thread_pool, 52 states and 88 transitions.
        let report = ThreadPool::checker().run();
        report.assert_verified();
        assert_eq!((report.states(), report.transitions()), (52, 88));
    }

    #[test]
    fn a_third_request_for_two_busy_workers_is_a_start_error() {
        let report = Overloaded::checker().bfs().run();
        assert_eq!(
            report.verdict(),
            Verdict::Found(FindingKind::Start),
            "{report}"
        );
        let full = Overloaded::checker().keep_going(0).progress(false).run();
        assert_eq!(
            (full.states(), full.transitions(), full.errors()),
            (60, 108, 1)
        );
    }
}
