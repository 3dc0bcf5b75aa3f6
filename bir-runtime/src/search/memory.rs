//! The process's real memory, as the kernel counts it: the memory limit bounds the resident
//! set (RSS) of the whole process, so that every structure counts — seen set, stack or
//! queue, parent links, traces, and states that live on the heap (the interpreter's) —
//! not only the ones the search can measure. On systems without `/proc` the figures are
//! unknown and the limit falls back on the search's own accounting.

use std::fs::File;
use std::io::Read;

/// Reads the resident set size of this process.
pub(crate) struct RssReader {
    statm: Option<File>,
    page_size: usize,
    buffer: [u8; 128],
}

impl RssReader {
    /// A reader, or one that always answers `None` where `/proc` is missing.
    pub(crate) fn new() -> RssReader {
        RssReader {
            statm: File::open("/proc/self/statm").ok(),
            page_size: page_size().unwrap_or(4096),
            buffer: [0; 128],
        }
    }

    /// The resident set size now, in bytes (one read of `/proc/self/statm`).
    pub(crate) fn resident(&mut self) -> Option<usize> {
        let read = read_start(self.statm.as_ref()?, &mut self.buffer)?;
        let text = std::str::from_utf8(&self.buffer[..read]).ok()?;
        let pages: usize = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * self.page_size)
    }
}

/// Reads the start of a file again (procfs files are regenerated at offset 0).
#[cfg(unix)]
fn read_start(file: &File, buffer: &mut [u8]) -> Option<usize> {
    std::os::unix::fs::FileExt::read_at(file, buffer, 0).ok()
}

#[cfg(not(unix))]
fn read_start(_: &File, _: &mut [u8]) -> Option<usize> {
    None
}

/// The page size, from the auxiliary vector the kernel gave the process (`AT_PAGESZ`).
fn page_size() -> Option<usize> {
    const AT_PAGESZ: u64 = 6;
    let mut auxv = Vec::new();
    File::open("/proc/self/auxv")
        .ok()?
        .read_to_end(&mut auxv)
        .ok()?;
    auxv.chunks_exact(16).find_map(|pair| {
        let key = u64::from_ne_bytes(pair[..8].try_into().ok()?);
        let value = u64::from_ne_bytes(pair[8..].try_into().ok()?);
        (key == AT_PAGESZ).then_some(value as usize)
    })
}

/// The largest resident set size this process has had (`VmHWM`), in bytes.
pub(crate) fn peak_resident() -> Option<usize> {
    status_field("VmHWM:")
}

/// The memory available to new allocations (`MemAvailable`), in bytes.
pub(crate) fn available() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&meminfo, "MemAvailable:")
}

fn status_field(name: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, name)
}

/// A `Name:   1234 kB` line's value in bytes.
fn kib_field(text: &str, name: &str) -> Option<usize> {
    let kib: usize = text
        .lines()
        .find_map(|line| line.strip_prefix(name))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// The default memory limit: what the process holds now plus three quarters of the memory
/// available, so that running out of memory ends with a report rather than with the process
/// killed.
pub(crate) fn default_limit() -> Option<usize> {
    let resident = RssReader::new().resident().unwrap_or(0);
    Some(resident.saturating_add(available()? / 4 * 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resident_set_is_read_and_follows_allocations() {
        let mut reader = RssReader::new();
        let Some(before) = reader.resident() else {
            return; // no /proc here
        };
        assert!(before > 0);
        let block = vec![1u8; 64 << 20];
        let after = reader.resident().unwrap_or(0);
        assert!(after >= before + (32 << 20), "{before} -> {after}");
        assert!(peak_resident().unwrap_or(0) >= after - (1 << 20));
        drop(block);
        assert!(default_limit().unwrap_or(0) > after);
    }

    #[test]
    fn kib_fields_are_parsed() {
        assert_eq!(
            kib_field("A: 1\nVmHWM:\t  12 kB\n", "VmHWM:"),
            Some(12 * 1024)
        );
        assert_eq!(kib_field("VmHWM: x kB", "VmHWM:"), None);
    }
}
