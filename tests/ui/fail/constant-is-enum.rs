use bir::bir;

bir! {
    system S {
        enum Color { Red, Green }
        const Param { C = Color.Red; }
    }
}

fn main() {}
