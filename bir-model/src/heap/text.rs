//! The heap in words: references, objects, and the slots the heap owns; and the check of
//! a layout.
use super::{FieldLayout, HeapLayout, MAX_BOUND};

impl HeapLayout {
    /// The text of reference `value` to record type `record`: `null`, or `Node#2`.
    pub fn reference_text(&self, record: u32, value: i64) -> String {
        if value == 0 {
            return "null".to_string();
        }
        let name = self
            .records
            .get(record as usize)
            .map_or("?", |record| &record.name);
        format!("{name}#{value}")
    }

    /// Every live object of `values` (a decoded state), by type then number, as
    /// `Node#1 { value = 3, next = Node#2, a = [1, 2, 0] }` (the elements of an array field
    /// as one list); data fields as plain integers.
    pub fn describe(&self, values: &[i64]) -> Vec<String> {
        self.describe_with(values, |_, value| value.to_string())
    }

    /// [`describe`](Self::describe), with the data fields written by `data(slot, value)`
    /// (a caller that knows the slots' kinds writes `true` or `Red`).
    pub fn describe_with<F: FnMut(u32, i64) -> String>(
        &self,
        values: &[i64],
        mut data: F,
    ) -> Vec<String> {
        let mut out = Vec::new();
        for record in self.records.iter() {
            for (object, &live) in record.live.iter().enumerate() {
                if values[live as usize] == 0 {
                    continue;
                }
                let mut text = if record.fields.is_empty() {
                    String::new()
                } else {
                    " ".to_string()
                };
                let mut fields = record.fields.iter().peekable();
                let mut first = true;
                while let Some(field) = fields.next() {
                    let mut value = |field: &FieldLayout| {
                        let slot = field.slots[object];
                        let value = values[slot as usize];
                        match field.refers {
                            Some(target) => self.reference_text(target, value),
                            None => data(slot, value),
                        }
                    };
                    if !first {
                        text.push_str(", ");
                    }
                    first = false;
                    text.push_str(&field.name);
                    text.push_str(" = ");
                    if field.element.is_none() {
                        text.push_str(&value(field));
                        continue;
                    }
                    let mut items = vec![value(field)];
                    while let Some(next) =
                        fields.next_if(|f| f.element.is_some() && f.name == field.name)
                    {
                        items.push(value(next));
                    }
                    text.push('[');
                    text.push_str(&items.join(", "));
                    text.push(']');
                }
                if !record.fields.is_empty() {
                    text.push(' ');
                }
                out.push(format!("{}#{} {{{text}}}", record.name, object + 1));
            }
        }
        out
    }

    /// True when the heap owns slot `slot`: an object's `live` slot or one of its fields
    /// (not the roots). Linear in the layout; see [`owned_slots`](Self::owned_slots).
    pub fn owns(&self, slot: u32) -> bool {
        self.owned_slots().any(|owned| owned == slot)
    }

    /// Every slot the heap owns (`live` and field slots), record by record, for readers that
    /// show them apart from the other variables or hide them.
    pub fn owned_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.records.iter().flat_map(|record| {
            record.live.iter().copied().chain(
                record
                    .fields
                    .iter()
                    .flat_map(|field| field.slots.iter().copied()),
            )
        })
    }

    /// Whether the layout is well formed: bounds in `1..=`[`MAX_BOUND`], a slot per object
    /// in every list, record indices in range, and no slot named twice. The message says
    /// what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let types = self.records.len() as u32;
        for record in self.records.iter() {
            let name = &record.name;
            if !(1..=MAX_BOUND).contains(&record.bound) {
                return Err(format!("record {name} has bound {}", record.bound));
            }
            if record.live.len() != record.bound as usize {
                return Err(format!(
                    "record {name} has {} live slots",
                    record.live.len()
                ));
            }
            for field in record.fields.iter() {
                if field.slots.len() != record.bound as usize {
                    return Err(format!("field {name}.{} has the wrong slots", field.name));
                }
                if field.refers.is_some_and(|t| t >= types) {
                    return Err(format!("field {name}.{} refers to no record", field.name));
                }
            }
        }
        if let Some(root) = self.roots.iter().find(|root| root.record >= types) {
            return Err(format!("root slot {} refers to no record", root.slot));
        }
        let mut slots: Vec<u32> = self.owned_slots().collect();
        slots.extend(self.roots.iter().map(|root| root.slot));
        slots.sort_unstable();
        match slots.windows(2).find(|pair| pair[0] == pair[1]) {
            Some(pair) => Err(format!("slot {} is named twice", pair[0])),
            None => Ok(()),
        }
    }
}
