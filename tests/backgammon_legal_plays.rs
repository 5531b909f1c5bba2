//! Legal plays checked against GNU Backgammon: counts for every roll of 41 positions (bar
//! entry, closed boards, bearing off, the larger-die rule, doubles that cannot all be played,
//! positions from random games) and, for the hand-made ones, each play's notation and the
//! Position ID after it. The data and how it was made: tests/data/backgammon_legal_plays.txt.

use luddo::rules::backgammon::analysis::{PositionInput, legal_plays};
use std::collections::{BTreeMap, BTreeSet};

const DATA: &str = include_str!("data/backgammon_legal_plays.txt");

fn dice(s: &str) -> [u8; 2] {
    let b = s.as_bytes();
    [b[0] - b'0', b[1] - b'0']
}

#[test]
fn legal_play_counts_match_gnu_backgammon() {
    let mut checked = 0;
    let mut positions = BTreeSet::new();
    let mut failures = Vec::new();
    for line in DATA.lines().filter(|l| l.starts_with("count ")) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (id, roll, want) = (f[1], dice(f[2]), f[3].parse::<usize>().unwrap());
        let got = legal_plays(&PositionInput::PositionId(id.into()), roll).unwrap();
        if got.len() != want {
            failures.push(format!("{line}: got {}", got.len()));
        }
        positions.insert(id);
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(positions.len() >= 30 && checked >= 30 * 21, "{checked} counts");
}

#[test]
fn plays_notation_and_resulting_ids_match_gnu_backgammon() {
    // (position, dice) -> {(notation, resulting Position ID)}
    let mut want: BTreeMap<(&str, &str), BTreeSet<(String, String)>> = BTreeMap::new();
    for line in DATA.lines().filter(|l| l.starts_with("play ")) {
        let (head, after) = line.split_once(" => ").unwrap();
        let mut f = head.splitn(4, ' ');
        let (_, id, roll, play) = (f.next(), f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        want.entry((id, roll)).or_default().insert((play.to_string(), after.to_string()));
    }
    assert!(want.len() >= 40);
    let mut failures = Vec::new();
    for ((id, roll), expected) in &want {
        let got: BTreeSet<(String, String)> =
            legal_plays(&PositionInput::PositionId(id.to_string()), dice(roll))
                .unwrap()
                .into_iter()
                .map(|p| (p.play, p.position_id))
                .collect();
        if &got != expected {
            failures.push(format!(
                "{id} {roll}:\n  only ours: {:?}\n  only gnubg: {:?}",
                got.difference(expected).collect::<Vec<_>>(),
                expected.difference(&got).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
