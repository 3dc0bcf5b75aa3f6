use bir::bir;

bir! {
    system S {
        boolean b;
        channel (int (0, 3)) buffer 2 c;

        active thread T() {
            c?(b);
        }
    }
}

fn main() {}
