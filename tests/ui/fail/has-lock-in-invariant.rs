use bir::bir;

bir! {
    system S {
        lock m;

        active thread T() {
            lock(m);
            unlock(m);
        }

        invariant Free: !hasLock(m);
    }
}

fn main() {}
