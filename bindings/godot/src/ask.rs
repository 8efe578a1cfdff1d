//! Every question a game asks of the ground, answered from the runtime's [`Queries`] in
//! Godot's types. `ReliefTerrain`, `ReliefPlanet` and `ReliefQueries` all answer through
//! these, so the nodes (main thread) and the query object (any thread) never disagree.

use godot::prelude::*;
use relief::runtime::{Queries, ThingLookup};

use crate::answers;
use crate::node::{dictionary, vec3, vector};

/// Ground height at `position`: above the datum at (x, z) on a flat world, above the radius
/// under `position` on a planet; NaN where unknown or before streaming starts.
pub fn height(q: Option<&Queries>, position: Vector3) -> f32 {
    q.map_or(f32::NAN, |q| q.height(vec3(position)))
}

pub fn heights(q: Option<&Queries>, positions: &PackedVector3Array) -> PackedFloat32Array {
    let Some(q) = q else {
        return PackedFloat32Array::new();
    };
    // relief's batch queries: one lock taken per stride of points, not per point.
    let mut out = vec![0.0f32; positions.len()];
    match q {
        Queries::Planet(t) => {
            let pos: Vec<_> = positions.as_slice().iter().map(|&p| vec3(p)).collect();
            t.heights(&pos, &mut out);
        }
        Queries::Flat(t) => {
            let pos: Vec<[f64; 2]> = positions
                .as_slice()
                .iter()
                .map(|p| [p.x as f64, p.z as f64])
                .collect();
            t.heights(&pos, &mut out);
        }
    }
    PackedFloat32Array::from(out)
}

/// The ground's unit normal: straight up where unknown on a flat world, zero on a planet
/// before it starts.
pub fn normal(q: Option<&Queries>, position: Vector3) -> Vector3 {
    match q {
        Some(Queries::Flat(t)) => {
            let (n, _) = t.normal(position.x as f64, position.z as f64);
            Vector3::new(n[0], n[1], n[2])
        }
        Some(Queries::Planet(t)) => {
            let (n, _) = t.normal(vec3(position));
            Vector3::new(n[0], n[1], n[2])
        }
        None => Vector3::UP,
    }
}

pub fn ground(q: Option<&Queries>, position: Vector3) -> VarDictionary {
    match q {
        Some(Queries::Flat(t)) => t
            .ground(position.x as f64, position.z as f64)
            .map_or_else(VarDictionary::new, |g| {
                dictionary(answers::ground(&g, t.world().biomes()))
            }),
        Some(Queries::Planet(t)) => dictionary(answers::planet_ground(t.biome(vec3(position)))),
        None => VarDictionary::new(),
    }
}

pub fn river(q: Option<&Queries>, position: Vector3, radius: f64) -> VarDictionary {
    let fields = match q {
        Some(Queries::Flat(t)) => t
            .river(position.x as f64, position.z as f64, radius)
            .map(|r| answers::river(&r)),
        Some(Queries::Planet(t)) => t
            .river(vec3(position), radius)
            .map(|r| answers::planet_river(&r)),
        None => None,
    };
    fields.map_or_else(VarDictionary::new, dictionary)
}

pub fn lake(q: Option<&Queries>, position: Vector3, radius: f64) -> VarDictionary {
    let fields = match q {
        Some(Queries::Flat(t)) => t
            .lake(position.x as f64, position.z as f64, radius)
            .map(|l| answers::lake(&l)),
        Some(Queries::Planet(t)) => t
            .lake(vec3(position), radius)
            .map(|l| answers::planet_lake(&l)),
        None => None,
    };
    fields.map_or_else(VarDictionary::new, dictionary)
}

/// The point on a planet's ground at latitude/longitude (degrees); zero on a flat world.
pub fn position_at(q: Option<&Queries>, latitude: f64, longitude: f64) -> Vector3 {
    q.and_then(Queries::planet).map_or(Vector3::ZERO, |t| {
        let sea = t.position_at(latitude, longitude);
        let h = t.height(sea).height as f64;
        let r = sea.length();
        vector(sea * (r + h) / r)
    })
}

/// Latitude and longitude of `position` on a planet, degrees (x = latitude, y = longitude).
pub fn lat_lon(q: Option<&Queries>, position: Vector3) -> Vector2 {
    q.and_then(Queries::planet).map_or(Vector2::ZERO, |t| {
        let (la, lo) = t.lat_lon(vec3(position));
        Vector2::new(la as f32, lo as f32)
    })
}

pub fn height_at_lat_lon(q: Option<&Queries>, latitude: f64, longitude: f64) -> f32 {
    q.and_then(Queries::planet).map_or(f32::NAN, |t| {
        t.height(t.position_at(latitude, longitude)).height
    })
}

/// The placed things standing within `radius` of `position` (x, z; planar distance), nearest
/// first: `{id, kind, position, distance}` each, `id` stable for the world. Only things in
/// built chunks (within their band's load radius) are found; empty without placed things.
pub fn things_within(
    things: Option<&(ThingLookup, Vec<String>)>,
    position: Vector3,
    radius: f64,
) -> Array<VarDictionary> {
    let mut out = Array::new();
    let Some((lookup, kinds)) = things else {
        return out;
    };
    let mut hits = Vec::new();
    lookup.within(vec3(position), radius, &mut hits);
    for h in hits {
        let kind = kinds.get(h.kind as usize).map_or("", String::as_str);
        out.push(&vdict! {
            // Godot's int is signed: the id's 64 bits, as they are.
            "id" => h.id as i64,
            "kind" => &GString::from(kind),
            "position" => vector(h.position),
            "distance" => h.distance,
        });
    }
    out
}
