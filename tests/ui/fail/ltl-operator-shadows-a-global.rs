use bir::bir;

bir! {
    system S {
        boolean U;
        boolean done;

        active thread T() {
            loc a: do { U := !U; done := true; } goto a;
        }

        ltl Meant: [](U U done);
    }
}

fn main() {}
