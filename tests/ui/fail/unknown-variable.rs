use bir::bir;

bir! {
    system S {
        boolean done;

        active thread T() {
            loc a: do { dnoe := true; } goto a;
        }
    }
}

fn main() {}
