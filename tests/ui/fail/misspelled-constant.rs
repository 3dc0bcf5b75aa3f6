use bir::bir;

bir! {
    system S {
        const Param { Size = 3; }
        int (0, Param.Siz) x;
    }
}

fn main() {}
