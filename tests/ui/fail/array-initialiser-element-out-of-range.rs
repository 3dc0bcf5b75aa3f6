use bir::bir;

bir! {
    system S {
        byte[3] a := { 0, 256, 1 };
    }
}

fn main() {}
