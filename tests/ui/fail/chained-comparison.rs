use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a: when 0 < x < 3 do {} goto a;
        }
    }
}

fn main() {}
