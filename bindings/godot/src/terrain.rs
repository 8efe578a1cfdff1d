//! `ReliefTerrain`: the streaming terrain node. Each frame it moves relief's runtime to the
//! focus, passes loaded regions and chunks to worker threads that prepare their bytes
//! ([`prepare`](crate::prepare)), and spends at most `frame_budget_ms` turning prepared ones
//! into Images (emitted with `region_loaded`) and physics bodies (through PhysicsServer3D,
//! no node per chunk).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use godot::classes::image::Format;
use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::{INode3D, Image, Node3D, PhysicsServer3D};
use godot::prelude::*;
use relief::runtime::chunks::ChunkId;
use relief::runtime::ground::PieceKey;
use relief::runtime::{CollisionConfig, RuntimeConfig};
use relief::stream::{Event, StreamConfig};
use relief::{Runtime, RuntimeEvent};

use crate::answers::{self, Fields, Value};
use crate::maps::{ImageBytes, FORMAT_RGBA8};
use crate::prepare::{Prepared, Preparer, Work};
use crate::shape::ShapeData;
use crate::world::ReliefWorld;

/// What the preparer works on: a region (or tile) or a collision chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Piece(PieceKey),
    Chunk(ChunkId),
}

/// One chunk's physics objects.
struct Body {
    body: Rid,
    shape: Rid,
}

#[derive(GodotClass)]
#[class(init, base = Node3D)]
pub struct ReliefTerrain {
    /// The world to stream.
    #[export]
    world: Option<Gd<ReliefWorld>>,
    /// The node whose position the ground streams around; the active camera when empty.
    #[export]
    focus: NodePath,
    /// Regions load within this distance of the focus, metres.
    #[export]
    #[init(val = 512.0)]
    load_radius: f64,
    /// Loaded regions stay until farther than this, metres (at least `load_radius`).
    #[export]
    #[init(val = 704.0)]
    drop_radius: f64,
    /// Memory for regions, MB.
    #[export]
    #[init(val = 256)]
    budget_mb: i64,
    /// Loader threads (0: one fewer than the cores).
    #[export]
    worker_threads: i64,
    /// Most main-thread time per frame spent turning prepared pieces into engine objects.
    #[export]
    #[init(val = 1.0)]
    frame_budget_ms: f64,
    /// Build static collision bodies for the ground near the focus.
    #[export]
    #[init(val = true)]
    collision: bool,
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_layer: u32,
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_mask: u32,

    runtime: Option<Runtime>,
    preparer: Option<Preparer<Key>>,
    bodies: HashMap<ChunkId, Body>,
    /// The last error pushed, so a persisting fault is reported once, not every frame.
    last_error: String,
    base: Base<Node3D>,
}

#[godot_api]
impl ReliefTerrain {
    /// A region is ready: `height` (`FORMAT_RF`, metres), `control` (`FORMAT_RF` holding the
    /// u32 control bits) and `color` (`FORMAT_RGBA8`, full mip chain) — what
    /// `Terrain3DRegion.set_data` takes. `control` and `color` are null for a world without
    /// those layers.
    #[signal]
    fn region_loaded(
        location: Vector2i,
        height: Gd<Image>,
        control: Option<Gd<Image>>,
        color: Option<Gd<Image>>,
    );

    /// A region left the drop radius: remove it from the engine.
    #[signal]
    fn region_unloaded(location: Vector2i);

    /// A region failed to load (it is retried); what is already loaded stays.
    #[signal]
    fn region_failed(location: Vector2i, message: GString);

    /// Ground height at `position` (x, z in this node's space), metres; NaN for a hole or
    /// outside the world. Callable from any thread.
    #[func]
    fn height(&self, position: Vector3) -> f32 {
        self.runtime
            .as_ref()
            .map_or(f32::NAN, |rt| rt.queries().height(vec3(position)))
    }

    /// Heights at many positions at once.
    #[func]
    fn heights(&self, positions: PackedVector3Array) -> PackedFloat32Array {
        let Some(rt) = &self.runtime else {
            return PackedFloat32Array::new();
        };
        let q = rt.queries();
        positions
            .as_slice()
            .iter()
            .map(|&p| q.height(vec3(p)))
            .collect()
    }

    /// The ground's upward normal at `position` (unit length; straight up where unknown).
    #[func]
    fn normal(&self, position: Vector3) -> Vector3 {
        match self.runtime.as_ref().and_then(|rt| rt.queries().flat()) {
            Some(t) => {
                let (n, _) = t.normal(position.x as f64, position.z as f64);
                Vector3::new(n[0], n[1], n[2])
            }
            None => Vector3::UP,
        }
    }

    /// What the ground is at `position`: `{biome, base_texture, overlay_texture, blend,
    /// hole, lake, text}`; empty where no region is loaded.
    #[func]
    fn ground(&self, position: Vector3) -> VarDictionary {
        let Some(t) = self.runtime.as_ref().and_then(|rt| rt.queries().flat()) else {
            return VarDictionary::new();
        };
        match t.ground(position.x as f64, position.z as f64) {
            Some(g) => dictionary(answers::ground(&g, t.world().biomes())),
            None => VarDictionary::new(),
        }
    }

    /// The nearest river reach within `radius` metres: `{reach, kind, width, distance,
    /// bed_height, in_water, nearest_x, nearest_z, text}`; empty if none.
    #[func]
    fn river(&self, position: Vector3, radius: f64) -> VarDictionary {
        self.runtime
            .as_ref()
            .and_then(|rt| rt.queries().flat())
            .and_then(|t| t.river(position.x as f64, position.z as f64, radius))
            .map_or_else(VarDictionary::new, |r| dictionary(answers::river(&r)))
    }

    /// The nearest lake within `radius` metres: `{lake, level, distance, inside, text}`;
    /// empty if none.
    #[func]
    fn lake(&self, position: Vector3, radius: f64) -> VarDictionary {
        self.runtime
            .as_ref()
            .and_then(|rt| rt.queries().flat())
            .and_then(|t| t.lake(position.x as f64, position.z as f64, radius))
            .map_or_else(VarDictionary::new, |l| dictionary(answers::lake(&l)))
    }

    /// Streaming figures: regions ready, cached and in flight, loads, failures, bodies.
    #[func]
    fn stats(&self) -> VarDictionary {
        let Some(rt) = &self.runtime else {
            return VarDictionary::new();
        };
        let s = rt.stats();
        let mut d = vdict! {
            "ready" => s.pieces.ready as i64,
            "cached" => s.pieces.cached as i64,
            "in_flight" => s.pieces.in_flight as i64,
            "loads" => s.pieces.loads as i64,
            "failures" => s.pieces.failures as i64,
            "ready_mb" => s.pieces.ready_bytes as f64 / (1 << 20) as f64,
            "bodies" => self.bodies.len() as i64,
            "update_p99_ms" => s.update_p99.as_secs_f64() * 1e3,
        };
        if let Some(c) = s.chunks {
            d.set("chunks_ready", c.ready as i64);
        }
        d
    }
}

#[godot_api]
impl INode3D for ReliefTerrain {
    fn ready(&mut self) {
        self.start();
    }

    fn process(&mut self, _delta: f64) {
        self.frame();
    }

    fn exit_tree(&mut self) {
        self.free_bodies();
        self.runtime = None;
        self.preparer = None;
    }
}

impl ReliefTerrain {
    fn report(&mut self, message: String) {
        if message != self.last_error {
            godot_error!("relief: {message}");
            self.last_error = message;
        }
    }

    fn config(&self) -> RuntimeConfig {
        let pieces = StreamConfig {
            load_radius: self.load_radius.max(0.0),
            drop_radius: self.drop_radius.max(self.load_radius.max(0.0)),
            workers: self.worker_threads.clamp(0, 64) as usize,
            budget_bytes: (self.budget_mb.clamp(1, 1 << 20) as usize) << 20,
            ..StreamConfig::default()
        };
        RuntimeConfig {
            pieces,
            collision: self.collision.then(CollisionConfig::default),
            ..RuntimeConfig::default()
        }
    }

    fn start(&mut self) {
        let Some(mut world) = self.world.clone() else {
            self.report("ReliefTerrain has no world".into());
            return;
        };
        let ground = world.bind_mut().ground();
        match ground.and_then(|g| Runtime::new(g, self.config()).map_err(|e| e.to_string())) {
            Ok(rt) => {
                self.runtime = Some(rt);
                self.preparer = Some(Preparer::new(1));
                self.last_error.clear();
            }
            Err(e) => self.report(e),
        }
    }

    /// The focus in this node's space, or None (reported) when there is none.
    fn focus_position(&mut self) -> Option<[f64; 3]> {
        let node: Option<Gd<Node3D>> = if self.focus.is_empty() {
            self.base()
                .get_viewport()
                .and_then(|v| v.get_camera_3d())
                .map(|c| c.upcast())
        } else {
            self.base()
                .get_node_or_null(&self.focus)
                .and_then(|n| n.try_cast::<Node3D>().ok())
        };
        let Some(node) = node else {
            self.report(format!("focus {} is not a Node3D in the tree", self.focus));
            return None;
        };
        let local =
            self.base().get_global_transform().affine_inverse() * node.get_global_position();
        Some([local.x as f64, local.y as f64, local.z as f64])
    }

    fn frame(&mut self) {
        if self.runtime.is_none() {
            return;
        }
        let Some(focus) = self.focus_position() else {
            return;
        };
        let (Some(rt), Some(prep)) = (self.runtime.as_mut(), self.preparer.as_mut()) else {
            return;
        };
        if let Err(e) = rt.update(focus) {
            let message = e.to_string();
            self.report(message);
            return;
        }
        let mut unloaded = Vec::new();
        let mut failed = Vec::new();
        while let Some(event) = rt.poll_event() {
            match event {
                RuntimeEvent::Piece(Event::Loaded { key, .. }) => {
                    if let PieceKey::Region(loc) = key {
                        let region = rt
                            .pieces()
                            .regions()
                            .and_then(|s| s.resident().read().get(&loc).cloned());
                        if let Some(r) = region {
                            prep.send(Key::Piece(key), Work::Region(r));
                        }
                    }
                }
                RuntimeEvent::Piece(Event::Unloaded { key }) => {
                    prep.forget(Key::Piece(key));
                    unloaded.push(key);
                }
                RuntimeEvent::Piece(Event::Failed { key, error, .. }) => {
                    prep.forget(Key::Piece(key));
                    failed.push((key, error.to_string()));
                }
                RuntimeEvent::Chunk(Event::Loaded { key, .. }) => {
                    if let Some(h) = rt.chunk_lookup().and_then(|l| l.get(key)) {
                        prep.send(Key::Chunk(key), Work::Chunk(h));
                    }
                }
                RuntimeEvent::Chunk(Event::Unloaded { key }) => {
                    prep.forget(Key::Chunk(key));
                    // A body must not outlive its ground.
                    if let Some(b) = self.bodies.remove(&key) {
                        free(&mut PhysicsServer3D::singleton(), b);
                    }
                }
                RuntimeEvent::Chunk(Event::Failed { key, .. }) => prep.forget(Key::Chunk(key)),
                RuntimeEvent::LevelsDirty { .. } => {}
            }
        }
        for key in unloaded {
            if let PieceKey::Region(loc) = key {
                self.signals()
                    .region_unloaded()
                    .emit(Vector2i::new(loc.x, loc.z));
            }
        }
        for (key, message) in failed {
            if let PieceKey::Region(loc) = key {
                self.signals()
                    .region_failed()
                    .emit(Vector2i::new(loc.x, loc.z), &GString::from(&message));
            }
        }
        let budget = Duration::from_secs_f64(self.frame_budget_ms.clamp(0.0, 1000.0) / 1e3);
        let mut prep = self.preparer.take().expect("checked above");
        prep.drain(budget, Instant::now, |key, prepared| {
            match (key, prepared) {
                (Key::Piece(PieceKey::Region(loc)), Prepared::Region(maps)) => {
                    let height = image(maps.height);
                    let (control, color) =
                        (maps.control.and_then(image), maps.color.and_then(image));
                    if let Some(height) = height {
                        self.signals().region_loaded().emit(
                            Vector2i::new(loc.x, loc.z),
                            &height,
                            control.as_ref(),
                            color.as_ref(),
                        );
                    }
                }
                (Key::Chunk(id), Prepared::Chunk(shape)) => self.add_body(id, shape),
                _ => {}
            }
        });
        self.preparer = Some(prep);
    }

    fn add_body(&mut self, id: ChunkId, shape: ShapeData) {
        let Some(space) = self.base().get_world_3d().map(|w| w.get_space()) else {
            return;
        };
        let node = self.base().get_global_transform();
        let mut ps = PhysicsServer3D::singleton();
        if let Some(old) = self.bodies.remove(&id) {
            free(&mut ps, old);
        }
        let rid = ps.heightmap_shape_create();
        let heights = PackedFloat32Array::from(shape.heights);
        let data = vdict! {
            "width" => shape.width as i64,
            "depth" => shape.depth as i64,
            "heights" => &heights,
            "min_height" => shape.min_height,
            "max_height" => shape.max_height,
        };
        ps.shape_set_data(rid, &data.to_variant());
        let body = ps.body_create();
        ps.body_set_mode(body, BodyMode::STATIC);
        ps.body_add_shape(body, rid);
        ps.body_set_collision_layer(body, self.collision_layer);
        ps.body_set_collision_mask(body, self.collision_mask);
        let v = |c: [f64; 3]| Vector3::new(c[0] as f32, c[1] as f32, c[2] as f32);
        let b = &shape.basis;
        let local = Transform3D::new(Basis::from_cols(v(b[0]), v(b[1]), v(b[2])), v(shape.origin));
        ps.body_set_state(body, BodyState::TRANSFORM, &(node * local).to_variant());
        ps.body_attach_object_instance_id(body, self.base().instance_id().to_i64() as u64);
        ps.body_set_space(body, space);
        self.bodies.insert(id, Body { body, shape: rid });
    }

    fn free_bodies(&mut self) {
        let mut ps = PhysicsServer3D::singleton();
        for (_, b) in self.bodies.drain() {
            free(&mut ps, b);
        }
    }
}

fn free(ps: &mut Gd<PhysicsServer3D>, b: Body) {
    ps.free_rid(b.body);
    ps.free_rid(b.shape);
}

fn image(b: ImageBytes) -> Option<Gd<Image>> {
    let format = if b.format == FORMAT_RGBA8 {
        Format::RGBA8
    } else {
        Format::RF
    };
    let size = b.size as i32;
    Image::create_from_data(
        size,
        size,
        b.mipmaps,
        format,
        &PackedByteArray::from(b.bytes),
    )
}

fn vec3(p: Vector3) -> [f64; 3] {
    [p.x as f64, p.y as f64, p.z as f64]
}

fn dictionary(fields: Fields) -> VarDictionary {
    let mut d = VarDictionary::new();
    for (key, value) in fields {
        match value {
            Value::Int(v) => d.set(key, v),
            Value::Float(v) => d.set(key, v),
            Value::Bool(v) => d.set(key, v),
            Value::Text(v) => d.set(key, &GString::from(&v)),
        }
    }
    d
}
