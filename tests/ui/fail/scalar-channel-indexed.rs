use bir::bir;

bir! {
    system S {
        channel (int (0, 3)) buffer 2 c;

        active thread T() {
            c[0]!(1);
        }
    }
}

fn main() {}
