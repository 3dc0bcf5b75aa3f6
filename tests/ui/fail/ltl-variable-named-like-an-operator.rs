use bir::bir;

bir! {
    system S {
        boolean X;

        active thread T() {
            loc a: do { X := !X; } goto a;
        }

        ltl Flips: []<>X;
    }
}

fn main() {}
