//! Text message length: the counter under the SMS box.

/// Characters per segment, as the spec counts them.
pub const SMS_SEGMENT_SIZE: usize = 160;

/// Segments a message takes: its characters (not bytes) divided by 160, rounded up.
pub fn sms_segments(message: &str) -> usize {
    message.chars().count().div_ceil(SMS_SEGMENT_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        let cases = [
            (String::new(), 0),
            ("a".to_owned(), 1),
            ("a".repeat(159), 1),
            ("a".repeat(160), 1),
            ("a".repeat(161), 2),
            ("a".repeat(320), 2),
            ("a".repeat(321), 3),
            // 160 characters of two bytes each are still one segment.
            ("é".repeat(160), 1),
            ("é".repeat(161), 2),
            ("👋".repeat(160), 1),
        ];
        for (message, expected) in cases {
            assert_eq!(
                sms_segments(&message),
                expected,
                "{} chars",
                message.chars().count()
            );
        }
    }
}
