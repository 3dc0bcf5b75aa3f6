use bir::bir;

bir! {
    system S {
        int Worker;

        active thread Main() {
            loc a: do { start Worker(); } return;
        }
    }
}

fn main() {}
