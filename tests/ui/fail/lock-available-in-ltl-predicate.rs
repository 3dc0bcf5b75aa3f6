use bir::bir;

bir! {
    system S {
        lock m;

        active thread T() {
            lock(m);
            unlock(m);
        }

        ltl EventuallyFree: <>lockAvailable(m);
    }
}

fn main() {}
