use bir::bir;

bir! {
    system S {
        typealias byte int (0, 255);
    }
}

fn main() {}
