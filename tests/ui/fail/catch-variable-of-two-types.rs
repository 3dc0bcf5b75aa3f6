use bir::bir;

bir! {
    system S {
        throwable record Full { int (0, 9) size; }
        throwable record Empty { boolean b; }
        int (0, 9) x;

        active thread T() {
            try
                x := 1;
            catch (Full e)
                x := 2;
            catch (Empty e)
                x := 3;
            end
        }
    }
}

fn main() {}
