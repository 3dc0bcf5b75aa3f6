use bir::bir;

bir! {
    system S {
        record Plain { int (0, 9) v; }
        int (0, 9) x;

        active thread T() {
            try
                x := 1;
            catch (Plain p)
                x := 2;
            end
        }
    }
}

fn main() {}
