//! The frontiers: which state a search expands next. Each runs on the one core
//! (`search::core`) and ends in the one `finish`: depth-first (`dfs`), breadth-first
//! (`bfs`), several threads sharing one seen set (`parallel`), random walks
//! (`simulation`), and one worker's part of a distributed breadth-first search (`shard`,
//! whose states `bir-dist` moves between workers).

pub(crate) mod bfs;
pub(crate) mod dfs;
pub(crate) mod parallel;
pub mod shard;
pub(crate) mod simulation;
