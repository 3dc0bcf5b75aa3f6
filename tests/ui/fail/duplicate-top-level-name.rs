use bir::bir;

bir! {
    system S {
        enum Mode { On, Off }
        const Mode { N = 1; }
    }
}

fn main() {}
