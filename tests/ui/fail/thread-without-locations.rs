use bir::bir;

bir! {
    system S {
        active thread T() {
            int x;
        }
    }
}

fn main() {}
