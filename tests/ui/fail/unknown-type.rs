use bir::bir;

bir! {
    system S {
        Colour c;
    }
}

fn main() {}
