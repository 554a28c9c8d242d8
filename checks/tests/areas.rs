//! The table of areas: every check id is unique and starts with its area's prefix.

use std::collections::HashSet;

#[test]
fn ids_are_unique_and_carry_their_area_prefix() {
    let mut seen = HashSet::new();
    for area in checks::AREAS {
        for c in (area.checks)() {
            assert!(
                c.id.starts_with(area.prefix),
                "{} is listed in area {}",
                c.id,
                area.prefix
            );
            assert!(seen.insert(c.id), "duplicate id {}", c.id);
        }
    }
    assert!(!seen.is_empty());
}
