use bir::bir;

bir! {
    system S {
        const Param { N = 2; }
        channel (int (0, 3)) buffer 2 c;

        active thread T() {
            c?(Param.N);
        }
    }
}

fn main() {}
