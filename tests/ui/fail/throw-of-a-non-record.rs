use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        active thread T() {
            throw x;
        }
    }
}

fn main() {}
