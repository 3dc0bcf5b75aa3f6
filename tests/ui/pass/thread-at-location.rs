use bir::{bir, Verdict};

bir! {
    system S {
        boolean busy;

        active [2] thread P(int index) {
            loc idle: when !busy do { busy := true; } goto critical;
            loc critical: when P[1 - index]@idle do { busy := false; } goto idle;
                          when !P[1 - index]@idle do { busy := false; } goto idle;
        }

        active thread Observer() {
            loc watch: when P[0]@critical || Observer@watch do {} goto watch;
        }

        invariant Mutex: !(P[0]@critical && P[1]@critical);
        invariant Watching: Observer@watch;
    }
}

pub fn main() {
    assert_eq!(S::checker().run().verdict(), Verdict::Verified);
}
