use bir::bir;

bir! {
    system S {
        const C { A0 = C.A1 + 1; A1 = C.A2 + 1; A2 = C.A3 + 1; A3 = C.A4 + 1; A4 = C.A5 + 1; A5 = C.A6 + 1; A6 = C.A7 + 1; A7 = C.A8 + 1; A8 = C.A9 + 1; A9 = C.A10 + 1; A10 = C.A11 + 1; A11 = C.A12 + 1; A12 = C.A13 + 1; A13 = C.A14 + 1; A14 = C.A15 + 1; A15 = C.A16 + 1; A16 = C.A17 + 1; A17 = C.A18 + 1; A18 = C.A19 + 1; A19 = C.A20 + 1; A20 = C.A21 + 1; A21 = C.A22 + 1; A22 = C.A23 + 1; A23 = C.A24 + 1; A24 = C.A25 + 1; A25 = C.A26 + 1; A26 = C.A27 + 1; A27 = C.A28 + 1; A28 = C.A29 + 1; A29 = C.A30 + 1; A30 = C.A31 + 1; A31 = C.A32 + 1; A32 = C.A33 + 1; A33 = C.A34 + 1; A34 = C.A35 + 1; A35 = C.A36 + 1; A36 = C.A37 + 1; A37 = C.A38 + 1; A38 = C.A39 + 1; A39 = C.A40 + 1; A40 = C.A41 + 1; A41 = C.A42 + 1; A42 = C.A43 + 1; A43 = C.A44 + 1; A44 = C.A45 + 1; A45 = C.A46 + 1; A46 = C.A47 + 1; A47 = C.A48 + 1; A48 = C.A49 + 1; A49 = C.A50 + 1; A50 = C.A51 + 1; A51 = C.A52 + 1; A52 = C.A53 + 1; A53 = C.A54 + 1; A54 = C.A55 + 1; A55 = C.A56 + 1; A56 = C.A57 + 1; A57 = C.A58 + 1; A58 = C.A59 + 1; A59 = C.A60 + 1; A60 = C.A61 + 1; A61 = C.A62 + 1; A62 = C.A63 + 1; A63 = C.A64 + 1; A64 = C.A65 + 1; A65 = 0; }
        int x := C.A0;
        active thread T() { loc l: do { } goto l; }
    }
}

fn main() {}
