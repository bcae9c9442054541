//! The table file: a header that says what the file holds, then one entry
//! per index, one byte when every win fits in 126 plies, else two (little
//! endian). Written to a temporary name and renamed, so a file is whole or
//! absent; read back only after every header field and the checksum agree
//! with what the reader expects, so a damaged file is an error that names
//! it, never a wrong answer. The file's name is `names`'s business.
//!
//! Header (72 bytes): magic `CATCHTB\n`; format version (u32); bytes per
//! entry, cats, seats, 0 (u8 each); variant and material (16 bytes each,
//! zero-padded ASCII); number of entries (u64); checksum of the entries
//! (u64); checksum of the 64 bytes before it (u64). Integers little endian.

use super::index::Layout;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"CATCHTB\n";
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 72;

/// A table in memory as stored: its entries' codes.
pub struct TableData {
    pub entry_bytes: u8,
    pub bytes: Vec<u8>,
}

impl TableData {
    /// Packs codes into one byte each if they all fit, else two.
    pub fn pack(codes: &[u16]) -> TableData {
        if codes.iter().all(|&c| c <= u8::MAX as u16) {
            TableData { entry_bytes: 1, bytes: codes.iter().map(|&c| c as u8).collect() }
        } else {
            TableData { entry_bytes: 2, bytes: codes.iter().flat_map(|c| c.to_le_bytes()).collect() }
        }
    }

    /// The result an entry holds (`None`: the index is no position).
    pub fn verdict(&self, index: u64) -> Option<super::Verdict> {
        super::value::code::decode(self.code(index))
    }

    #[inline]
    pub fn code(&self, index: u64) -> u16 {
        let i = index as usize;
        if self.entry_bytes == 1 {
            self.bytes[i] as u16
        } else {
            u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]])
        }
    }
}

/// A fast 64-bit checksum (not a cryptographic one: it guards against
/// damage, not against forgery).
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        h = (h.rotate_left(23) ^ w).wrapping_mul(0x5851_F42D_4C95_7F2D);
    }
    for &b in words.remainder() {
        h = (h.rotate_left(23) ^ b as u64).wrapping_mul(0x5851_F42D_4C95_7F2D);
    }
    h ^ h >> 29
}

fn padded(text: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    out[..text.len()].copy_from_slice(text.as_bytes());
    out
}

fn header(variant: &str, layout: &Layout, data: &TableData) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&[data.entry_bytes, layout.cats, layout.seats, 0]);
    h.extend_from_slice(&padded(variant));
    h.extend_from_slice(&padded(&layout.material.to_string()));
    h.extend_from_slice(&layout.len().to_le_bytes());
    h.extend_from_slice(&checksum(&data.bytes).to_le_bytes());
    let own = checksum(&h);
    h.extend_from_slice(&own.to_le_bytes());
    h
}

/// Writes `bytes` to `path` whole or not at all: a temporary file beside
/// it, flushed to disk, then renamed over it.
pub fn write_atomically(path: &Path, parts: &[&[u8]]) -> Result<(), String> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("table");
    let tmp = path.with_file_name(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {}: {e}", path.display())
    })
}

/// Writes a table to `dir` under its name (`names::table`); returns its path.
pub fn write(dir: &Path, variant: &str, layout: &Layout, data: &TableData) -> Result<PathBuf, String> {
    let path = dir.join(super::names::table(variant, layout.material));
    write_atomically(&path, &[&header(variant, layout, data), &data.bytes])?;
    Ok(path)
}

/// The variant a table file's header names (the header not yet checked
/// beyond its magic: [`read`] checks everything).
pub fn variant_of(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let fail = |why: String| format!("table file {}: {why}", path.display());
    let mut h = [0u8; 32];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut h)).map_err(|e| fail(e.to_string()))?;
    if &h[..8] != MAGIC {
        return Err(fail("not a catchess table (bad magic)".into()));
    }
    let variant = String::from_utf8_lossy(&h[16..32]).trim_end_matches('\0').to_string();
    // A name, since it picks a file name (`names`): never a path.
    if variant.is_empty() || !variant.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(fail(format!("the header's variant {variant:?} is not a name (damaged?)")));
    }
    Ok(variant)
}

/// Reads the table of `layout` from `path`, refusing anything that is not
/// exactly that table, whole.
pub fn read(path: &Path, variant: &str, layout: &Layout) -> Result<TableData, String> {
    let fail = |why: String| format!("table file {}: {why}", path.display());
    // Never more than the largest table of this layout: a device or a
    // huge file is refused, not read without end.
    let most = (HEADER as u64 + 2 * layout.len()) + 1;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            use std::io::Read;
            f.take(most).read_to_end(&mut bytes)
        })
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() < HEADER {
        return Err(fail(format!("{} bytes, shorter than the {HEADER}-byte header (truncated?)", bytes.len())));
    }
    let h: [u8; HEADER] = bytes[..HEADER].try_into().expect("the header's length");
    let h = &h[..];
    if &h[..8] != MAGIC {
        return Err(fail("not a catchess table (bad magic)".into()));
    }
    let u64_at = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"));
    if checksum(&h[..64]) != u64_at(64) {
        return Err(fail("the header is damaged (its checksum does not match)".into()));
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(fail(format!("format version {version}, this program reads version {FORMAT_VERSION}")));
    }
    let (entry_bytes, cats, seats) = (h[12], h[13], h[14]);
    let text = |r: std::ops::Range<usize>| String::from_utf8_lossy(&h[r]).trim_end_matches('\0').to_string();
    let (file_variant, file_material) = (text(16..32), text(32..48));
    if file_variant != variant || file_material != layout.material.to_string() {
        return Err(fail(format!("holds {file_variant} {file_material}, expected {variant} {}", layout.material)));
    }
    if cats != layout.cats || seats != layout.seats || u64_at(48) != layout.len() || !(1..=2).contains(&entry_bytes) {
        return Err(fail(format!(
            "layout {cats} cats, {seats} seats, {} entries of {entry_bytes} bytes; expected {} cats, {} seats, {} entries",
            u64_at(48),
            layout.cats,
            layout.seats,
            layout.len()
        )));
    }
    let expected = HEADER as u64 + layout.len() * entry_bytes as u64;
    if bytes.len() as u64 != expected {
        return Err(fail(format!("{} bytes, expected {expected} (truncated or overlong)", bytes.len())));
    }
    bytes.drain(..HEADER);
    let data = bytes;
    if checksum(&data) != u64_at(56) {
        return Err(fail("the entries are damaged (checksum mismatch)".into()));
    }
    Ok(TableData { entry_bytes, bytes: data })
}
