use bir::bir;

bir! {
    system S {
        const Param { A = Param.B + 1; B = Param.A + 1; }
    }
}

fn main() {}
