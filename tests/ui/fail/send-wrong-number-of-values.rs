use bir::bir;

bir! {
    system S {
        channel (int (0, 3), boolean) buffer 2 c;

        active thread T() {
            c!(1);
        }
    }
}

fn main() {}
