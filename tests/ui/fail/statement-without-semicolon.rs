use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            x := 1
            x := 2;
        }
    }
}

fn main() {}
