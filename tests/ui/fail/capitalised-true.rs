use bir::bir;

bir! {
    system S {
        boolean done;

        active thread T() {
            loc a: do { done := True; } goto a;
        }
    }
}

fn main() {}
