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
mod signed;

use std::io::Write;

use genpdfi::elements::{
    Break, FrameCellDecorator, LinearLayout, PageBreak, Paragraph, TableLayout,
};
use genpdfi::fonts::{FontData, FontFamily};
use genpdfi::style::Style;
use genpdfi::{Alignment, Element, Margins, SimplePageDecorator, Size};

pub use documents::{assessment_document, care_plan_document, contract_document, intake_document};
pub use signed::{CERTIFICATE_TITLE, signed_contract_document};

use crate::error::{Error, Result};
use crate::model::{AssessmentId, CarePlanId, ContractId, IntakeId};
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
}

impl PrintKind {
    pub fn name(self) -> &'static str {
        match self {
            PrintKind::Intake => "intake",
            PrintKind::Assessment => "assessment",
            PrintKind::CarePlan => "care-plan",
            PrintKind::Contract => "contract",
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
    Space,
    PageBreak,
}

/// A document ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintDocument {
    pub title: String,
    /// Printed at the top of every page (the agency's name).
    pub header: String,
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
    let mut decorator = SimplePageDecorator::new();
    decorator.set_margins(Margins::all(MARGIN_MM));
    let header = document.header.clone();
    let title = document.title.clone();
    decorator.set_header(move |page| {
        let mut line = Paragraph::default();
        line.push_styled(
            format!("{header} · {title} · Page {page}"),
            Style::new().with_font_size(8),
        );
        line.aligned(Alignment::Right)
            .padded(Margins::trbl(0, 0, 3, 0))
    });
    pdf.set_page_decorator(decorator);

    let bold = Style::new().bold();
    for block in &document.blocks {
        match block {
            Block::Title(text) => {
                pdf.push(
                    Paragraph::new(text.as_str()).styled(Style::new().bold().with_font_size(15)),
                );
                pdf.push(Break::new(0.6));
            }
            Block::Heading(text) => {
                pdf.push(Break::new(0.5));
                pdf.push(
                    Paragraph::new(text.as_str()).styled(Style::new().bold().with_font_size(12)),
                );
            }
            Block::Field(label, value) => {
                let mut line = Paragraph::default();
                line.push_styled(format!("{label}: "), bold);
                line.push(if value.trim().is_empty() {
                    "—".to_owned()
                } else {
                    value.clone()
                });
                pdf.push(line);
            }
            Block::Text(text) => {
                let mut layout = LinearLayout::vertical();
                for line in text.lines() {
                    layout.push(Paragraph::new(line));
                }
                pdf.push(layout);
            }
            Block::Checks(label, options) => {
                let mut line = Paragraph::default();
                line.push_styled(format!("{label}: "), bold);
                let marks: Vec<String> = options
                    .iter()
                    .map(|(option, checked)| {
                        format!("[{}] {option}", if *checked { "x" } else { " " })
                    })
                    .collect();
                line.push(marks.join("   "));
                pdf.push(line);
            }
            Block::Table(weights, rows) => {
                let mut table = TableLayout::new(weights.clone());
                table.set_cell_decorator(FrameCellDecorator::new(true, true, false));
                for (index, row) in rows.iter().enumerate() {
                    let mut table_row = table.row();
                    for cell in row {
                        let paragraph = if index == 0 {
                            Paragraph::default().styled_string(cell.as_str(), bold)
                        } else {
                            Paragraph::new(cell.as_str())
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
                    layout.push(Paragraph::new(line.as_str()).styled(bold));
                }
                pdf.push(genpdfi::elements::FramedElement::new(layout.padded(2)));
            }
            Block::Signature(label) => {
                pdf.push(Break::new(1.5));
                pdf.push(Paragraph::new(
                    "_______________________________________    Date: ______________",
                ));
                pdf.push(Paragraph::new(label.as_str()).styled(Style::new().with_font_size(8)));
            }
            Block::Drawn(strokes) => pdf.push(DrawnSignature {
                strokes: strokes.clone(),
            }),
            Block::Typed(text) => {
                pdf.push(Break::new(0.5));
                pdf.push(
                    Paragraph::new(text.as_str())
                        .styled(Style::new().bold().italic().with_font_size(18)),
                );
                pdf.push(Paragraph::new("_______________________________________"));
            }
            Block::Space => pdf.push(Break::new(0.5)),
            Block::PageBreak => pdf.push(PageBreak::new()),
        }
    }
    pdf.render(out).map_err(pdf_error)
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
        let document = match kind {
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
        };
        render(&document, out)
    }
}
