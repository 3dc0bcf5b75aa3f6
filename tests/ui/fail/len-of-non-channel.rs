use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            loc a: when len(x) > 0 do {} return;
        }
    }
}

fn main() {}
