use bir::bir;

bir! {
    system S {
        int x;
        int y := x.N;
    }
}

fn main() {}
