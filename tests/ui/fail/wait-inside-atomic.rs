use bir::bir;

bir! {
    system S {
        lock m;

        active thread T() {
            lock(m);
            atomic
                wait(m);
            end
            unlock(m);
        }
    }
}

fn main() {}
