use bir::bir;

bir! {
    system S {
        int (0, 3) x;

        active thread T() {
            try
                x := 1;
            catch (Bad b)
                x := 2;
            end
        }
    }
}

fn main() {}
