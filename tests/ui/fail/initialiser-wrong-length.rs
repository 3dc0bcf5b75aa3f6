use bir::bir;

bir! {
    system S {
        int[3] a := { 1, 2 };
    }
}

fn main() {}
