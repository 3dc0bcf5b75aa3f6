use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            if x == 0 do
                x := 1;
            else if x == 1 do
                x := 2;
            end
        }
    }
}

fn main() {}
