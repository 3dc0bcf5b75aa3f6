use bir::bir;

bir! {
    system S {
        throwable record Full { int (0, 9) size; }
        int (0, 9) x;

        active thread T() {
            int (0, 9) e;
            try
                x := 1;
            catch (Full e)
                x := 2;
            end
        }
    }
}

fn main() {}
