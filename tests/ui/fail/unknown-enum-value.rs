use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }
        Color c := Color.Blue;
    }
}

fn main() {}
