use bir::bir;

bir! {
    system S {
        lock m;

        active [2] thread W(int (0, 1) id) {
            lock(m);
            wait(m);
            unlock(m);
        }

        active thread N() {
            loc a: do { lock(m); } goto b;
            loc b: do { notify(m); notify(m); } goto c;
            loc c: do { unlock(m); } return;
        }
    }
}

fn main() {}
