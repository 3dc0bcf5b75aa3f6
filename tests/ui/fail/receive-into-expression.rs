use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        channel (int (0, 3)) buffer 2 c;

        active thread T() {
            c?(x + 1);
        }
    }
}

fn main() {}
