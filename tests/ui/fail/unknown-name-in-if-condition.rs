use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            if y > 1 do
                x := 1;
            end
        }
    }
}

fn main() {}
