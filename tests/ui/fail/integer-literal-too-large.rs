use bir::bir;

bir! {
    system S {
        int x := 3000000000;
    }
}

fn main() {}
