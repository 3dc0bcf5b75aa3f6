use bir::bir;

bir! {
    system S {
        int[2] a := 0;
    }
}

fn main() {}
