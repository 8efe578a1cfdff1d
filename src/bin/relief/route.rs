//! Scripted routes: a polyline walked at a speed, position by distance travelled.

use relief::flat::{ReachEnd, World};

pub struct Route {
    points: Vec<[f64; 2]>,
    /// Distance along the route at each point.
    along: Vec<f64>,
}

impl Route {
    pub fn new(points: Vec<[f64; 2]>) -> Route {
        let mut along = vec![0.0];
        for w in points.windows(2) {
            along.push(
                along.last().unwrap()
                    + ((w[1][0] - w[0][0]).powi(2) + (w[1][1] - w[0][1]).powi(2)).sqrt(),
            );
        }
        Route { points, along }
    }

    pub fn length(&self) -> f64 {
        *self.along.last().unwrap()
    }

    pub fn end(&self) -> [f64; 2] {
        *self.points.last().unwrap()
    }

    /// The point `s` metres along (clamped to the ends).
    pub fn at(&self, s: f64) -> [f64; 2] {
        let s = s.clamp(0.0, self.length());
        let i = self
            .along
            .partition_point(|&a| a <= s)
            .clamp(1, self.points.len().max(2) - 1);
        let (a, b) = (
            self.points[i - 1],
            self.points[i.min(self.points.len() - 1)],
        );
        let seg = self.along[i.min(self.along.len() - 1)] - self.along[i - 1];
        let t = if seg > 0.0 {
            (s - self.along[i - 1]) / seg
        } else {
            0.0
        };
        [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
    }
}

/// The longest chain of reaches from a source to the sea, as one polyline head → mouth.
pub fn longest_river(world: &World) -> Option<Vec<[f64; 2]>> {
    let reaches = world.reaches();
    // Reaches flow into lower ids, so the length to the sea is known for `to` before `from`.
    let mut to_sea = vec![f64::NEG_INFINITY; reaches.len()];
    for r in reaches {
        let down = match r.to {
            ReachEnd::Sea => 0.0,
            ReachEnd::Reach(d) => to_sea[d as usize],
            _ => f64::NEG_INFINITY,
        };
        to_sea[r.id as usize] = r.length_m as f64 + down;
    }
    let start = reaches
        .iter()
        .filter(|r| r.from == ReachEnd::Source)
        .max_by(|a, b| to_sea[a.id as usize].total_cmp(&to_sea[b.id as usize]))?;
    if !to_sea[start.id as usize].is_finite() {
        return None;
    }
    let mut points = Vec::new();
    let mut r = start;
    loop {
        points.extend(r.points.iter().map(|p| [p[0] as f64, p[1] as f64]));
        match r.to {
            ReachEnd::Reach(d) => r = &reaches[d as usize],
            _ => break,
        }
    }
    points.dedup();
    Some(points)
}
