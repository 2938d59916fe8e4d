//! Handicap stone placement: GTP's fixed layout (`fixed_handicap`) and the engine's own choice
//! for `place_free_handicap`.

use variago_rules::{Geometry, Point};

/// Most stones the fixed layout holds on a board: 9 on odd boards from 9x9 up (the centre and
/// the side points exist), 4 otherwise, none below 7x7 or on rectangular boards.
pub fn fixed_maximum(geometry: Geometry) -> usize {
    let side = geometry.width();
    if side != geometry.height() || side < 7 {
        0
    } else if side % 2 == 1 && side > 7 {
        9
    } else {
        4
    }
}

/// The fixed handicap points in GTP's order (2: the lower left and upper right corner points;
/// then upper left, lower right, centre, the left and right side points, the lower and upper
/// ones), or `None` when the board does not hold that many.
pub fn fixed(geometry: Geometry, stones: usize) -> Option<Vec<Point>> {
    if !(2..=fixed_maximum(geometry)).contains(&stones) {
        return None;
    }
    let side = geometry.width();
    let edge = if side >= 13 { 4 } else { 3 };
    // columns and rows counted from 1 at the lower left, as GTP vertices count them
    let (low, mid, high) = (edge, side.div_ceil(2), side + 1 - edge);
    let corners = [(low, low), (high, high), (low, high), (high, low)];
    let sides = [(low, mid), (high, mid), (mid, low), (mid, high)];
    let centre = (mid, mid);
    let mut points: Vec<(u8, u8)> = corners[..stones.min(4)].to_vec();
    match stones {
        5 | 7 | 9 => {
            points.extend(&sides[..stones - 5]);
            points.push(centre);
        }
        6 | 8 => points.extend(&sides[..stones - 4]),
        _ => {}
    }
    Some(points.into_iter().map(|(x, y)| at(geometry, x, y)).collect())
}

/// The point at GTP column `x` and row `y`, both from 1.
fn at(geometry: Geometry, x: u8, y: u8) -> Point {
    geometry.point(x - 1, geometry.height() - y).expect("handicap points lie on the board")
}

/// The engine's own placement of `stones` handicap stones: the fixed layout as far as it goes,
/// then the points nearest the third and fourth lines, spread from the corners inwards.
pub fn free(geometry: Geometry, stones: usize) -> Option<Vec<Point>> {
    if stones < 2 || stones >= geometry.area() {
        return None;
    }
    let fixed_part = fixed_maximum(geometry).min(stones);
    let mut chosen = if fixed_part >= 2 { fixed(geometry, fixed_part)? } else { Vec::new() };
    let line = |v: u8, n: u8| -> u8 {
        let from_edge = v.min(n + 1 - v);
        from_edge.abs_diff(if n >= 13 { 4 } else { 3 })
    };
    let mut rest: Vec<Point> = geometry.points().filter(|p| !chosen.contains(p)).collect();
    rest.sort_by_key(|&p| {
        let v = geometry.vertex(p);
        let (x, y) = (v.column + 1, v.row);
        (line(x, geometry.width()) + line(y, geometry.height()), x, y)
    });
    chosen.extend(rest.into_iter().take(stones - chosen.len()));
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(geometry: Geometry, points: &[Point]) -> String {
        points.iter().map(|&p| geometry.vertex(p).to_string()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_fixed_layout_follows_gtp() {
        let g19 = Geometry::square(19).unwrap();
        assert_eq!(names(g19, &fixed(g19, 2).unwrap()), "D4 Q16");
        assert_eq!(names(g19, &fixed(g19, 5).unwrap()), "D4 Q16 D16 Q4 K10");
        assert_eq!(names(g19, &fixed(g19, 6).unwrap()), "D4 Q16 D16 Q4 D10 Q10");
        assert_eq!(names(g19, &fixed(g19, 9).unwrap()), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        let g9 = Geometry::square(9).unwrap();
        assert_eq!(names(g9, &fixed(g9, 4).unwrap()), "C3 G7 C7 G3");
        assert!(fixed(g9, 10).is_none() && fixed(g9, 1).is_none());
        let g10 = Geometry::square(10).unwrap();
        assert!(fixed(g10, 5).is_none());
        assert!(fixed(Geometry::square(5).unwrap(), 2).is_none());
    }

    #[test]
    fn free_placement_gives_distinct_points() {
        let g = Geometry::square(5).unwrap();
        let points = free(g, 24).unwrap();
        let mut unique = points.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 24);
        assert!(free(g, 25).is_none());
        let g9 = Geometry::square(9).unwrap();
        assert_eq!(names(g9, &free(g9, 3).unwrap()), "C3 G7 C7");
    }
}
