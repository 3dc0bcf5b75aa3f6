use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }
        Color c;

        active thread T() {
            loc a: do { c := c + 1; } goto a;
        }
    }
}

fn main() {}
