use bir::bir;

bir! {
    system S {
        channel int c;

        active thread T() {
            c!(1);
        }
    }
}

fn main() {}
