use bir::bir;

bir! {
    system S {
        int (3, 1) x := 3;
    }
}

fn main() {}
