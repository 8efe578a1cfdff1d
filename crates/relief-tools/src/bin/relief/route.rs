//! Scripted routes: a polyline walked at a speed, position by distance travelled.

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
