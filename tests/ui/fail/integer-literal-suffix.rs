use bir::bir;

bir! {
    system S {
        int x := 3u8;
    }
}

fn main() {}
