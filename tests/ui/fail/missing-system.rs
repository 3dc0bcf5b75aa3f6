use bir::bir;

bir! {
    boolean b;
}

fn main() {}
