use bir::bir;

bir! {
    system S {
        int x := 0xff;
    }
}

fn main() {}
