use bir::bir;

bir! {
    system S {
        int x;

        active thread T() {
            loc a:
                do { x = 1; } goto a;
                do { x = 2; } goto a;
                do { x = 3; } goto a;
                do { x = 4; } goto a;
                do { x = 5; } goto a;
                do { x = 6; } goto a;
                do { x = 7; } goto a;
                do { x = 8; } goto a;
                do { x = 9; } goto a;
                do { x = 10; } goto a;
                do { x = 11; } goto a;
                do { x = 12; } goto a;
        }
    }
}

fn main() {}
