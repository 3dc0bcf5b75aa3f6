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

        ltl Half: [](done U);
    }
}

fn main() {}
