use bir::bir;

bir! {
    system S {
        enum Color { Red, Green, Red }
    }
}

fn main() {}
