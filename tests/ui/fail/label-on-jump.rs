use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            loc top: x := 1;
            loc again: goto top;
        }
    }
}

fn main() {}
