//! The names strangers give themselves in the lobby (docs/api.md, "The
//! lobby"). There are no accounts: a name is only what a player wants to
//! be called, shown to everyone who looks at the lobby, so it is kept
//! short and printable, and anything else is refused with its reason.

use crate::error::ApiError;

/// The longest name, in characters: enough for "Grandmaster Flash", short
/// enough for a lobby card on a phone.
pub const MAX_NAME_CHARS: usize = 24;

/// `text` as a player's name: trimmed, 1 to [`MAX_NAME_CHARS`] characters,
/// none of them a control character or a bidirectional override (which
/// would turn the text around it).
pub fn player_name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    let count = name.chars().count();
    if count == 0 {
        return Err(ApiError::BadRequest(format!("a name is needed (1 to {MAX_NAME_CHARS} characters)")));
    }
    if count > MAX_NAME_CHARS {
        return Err(ApiError::BadRequest(format!(
            "the name is {count} characters long; at most {MAX_NAME_CHARS} are allowed"
        )));
    }
    if let Some(bad) = name.chars().find(|&c| c.is_control() || is_bidi_control(c)) {
        return Err(ApiError::BadRequest(format!(
            "the name contains the control character U+{:04X}; use letters, digits, spaces and punctuation",
            bad as u32
        )));
    }
    Ok(name.to_string())
}

/// The Unicode formatting characters that reorder the text around them.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed() {
        assert_eq!(player_name("  Ada  ").unwrap(), "Ada");
        assert_eq!(player_name("Zoë 2").unwrap(), "Zoë 2");
    }

    #[test]
    fn empty_long_and_control_names_are_refused_with_the_reason() {
        assert!(player_name("   ").unwrap_err().message().contains("a name is needed"));
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert!(player_name(&long).unwrap_err().message().contains("at most 24"));
        assert!(player_name(&"é".repeat(MAX_NAME_CHARS)).is_ok(), "characters are counted, not bytes");
        assert!(player_name("Ada\u{7}").unwrap_err().message().contains("U+0007"));
        assert!(player_name("Ada\nBob").unwrap_err().message().contains("U+000A"));
        assert!(player_name("\u{202E}adA").unwrap_err().message().contains("U+202E"));
    }
}
