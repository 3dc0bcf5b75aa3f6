use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread P() {
            loc a: when x < 3 do { x := x + 1; } goto a;
        }

        heuristic Low: x == 3;
    }
}

fn main() {}
