use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        boolean b;
        channel (int (0, 3)) buffer 2 c;

        active thread T() {
            c?(x, b);
        }
    }
}

fn main() {}
