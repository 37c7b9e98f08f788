//! Keyset-paged lists: the page a list returns, its opaque cursor, the statement that
//! filters a list and continues after a cursor, and the LIKE filter of the lists searched
//! by substring. Every page is an index range, so it costs the same wherever it is.

use rusqlite::{Connection, params_from_iter};

use crate::error::{Error, Result};

/// A page of a keyset-paged list.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Opaque; pass it back to get the next page. None on the last page.
    pub next_cursor: Option<String>,
}

/// A list's order: a sort key, then a tie-breaker, both the same way. A cursor names the
/// item it continues after by its sort key and id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Keyset {
    key: &'static str,
    tie: Tie,
    descending: bool,
}

/// What breaks ties between items with the same sort key.
#[derive(Debug, Clone, Copy)]
enum Tie {
    /// The id column itself.
    Id(&'static str),
    /// A client's row number (`list_seq`, `seq` as an ordinary column), so the list
    /// indexes need not carry the 36-character id (migration 11). The cursor's id is
    /// looked up to its number.
    IntakeSeq,
}

impl Keyset {
    /// Largest key first (newest first, for a creation time).
    pub(crate) const fn descending(key: &'static str, id: &'static str) -> Self {
        Self {
            key,
            tie: Tie::Id(id),
            descending: true,
        }
    }

    /// Smallest key first (soonest first, for a visit's start).
    pub(crate) const fn ascending(key: &'static str, id: &'static str) -> Self {
        Self {
            key,
            tie: Tie::Id(id),
            descending: false,
        }
    }

    /// A clients' list, largest key first, ties broken by the row number.
    pub(crate) const fn intakes_descending(key: &'static str) -> Self {
        Self {
            key,
            tie: Tie::IntakeSeq,
            descending: true,
        }
    }

    /// A clients' list, smallest key first, ties broken by the row number.
    pub(crate) const fn intakes_ascending(key: &'static str) -> Self {
        Self {
            key,
            tie: Tie::IntakeSeq,
            descending: false,
        }
    }

    fn tie_column(self) -> &'static str {
        match self.tie {
            Tie::Id(column) => column,
            Tie::IntakeSeq => "list_seq",
        }
    }

    fn order_by(self) -> String {
        let direction = if self.descending { "DESC" } else { "ASC" };
        format!(
            "{} {direction}, {} {direction}",
            self.key,
            self.tie_column()
        )
    }

    /// The condition that keeps the rows after a cursor's position, binding the position.
    fn after(self, cursor: &str, filters: &mut Filters) -> Result<()> {
        let mut position = decode_cursor(cursor, 2)?.into_iter();
        let key = filters.bind(position.next().unwrap_or_default());
        let id = filters.bind(position.next().unwrap_or_default());
        let tie = match self.tie {
            Tie::Id(_) => id,
            // A row deleted for good since the page was read has no number: the next page
            // then starts at its sort key, showing again rather than skipping its ties.
            Tie::IntakeSeq => format!(
                "coalesce((SELECT seq FROM intakes WHERE id = {id}), {})",
                if self.descending { i64::MAX } else { i64::MIN }
            ),
        };
        let comparison = if self.descending { "<" } else { ">" };
        // First among the conditions: when a filter bounds the sort key on the same side
        // (an urgency's window), SQLite starts the index range at the bound it meets
        // first, and the cursor's is the one that skips the rows already shown.
        filters.conditions.insert(
            0,
            format!(
                "({}, {}) {comparison} ({key}, {tie})",
                self.key,
                self.tie_column()
            ),
        );
        Ok(())
    }
}

/// The WHERE conditions of a list statement and the values their numbered placeholders
/// bind, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Filters {
    pub(crate) conditions: Vec<String>,
    pub(crate) values: Vec<String>,
}

impl Filters {
    /// Filters that start with a condition that binds nothing (`deleted_at IS NULL`).
    pub(crate) fn new(condition: &str) -> Self {
        Self {
            conditions: vec![condition.to_owned()],
            values: Vec::new(),
        }
    }

    /// Binds a value and returns its placeholder (`?3`).
    pub(crate) fn bind(&mut self, value: impl Into<String>) -> String {
        bind(value.into(), &mut self.values)
    }

    pub(crate) fn push(&mut self, condition: impl Into<String>) {
        self.conditions.push(condition.into());
    }

    /// `column = value`, when there is a value.
    pub(crate) fn equal(&mut self, column: &str, value: Option<&str>) {
        if let Some(value) = value {
            let p = self.bind(value);
            self.push(format!("{column} = {p}"));
        }
    }

    /// The substring search over `columns` (see [`like_filter`]).
    pub(crate) fn contains(&mut self, columns: &[&str], term: Option<&str>) {
        if let Some(condition) = like_filter(columns, term, &mut self.values) {
            self.push(condition);
        }
    }

    /// The statement of one page: `select` (`SELECT … FROM …`) with these filters,
    /// continuing after `cursor` along `order`, reading one row more than `limit` to know
    /// whether another page follows.
    pub(crate) fn page(
        mut self,
        select: &str,
        order: Keyset,
        cursor: Option<&str>,
        limit: u32,
    ) -> Result<PageStatement> {
        if let Some(cursor) = cursor {
            order.after(cursor, &mut self)?;
        }
        let sql = format!(
            "{select} WHERE {} ORDER BY {} LIMIT {}",
            self.conditions.join(" AND "),
            order.order_by(),
            limit + 1
        );
        Ok(PageStatement {
            sql,
            values: self.values,
            limit,
        })
    }
}

/// One page's statement, its values and the page size.
#[derive(Debug, Clone)]
pub(crate) struct PageStatement {
    pub(crate) sql: String,
    pub(crate) values: Vec<String>,
    pub(crate) limit: u32,
}

impl PageStatement {
    /// Reads the page; `position` gives an item's sort key and id, which the next page's
    /// cursor continues after.
    pub(crate) fn read<T>(
        &self,
        conn: &Connection,
        from_row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
        position: impl Fn(&T) -> (&str, &str),
    ) -> Result<Page<T>> {
        let mut statement = conn.prepare_cached(&self.sql)?;
        let mut items = statement
            .query_map(params_from_iter(self.values.iter()), from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        let next_cursor = next_cursor(&mut items, self.limit, |item| {
            let (key, id) = position(item);
            encode_cursor(&[key, id])
        });
        Ok(Page { items, next_cursor })
    }
}

/// Appends `value` to `values` and returns its placeholder (`?3`).
pub(crate) fn bind(value: String, values: &mut Vec<String>) -> String {
    values.push(value);
    format!("?{}", values.len())
}

/// The LIKE filter of a substring search: any of `columns` contains the trimmed term, with
/// `%`, `_` and `\` taken literally. Binds the pattern once; None for a blank term.
pub(crate) fn like_filter(
    columns: &[&str],
    term: Option<&str>,
    values: &mut Vec<String>,
) -> Option<String> {
    let term = term.map(str::trim).filter(|t| !t.is_empty())?;
    let p = bind(format!("%{}%", like_escape(term)), values);
    let matches: Vec<String> = columns
        .iter()
        .map(|column| format!("{column} LIKE {p} ESCAPE '\\'"))
        .collect();
    Some(match matches.as_slice() {
        [one] => one.clone(),
        _ => format!("({})", matches.join(" OR ")),
    })
}

fn like_escape(term: &str) -> String {
    crate::rules::validation::bounded_search_term(term)
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// Keeps `limit` items and returns the cursor of the last one when more exist.
pub(crate) fn next_cursor<T>(
    items: &mut Vec<T>,
    limit: u32,
    cursor_of: impl Fn(&T) -> String,
) -> Option<String> {
    if items.len() > limit as usize {
        items.truncate(limit as usize);
        items.last().map(cursor_of)
    } else {
        None
    }
}

/// Encodes a keyset position as an opaque cursor.
pub(crate) fn encode_cursor(parts: &[&str]) -> String {
    let joined = parts.join("\u{1f}");
    joined
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// Decodes a cursor made by [`encode_cursor`]; a damaged one is bad input, not a crash.
pub(crate) fn decode_cursor(cursor: &str, parts: usize) -> Result<Vec<String>> {
    let bad = || Error::Rejected("The page cursor is not valid. Reload the list.".to_owned());
    if !cursor.len().is_multiple_of(2) || !cursor.is_ascii() {
        return Err(bad());
    }
    let bytes = (0..cursor.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&cursor[i..i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let values: Vec<String> = text.split('\u{1f}').map(str::to_owned).collect();
    if values.len() != parts {
        return Err(bad());
    }
    Ok(values)
}

/// Limits a requested page size to what a list allows.
pub(crate) fn page_limit(requested: Option<u32>) -> u32 {
    requested.unwrap_or(50).clamp(1, 200)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::{Filters, Keyset, Page, encode_cursor};
    use crate::error::Error;

    fn people(names: &[(&str, &str)]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE people (id TEXT PRIMARY KEY, name TEXT, note TEXT)")
            .unwrap();
        for (i, (name, note)) in names.iter().enumerate() {
            conn.execute(
                "INSERT INTO people VALUES (?1, ?2, ?3)",
                (format!("p{i}"), name, note),
            )
            .unwrap();
        }
        conn
    }

    fn search(conn: &Connection, term: &str) -> Vec<String> {
        let mut filters = Filters::new("1");
        filters.contains(&["name", "note"], Some(term));
        filters
            .page(
                "SELECT name FROM people",
                Keyset::ascending("name", "id"),
                None,
                50,
            )
            .unwrap()
            .read(
                conn,
                |row| row.get::<_, String>(0),
                |name| (name.as_str(), ""),
            )
            .unwrap()
            .items
    }

    #[test]
    fn a_search_takes_percent_underscore_and_backslash_literally_in_any_column() {
        let conn = people(&[
            ("50% off", ""),
            ("500 off", ""),
            ("a_b", ""),
            ("axb", ""),
            ("Dana", r"c:\x"),
            ("Eli", "cx"),
        ]);
        assert_eq!(search(&conn, "50%"), ["50% off"]);
        assert_eq!(search(&conn, "a_b"), ["a_b"]);
        assert_eq!(search(&conn, r"c:\"), ["Dana"]);
        assert_eq!(search(&conn, "  OFF "), ["50% off", "500 off"]);
        assert_eq!(
            search(&conn, "   ").len(),
            6,
            "a blank term filters nothing"
        );
    }

    fn page(conn: &Connection, order: Keyset, cursor: Option<&str>) -> Page<(String, String)> {
        Filters::new("1")
            .page("SELECT name, id FROM people", order, cursor, 2)
            .unwrap()
            .read(
                conn,
                |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
                |(name, id)| (name.as_str(), id.as_str()),
            )
            .unwrap()
    }

    #[test]
    fn pages_continue_after_their_cursor_through_equal_keys_both_ways() {
        let conn = people(&[("b", ""), ("a", ""), ("b", ""), ("c", ""), ("b", "")]);
        for (order, expected) in [
            (
                Keyset::ascending("name", "id"),
                ["a/p1", "b/p0", "b/p2", "b/p4", "c/p3"],
            ),
            (
                Keyset::descending("name", "id"),
                ["c/p3", "b/p4", "b/p2", "b/p0", "a/p1"],
            ),
        ] {
            let mut seen = Vec::new();
            let mut cursor = None;
            loop {
                let page = page(&conn, order, cursor.as_deref());
                assert!(page.items.len() <= 2);
                seen.extend(page.items.iter().map(|(name, id)| format!("{name}/{id}")));
                match page.next_cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
            }
            assert_eq!(seen, expected);
        }
    }

    /// Clients named `names` in this order, in a table shaped like `intakes` where it
    /// matters: the row number `seq` (and `list_seq`) and the id differ in order (ids
    /// count down).
    fn intakes(names: &[&str]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE intakes (seq INTEGER PRIMARY KEY, id TEXT UNIQUE, name TEXT,
                list_seq INTEGER GENERATED ALWAYS AS (seq) VIRTUAL)",
        )
        .unwrap();
        for (i, name) in names.iter().enumerate() {
            conn.execute(
                "INSERT INTO intakes (seq, id, name) VALUES (?1, ?2, ?3)",
                (i as i64 + 1, format!("id{}", 9 - i), name),
            )
            .unwrap();
        }
        conn
    }

    fn intake_pages(conn: &Connection, order: Keyset, mut cursor: Option<String>) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let page = Filters::new("1")
                .page("SELECT name, id FROM intakes", order, cursor.as_deref(), 2)
                .unwrap()
                .read(
                    conn,
                    |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
                    |(name, id)| (name.as_str(), id.as_str()),
                )
                .unwrap();
            seen.extend(page.items.iter().map(|(name, id)| format!("{name}/{id}")));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return seen,
            }
        }
    }

    #[test]
    fn clients_with_equal_keys_page_in_row_number_order_with_cursors_naming_ids() {
        let conn = intakes(&["b", "a", "b", "c", "b"]);
        let ascending = Keyset::intakes_ascending("name");
        let descending = Keyset::intakes_descending("name");
        // Row numbers 1, 3, 5 hold "b", with ids id9, id7, id5: the number orders them.
        assert_eq!(
            intake_pages(&conn, ascending, None),
            ["a/id8", "b/id9", "b/id7", "b/id5", "c/id6"]
        );
        assert_eq!(
            intake_pages(&conn, descending, None),
            ["c/id6", "b/id5", "b/id7", "b/id9", "a/id8"]
        );
        // The row a cursor names is deleted for good before the next page: the list
        // goes on from its key, showing its ties again rather than skipping any.
        let after_deleted = encode_cursor(&["b", "id7"]);
        conn.execute("DELETE FROM intakes WHERE id = 'id7'", [])
            .unwrap();
        assert_eq!(
            intake_pages(&conn, ascending, Some(after_deleted.clone())),
            ["b/id9", "b/id5", "c/id6"]
        );
        assert_eq!(
            intake_pages(&conn, descending, Some(after_deleted)),
            ["b/id5", "b/id9", "a/id8"]
        );
    }

    #[test]
    fn a_damaged_cursor_is_refused_with_a_message() {
        let conn = people(&[("a", "")]);
        for cursor in ["zz", "abc", "é1", &encode_cursor(&["only one part"])] {
            let refused = Filters::new("1").page(
                "SELECT name, id FROM people",
                Keyset::ascending("name", "id"),
                Some(cursor),
                2,
            );
            match refused {
                Err(Error::Rejected(message)) => {
                    assert_eq!(message, "The page cursor is not valid. Reload the list.");
                }
                other => panic!("{cursor}: {other:?}"),
            }
        }
        assert_eq!(
            page(&conn, Keyset::ascending("name", "id"), None)
                .items
                .len(),
            1
        );
    }
}
