use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread P() {
            loc a: when x < 3 do { x := x + 1; } goto a;
        }

        invariant Small: x <= 3;
        heuristic Small: 3 - x;
    }
}

fn main() {}
