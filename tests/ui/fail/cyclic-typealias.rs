use bir::bir;

bir! {
    system S {
        typealias A B;
        typealias B A;
    }
}

fn main() {}
