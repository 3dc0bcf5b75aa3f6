use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            atomic
                x := 1;
                loc two: x := 2;
            end
        }
    }
}

fn main() {}
