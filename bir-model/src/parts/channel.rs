//! A buffered channel read from its slots: its length, and per field one array of message
//! cells, element `c * capacity + s` for cell `s` of channel `c`, the oldest message in
//! cell 0 (a receive moves the queue up). Cells past the length hold their fields' default
//! values and are no message.

use std::collections::HashMap;

use super::{channel_field_name, element_name, SlotRole};
use crate::info::SlotInfo;

/// One buffered channel (one element of an array of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelPart {
    /// `c`, or `c[1]` for element 1 of an array of channels.
    pub name: String,
    /// The slot of its length.
    pub length: usize,
    /// How many messages it holds at most, when its slots say: a channel whose messages
    /// have fields has that many cells; one without fields has no cells to count.
    pub capacity: Option<u32>,
    /// Per cell, oldest first, the slot of each field.
    cells: Vec<Vec<usize>>,
}

impl ChannelPart {
    /// The channel whose length is slot `length`, named `channel`; its cells' slots are
    /// marked hidden in `roles`.
    pub(super) fn new(
        slots: &[SlotInfo],
        by_name: &HashMap<&str, Vec<usize>>,
        channel: &str,
        length: usize,
        roles: &mut [SlotRole],
    ) -> ChannelPart {
        let element = slots[length].element.unwrap_or(0) as usize;
        // The channels of one declaration: its length slot's elements.
        let channels = by_name.get(slots[length].name.as_ref()).map_or(1, Vec::len);
        let fields: Vec<&Vec<usize>> = (0..)
            .map_while(|field| by_name.get(channel_field_name(channel, field).as_str()))
            .collect();
        let per_channel = fields.first().map(|cells| cells.len() / channels.max(1));
        // Rule: every field has one cell per message of every channel; slots that do not
        // divide so are read as no cells (and the capacity as unknown) rather than misread.
        let regular = per_channel
            .is_some_and(|per| per > 0 && fields.iter().all(|cells| cells.len() == per * channels));
        let (capacity, cells) = match per_channel {
            Some(per) if regular => {
                let cells = (0..per)
                    .map(|cell| {
                        fields
                            .iter()
                            .map(|slots| slots[element * per + cell])
                            .collect()
                    })
                    .collect();
                (u32::try_from(per).ok(), cells)
            }
            _ => (None, Vec::new()),
        };
        for &slot in cells.iter().flatten() {
            roles[slot] = SlotRole::Hidden;
        }
        ChannelPart {
            name: element_name(channel, &slots[length]),
            length,
            capacity,
            cells,
        }
    }

    /// How many messages it holds in `values` (a decoded state), never more than it has
    /// cells for.
    pub fn len(&self, values: &[i64]) -> usize {
        let length = values
            .get(self.length)
            .and_then(|&v| usize::try_from(v).ok())
            .unwrap_or(0);
        match self.capacity {
            Some(capacity) => length.min(capacity as usize),
            None => length,
        }
    }

    /// True when it holds no message in `values`.
    pub fn is_empty(&self, values: &[i64]) -> bool {
        self.len(values) == 0
    }

    /// Its messages in `values`, first in first: per message the slots of its fields (none
    /// for a channel without fields).
    pub fn messages(&self, values: &[i64]) -> impl Iterator<Item = &[usize]> + '_ {
        (0..self.len(values)).map(|cell| self.cells.get(cell).map_or(&[][..], |c| &c[..]))
    }
}
