use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }
        enum Shape { Square, Circle }
        Color c;

        active thread T() {
            loc a: when c != Shape.Circle do {} goto a;
        }
    }
}

fn main() {}
