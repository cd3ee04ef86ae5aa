//! Unguessable names from the operating system's randomness: seat tokens
//! (the secret in an invite link), game ids and random seeds.

use crate::error::ApiError;

/// Bytes in a seat token: 128 random bits.
const TOKEN_BYTES: usize = 16;
/// Bytes in a game id: 72 bits, short enough to read in a link. The id is
/// not a secret (spectators use it); the seat tokens are.
const ID_BYTES: usize = 9;

fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness from the OS: {e}")))?;
    Ok(bytes)
}

/// A fresh seat token: 128 bits, URL-safe base64 without padding (22 characters).
pub fn new_token() -> Result<String, ApiError> {
    Ok(base64url(&random_bytes::<TOKEN_BYTES>()?))
}

/// A fresh game id (12 URL-safe characters).
pub fn new_game_id() -> Result<String, ApiError> {
    Ok(base64url(&random_bytes::<ID_BYTES>()?))
}

/// The id of the game that follows game `id` (its rematch): the same for
/// every caller, every server and every restart, so the seats of a
/// finished game all find one rematch without a stored link. Game ids are
/// not secrets, so neither is this one; it is made of two 64-bit FNV-1a
/// hashes (a stable algorithm, unlike std's hasher) of the id, cut to a
/// game id's 72 bits, which random ids meet by chance no more than each other.
pub fn rematch_id(id: &str) -> String {
    let fnv = |basis: u64| {
        format!("rematch of {id}")
            .bytes()
            .fold(basis, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
    };
    let bytes = [fnv(0xcbf2_9ce4_8422_2325).to_le_bytes(), fnv(0x6c62_272e_07bb_0142).to_le_bytes()].concat();
    base64url(&bytes[..ID_BYTES])
}

/// A random seed below 2^53, so it survives a round trip through JavaScript's numbers.
pub fn new_seed() -> Result<u64, ApiError> {
    Ok(u64::from_le_bytes(random_bytes::<8>()?) & ((1 << 53) - 1))
}

/// Whether `given` is `expected`, in time that does not depend on where
/// they first differ (so a token cannot be guessed one character at a time).
pub fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// URL-safe base64 (RFC 4648 section 5), no padding.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_rfc4648_vectors() {
        // RFC 4648 section 10, without padding.
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(b"foob"), "Zm9vYg");
        assert_eq!(base64url(b"fooba"), "Zm9vYmE");
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        // The URL-safe alphabet's last two letters.
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn tokens_are_128_bits_url_safe_and_distinct() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 22);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(new_game_id().unwrap().len(), 12);
    }

    #[test]
    fn token_comparison() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abd", "abc"));
        assert!(!same_token("ab", "abc"));
        assert!(!same_token("", "abc"));
    }

    #[test]
    fn a_rematch_id_is_a_game_id_the_same_every_time_and_its_own_for_each_game() {
        let id = new_game_id().unwrap();
        assert_eq!(rematch_id(&id), rematch_id(&id));
        assert_eq!(rematch_id(&id).len(), 12);
        assert_ne!(rematch_id(&id), rematch_id(&rematch_id(&id)), "a rematch of the rematch is another game");
        assert_ne!(rematch_id("a"), rematch_id("b"));
        // Fixed, so that a server of another build finds the same rematch.
        assert_eq!(rematch_id("abc"), "Nvx94c32JrhF");
    }

    #[test]
    fn seeds_fit_javascript_numbers() {
        for _ in 0..100 {
            assert!(new_seed().unwrap() < 1 << 53);
        }
    }
}
