//! [`Frames`]: the successor lists of the top frames of a depth-first search, in one arena,
//! so that returning to a parent takes up its successors where it left them instead of
//! computing them again.
//!
//! A deep search (millions of levels) cannot keep every level's successors: that would cost
//! more than its seen set. So only the frames of a window at the top keep theirs: when the
//! window holds [`Frames::new`]'s `2 * window` frames, its lower half is dropped (one move of
//! the upper half, paid for by the `window` pushes before it). Returning to a frame whose
//! successors were dropped, the search computes them again ([`Frames::refill`]), as it would
//! without the arena; every other return costs nothing.

use crate::model::Successor;

/// A frame that keeps its successors: where they start in the arena, and the index among
/// them of the next one to take.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    start: usize,
    next: usize,
}

/// The successor lists of the top frames of a depth-first stack: see the [module](self).
/// The stack's states are the search's own; this keeps, per frame, only successors and a
/// cursor.
pub(crate) struct Frames<S> {
    /// The successors of the kept frames, bottom frame first, the top frame's last.
    arena: Vec<Successor<S>>,
    /// The kept frames, bottom first.
    kept: Vec<Cursor>,
    /// The frames under the kept ones, whose successors were dropped.
    dropped: usize,
    /// Half the frames kept at most (at least 1).
    window: usize,
}

impl<S> Frames<S> {
    /// No frames; at most `2 * window` frames keep their successors.
    pub(crate) fn new(window: usize) -> Self {
        Frames {
            arena: Vec::new(),
            kept: Vec::new(),
            dropped: 0,
            window: window.max(1),
        }
    }

    /// Removes every frame.
    pub(crate) fn clear(&mut self) {
        self.arena.clear();
        self.kept.clear();
        self.dropped = 0;
    }

    /// The arena, for the successors of a frame about to be pushed: append them after
    /// `arena().len()` (the start to give [`Self::push`]) and change nothing before it.
    /// Also where [`Self::refill`] wants the top frame's successors, in an empty arena.
    pub(crate) fn arena(&mut self) -> &mut Vec<Successor<S>> {
        &mut self.arena
    }

    /// Pushes a frame whose successors are the arena's from `start` on; it takes them from
    /// the first. When the window is full, the lower half of it drops its successors.
    pub(crate) fn push(&mut self, start: usize) {
        if self.kept.len() >= 2 * self.window {
            let lowest_kept = self.kept[self.window].start;
            self.arena.drain(..lowest_kept);
            self.kept.drain(..self.window);
            for cursor in &mut self.kept {
                cursor.start -= lowest_kept;
            }
            self.dropped += self.window;
            self.push_kept(start - lowest_kept);
        } else {
            self.push_kept(start);
        }
    }

    fn push_kept(&mut self, start: usize) {
        self.kept.push(Cursor { start, next: 0 });
    }

    /// The top frame's next successor, which it now takes; `None` when it has taken all of
    /// them (or there is no frame, or the top's successors were dropped and not refilled).
    pub(crate) fn take(&mut self) -> Option<&Successor<S>> {
        let cursor = self.kept.last_mut()?;
        let successor = self.arena.get(cursor.start + cursor.next)?;
        cursor.next += 1;
        Some(successor)
    }

    /// Pops the top frame. True when the frame now on top has lost its successors: the
    /// search must give them again with [`Self::refill`] before it takes any.
    pub(crate) fn pop(&mut self) -> bool {
        match self.kept.pop() {
            Some(cursor) => self.arena.truncate(cursor.start),
            None => self.dropped = self.dropped.saturating_sub(1),
        }
        self.kept.is_empty() && self.dropped > 0
    }

    /// Gives the top frame, whose successors were dropped, its successors again: the whole
    /// arena (which [`Self::pop`] left empty), of which it has taken the first `next`.
    pub(crate) fn refill(&mut self, next: usize) {
        if self.kept.is_empty() && self.dropped > 0 {
            self.dropped -= 1;
            self.kept.push(Cursor { start: 0, next });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Frames;
    use crate::model::{Outcome, Successor};

    /// A successor into `state` by transition `state`.
    fn to(state: u32) -> Successor<u32> {
        Successor {
            transition: state,
            outcome: Outcome::Next(state),
        }
    }

    /// Pushes a frame with successors into `states`.
    fn push(frames: &mut Frames<u32>, states: &[u32]) {
        let start = frames.arena().len();
        frames.arena().extend(states.iter().map(|&s| to(s)));
        frames.push(start);
    }

    /// The transition of the top frame's next successor.
    fn take(frames: &mut Frames<u32>) -> Option<u32> {
        frames.take().map(|s| s.transition)
    }

    #[test]
    fn a_parent_resumes_where_it_left_off() {
        let mut frames = Frames::new(4);
        push(&mut frames, &[1, 2, 3]);
        assert_eq!(take(&mut frames), Some(1));
        push(&mut frames, &[10, 11]);
        assert_eq!(take(&mut frames), Some(10));
        assert_eq!(take(&mut frames), Some(11));
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
        assert_eq!(take(&mut frames), Some(2));
        assert_eq!(take(&mut frames), Some(3));
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
    }

    #[test]
    fn a_frame_without_successors_takes_none() {
        let mut frames = Frames::new(1);
        push(&mut frames, &[1]);
        push(&mut frames, &[]);
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
        assert_eq!(take(&mut frames), Some(1));
    }

    #[test]
    fn frames_below_the_window_are_refilled() {
        // Window 2: at most 4 frames keep their successors; the fifth push drops the two
        // lowest.
        let mut frames = Frames::new(2);
        for level in 0..5 {
            push(&mut frames, &[10 * level, 10 * level + 1]);
            assert_eq!(take(&mut frames), Some(10 * level));
        }
        assert_eq!((frames.kept.len(), frames.dropped), (3, 2));
        for level in (2..5).rev() {
            assert_eq!(take(&mut frames), Some(10 * level + 1));
            assert_eq!(take(&mut frames), None);
            // Popping level 2 leaves level 1, whose successors were dropped.
            assert_eq!(frames.pop(), level == 2);
        }
        assert_eq!(take(&mut frames), None);
        assert!(frames.arena().is_empty());
        frames.arena().extend([to(10), to(11)]);
        frames.refill(1);
        assert_eq!(take(&mut frames), Some(11));
        assert_eq!(take(&mut frames), None);
        assert!(frames.pop());
        frames.arena().extend([to(0), to(1)]);
        frames.refill(2);
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
        assert_eq!((frames.kept.len(), frames.dropped), (0, 0));
    }

    #[test]
    fn clear_forgets_every_frame() {
        let mut frames = Frames::new(1);
        for level in 0..4 {
            push(&mut frames, &[level]);
        }
        frames.clear();
        assert_eq!((frames.kept.len(), frames.dropped), (0, 0));
        assert!(!frames.pop());
        assert!(frames.arena().is_empty());
    }
}
