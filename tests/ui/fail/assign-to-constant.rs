use bir::bir;

bir! {
    system S {
        const Param { N = 3; }

        active thread T() {
            loc a: do { Param.N := 4; } goto a;
        }
    }
}

fn main() {}
