//! The square grids flat worlds stream by: regions and collision chunks are both squares of
//! a grid, wanted by planar distance from the focus to their nearest edge.

/// Planar distance from (x, z) to grid square (cx, cz) of side `side` — the square
/// `[cx·side, (cx+1)·side] × [cz·side, (cz+1)·side]` — or 0 inside it. Regions and collision
/// chunks both stream by this distance.
pub fn square_distance(cx: i32, cz: i32, side: f64, x: f64, z: f64) -> f64 {
    let (x0, z0) = (cx as f64 * side, cz as f64 * side);
    let dx = (x0 - x).max(0.0).max(x - (x0 + side));
    let dz = (z0 - z).max(0.0).max(z - (z0 + side));
    (dx * dx + dz * dz).sqrt()
}

/// How far the focus moved in the plane: what any [`square_distance`] can change by (it is
/// 1-Lipschitz in the focus), for [`Source::moved`](crate::stream::Source::moved).
pub fn planar_moved(from: glam::DVec3, to: glam::DVec3) -> f64 {
    let (dx, dz) = (to.x - from.x, to.z - from.z);
    (dx * dx + dz * dz).sqrt()
}

/// Calls `f(cx, cz, distance)` for every grid square of side `side` within `radius` of (x, z)
/// whose index lies in `within` (inclusive min and max): the grid's extent bounds the work,
/// however large the radius or far the focus.
pub fn squares_within(
    side: f64,
    x: f64,
    z: f64,
    radius: f64,
    within: ([i32; 2], [i32; 2]),
    mut f: impl FnMut(i32, i32, f64),
) {
    if !(x.is_finite() && z.is_finite() && radius >= 0.0) {
        return;
    }
    // Float-to-int casts saturate, so a huge radius clamps to the extent.
    let span = |c: f64, axis: usize| {
        let lo = (((c - radius) / side).floor() as i32).max(within.0[axis]);
        let hi = (((c + radius) / side).floor() as i32).min(within.1[axis]);
        lo..=hi
    };
    for cz in span(z, 1) {
        for cx in span(x, 0) {
            let d = square_distance(cx, cz, side, x, z);
            if d <= radius {
                f(cx, cz, d);
            }
        }
    }
}
