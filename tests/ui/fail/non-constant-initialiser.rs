use bir::bir;

bir! {
    system S {
        int x := 1;
        int y := x;
    }
}

fn main() {}
