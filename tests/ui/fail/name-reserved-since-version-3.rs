use bir::bir;

bir! {
    system S {
        boolean skip;

        active thread T() {
            loc a: do { skip := true; } return;
        }
    }
}

fn main() {}
