//! rstar indices over the world's tables: river centreline segments and lake shorelines.

use rstar::primitives::{GeomWithData, Line, Rectangle};
use rstar::RTree;

use crate::flat::{Lake, Reach};

/// A reach segment with what a query needs to interpolate along it.
#[derive(Clone, Copy, Debug)]
pub struct RiverSeg {
    pub reach: u32,
    pub a: [f64; 3],
    pub b: [f64; 3],
    /// Fraction of the reach's length at `a` and `b` (for width, head → mouth).
    pub fa: f64,
    pub fb: f64,
}

pub struct Spatial {
    pub rivers: RTree<GeomWithData<Line<[f64; 2]>, u32>>,
    pub river_segs: Vec<RiverSeg>,
    pub shores: RTree<GeomWithData<Line<[f64; 2]>, u32>>,
    pub lake_boxes: RTree<GeomWithData<Rectangle<[f64; 2]>, u32>>,
}

impl Spatial {
    pub fn build(reaches: &[Reach], lakes: &[Lake]) -> Spatial {
        let mut river_segs = Vec::new();
        for r in reaches {
            let total: f64 = r
                .points
                .windows(2)
                .map(|w| seg_len(w[0], w[1]))
                .sum::<f64>()
                .max(1e-9);
            let mut walked = 0.0;
            for w in r.points.windows(2) {
                let len = seg_len(w[0], w[1]);
                river_segs.push(RiverSeg {
                    reach: r.id,
                    a: [w[0][0] as f64, w[0][1] as f64, w[0][2] as f64],
                    b: [w[1][0] as f64, w[1][1] as f64, w[1][2] as f64],
                    fa: walked / total,
                    fb: (walked + len) / total,
                });
                walked += len;
            }
        }
        let rivers = RTree::bulk_load(
            river_segs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    GeomWithData::new(Line::new([s.a[0], s.a[1]], [s.b[0], s.b[1]]), i as u32)
                })
                .collect(),
        );
        let mut shore = Vec::new();
        let mut boxes = Vec::new();
        for (i, l) in lakes.iter().enumerate() {
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for ring in l.rings() {
                let n = ring.len();
                for k in 0..n {
                    let (p, q) = (ring[k], ring[(k + 1) % n]);
                    shore.push(GeomWithData::new(
                        Line::new([p[0] as f64, p[1] as f64], [q[0] as f64, q[1] as f64]),
                        i as u32,
                    ));
                    for d in 0..2 {
                        lo[d] = lo[d].min(p[d] as f64);
                        hi[d] = hi[d].max(p[d] as f64);
                    }
                }
            }
            if lo[0] <= hi[0] {
                boxes.push(GeomWithData::new(Rectangle::from_corners(lo, hi), i as u32));
            }
        }
        Spatial {
            rivers,
            river_segs,
            shores: RTree::bulk_load(shore),
            lake_boxes: RTree::bulk_load(boxes),
        }
    }
}

fn seg_len(a: [f32; 3], b: [f32; 3]) -> f64 {
    ((b[0] as f64 - a[0] as f64).powi(2) + (b[1] as f64 - a[1] as f64).powi(2)).sqrt()
}

/// Closest point parameter t ∈ [0, 1] on segment ab to p, and the distance.
pub fn closest(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> (f64, f64) {
    let (vx, vz) = (b[0] - a[0], b[1] - a[1]);
    let len2 = vx * vx + vz * vz;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * vx + (p[1] - a[1]) * vz) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cz) = (a[0] + t * vx, a[1] + t * vz);
    (t, ((p[0] - cx).powi(2) + (p[1] - cz).powi(2)).sqrt())
}
