use bir::bir;

bir! {
    system S {
        boolean loc;
    }
}

fn main() {}
