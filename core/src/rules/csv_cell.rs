//! CSV export cells: list joins, file names, and the guard against spreadsheet formulas.
//! Quoting itself is the encoder's (`crate::export::CsvEncoder`: a cell with a comma,
//! quote or line break is quoted and its quotes doubled, as the spec asks).

use std::borrow::Cow;

use jiff::civil::Date;

/// Characters that make a spreadsheet read a cell as a formula (or hide one behind a
/// tab or carriage return). All ASCII, so the first byte of a cell decides.
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

    #[test]
    fn formula_cells_are_neutralized() {
        let cases = [
            ("Rose Lee", "Rose Lee", false),
            ("", "", false),
            ("=SUM(A1:A2)", "'=SUM(A1:A2)", true),
            ("+15550100", "'+15550100", true),
            ("-5", "'-5", true),
            ("@cmd", "'@cmd", true),
            ("\tx", "'\tx", true),
            ("\rx", "'\rx", true),
            (" =SUM(A1)", " =SUM(A1)", false), // only the first character counts
            ("a=b", "a=b", false),
            ("'quoted", "'quoted", false),
            ("555-0100", "555-0100", false),
        ];
        for (cell, expected, owned) in cases {
            let result = neutralize(cell);
            assert_eq!(result, expected, "{cell:?}");
            assert_eq!(matches!(result, Cow::Owned(_)), owned, "{cell:?}");
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
