//! CSV export cells: list joins, file names, and the guard against spreadsheet formulas.
//! Quoting itself is the encoder's (`crate::export::CsvEncoder`: a cell with a comma,
//! quote or line break is quoted and its quotes doubled, as the spec asks).

use std::borrow::Cow;

use jiff::civil::Date;

/// Characters that make a spreadsheet read a cell as a formula (or hide one behind a
/// tab or carriage return). All ASCII, so the first byte of a cell decides. The web's
/// CSV downloads use the same guard; `fixtures/csv-cells.json` holds the cases both test.
const FORMULA_STARTS: &[u8] = b"=+-@\t\r";

/// Whether a cell starts like a formula and needs [`neutralize`].
pub fn starts_like_formula(cell: &[u8]) -> bool {
    cell.first()
        .is_some_and(|first| FORMULA_STARTS.contains(first))
}

/// A cell a spreadsheet will show as text: one that starts like a formula gets a leading
/// apostrophe, so a client named "=HYPERLINK(…)" cannot run anything on the office PC.
pub fn neutralize(cell: &str) -> Cow<'_, str> {
    if starts_like_formula(cell.as_bytes()) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// List values in one cell, joined with "; ".
pub fn join_list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join("; ")
}

/// "{name}_{YYYY-MM-DD}.csv".
pub fn export_file_name(name: &str, date: Date) -> String {
    format!("{name}_{date}.csv")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One case of `fixtures/csv-cells.json`, which the web's CSV download tests too: a
    /// cell, the cell neutralized, and the cell as a CSV line holds it.
    #[derive(serde::Deserialize)]
    struct Case {
        name: String,
        cell: String,
        neutralized: String,
        written: String,
    }

    fn shared_cases() -> Vec<Case> {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../../fixtures/csv-cells.json")).unwrap();
        assert!(cases.len() >= 15, "the shared cases are read");
        cases
    }

    #[test]
    fn the_shared_cells_are_neutralized() {
        for case in shared_cases() {
            let result = neutralize(&case.cell);
            assert_eq!(result, case.neutralized, "{}", case.name);
            // Only a changed cell is copied.
            assert_eq!(
                matches!(result, Cow::Owned(_)),
                case.cell != case.neutralized,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn the_shared_cells_are_written_as_the_export_writes_them() {
        for case in shared_cases() {
            for from_bytes in [false, true] {
                let mut encoder = crate::export::CsvEncoder::new(Vec::new());
                if from_bytes {
                    encoder.text_bytes(case.cell.as_bytes()).unwrap();
                } else {
                    encoder.text(&case.cell).unwrap();
                }
                encoder.raw("x").unwrap();
                encoder.end_row().unwrap();
                let line = String::from_utf8(encoder.into_inner()).unwrap();
                assert_eq!(line, format!("{},x\n", case.written), "{}", case.name);
            }
        }
    }

    #[test]
    fn lists_and_file_names() {
        assert_eq!(join_list::<&str>(&[]), "");
        assert_eq!(join_list(&["Companionship"]), "Companionship");
        assert_eq!(
            join_list(&[
                "Personal Care (ADLs)".to_owned(),
                "Companionship".to_owned()
            ]),
            "Personal Care (ADLs); Companionship"
        );
        assert_eq!(
            export_file_name("clients", Date::constant(2026, 3, 7)),
            "clients_2026-03-07.csv"
        );
        assert_eq!(
            export_file_name("care-plans", Date::constant(2026, 11, 22)),
            "care-plans_2026-11-22.csv"
        );
    }

    #[test]
    fn csv_writer_quotes_as_the_spec_says() {
        let cases = [
            (vec!["plain", "two words"], "plain,two words\n"),
            (vec!["Lee, Rose", "x"], "\"Lee, Rose\",x\n"),
            (vec!["say \"hi\"", "x"], "\"say \"\"hi\"\"\",x\n"),
            (
                vec!["line one\nline two", "x"],
                "\"line one\nline two\",x\n",
            ),
            (vec!["a\r\nb", "x"], "\"a\r\nb\",x\n"),
            (
                vec!["Meals; Companionship", "x"],
                "Meals; Companionship,x\n",
            ),
            // Neutralized cells are quoted like any other when they need it.
            (vec!["=1+1", "x"], "'=1+1,x\n"),
            (vec!["=A1,B1", "x"], "\"'=A1,B1\",x\n"),
        ];
        for (cells, expected) in cases {
            let mut writer = csv::Writer::from_writer(Vec::new());
            let row: Vec<Cow<'_, str>> = cells.iter().map(|cell| neutralize(cell)).collect();
            writer
                .write_record(row.iter().map(|cell| cell.as_ref()))
                .unwrap();
            let bytes = writer.into_inner().unwrap();
            assert_eq!(String::from_utf8(bytes).unwrap(), expected, "{cells:?}");
        }
    }
}
