use bir::bir;

bir! {
    system S {
        channel (int (0, 3)) buffer 2 c[3];

        active thread T() {
            c!(1);
        }
    }
}

fn main() {}
