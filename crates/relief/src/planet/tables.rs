//! A planet's river reaches and lakes (the RIVR and LAKE sections), and its census (CNSS).
//! Binary, little-endian, because the big planets carry millions of river points.

use serde::{Deserialize, Serialize};

use crate::error::FormatError;
use crate::reach::ReachKind;

/// One river reach: a chain of points between a source or confluence and the next
/// confluence, the sea or a lake.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanetReach {
    pub id: u32,
    pub kind: ReachKind,
    pub order: u8,
    /// Channel width at the head and at the mouth, metres.
    pub head_width_m: f32,
    pub width_m: f32,
    /// Area drained at the mouth, km².
    pub drains_km2: f32,
    /// Unit direction from the planet's centre and bed height (metres above the radius).
    pub points: Vec<[f32; 4]>,
}

/// One lake: its surface, size and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanetLake {
    /// 1-based: the `lake` field's value on its samples.
    pub id: u32,
    pub level_m: f32,
    pub area_m2: f64,
    pub depth_m: f32,
    /// Unit direction of its deepest point.
    pub centre: [f32; 3],
    /// Radius of the circle of the same area, metres.
    pub radius_m: f32,
}

/// What `relief info` prints for a planet, computed at bake time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanetCensus {
    pub samples: u64,
    pub ocean_share: f64,
    pub lake_share: f64,
    pub biome_shares: std::collections::BTreeMap<String, f64>,
    pub river_km: f64,
    pub creek_km: f64,
    pub reaches: u32,
    /// Points over every reach (absent from blobs baked before planet bake version 5).
    #[serde(default)]
    pub river_points: u64,
    pub lakes: u32,
    pub height_min: f32,
    pub height_max: f32,
}

pub fn encode_reaches(reaches: &[PlanetReach]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(reaches.len() as u32).to_le_bytes());
    for r in reaches {
        out.extend_from_slice(&r.id.to_le_bytes());
        out.push(matches!(r.kind, ReachKind::River) as u8);
        out.push(r.order);
        out.extend_from_slice(&[0, 0]);
        for v in [r.head_width_m, r.width_m, r.drains_km2] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(r.points.len() as u32).to_le_bytes());
        for p in &r.points {
            for v in p {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

/// A cursor that turns running out of bytes into a typed error.
struct Cursor<'a> {
    b: &'a [u8],
    what: &'static str,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], FormatError> {
        if self.b.len() < n {
            return Err(FormatError::Corrupt(format!(
                "{} section cut short",
                self.what
            )));
        }
        let (head, rest) = self.b.split_at(n);
        self.b = rest;
        Ok(head)
    }
    fn u32(&mut self) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn f32(&mut self) -> Result<f32, FormatError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn f64(&mut self) -> Result<f64, FormatError> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    /// A count of items of at least `min_bytes` each that the rest can still hold.
    fn count(&mut self, min_bytes: usize) -> Result<usize, FormatError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_bytes) > self.b.len() {
            return Err(FormatError::Corrupt(format!(
                "{} section claims {n} items it cannot hold",
                self.what
            )));
        }
        Ok(n)
    }
}

pub fn decode_reaches(b: &[u8]) -> Result<Vec<PlanetReach>, FormatError> {
    let mut c = Cursor { b, what: "RIVR" };
    let n = c.count(24)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let id = c.u32()?;
        let head = c.take(4)?;
        let kind = match head[0] {
            0 => ReachKind::Creek,
            1 => ReachKind::River,
            k => return Err(FormatError::Corrupt(format!("RIVR reach {id}: kind {k}"))),
        };
        let order = head[1];
        let (head_width_m, width_m, drains_km2) = (c.f32()?, c.f32()?, c.f32()?);
        let points = c.count(16)?;
        let mut pts = Vec::with_capacity(points);
        for _ in 0..points {
            let p = [c.f32()?, c.f32()?, c.f32()?, c.f32()?];
            // Directions on the unit sphere and a bed height: a spatial index can't hold a
            // NaN or a point at the centre, so such a table is refused here.
            let norm = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            if !p.iter().all(|v| v.is_finite()) || !(0.5..=2.0).contains(&norm) {
                return Err(FormatError::Corrupt(format!(
                    "RIVR reach {id}: point {p:?} is not a finite direction"
                )));
            }
            pts.push(p);
        }
        out.push(PlanetReach {
            id,
            kind,
            order,
            head_width_m,
            width_m,
            drains_km2,
            points: pts,
        });
    }
    Ok(out)
}

pub fn encode_lakes(lakes: &[PlanetLake]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(lakes.len() as u32).to_le_bytes());
    for l in lakes {
        out.extend_from_slice(&l.id.to_le_bytes());
        out.extend_from_slice(&l.level_m.to_le_bytes());
        out.extend_from_slice(&l.area_m2.to_le_bytes());
        out.extend_from_slice(&l.depth_m.to_le_bytes());
        for v in l.centre {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&l.radius_m.to_le_bytes());
    }
    out
}

pub fn decode_lakes(b: &[u8]) -> Result<Vec<PlanetLake>, FormatError> {
    let mut c = Cursor { b, what: "LAKE" };
    let n = c.count(36)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let lake = PlanetLake {
            id: c.u32()?,
            level_m: c.f32()?,
            area_m2: c.f64()?,
            depth_m: c.f32()?,
            centre: [c.f32()?, c.f32()?, c.f32()?],
            radius_m: c.f32()?,
        };
        let finite = lake
            .centre
            .iter()
            .chain([&lake.level_m, &lake.radius_m])
            .all(|v| v.is_finite());
        if !finite || lake.id == 0 {
            return Err(FormatError::Corrupt(format!(
                "LAKE lake {}: a zero id or a value that is not finite",
                lake.id
            )));
        }
        out.push(lake);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn points_an_index_cannot_hold_are_refused() {
        for bad in [
            [f32::NAN, 0.0, 1.0, 0.0],
            [0.0; 4],
            [1.0, 0.0, 0.0, f32::INFINITY],
        ] {
            let reach = PlanetReach {
                id: 0,
                kind: ReachKind::River,
                order: 1,
                head_width_m: 1.0,
                width_m: 2.0,
                drains_km2: 1.0,
                points: vec![[0.0, 1.0, 0.0, 5.0], bad],
            };
            let b = encode_reaches(&[reach]);
            assert!(
                matches!(decode_reaches(&b), Err(FormatError::Corrupt(_))),
                "{bad:?}"
            );
        }
        let lake = PlanetLake {
            id: 1,
            level_m: f32::NAN,
            area_m2: 1.0,
            depth_m: 1.0,
            centre: [0.0, 1.0, 0.0],
            radius_m: 1.0,
        };
        assert!(decode_lakes(&encode_lakes(&[lake])).is_err());
    }

    proptest! {
        #[test]
        fn reaches_and_lakes_round_trip_and_any_cut_is_an_error(
            n in 0usize..5, pts in 0usize..6, cut in 0usize..400
        ) {
            let reaches: Vec<PlanetReach> = (0..n).map(|k| PlanetReach {
                id: k as u32,
                kind: if k % 2 == 0 { ReachKind::Creek } else { ReachKind::River },
                order: k as u8 + 1,
                head_width_m: 1.0 + k as f32,
                width_m: 2.0 + k as f32,
                drains_km2: 10.0 * k as f32,
                points: (0..pts).map(|p| [1.0, 0.1 * p as f32, -0.1, 100.0 - p as f32]).collect(),
            }).collect();
            let b = encode_reaches(&reaches);
            prop_assert_eq!(decode_reaches(&b).unwrap(), reaches.clone());
            if cut < b.len() {
                prop_assert!(decode_reaches(&b[..cut]).is_err());
            }
            let lakes: Vec<PlanetLake> = (0..n).map(|k| PlanetLake {
                id: k as u32 + 1, level_m: 3.0, area_m2: 1e5, depth_m: 4.0,
                centre: [0.0, 1.0, 0.0], radius_m: 178.0,
            }).collect();
            let b = encode_lakes(&lakes);
            prop_assert_eq!(decode_lakes(&b).unwrap(), lakes);
            if cut < b.len() {
                prop_assert!(decode_lakes(&b[..cut]).is_err());
            }
        }
    }
}
