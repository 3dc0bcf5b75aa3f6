use bir::bir;

bir! {
    system S {
        channel (int[2]) buffer 1 c;

        active thread T() {
            c!(1);
        }
    }
}

fn main() {}
