use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function[4] even(int (0, 9) n) {
            if n > 0 do
                odd(n - 1);
            end
        }

        function odd(int (0, 9) n) {
            if n > 0 do
                even(n - 1);
            end
        }

        active thread T() {
            even(3);
        }
    }
}

fn main() {}
