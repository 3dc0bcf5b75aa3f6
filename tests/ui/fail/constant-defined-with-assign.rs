use bir::bir;

bir! {
    system S {
        const Param { N := 3; }
    }
}

fn main() {}
