use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function pick(int (0, 9) n) returns int (0, 9) {
            if n > 4 do
                return n;
            end
        }

        active thread T() {
            x := pick(5);
        }
    }
}

fn main() {}
