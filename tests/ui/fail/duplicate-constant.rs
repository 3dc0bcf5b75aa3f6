use bir::bir;

bir! {
    system S {
        const Param { N = 3; N = 4; }
    }
}

fn main() {}
