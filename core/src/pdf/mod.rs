//! Printable PDFs of the intake form, the assessment, the care plan letter and the
//! contract: US letter with 0.5 inch margins, the spec's page breaks, and the DejaVu
//! fonts that ship inside the binary. Each PDF embeds only the glyphs it prints (a
//! 5-page intake is under 100 KB): printpdf's own subsetting does that when the file is
//! written and keeps each glyph's mapping back to its character, so the text can be
//! searched and copied. (genpdfi's subsetting, done before layout, loses that mapping.)
//!
//! Documents are first described as [`Block`]s (pure, testable), then rendered by
//! genpdfi. The server's Print buttons and `carepath print` both call
//! [`crate::store::Store::print`].

mod documents;
mod packet;
mod signed;

use std::io::Write;

use genpdfi::elements::{
    Break, FrameCellDecorator, LinearLayout, PageBreak, Paragraph, TableLayout,
};
use genpdfi::fonts::{FontData, FontFamily};
use genpdfi::style::{LineStyle, Style};
use genpdfi::{Alignment, Element, Margins, PageDecorator, Position, Size};

pub use documents::{assessment_document, care_plan_document, contract_document, intake_document};
pub use packet::{VisitPacket, packet_document};
pub use signed::{CERTIFICATE_TITLE, signed_contract_document};

use crate::error::{Error, Result};
use crate::model::{AssessmentId, CarePlanId, ContractId, IntakeId, VisitId};
use crate::store::Store;

/// US letter, given exactly: genpdf's own Letter size is slightly off.
pub const LETTER_MM: (f32, f32) = (215.9, 279.4);
/// Half an inch.
pub const MARGIN_MM: f32 = 12.7;

/// What can be printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintKind {
    Intake,
    Assessment,
    CarePlan,
    Contract,
    /// An assessment visit's packet: what the assessor takes along (`id` names the visit).
    Packet,
}

impl PrintKind {
    pub fn name(self) -> &'static str {
        match self {
            PrintKind::Intake => "intake",
            PrintKind::Assessment => "assessment",
            PrintKind::CarePlan => "care-plan",
            PrintKind::Contract => "contract",
            PrintKind::Packet => "packet",
        }
    }
}

/// One piece of a printed document.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Title(String),
    Heading(String),
    /// A label and its value on one line ("Caller Name: Mark Lee").
    Field(String, String),
    Text(String),
    /// A label and a web address (the visit's map link), printed whole so it can be read
    /// off paper and clickable in a viewer.
    Link(String, String),
    /// A labelled list of options with the chosen ones checked.
    Checks(String, Vec<(String, bool)>),
    /// A table with a header row; the first number list is the column weights.
    Table(Vec<usize>, Vec<Vec<String>>),
    /// A framed box of lines (the care plan's cost box).
    Boxed(Vec<String>),
    /// A line to sign on, with what it is for underneath.
    Signature(String),
    /// A signature drawn on the signing page: strokes of points 0..1 of the pad, drawn
    /// in a box 80 mm wide and 25 mm high.
    Drawn(crate::model::Strokes),
    /// A typed signature, in large type over the signature line.
    Typed(String),
    /// A list, each item after a bullet: a lead in bold (may be empty) and its text.
    Bullets(Vec<(String, String)>),
    /// The agency's letterhead at the top of the first page: the logo (the document's
    /// own, if it has one), the agency's name and the lines under it (address, phone).
    Letterhead(String, Vec<String>),
    Space,
    PageBreak,
}

/// A document ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintDocument {
    pub title: String,
    /// Printed at the top of every page (the agency's name).
    pub header: String,
    /// Printed small at the foot of every page (the agency's address, phone and fax).
    pub footer: Vec<String>,
    /// The agency's logo file (PNG or JPEG) for the letterhead, when there is one.
    pub logo: Option<Vec<u8>>,
    pub blocks: Vec<Block>,
}

fn pdf_error(error: genpdfi::error::Error) -> Error {
    Error::Corrupt(format!("the PDF cannot be made: {error}"))
}

/// A DejaVu font from the bytes built into the binary. It is handed over whole; printpdf
/// keeps only the glyphs a document uses when it writes the file (see the module note).
fn font(full: &'static [u8]) -> Result<FontData> {
    FontData::new(full.to_vec(), None).map_err(pdf_error)
}

/// Characters of the widest glyph (W) that fit across the text column, less a margin.
const COLUMN_CHARS: usize = 48;

/// Wide characters of a typed signature (bold, 18 pt) that fit across the column.
const TYPED_CHARS: usize = COLUMN_CHARS * 10 / 18 - 3;

/// Text with every word longer than `max` characters split by spaces, so the layout can
/// wrap it: a long map link or a word typed without spaces must not overflow the page
/// (genpdf refuses a word wider than its column).
fn breakable(text: &str, max: usize) -> String {
    // Widths in tenths of the widest glyph: digits and lower case letters are about six
    // tenths of a W, so a hash or an id stays whole where it fits; anything else counts
    // as wide.
    let width = |c: char| {
        if (c.is_ascii_lowercase() && c != 'm' && c != 'w') || c.is_ascii_digit() {
            6
        } else {
            10
        }
    };
    let max = max.max(1) * 10;
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if c.is_whitespace() {
            run = 0;
        } else {
            if run + width(c) > max {
                out.push(' ');
                run = 0;
            }
            run += width(c);
        }
        out.push(c);
    }
    out
}

/// How many wide characters fit in a table column of `weight` out of `total`.
fn column_chars(weight: usize, total: usize) -> usize {
    (COLUMN_CHARS * weight / total.max(1))
        .saturating_sub(2)
        .max(3)
}

/// The foot of every page keeps this much room for the agency's lines.
const FOOTER_MM: f32 = 11.0;

/// Margins, the running header (agency, title, page number) at the top of each page and
/// the agency's address and phone at its foot. The footer is drawn by the page itself,
/// so it never flows onto a page of its own.
struct Pages {
    page: usize,
    header: String,
    footer: Vec<String>,
}

impl PageDecorator for Pages {
    fn decorate_page<'a>(
        &mut self,
        context: &genpdfi::Context,
        mut area: genpdfi::render::Area<'a>,
        style: Style,
    ) -> std::result::Result<genpdfi::render::Area<'a>, genpdfi::error::Error> {
        self.page += 1;
        area.add_margins(Margins::all(MARGIN_MM));
        if !self.footer.is_empty() {
            let height = area.size().height;
            let width = area.size().width;
            let mut foot = area.clone();
            foot.add_offset(Position::new(0, height - genpdfi::Mm::from(FOOTER_MM)));
            foot.draw_line(
                vec![Position::new(0, 0), Position::new(width, 0)],
                LineStyle::new().with_thickness(0.2),
            );
            foot.add_offset(Position::new(0, 1.5));
            let mut lines = LinearLayout::vertical();
            for line in &self.footer {
                lines.push(
                    Paragraph::new(line.as_str())
                        .aligned(Alignment::Center)
                        .styled(Style::new().with_font_size(8)),
                );
            }
            lines.render(context, foot, style)?;
            area.set_height(height - genpdfi::Mm::from(FOOTER_MM + 2.0));
        }
        let mut line = Paragraph::default();
        line.push_styled(
            format!("{} · Page {}", self.header, self.page),
            Style::new().with_font_size(8),
        );
        let mut header = line
            .aligned(Alignment::Right)
            .padded(Margins::trbl(0, 0, 3, 0));
        let result = header.render(context, area.clone(), style)?;
        area.add_offset(Position::new(0, result.size.height));
        Ok(area)
    }
}

/// The letterhead's logo: at most 18 mm high and 60 mm wide, its proportions kept.
fn logo_element(bytes: &[u8]) -> Result<genpdfi::elements::Image> {
    use image::GenericImageView;
    let picture = crate::rules::logo::logo_for_print(bytes)?;
    let (width, height) = picture.dimensions();
    let (max_width, max_height) = (60.0_f32, 18.0_f32);
    // Pixels per inch that make the picture fit its box (25.4 mm to the inch).
    let dpi = (width as f32 * 25.4 / max_width).max(height as f32 * 25.4 / max_height);
    Ok(genpdfi::elements::Image::from_dynamic_image(picture)
        .map_err(pdf_error)?
        .with_dpi(dpi))
}

/// The letterhead: the logo beside the agency's name and lines, or the name and lines
/// alone; a rule under it.
fn letterhead(name: &str, lines: &[String], logo: Option<&[u8]>) -> Result<LinearLayout> {
    let mut text = LinearLayout::vertical();
    text.push(
        Paragraph::new(breakable(name, COLUMN_CHARS * 2 / 3))
            .styled(Style::new().bold().with_font_size(15)),
    );
    for line in lines {
        text.push(
            Paragraph::new(breakable(line, COLUMN_CHARS)).styled(Style::new().with_font_size(9)),
        );
    }
    let mut block = LinearLayout::vertical();
    match logo {
        Some(bytes) => {
            let mut table = TableLayout::new(vec![2, 5]);
            table
                .row()
                .element(logo_element(bytes)?)
                .element(text.padded(Margins::trbl(1, 0, 0, 3)))
                .push()
                .map_err(pdf_error)?;
            block.push(table);
        }
        None => block.push(text),
    }
    block.push(Break::new(0.4));
    block.push(Rule);
    block.push(Break::new(0.6));
    Ok(block)
}

/// A thin line across the text column.
struct Rule;

impl Element for Rule {
    fn render(
        &mut self,
        _context: &genpdfi::Context,
        area: genpdfi::render::Area<'_>,
        _style: Style,
    ) -> std::result::Result<genpdfi::RenderResult, genpdfi::error::Error> {
        let width = area.size().width;
        area.draw_line(
            vec![Position::new(0, 0), Position::new(width, 0)],
            LineStyle::new().with_thickness(0.3),
        );
        Ok(genpdfi::RenderResult {
            size: Size::new(width, 0.5),
            ..Default::default()
        })
    }
}

/// Renders a document as PDF into `out`.
pub fn render(document: &PrintDocument, out: &mut impl Write) -> Result<()> {
    let regular = font(dejavu::sans::regular())?;
    let bold = font(dejavu::sans::bold())?;
    let family = FontFamily {
        regular: regular.clone(),
        bold: bold.clone(),
        italic: regular,
        bold_italic: bold,
    };
    let mut pdf = genpdfi::Document::new(family);
    pdf.set_title(document.title.clone());
    pdf.set_paper_size(Size::new(LETTER_MM.0, LETTER_MM.1));
    pdf.set_font_size(10);
    pdf.set_line_spacing(1.15);
    let header = format!(
        "{} · {}",
        breakable(&document.header, COLUMN_CHARS / 2),
        breakable(&document.title, COLUMN_CHARS / 2)
    );
    pdf.set_page_decorator(Pages {
        page: 0,
        header,
        footer: document
            .footer
            .iter()
            .map(|line| breakable(line, COLUMN_CHARS))
            .collect(),
    });

    let bold = Style::new().bold();
    for block in &document.blocks {
        match block {
            Block::Title(text) => {
                pdf.push(
                    Paragraph::new(breakable(text, COLUMN_CHARS * 2 / 3))
                        .styled(Style::new().bold().with_font_size(15)),
                );
                pdf.push(Break::new(0.6));
            }
            Block::Heading(text) => {
                pdf.push(Break::new(0.5));
                pdf.push(
                    Paragraph::new(breakable(text, COLUMN_CHARS * 4 / 5))
                        .styled(Style::new().bold().with_font_size(12)),
                );
            }
            Block::Field(label, value) => {
                let label = format!("{}: ", breakable(label, COLUMN_CHARS / 2));
                let value = if value.trim().is_empty() {
                    "—".to_owned()
                } else {
                    value.clone()
                };
                // A word too long to follow its label (a link, a hash) gets a line of its
                // own, where the whole column is its to fill.
                if breakable(&value, COLUMN_CHARS / 2) == value && !value.contains('\n') {
                    let mut line = Paragraph::default();
                    line.push_styled(label, bold);
                    line.push(value);
                    pdf.push(line);
                } else {
                    let mut layout = LinearLayout::vertical();
                    layout.push(Paragraph::default().styled_string(label, bold));
                    for line in value.lines() {
                        layout.push(Paragraph::new(breakable(line, COLUMN_CHARS)));
                    }
                    pdf.push(layout);
                }
            }
            Block::Link(label, url) => {
                let mut layout = LinearLayout::vertical();
                layout.push(
                    Paragraph::default()
                        .styled_string(format!("{}: ", breakable(label, COLUMN_CHARS / 2)), bold),
                );
                // Each piece of a long address carries the whole link, so a click on any
                // line of it opens the map.
                let mut line = Paragraph::default();
                for piece in breakable(url, COLUMN_CHARS).split(' ') {
                    line.push_link(format!("{piece} "), url.clone(), Style::new());
                }
                layout.push(line);
                pdf.push(layout);
            }
            Block::Text(text) => {
                let mut layout = LinearLayout::vertical();
                for line in text.lines() {
                    layout.push(Paragraph::new(breakable(line, COLUMN_CHARS)));
                }
                pdf.push(layout);
                pdf.push(Break::new(0.35));
            }
            Block::Checks(label, options) => {
                let mut line = Paragraph::default();
                line.push_styled(format!("{}: ", breakable(label, COLUMN_CHARS / 2)), bold);
                let marks: Vec<String> = options
                    .iter()
                    .map(|(option, checked)| {
                        format!("[{}] {option}", if *checked { "x" } else { " " })
                    })
                    .collect();
                line.push(breakable(&marks.join("   "), COLUMN_CHARS / 2));
                pdf.push(line);
            }
            Block::Table(weights, rows) => {
                let mut table = TableLayout::new(weights.clone());
                let total: usize = weights.iter().sum();
                table.set_cell_decorator(FrameCellDecorator::new(true, true, false));
                for (index, row) in rows.iter().enumerate() {
                    let mut table_row = table.row();
                    for (column, cell) in row.iter().enumerate() {
                        let weight = weights.get(column).copied().unwrap_or(1);
                        let cell = breakable(cell, column_chars(weight, total));
                        let paragraph = if index == 0 {
                            Paragraph::default().styled_string(cell, bold)
                        } else {
                            Paragraph::new(cell)
                        };
                        table_row.push_element(paragraph.padded(1));
                    }
                    table_row.push().map_err(pdf_error)?;
                }
                pdf.push(table);
            }
            Block::Boxed(lines) => {
                let mut layout = LinearLayout::vertical();
                for line in lines {
                    layout.push(Paragraph::new(breakable(line, COLUMN_CHARS - 4)).styled(bold));
                }
                pdf.push(genpdfi::elements::FramedElement::new(layout.padded(2)));
            }
            Block::Signature(label) => {
                // The line and what it is for stay on one page.
                let mut signature = LinearLayout::vertical();
                signature.push(Break::new(1.5));
                signature.push(Paragraph::new(
                    "_______________________________________    Date: ______________",
                ));
                signature.push(
                    Paragraph::new(breakable(label, COLUMN_CHARS))
                        .styled(Style::new().with_font_size(8)),
                );
                pdf.push(KeepTogether {
                    height_mm: 20.0,
                    inner: signature,
                });
            }
            Block::Drawn(strokes) => pdf.push(DrawnSignature {
                strokes: strokes.clone(),
            }),
            Block::Typed(text) => {
                pdf.push(Break::new(0.5));
                pdf.push(
                    Paragraph::new(breakable(text, TYPED_CHARS))
                        .styled(Style::new().bold().italic().with_font_size(18)),
                );
                pdf.push(Paragraph::new("_______________________________________"));
            }
            Block::Bullets(items) => {
                let mut list = genpdfi::elements::UnorderedList::with_bullet("•");
                for (lead, text) in items {
                    let mut item = Paragraph::default();
                    if !lead.is_empty() {
                        item.push_styled(breakable(lead, COLUMN_CHARS / 2), bold);
                        if !text.is_empty() {
                            item.push(" — ");
                        }
                    }
                    item.push(breakable(text, COLUMN_CHARS - 3));
                    list.push(item);
                }
                pdf.push(list);
                pdf.push(Break::new(0.35));
            }
            Block::Letterhead(name, lines) => {
                pdf.push(letterhead(name, lines, document.logo.as_deref())?);
            }
            Block::Space => pdf.push(Break::new(0.5)),
            Block::PageBreak => pdf.push(PageBreak::new()),
        }
    }
    pdf.render(out).map_err(pdf_error)
}

/// An element that starts on the next page unless `height_mm` of it fits on this one:
/// a signature line must not be parted from what it is for.
struct KeepTogether<E: Element> {
    height_mm: f32,
    inner: E,
}

impl<E: Element> Element for KeepTogether<E> {
    fn render(
        &mut self,
        context: &genpdfi::Context,
        area: genpdfi::render::Area<'_>,
        style: Style,
    ) -> std::result::Result<genpdfi::RenderResult, genpdfi::error::Error> {
        if area.size().height < genpdfi::Mm::from(self.height_mm) {
            return Ok(genpdfi::RenderResult {
                has_more: true,
                ..Default::default()
            });
        }
        self.inner.render(context, area, style)
    }
}

/// The drawn signature's box.
const SIGNATURE_BOX_MM: (f32, f32) = (80.0, 25.0);

/// A drawn signature as lines in the PDF (vector strokes, so it prints sharp).
struct DrawnSignature {
    strokes: crate::model::Strokes,
}

impl Element for DrawnSignature {
    fn render(
        &mut self,
        _context: &genpdfi::Context,
        area: genpdfi::render::Area<'_>,
        _style: Style,
    ) -> std::result::Result<genpdfi::RenderResult, genpdfi::error::Error> {
        let (width, height) = SIGNATURE_BOX_MM;
        let mut result = genpdfi::RenderResult::default();
        if area.size().height < genpdfi::Mm::from(height + 2.0) {
            // Not enough room left on this page: the box goes to the next one.
            result.has_more = true;
            return Ok(result);
        }
        let line = genpdfi::style::LineStyle::new().with_thickness(0.5);
        for stroke in &self.strokes {
            let points: Vec<genpdfi::Position> = stroke
                .iter()
                .map(|[x, y]| {
                    genpdfi::Position::new(
                        (x.clamp(0.0, 1.0) as f32) * width,
                        (y.clamp(0.0, 1.0) as f32) * height,
                    )
                })
                .collect();
            if points.len() >= 2 {
                area.draw_line(points, line);
            }
        }
        area.draw_line(
            vec![
                genpdfi::Position::new(0.0, height + 1.0),
                genpdfi::Position::new(width, height + 1.0),
            ],
            genpdfi::style::LineStyle::new().with_thickness(0.2),
        );
        result.size = Size::new(width, height + 2.0);
        Ok(result)
    }
}

impl Store {
    /// Prints one record as a PDF into `out`: `id` names an intake, assessment, care plan
    /// or contract according to `kind`.
    pub fn print(&self, kind: PrintKind, id: &str, out: &mut impl Write) -> Result<()> {
        let settings = self.settings()?;
        let mut document = match kind {
            PrintKind::Intake => intake_document(
                &self.get_intake(&IntakeId::from(id.to_owned()))?,
                &settings.general,
            ),
            PrintKind::Assessment => assessment_document(
                &self.get_assessment(&AssessmentId::from(id.to_owned()))?,
                &settings.general,
            ),
            PrintKind::CarePlan => care_plan_document(
                &self.get_care_plan(&CarePlanId::from(id.to_owned()))?,
                &settings.general,
            ),
            PrintKind::Contract => {
                let id = ContractId::from(id.to_owned());
                // A contract signed through its link prints as the PDF that was signed.
                if let Some(signed) = self.signed_contract_pdf(&id)? {
                    return out
                        .write_all(&signed)
                        .map_err(|e| Error::io("cannot write the PDF", e));
                }
                contract_document(&self.get_contract(&id)?, &settings.general)
            }
            PrintKind::Packet => {
                self.visit_packet(&VisitId::from(id.to_owned()), &settings.general)?
            }
        };
        document.logo = self.print_logo()?;
        render(&document, out)
    }

    /// An assessment visit's packet: the visit, its client's intake and contacts, and the
    /// assessment worksheet filled in with what the intake already says, read in one
    /// snapshot so the pieces agree.
    fn visit_packet(
        &self,
        id: &VisitId,
        agency: &crate::model::GeneralSettings,
    ) -> Result<PrintDocument> {
        let clock = self.clock()?;
        self.snapshot(|| {
            let visit = self.visit(id)?;
            let intake = self.get_intake(&visit.intake_id)?;
            let contacts = self.contacts(&visit.intake_id)?;
            let worksheet = crate::rules::visits::packet_worksheet(&intake.form, &visit, &clock);
            Ok(packet_document(
                &VisitPacket {
                    visit: &visit,
                    intake: &intake,
                    contacts: &contacts,
                    worksheet: &worksheet,
                },
                agency,
                clock.tz(),
            ))
        })
    }

    /// The logo the letterhead prints, if the agency has one.
    pub(crate) fn print_logo(&self) -> Result<Option<Vec<u8>>> {
        Ok(self.logo_file()?.map(|file| file.bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_words_are_split_at_their_limit_and_nothing_else_changes() {
        assert_eq!(breakable("ABCDEFGH IJ", 3), "ABC DEF GH IJ");
        assert_eq!(breakable("abcdefghij", 3), "abcde fghij");
        assert_eq!(breakable("short words stay", 10), "short words stay");
        assert_eq!(breakable("ééééé", 2), "éé éé é");
        // A SHA-256 in hex stays whole on a field's line.
        let hash = "0123456789abcdef".repeat(4);
        assert_eq!(breakable(&hash, COLUMN_CHARS), hash);
        assert_eq!(column_chars(1, 6), 6);
        assert_eq!(column_chars(1, 100), 3);
    }

    /// Every kind of block holds the widest text a user can type without a space: the
    /// longest name, a long map link, a comment of one long word.
    #[test]
    fn no_text_a_user_can_type_breaks_the_pdf() {
        let name = "W".repeat(crate::rules::validation::SHORT_TEXT_MAX);
        let link = format!(
            "https://www.google.com/maps/place/{}/@40.7,-74.0,17z/data=!3m1!4b1",
            "Some+Very+Long+Street+Name".repeat(8)
        );
        let word = "M".repeat(92);
        let long_text = format!("{word} {link}\n{}", "W".repeat(5_000));
        let document = PrintDocument {
            title: name.clone(),
            header: name.clone(),
            footer: vec![name.clone(), link.clone()],
            logo: None,
            blocks: vec![
                Block::Letterhead(name.clone(), vec![link.clone(), word.clone()]),
                Block::Bullets(vec![
                    (name.clone(), link.clone()),
                    (String::new(), word.clone()),
                ]),
                Block::Title(name.clone()),
                Block::Heading(name.clone()),
                Block::Field(name.clone(), link.clone()),
                Block::Link(name.clone(), link.clone()),
                Block::Link(
                    "Map".into(),
                    crate::rules::visits::map_search_url(&"W".repeat(500)),
                ),
                Block::Field("Comments".into(), long_text.clone()),
                Block::Text(long_text.clone()),
                Block::Checks(
                    name.clone(),
                    vec![(name.clone(), true), (word.clone(), false)],
                ),
                Block::Table(
                    vec![2, 3, 1],
                    vec![
                        vec![name.clone(), word.clone(), link.clone()],
                        vec![link.clone(), name.clone(), word.clone()],
                    ],
                ),
                Block::Boxed(vec![name.clone(), link.clone()]),
                Block::Signature(name.clone()),
                // The longest typed signature the signing page accepts, in its large type.
                Block::Typed("W".repeat(crate::rules::signing::MAX_NAME)),
                Block::Typed("n".repeat(crate::rules::signing::MAX_NAME)),
                Block::Typed("Wm".repeat(crate::rules::signing::MAX_NAME / 2)),
            ],
        };
        // Each block alone first, so a failure names the block.
        for block in &document.blocks {
            let one = PrintDocument {
                blocks: vec![block.clone()],
                ..document.clone()
            };
            let name = format!("{block:?}").chars().take(40).collect::<String>();
            render(&one, &mut Vec::new()).unwrap_or_else(|error| panic!("{name}: {error}"));
        }
        let mut bytes = Vec::new();
        render(&document, &mut bytes).expect("the document renders");
        assert!(bytes.starts_with(b"%PDF"));
    }
}
