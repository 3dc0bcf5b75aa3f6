use bir::bir;

bir! {
    system S {
        lock m;

        active thread T() {
            lock(m);
            wait(m);
            unlock(m);
        }

        invariant NeverWoken: !wasNotified(m);
    }
}

fn main() {}
