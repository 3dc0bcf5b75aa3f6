use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }
        Color c;

        active thread T() {
            loc a: when c < Color.Green do {} goto a;
        }
    }
}

fn main() {}
