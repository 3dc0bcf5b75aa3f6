use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }

        active thread T() {
            loc a: do { Color.Red := Color.Green; } goto a;
        }
    }
}

fn main() {}
