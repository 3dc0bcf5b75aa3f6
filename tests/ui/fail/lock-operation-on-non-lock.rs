use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            lock(x);
        }
    }
}

fn main() {}
