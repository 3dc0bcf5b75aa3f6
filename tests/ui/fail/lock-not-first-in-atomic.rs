use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        lock m;

        active thread T() {
            atomic
                x := 1;
                lock(m);
            end
            unlock(m);
        }
    }
}

fn main() {}
