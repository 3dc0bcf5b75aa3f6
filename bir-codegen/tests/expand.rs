//! The expansion of every reference model is valid Rust; printing one shows what users
//! get from `cargo expand`.

use std::str::FromStr;

use proc_macro2::TokenStream;

fn expand(source: &str) -> String {
    let tokens = TokenStream::from_str(source).expect("tokenizes");
    let output = bir_codegen::expand(tokens);
    let file: syn::File = syn::parse2(output).expect("the expansion parses as a Rust file");
    prettyplease::unparse(&file)
}

#[test]
fn dump() {
    let text = expand(include_str!("../../models/peterson_filter.bir"));
    println!("{text}");
}
