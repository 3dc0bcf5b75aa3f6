use bir::bir;

bir! {
    system S {
        const Param { N = 4 / 0; }
    }
}

fn main() {}
