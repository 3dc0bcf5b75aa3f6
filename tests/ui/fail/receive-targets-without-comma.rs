use bir::bir;

bir! {
    system S {
        channel (int (0, 3), boolean) buffer 1 c;
        int (0, 3) x;
        boolean b;

        active thread T() {
            c?(x b);
        }
    }
}

fn main() {}
