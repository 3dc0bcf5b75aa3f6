//! [`Frames`]: the successor lists of the top frames of a depth-first search, so that
//! returning to a parent takes up its successors where it left them instead of computing
//! them again.
//!
//! A deep search (millions of levels) cannot keep every level's successors: that would cost
//! more than its seen set. So only the frames of a window at the top keep theirs, all in one
//! arena, bottom frame first: when more than [`Frames::new`]'s `2 * window` frames would keep
//! them, the lowest `window` drop theirs, and the arena's rest moves down over them. A
//! frame's successors are written once, at the arena's end, and a frame is only where they
//! start and end and which one it takes next; popping it cuts them off the arena's end.
//! Returning to a frame whose successors were dropped, the search computes them again
//! ([`Frames::refill`]), as it would without the frames; every other return costs nothing.
//! The top frame is held apart from the others, so taking its next successor is as cheap
//! as reading a vector.
//!
//! The window also ends where the kept successors would pass [`KEPT_BYTES`]: a model of a
//! thousand threads has a thousand successors a state, of kilobytes each, and 128 frames of
//! them would hold hundreds of megabytes that moving and freeing cost more time than
//! computing them again saves.

use crate::model::Successor;

/// Half the number of top frames whose successors a search keeps ([`Frames::new`]'s
/// `window`): returning to one of them costs no expansion. With 64, the nested search on
/// Peterson's filter N=5 computes a parent's successors again on 20,160 of 340,195 returns
/// (every time without the frames); 4,096 saves only 8,000 more, at 64 times the memory.
pub(crate) const KEPT_FRAMES: usize = 64;

/// The most memory the kept frames' successors take, with the words of wide states held
/// apart from them: the philosophers N=14 keep about 60 KB, so only models with
/// hundreds of threads or wide states meet it. Peterson's filter N=1,000 interpreted
/// (states of 2.8 KB, 1,000 successors each) needs it: with 128 frames kept, their
/// successors took most of its peak memory and half its speed.
pub(crate) const KEPT_BYTES: usize = 4 << 20;

/// A frame that keeps its successors: where they are in the arena (`start..end`), the
/// index of the next one to take, and how many of its state's successors come before the
/// first kept (those a partial-order reduction left out).
#[derive(Clone, Copy)]
struct Frame {
    start: usize,
    end: usize,
    next: usize,
    skipped: usize,
}

/// The successor lists of the top frames of a depth-first stack: see the [module](self).
/// The stack's states are the search's own; this keeps, per frame, only successors and a
/// cursor.
pub(crate) struct Frames<S> {
    /// The top frame, unless there is none or it dropped its successors.
    top: Option<Frame>,
    /// The kept frames under the top one, bottom first.
    below: Vec<Frame>,
    /// The frames under the kept ones, whose successors were dropped.
    dropped: usize,
    /// The successors of the kept frames, bottom first, then those of the next frame
    /// ([`Self::arena`]).
    arena: Vec<Successor<S>>,
    /// Half the frames kept at most (at least 1).
    window: usize,
    /// The most successors the kept frames hold together ([`KEPT_BYTES`] of them).
    most_successors: usize,
}

impl<S> Frames<S> {
    /// No frames; at most `2 * window` frames keep their successors, and no more than
    /// [`KEPT_BYTES`] of them, each its [`Successor`] and `held_apart` bytes more (see
    /// [`words_held_apart`](crate::store::words_held_apart)).
    pub(crate) fn new(window: usize, held_apart: usize) -> Self {
        let successor = std::mem::size_of::<Successor<S>>() + held_apart;
        Frames {
            top: None,
            below: Vec::new(),
            dropped: 0,
            arena: Vec::new(),
            window: window.max(1),
            most_successors: KEPT_BYTES / successor.max(1),
        }
    }

    /// Removes every frame.
    pub(crate) fn clear(&mut self) {
        self.top = None;
        self.below.clear();
        self.arena.clear();
        self.dropped = 0;
    }

    /// Where the successors of a frame about to be pushed go: append them after
    /// `arena().len()` (the start to give [`Self::push`]) and change nothing before it.
    /// Also where [`Self::refill`] wants the top frame's successors, in an empty arena.
    #[inline]
    pub(crate) fn arena(&mut self) -> &mut Vec<Successor<S>> {
        &mut self.arena
    }

    /// Pushes a frame whose successors are the arena's from `start` on; it takes them from
    /// the first. When more than `2 * window` frames would keep their successors, the
    /// lowest `window` drop theirs; when the kept successors pass their bound, the lowest
    /// half of the frames under the top one.
    pub(crate) fn push(&mut self, start: usize) {
        self.push_after(start, 0);
    }

    /// [`Self::push`] for a frame whose successors in the arena come after `skipped` others
    /// of its state, left out: [`Self::take_numbered`] numbers them from `skipped`.
    #[inline]
    pub(crate) fn push_after(&mut self, start: usize, skipped: usize) {
        let kept_end = self.top.map_or(0, |top| top.end);
        debug_assert!(
            start >= kept_end,
            "a frame's successors follow the kept frames'"
        );
        if start > kept_end {
            // What the arena held between the kept frames' successors and these is no
            // frame's.
            self.arena.drain(kept_end..start);
        }
        if let Some(top) = self.top.take() {
            self.below.push(top);
            if self.below.len() >= 2 * self.window || self.arena.len() > self.most_successors {
                self.drop_lowest();
            }
        }
        // The successors start where the kept frames' end (moved down if some dropped).
        let start = self.below.last().map_or(0, |frame| frame.end);
        self.top = Some(Frame {
            start,
            end: self.arena.len(),
            next: start,
            skipped,
        });
    }

    /// Drops the successors of the lowest kept frames, while [`Self::push_after`] holds the
    /// new top frame's successors at the arena's end: the lowest `window` of `2 * window`,
    /// else (past the bytes kept) the lowest half. The arena's rest moves down over them,
    /// and the frames above say where theirs now are.
    #[cold]
    fn drop_lowest(&mut self) {
        let count = if self.below.len() >= 2 * self.window {
            self.window
        } else {
            self.below.len().div_ceil(2)
        };
        let cut = match self.below.get(count) {
            Some(frame) => frame.start,
            None => self.below.last().map_or(0, |frame| frame.end),
        };
        self.arena.drain(..cut);
        self.below.drain(..count);
        for frame in &mut self.below {
            frame.start -= cut;
            frame.end -= cut;
            frame.next -= cut;
        }
        self.dropped += count;
    }

    /// The top frame's next successor, which it now takes; `None` when it has taken all of
    /// them (or there is no frame, or the top's successors were dropped and not refilled).
    #[inline]
    pub(crate) fn take(&mut self) -> Option<&Successor<S>> {
        self.take_numbered().map(|(_, successor)| successor)
    }

    /// [`Self::take`], with the successor's number among all of its state's successors.
    #[inline]
    pub(crate) fn take_numbered(&mut self) -> Option<(usize, &Successor<S>)> {
        let frame = self.top.as_mut()?;
        if frame.next >= frame.end {
            return None;
        }
        let successor = self.arena.get(frame.next)?;
        frame.next += 1;
        Some((frame.skipped + frame.next - 1 - frame.start, successor))
    }

    /// The successors the top frame has yet to take (none when its successors were dropped).
    pub(crate) fn untaken(&self) -> &[Successor<S>] {
        self.top
            .and_then(|frame| self.arena.get(frame.next..frame.end))
            .unwrap_or(&[])
    }

    /// Pops the top frame. True when the frame now on top has lost its successors: the
    /// search must give them again with [`Self::refill`] before it takes any.
    #[inline]
    pub(crate) fn pop(&mut self) -> bool {
        match self.top.take() {
            Some(frame) => {
                self.arena.truncate(frame.start);
                self.top = self.below.pop();
            }
            None => self.dropped = self.dropped.saturating_sub(1),
        }
        self.top.is_none() && self.dropped > 0
    }

    /// Gives the top frame, whose successors were dropped, its successors again: the whole
    /// arena (which [`Self::pop`] left empty), of which it has taken the first `next`.
    pub(crate) fn refill(&mut self, next: usize) {
        self.refill_after(next, 0);
    }

    /// [`Self::refill`] for successors that come after `skipped` others of the frame's
    /// state, left out (see [`Self::push_after`]).
    pub(crate) fn refill_after(&mut self, next: usize, skipped: usize) {
        if self.top.is_none() && self.dropped > 0 {
            self.dropped -= 1;
            self.top = Some(Frame {
                start: 0,
                end: self.arena.len(),
                next: next.min(self.arena.len()),
                skipped,
            });
        }
    }

    /// The frames that keep their successors.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.below.len() + usize::from(self.top.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::{Frames, KEPT_BYTES};
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
        let mut frames = Frames::new(4, 0);
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
        let mut frames = Frames::new(1, 0);
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
        let mut frames = Frames::new(2, 0);
        for level in 0..5 {
            push(&mut frames, &[10 * level, 10 * level + 1]);
            assert_eq!(take(&mut frames), Some(10 * level));
        }
        assert_eq!((frames.kept(), frames.dropped), (3, 2));
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
        assert_eq!((frames.kept(), frames.dropped), (0, 0));
    }

    #[test]
    fn kept_frames_keep_their_place_when_the_lowest_drop_theirs() {
        // Window 2: the fifth push drops the two lowest frames' successors, and the arena's
        // rest moves down under the three frames still keeping theirs.
        let mut frames = Frames::new(2, 0);
        for level in 0..5 {
            let start = frames.arena().len();
            frames.arena().extend((0..3).map(|k| to(10 * level + k)));
            frames.push_after(start, level as usize);
            assert_eq!(
                frames.take_numbered().map(|(n, s)| (n, s.transition)),
                Some((level as usize, 10 * level))
            );
        }
        assert_eq!(frames.arena().len(), 9);
        for level in (2..5).rev() {
            let untaken: Vec<u32> = frames.untaken().iter().map(|s| s.transition).collect();
            assert_eq!(untaken, [10 * level + 1, 10 * level + 2]);
            assert_eq!(
                frames.take_numbered().map(|(n, s)| (n, s.transition)),
                Some((level as usize + 1, 10 * level + 1))
            );
            assert_eq!(frames.pop(), level == 2);
        }
        assert!(frames.arena().is_empty());
    }

    #[test]
    fn what_the_arena_held_before_a_frames_successors_is_no_frames() {
        let mut frames = Frames::new(4, 0);
        push(&mut frames, &[1, 2]);
        frames.arena().push(to(99));
        let start = frames.arena().len();
        frames.arena().push(to(7));
        frames.push(start);
        assert_eq!(take(&mut frames), Some(7));
        assert_eq!(take(&mut frames), None);
        assert!(!frames.pop());
        assert_eq!(take(&mut frames), Some(1));
        assert_eq!(take(&mut frames), Some(2));
        assert_eq!(take(&mut frames), None);
    }

    #[test]
    fn the_lowest_half_drop_their_successors_past_the_bytes_kept() {
        // Room for 10 successors: the fourth frame of 3 passes it, and the lowest two of
        // the three under it drop theirs.
        let held_apart = KEPT_BYTES / 10 - std::mem::size_of::<Successor<u32>>();
        let mut frames = Frames::new(64, held_apart);
        for level in 0..4 {
            push(&mut frames, &[10 * level, 10 * level + 1, 10 * level + 2]);
            assert_eq!(take(&mut frames), Some(10 * level));
        }
        assert_eq!((frames.kept(), frames.dropped), (2, 2));
        assert_eq!(frames.arena().len(), 6);
        for level in (2..4).rev() {
            assert_eq!(take(&mut frames), Some(10 * level + 1));
            assert_eq!(take(&mut frames), Some(10 * level + 2));
            assert_eq!(take(&mut frames), None);
            assert_eq!(frames.pop(), level == 2);
        }
        frames.arena().extend([to(10), to(11), to(12)]);
        frames.refill(1);
        assert_eq!(take(&mut frames), Some(11));
    }

    #[test]
    fn clear_forgets_every_frame() {
        let mut frames = Frames::new(1, 0);
        for level in 0..4 {
            push(&mut frames, &[level]);
        }
        frames.clear();
        assert_eq!((frames.kept(), frames.dropped), (0, 0));
        assert!(!frames.pop());
        assert!(frames.arena().is_empty());
    }
}
