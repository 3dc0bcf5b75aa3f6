use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        active thread T() {
            x := 1;
            return x;
        }
    }
}

fn main() {}
