use bir::bir;

bir! {
    system S {
        int (0, 3) x;
        boolean done;

        active [2] thread P(int index) {
            int (0, 3) mine;
            loc a: do { x := x + 1; } goto b;
            loc b: when done do {} goto a;
        }

        ltl A: <>(y == 1);
        ltl B: [](mine == 0) U done;
        ltl C: []<>(x + 1);
        reachable A: x == 2;
    }
}

fn main() {}
