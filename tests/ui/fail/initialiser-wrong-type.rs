use bir::bir;

bir! {
    system S {
        boolean b := 1;
    }
}

fn main() {}
