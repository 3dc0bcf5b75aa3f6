use bir::bir;

bir! {
    system S {
        enum Mode { Idle Busy }
        int count;

        active thread T() {
            loc a: when count < 3 do { count := count + ; } goto a;
        }
    }
}

fn main() {}
