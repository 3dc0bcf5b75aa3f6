use bir::bir;

bir! {
    system S {
        int (0, 9) x;

        function down(int (0, 9) n) {
            if n > 0 do
                down(n - 1);
            end
        }

        active thread T() {
            down(3);
        }
    }
}

fn main() {}
