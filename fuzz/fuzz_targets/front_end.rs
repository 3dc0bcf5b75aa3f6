//! Arbitrary bytes as the body of a `bir!` invocation: Rust's tokenizer, then the whole
//! macro (parse, check, layout, code generation), and for a model the front end accepts,
//! its Murphi (both ways) and Promela texts. Rule: `bir_codegen::expand` and the writers
//! never panic and never overflow the stack; any input yields generated code or compile
//! errors.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // Text that is not Rust tokens never reaches the macro: rustc rejects it first.
        if let Ok(tokens) = proc_macro2::TokenStream::from_str(text) {
            let _ = bir_codegen::expand(tokens.clone());
            if let Ok(system) = bir_codegen::front_end(tokens) {
                use bir_codegen::export::murphi::{murphi, Errors};
                let _ = murphi(&system, Errors::Stop);
                let _ = murphi(&system, Errors::CountPast);
                let _ = bir_codegen::export::promela::promela(&system);
            }
        }
    }
    // Outside a proc macro every tokenized text stays in a thread-local source map (for
    // line/column spans); without this the map grows with every run until it runs out of
    // memory or of 32-bit offsets.
    proc_macro2::extra::invalidate_current_thread_spans();
});
