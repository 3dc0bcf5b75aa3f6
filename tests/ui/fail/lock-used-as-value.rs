use bir::bir;

bir! {
    system S {
        boolean b;
        lock m;

        active thread T() {
            b := m;
        }
    }
}

fn main() {}
