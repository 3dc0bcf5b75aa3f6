//! 64-bit FNV-1a with fields: each field is followed by its length, so that fields cannot
//! run into each other. One definition for the build script (the key of the embedded
//! runtime sources) and the cache (the key of a compiled checker), which must agree.

/// The hash of the fields written so far.
pub(crate) struct Fnv(pub(crate) u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Hashes `bytes` as they are.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Hashes `bytes`, then their length.
    pub(crate) fn field(&mut self, bytes: &[u8]) {
        self.write(bytes);
        self.write(&(bytes.len() as u64).to_le_bytes());
    }
}
