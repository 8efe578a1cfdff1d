//! Placed things in the engine, with no node each: per chunk, a RenderingServer MultiMesh and
//! instance per kind drawn, and one static PhysicsServer3D body holding a shape per collider.
//! The decisions (bounds, shape data, transforms) are in [`things`](crate::things).
//!
//! Order matters to the rendering server: the mesh is set before the buffer (setting it after
//! reads the buffer back from the GPU), and a custom AABB is set before it too (without one,
//! every `multimesh_set_buffer` walks every instance to find the box).

use std::collections::HashMap;
use std::sync::Arc;

use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::rendering_server::{MultimeshTransformFormat, ShadowCastingSetting};
use godot::classes::{Mesh, Node3D, PhysicsServer3D, RenderingServer};
use godot::prelude::*;
use relief::things::{ThingChunk, ThingKey};

use crate::things::{columns, shape_data, RunBounds, ShapeData};

/// A mesh drawn for one kind, held so its RID stays valid.
struct KindMesh {
    mesh: Gd<Mesh>,
    aabb: Aabb,
}

/// What one chunk made: its MultiMeshes and their instances, and its body and shapes.
struct Placed {
    /// Each MultiMesh, its instance and how many things it draws.
    drawn: Vec<(Rid, Rid, usize)>,
    body: Option<(Rid, Vec<Rid>)>,
    /// The chunk's origin in the node's space (its rows are relative to it).
    local: Transform3D,
}

/// The engine objects of every thing chunk handed over.
pub struct ThingInstances {
    kinds: Vec<Option<KindMesh>>,
    collision: bool,
    shadows: bool,
    placed: HashMap<ThingKey, Placed>,
    /// Things drawn now, for `stats()`.
    drawn: usize,
}

impl ThingInstances {
    /// Draws kind `k` with `meshes[k]` (none: not drawn); colliders get bodies when
    /// `collision`.
    pub fn new(meshes: Vec<Option<Gd<Mesh>>>, collision: bool, shadows: bool) -> ThingInstances {
        let kinds = meshes
            .into_iter()
            .map(|m| {
                m.map(|mesh| KindMesh {
                    aabb: mesh.get_aabb(),
                    mesh,
                })
            })
            .collect();
        ThingInstances {
            kinds,
            collision,
            shadows,
            placed: HashMap::new(),
            drawn: 0,
        }
    }

    /// Chunks held, and things drawn.
    pub fn counts(&self) -> (usize, usize) {
        (self.placed.len(), self.drawn)
    }

    /// Draws `chunk`'s runs in `owner`'s world and adds its colliders on `layers` (collision
    /// layer, mask), replacing what `key` had.
    pub fn add(
        &mut self,
        owner: &Gd<Node3D>,
        key: ThingKey,
        chunk: Arc<ThingChunk>,
        bounds: Vec<RunBounds>,
        layers: (u32, u32),
    ) {
        let Some(world) = owner.get_world_3d() else {
            return;
        };
        self.remove(key);
        let o = chunk.origin;
        let local = Transform3D::new(
            Basis::IDENTITY,
            Vector3::new(o[0] as f32, o[1] as f32, o[2] as f32),
        );
        let placed_at = owner.get_global_transform() * local;
        let mut rs = RenderingServer::singleton();
        let mut drawn = Vec::new();
        for b in &bounds {
            let Some(kind) = self.kinds.get(b.kind as usize).and_then(Option::as_ref) else {
                continue;
            };
            let mm = rs.multimesh_create();
            rs.multimesh_allocate_data(mm, b.count as i32, MultimeshTransformFormat::TRANSFORM_3D);
            rs.multimesh_set_mesh(mm, kind.mesh.get_rid());
            let (p, s) = b.aabb(vec3(kind.aabb.position), vec3(kind.aabb.size));
            rs.multimesh_set_custom_aabb(mm, Aabb::new(vector(p), vector(s)));
            rs.multimesh_set_buffer(mm, &PackedFloat32Array::from(b.rows(&chunk)));
            let instance = rs.instance_create2(mm, world.get_scenario());
            rs.instance_set_transform(instance, placed_at);
            if !self.shadows {
                rs.instance_geometry_set_cast_shadows_setting(instance, ShadowCastingSetting::OFF);
            }
            self.drawn += b.count as usize;
            drawn.push((mm, instance, b.count as usize));
        }
        let body = (self.collision && !chunk.colliders.is_empty())
            .then(|| body(owner, world.get_space(), &chunk, placed_at, layers));
        self.placed.insert(key, Placed { drawn, body, local });
    }

    /// Frees what chunk `key` made.
    pub fn remove(&mut self, key: ThingKey) {
        if let Some(p) = self.placed.remove(&key) {
            self.free(p);
        }
    }

    /// Places every chunk again under `owner`'s transform (it moved).
    pub fn follow(&mut self, owner: &Gd<Node3D>) {
        let global = owner.get_global_transform();
        let (mut rs, mut ps) = (RenderingServer::singleton(), PhysicsServer3D::singleton());
        for p in self.placed.values() {
            let at = global * p.local;
            for &(_, instance, _) in &p.drawn {
                rs.instance_set_transform(instance, at);
            }
            if let Some((body, _)) = p.body {
                ps.body_set_state(body, BodyState::TRANSFORM, &at.to_variant());
            }
        }
    }

    /// Frees everything (the node stopped). Called explicitly, never from a drop: the
    /// servers may be gone when the engine tears the node down.
    pub fn clear(&mut self) {
        let all: Vec<Placed> = self.placed.drain().map(|(_, p)| p).collect();
        for p in all {
            self.free(p);
        }
    }

    fn free(&mut self, p: Placed) {
        let mut rs = RenderingServer::singleton();
        for (mm, instance, n) in p.drawn {
            self.drawn -= n;
            // The instance first: it draws the MultiMesh.
            rs.free_rid(instance);
            rs.free_rid(mm);
        }
        if let Some((body, shapes)) = p.body {
            let mut ps = PhysicsServer3D::singleton();
            ps.free_rid(body);
            for s in shapes {
                ps.free_rid(s);
            }
        }
    }
}

/// One static body at the chunk's origin with a shape per collider.
fn body(
    owner: &Gd<Node3D>,
    space: Rid,
    chunk: &ThingChunk,
    placed_at: Transform3D,
    (layer, mask): (u32, u32),
) -> (Rid, Vec<Rid>) {
    let mut ps = PhysicsServer3D::singleton();
    let body = ps.body_create();
    ps.body_set_mode(body, BodyMode::STATIC);
    let mut shapes = Vec::with_capacity(chunk.colliders.len());
    for c in &chunk.colliders {
        let (shape, data) = match shape_data(c) {
            ShapeData::Capsule { radius, height } => (
                ps.capsule_shape_create(),
                vdict! { "radius" => radius, "height" => height }.to_variant(),
            ),
            ShapeData::Sphere(r) => (ps.sphere_shape_create(), r.to_variant()),
            ShapeData::Box(h) => (ps.box_shape_create(), vector(h).to_variant()),
        };
        ps.shape_set_data(shape, &data);
        let (basis, origin) = columns(&c.transform);
        let t = Transform3D::new(
            Basis::from_cols(vector(basis[0]), vector(basis[1]), vector(basis[2])),
            vector(origin),
        );
        ps.body_add_shape_ex(body, shape).transform(t).done();
        shapes.push(shape);
    }
    ps.body_set_collision_layer(body, layer);
    ps.body_set_collision_mask(body, mask);
    ps.body_set_state(body, BodyState::TRANSFORM, &placed_at.to_variant());
    ps.body_attach_object_instance_id(body, owner.instance_id().to_i64() as u64);
    ps.body_set_space(body, space);
    (body, shapes)
}

fn vector(v: [f32; 3]) -> Vector3 {
    Vector3::new(v[0], v[1], v[2])
}

fn vec3(v: Vector3) -> [f32; 3] {
    [v.x, v.y, v.z]
}
