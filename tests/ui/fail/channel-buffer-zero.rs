use bir::bir;

bir! {
    system S {
        channel (int (0, 3)) buffer 0 c;

        active thread T() {
            c!(1);
        }
    }
}

fn main() {}
