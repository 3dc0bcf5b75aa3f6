use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread P() {
            int (0, 3) mine;
            loc a: when x < 3 do { x := x + 1; mine := x; } goto a;
        }

        heuristic Mine: 3 - mine;
    }
}

fn main() {}
