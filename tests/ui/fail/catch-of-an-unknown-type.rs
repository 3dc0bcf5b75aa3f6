use bir::bir;

bir! {
    system S {
        throwable record Full { int (0, 9) size; }
        int (0, 9) x;

        active thread T() {
            try
                x := 1;
            catch (Ful e)
                x := 2;
            end
        }
    }
}

fn main() {}
