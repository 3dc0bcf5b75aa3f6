use bir::bir;

bir! {
    system S {
        lock m;
        channel go;

        active thread W() {
            lock(m);
            wait(m);
            unlock(m);
        }

        active thread N() {
            loc a: do { lock(m); } goto b;
            loc b: do { go!; notify(m); } goto c;
            loc c: do { unlock(m); } return;
        }

        active thread R() {
            go?;
        }
    }
}

fn main() {}
