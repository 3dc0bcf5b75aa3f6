use bir::bir;

bir! {
    system S {
        lock m[2];

        active thread T() {
            lock(m[0]);
            unlock(m);
        }
    }
}

fn main() {}
