use bir::bir;

bir! {
    system S {
        int n := 3;
        int[n] a;
    }
}

fn main() {}
