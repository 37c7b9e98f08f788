//! The agency's logo: what an upload may be (a PNG or JPEG that really decodes, of a
//! bounded file size and pixel size) and how it is prepared for a PDF (flattened onto
//! white, since a PDF image here carries no transparency).

use std::io::Cursor;

use image::{DynamicImage, GenericImageView, ImageFormat, Rgb, RgbImage};

use crate::error::{Error, ValidationErrors};

/// The largest logo file accepted: a letterhead logo needs far less.
pub const LOGO_MAX_BYTES: usize = 512 * 1024;
/// The widest or highest logo accepted, in pixels.
pub const LOGO_MAX_SIDE: u32 = 2000;
/// The narrowest or lowest logo accepted, in pixels.
pub const LOGO_MIN_SIDE: u32 = 16;

pub const LOGO_MISSING: &str = "Choose a PNG or JPEG file for the logo.";
pub const LOGO_NOT_AN_IMAGE: &str = "The logo must be a PNG or JPEG image.";
pub const LOGO_TOO_LARGE: &str = "The logo must be 512 KB or smaller.";
pub const LOGO_BAD_DIMENSIONS: &str =
    "The logo must be between 16 and 2000 pixels wide and between 16 and 2000 pixels high.";

/// The field the logo's messages are about.
pub const LOGO_FIELD: &str = "logo";

/// A logo that passed every check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckedLogo {
    pub content_type: &'static str,
    pub width: u32,
    pub height: u32,
}

fn refused(message: &str) -> Error {
    Error::Validation(ValidationErrors::single(LOGO_FIELD, message))
}

/// The format of a PNG or JPEG file, told by its first bytes (whatever the upload
/// claimed to be).
fn format_of(bytes: &[u8]) -> Result<ImageFormat, Error> {
    match image::guess_format(bytes) {
        Ok(format @ (ImageFormat::Png | ImageFormat::Jpeg)) => Ok(format),
        _ => Err(refused(LOGO_NOT_AN_IMAGE)),
    }
}

/// Decodes `bytes` with the dimension bounds in force, so a small file that claims a
/// huge picture is refused before its pixels are allocated.
fn decode(bytes: &[u8], format: ImageFormat) -> Result<DynamicImage, Error> {
    let mut reader = image::io::Reader::with_format(Cursor::new(bytes), format);
    let mut limits = image::io::Limits::default();
    limits.max_image_width = Some(LOGO_MAX_SIDE);
    limits.max_image_height = Some(LOGO_MAX_SIDE);
    limits.max_alloc = Some(64 * 1024 * 1024);
    reader.limits(limits);
    reader.decode().map_err(|error| match error {
        image::ImageError::Limits(_) => refused(LOGO_BAD_DIMENSIONS),
        _ => refused(LOGO_NOT_AN_IMAGE),
    })
}

/// Checks an uploaded logo: not empty, at most [`LOGO_MAX_BYTES`], a PNG or JPEG that
/// decodes whole, each side between [`LOGO_MIN_SIDE`] and [`LOGO_MAX_SIDE`] pixels.
pub fn check_logo(bytes: &[u8]) -> Result<CheckedLogo, Error> {
    if bytes.is_empty() {
        return Err(refused(LOGO_MISSING));
    }
    if bytes.len() > LOGO_MAX_BYTES {
        return Err(refused(LOGO_TOO_LARGE));
    }
    let format = format_of(bytes)?;
    let picture = decode(bytes, format)?;
    let (width, height) = picture.dimensions();
    let side = LOGO_MIN_SIDE..=LOGO_MAX_SIDE;
    if !side.contains(&width) || !side.contains(&height) {
        return Err(refused(LOGO_BAD_DIMENSIONS));
    }
    Ok(CheckedLogo {
        content_type: match format {
            ImageFormat::Png => "image/png",
            _ => "image/jpeg",
        },
        width,
        height,
    })
}

/// A stored logo as an RGB picture for a PDF: transparent parts become white.
pub fn logo_for_print(bytes: &[u8]) -> Result<DynamicImage, Error> {
    let picture = decode(bytes, format_of(bytes)?)?;
    if !picture.color().has_alpha() {
        return Ok(DynamicImage::ImageRgb8(picture.to_rgb8()));
    }
    let rgba = picture.to_rgba8();
    let flat = RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |channel: u8| {
            let alpha = u16::from(a);
            let value = (u16::from(channel) * alpha + 255 * (255 - alpha)) / 255;
            u8::try_from(value).unwrap_or(u8::MAX)
        };
        Rgb([over_white(r), over_white(g), over_white(b)])
    });
    Ok(DynamicImage::ImageRgb8(flat))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let picture = image::RgbaImage::from_pixel(width, height, image::Rgba([10, 80, 160, 128]));
        let mut bytes = Vec::new();
        DynamicImage::ImageRgba8(picture)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .unwrap();
        bytes
    }

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let picture = RgbImage::from_pixel(width, height, Rgb([200, 30, 30]));
        let mut bytes = Vec::new();
        DynamicImage::ImageRgb8(picture)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    fn message(result: Result<CheckedLogo, Error>) -> String {
        match result {
            Err(Error::Validation(errors)) => errors.fields[LOGO_FIELD].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn accepts_png_and_jpeg() {
        let checked = check_logo(&png(120, 40)).unwrap();
        assert_eq!(
            checked,
            CheckedLogo {
                content_type: "image/png",
                width: 120,
                height: 40
            }
        );
        assert_eq!(
            check_logo(&jpeg(64, 64)).unwrap().content_type,
            "image/jpeg"
        );
    }

    #[test]
    fn refuses_what_is_not_a_usable_logo() {
        assert_eq!(message(check_logo(b"")), LOGO_MISSING);
        assert_eq!(message(check_logo(b"GIF89a....")), LOGO_NOT_AN_IMAGE);
        assert_eq!(message(check_logo(b"<svg></svg>")), LOGO_NOT_AN_IMAGE);
        // A PNG signature over garbage does not decode.
        let mut broken = png(40, 40);
        broken.truncate(broken.len() / 2);
        assert_eq!(message(check_logo(&broken)), LOGO_NOT_AN_IMAGE);
        assert_eq!(message(check_logo(&png(8, 40))), LOGO_BAD_DIMENSIONS);
        assert_eq!(message(check_logo(&png(2001, 40))), LOGO_BAD_DIMENSIONS);
        let mut big = png(40, 40);
        big.resize(LOGO_MAX_BYTES + 1, 0);
        assert_eq!(message(check_logo(&big)), LOGO_TOO_LARGE);
    }

    #[test]
    fn transparency_prints_on_white() {
        let flat = logo_for_print(&png(20, 20)).unwrap();
        assert!(!flat.color().has_alpha());
        // Half-transparent blue over white.
        let pixel = flat.to_rgb8().get_pixel(3, 3).0;
        assert_eq!(pixel, [132, 167, 207]);
    }
}
