//! The heap of a model with records: the static `HEAP` layout the walk reads
//! (`bir_model::heap`), and the state's access to the slots it touches by number.

use proc_macro2::TokenStream;
use quote::quote;

use super::{lit_i64, lit_u32, prim, Gen};

impl Gen<'_> {
    /// `static HEAP` and `impl HeapSlots for State`, for a model with records; nothing
    /// otherwise.
    pub(super) fn heap_items(&self) -> TokenStream {
        let heap = &self.tables.heap;
        if heap.is_empty() {
            return TokenStream::new();
        }
        let cow = quote!(::std::borrow::Cow::Borrowed);
        let records = heap.records.iter().map(|record| {
            let name = &*record.name;
            let bound = lit_u32(record.bound);
            let live = record.live.iter().map(|&slot| lit_u32(slot));
            let fields = record.fields.iter().map(|field| {
                let name = &*field.name;
                let element = match field.element {
                    Some(i) => {
                        let i = lit_u32(i);
                        quote!(::core::option::Option::Some(#i))
                    }
                    None => quote!(::core::option::Option::None),
                };
                let slots = field.slots.iter().map(|&slot| lit_u32(slot));
                let default = lit_i64(field.default);
                let refers = match field.refers {
                    Some(r) => {
                        let r = lit_u32(r);
                        quote!(::core::option::Option::Some(#r))
                    }
                    None => quote!(::core::option::Option::None),
                };
                quote! {
                    ::bir::model::heap::FieldLayout {
                        name: #cow(#name),
                        element: #element,
                        slots: #cow(&[#(#slots),*]),
                        default: #default,
                        refers: #refers,
                    }
                }
            });
            quote! {
                ::bir::model::heap::RecordLayout {
                    name: #cow(#name),
                    bound: #bound,
                    live: #cow(&[#(#live),*]),
                    fields: #cow(&[#(#fields),*]),
                }
            }
        });
        let roots = heap.roots.iter().map(|root| {
            let (slot, record) = (lit_u32(root.slot), lit_u32(root.record));
            quote!(::bir::model::heap::HeapRoot { slot: #slot, record: #record })
        });
        let mut touched: Vec<u32> = heap
            .owned_slots()
            .chain(heap.roots.iter().map(|root| root.slot))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        let (gets, sets): (Vec<_>, Vec<_>) = touched
            .iter()
            .map(|&slot| {
                let (get, set) = self.slot_access(slot);
                let slot = lit_u32(slot);
                (quote!(#slot => self.#get), quote!(#slot => self.#set))
            })
            .unzip();
        let (state, i64, u32) = (&self.state, prim("i64"), prim("u32"));
        quote! {
            /// The heap: every record's objects and the references the walk starts from.
            static HEAP: ::bir::model::heap::HeapLayout = ::bir::model::heap::HeapLayout {
                records: #cow(&[#(#records),*]),
                roots: #cow(&[#(#roots),*]),
            };

            impl ::bir::model::heap::HeapSlots for #state {
                #[inline]
                fn heap_get(&self, slot: #u32) -> #i64 {
                    match slot {
                        #(#gets,)*
                        _ => 0,
                    }
                }

                #[inline]
                fn heap_set(&mut self, slot: #u32, value: #i64) {
                    match slot {
                        #(#sets,)*
                        _ => {}
                    }
                }
            }
        }
    }

    /// The call that reads slot `slot` (`get_x()`, `get_a(2)`) and the one that writes
    /// it (`set_x(value)`, `set_a(2, value)`).
    fn slot_access(&self, slot: u32) -> (TokenStream, TokenStream) {
        let field = self
            .tables
            .fields
            .iter()
            .find(|f| (f.first_slot..f.first_slot + f.elements as usize).contains(&(slot as usize)))
            .unwrap_or_else(|| panic!("slot {slot} belongs to a field"));
        let (get, set) = self.accessor_names(field.owner);
        if self.layout.field(field.owner).is_array {
            let element = slot as usize - field.first_slot;
            (quote!(#get(#element)), quote!(#set(#element, value)))
        } else {
            (quote!(#get()), quote!(#set(value)))
        }
    }

    /// The statement that collects the heap's garbage and renumbers its objects in
    /// `next`, after a step that writes a reference; nothing for the other steps.
    pub(super) fn heap_walk(&self, transition: usize) -> TokenStream {
        let walks = self
            .tables
            .transitions
            .get(transition)
            .is_some_and(|row| row.walks_heap);
        if !walks {
            return TokenStream::new();
        }
        quote! {
            ::bir::model::heap::HeapLayout::collect(
                &HEAP,
                &mut next,
                ::bir::model::heap::order(),
            );
        }
    }
}
