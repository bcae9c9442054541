//! Match records as the tests compare them: each game's round, result and
//! moves, without the comments (they hold the moves' times, which differ
//! from run to run).

/// A record's tag `name`.
pub fn tag<'a>(record: &'a str, name: &str) -> &'a str {
    let start = format!("[{name} \"");
    let at = record.find(&start).unwrap_or_else(|| panic!("no {name} in {record}")) + start.len();
    &record[at..at + record[at..].find("\"]").unwrap()]
}

/// Round number, result and moves (no comments) of every record, by round.
pub fn games_of(pgn: &str) -> Vec<(usize, String, String)> {
    let mut out: Vec<(usize, String, String)> = pgn
        .split("[Event ")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            let round = tag(r, "Round").parse().unwrap();
            let moves = r.split_once("\n\n").unwrap().1;
            let mut plain = String::new();
            let mut depth = 0;
            for c in moves.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => plain.push(c),
                    _ => {}
                }
            }
            (round, tag(r, "Result").to_string(), plain.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .collect();
    out.sort();
    out
}
