use bir::bir;

bir! {
    system S {
        const Param { N = 3; }
        int (0, 3) x;

        active thread T() {
            loc a: when x < N do { x := x + 1; } goto a;
        }
    }
}

fn main() {}
