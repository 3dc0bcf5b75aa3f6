//! An instance's call stack read from its status and its locals. A call is laid out in the
//! calling thread (LANGUAGE.md, "How `bir` implements version 3", "Frames"): each frame of
//! it has a number (the thread's body is frame 0), its locations are the thread's
//! locations `f@k.loc` and its locals the instance's locals `f@k.x`. Being at a location of
//! frame `k` is being in that frame with every caller waiting in its call, so the stack is
//! the frame of the instance's location, then the frame that called it, down to the body.
//!
//! Which call made a frame is read from the transitions: rule, frames are numbered as they
//! are laid out, callers before callees, so a transition from a location of frame `p` to
//! one of frame `k` with `p < k` is the call that makes frame `k` (a return goes the other
//! way, to a frame of a lower number), and its `from` is where the caller waits.

use std::collections::HashMap;

use super::names::{is_overflow_name, parse_frame_item, FRAME_RESULT};
use super::SlotRole;
use crate::info::{ModelInfo, SlotKind};

/// The call stack of one instance of a thread that calls functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackPart {
    /// The instance: `T`, `P[2]`.
    pub instance: String,
    /// The slot of its status.
    pub status: usize,
    /// Per location of the thread (a status value), its frame's number and its name in
    /// the frame's body (`if#1` for `sum@3.if#1`).
    at: Vec<(u32, String)>,
    /// The frames, by number.
    frames: HashMap<u32, FrameLayout>,
    /// The status value of each location, by its name in the thread (`sum@3.if#1`).
    positions: HashMap<String, usize>,
}

/// One frame as laid out in its thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct FrameLayout {
    /// The function, or `None` for the thread's body.
    function: Option<String>,
    /// The location (a status value) where the call that makes it waits.
    caller: Option<usize>,
    /// Its locals, the result that passes back to the caller left out.
    locals: Vec<Local>,
}

/// A local of a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// As the function's body names it: `n`.
    pub name: String,
    /// Its slot.
    pub slot: usize,
}

/// One frame of a call stack in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The function it runs, or `None` for the thread's own body.
    pub function: Option<&'a str>,
    /// Its number in its thread (0 for the body), as in `f@3`.
    pub number: u32,
    /// Where it stands, or waits in a call, as the function's body names it.
    pub location: &'a str,
    /// Its locals (none listed for the body: those are the instance's own variables).
    pub locals: &'a [Local],
}

impl StackPart {
    /// The stack of every instance whose thread has frames, in slot order; their frames'
    /// slots marked hidden in `roles` (a frame not on the stack holds its locals' initial
    /// values, and the overflow locals are never written in a reachable state).
    pub(super) fn all(info: &ModelInfo, roles: &mut [SlotRole]) -> Vec<StackPart> {
        let has_frames = |locations: &[std::borrow::Cow<'static, str>]| {
            locations.iter().any(|l| parse_frame_item(l).is_some())
        };
        let mut stacks: Vec<StackPart> = info
            .slots
            .iter()
            .enumerate()
            .filter_map(|(status, slot)| match &slot.kind {
                SlotKind::Status { locations } if has_frames(locations) => {
                    Some(StackPart::new(slot.name.to_string(), status, locations))
                }
                _ => None,
            })
            .collect();
        if stacks.is_empty() {
            return stacks;
        }
        let by_instance: HashMap<String, usize> = stacks
            .iter()
            .enumerate()
            .map(|(index, stack)| (stack.instance.clone(), index))
            .collect();
        for (slot, info_slot) in info.slots.iter().enumerate() {
            let Some((instance, local)) = info_slot.name.split_once('.') else {
                continue;
            };
            let Some(&stack) = by_instance.get(instance) else {
                continue;
            };
            if is_overflow_name(local) {
                roles[slot] = SlotRole::Hidden;
            } else if let Some((_, number, name)) = parse_frame_item(local) {
                roles[slot] = SlotRole::Hidden;
                if name != FRAME_RESULT {
                    let name = match info_slot.element {
                        Some(element) => format!("{name}[{element}]"),
                        None => name.to_string(),
                    };
                    let frame = stacks[stack].frames.entry(number).or_default();
                    frame.locals.push(Local { name, slot });
                }
            }
        }
        for transition in info.transitions.iter().filter(|t| t.partner.is_none()) {
            if let Some(&stack) = by_instance.get(transition.thread.as_ref()) {
                stacks[stack].note_call(&transition.from, &transition.to);
            }
        }
        stacks
    }

    fn new(
        instance: String,
        status: usize,
        locations: &[std::borrow::Cow<'static, str>],
    ) -> StackPart {
        let mut frames: HashMap<u32, FrameLayout> = HashMap::new();
        frames.insert(0, FrameLayout::default());
        let at = locations
            .iter()
            .map(|location| match parse_frame_item(location) {
                Some((function, number, name)) => {
                    frames.entry(number).or_default().function = Some(function.to_string());
                    (number, name.to_string())
                }
                None => (0, location.to_string()),
            })
            .collect();
        let positions = locations
            .iter()
            .enumerate()
            .map(|(index, location)| (location.to_string(), index))
            .collect();
        StackPart {
            instance,
            status,
            at,
            frames,
            positions,
        }
    }

    /// Records the transition from `from` to `to` if it is a call (see the module's rule).
    fn note_call(&mut self, from: &str, to: &str) {
        let (Some(&from), Some(&to)) = (self.positions.get(from), self.positions.get(to)) else {
            return;
        };
        let (caller, callee) = (self.at[from].0, self.at[to].0);
        if caller < callee {
            if let Some(frame) = self.frames.get_mut(&callee) {
                frame.caller.get_or_insert(from);
            }
        }
    }

    /// The call stack in `values` (a decoded state): the running frame first, the thread's
    /// body last; empty when the instance has ended or has not started. A frame whose call
    /// is unknown (which the rule above never leaves) ends the stack.
    pub fn frames(&self, values: &[i64]) -> Vec<Frame<'_>> {
        let mut stack = Vec::new();
        let mut location = values
            .get(self.status)
            .and_then(|&v| usize::try_from(v).ok())
            .filter(|&v| v < self.at.len());
        while let Some(at) = location {
            let (number, name) = &self.at[at];
            let Some(frame) = self.frames.get(number) else {
                break;
            };
            stack.push(Frame {
                function: frame.function.as_deref(),
                number: *number,
                location: name,
                locals: if *number == 0 { &[] } else { &frame.locals },
            });
            // Each step goes to a frame of a lower number: the walk ends.
            location = match frame.caller {
                Some(caller) if *number != 0 && self.at[caller].0 < *number => Some(caller),
                _ => None,
            };
        }
        stack
    }

    /// True when the instance is inside a call in `values`.
    pub fn in_call(&self, values: &[i64]) -> bool {
        values
            .get(self.status)
            .and_then(|&v| usize::try_from(v).ok())
            .and_then(|v| self.at.get(v))
            .is_some_and(|(number, _)| *number != 0)
    }
}
