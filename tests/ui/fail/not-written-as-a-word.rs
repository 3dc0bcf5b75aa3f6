use bir::bir;

bir! {
    system S {
        boolean done;

        active thread T() {
            loc a: when not done do { done := true; } goto a;
        }
    }
}

fn main() {}
