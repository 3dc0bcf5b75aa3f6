use bir::bir;

bir! {
    system S {
        int (0, 3) x := 4;
    }
}

fn main() {}
