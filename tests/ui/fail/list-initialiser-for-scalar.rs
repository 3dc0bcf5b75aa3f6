use bir::bir;

bir! {
    system S {
        int x := { 1 };
    }
}

fn main() {}
