//! How numbers read in messages, notes and reports: counts with thousands separators,
//! counted nouns, byte sizes. The bottom layer: every layer above prints numbers so.

use std::fmt;

/// An integer with `,` between groups of three digits: `1,234,567`.
pub(crate) struct Thousands(pub(crate) u64);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.0.to_string();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_str(",")?;
            }
            write!(f, "{digit}")?;
        }
        Ok(())
    }
}

/// A count and a noun, in the plural unless the count is 1: `1 deadlock`, `1,024 states`.
pub(crate) struct Counted(pub(crate) u64, pub(crate) &'static str);

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{plural}", Thousands(self.0), self.1)
    }
}

/// A byte count in binary units: `512 B`, `1.5 KiB`, `3.2 GiB`.
pub(crate) struct Bytes(pub(crate) usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(Thousands(0).to_string(), "0");
        assert_eq!(Thousands(999).to_string(), "999");
        assert_eq!(Thousands(1_000).to_string(), "1,000");
        assert_eq!(Thousands(18_378_370).to_string(), "18,378,370");
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
    }
}
