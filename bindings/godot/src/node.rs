//! The engine-side pieces `ReliefTerrain` and `ReliefPlanet` share: static bodies through
//! PhysicsServer3D, far-ground levels as one texture array and its shader parameters, Images
//! from prepared bytes, errors reported once, and the runtime's configuration from the nodes'
//! properties. Everything here is an engine call; the decisions are in [`drive`](crate::drive).

use relief::DVec3;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use godot::classes::image::Format;
use godot::classes::mesh::{ArrayType, PrimitiveType};
use godot::classes::physics_server_3d::{BodyMode, BodyState};
use godot::classes::{
    ArrayMesh, Image, Node, Node3D, PhysicsServer3D, ShaderMaterial, Texture2DArray,
};
use godot::prelude::*;
use relief::lod::{Clipmap, ClipmapConfig};
use relief::runtime::{
    ChunkId, ChunkLookup, CollisionConfig, PieceKey, Queries, RuntimeConfig, Streamed, ThingLookup,
    ThingsConfig,
};
use relief::stream::StreamConfig;
use relief::things::{ThingChunk, ThingKey};
use relief::{ConfigError, Runtime};
use std::sync::Arc;

use crate::answers::{Fields, Value};
use crate::drive::{Driver, Engine};
use crate::far::{level_bytes, FarGround};
use crate::instances::ThingInstances;
use crate::maps::{ImageBytes, RegionMaps, FORMAT_RGBA8};
use crate::rings;
use crate::shape::ShapeData;
use crate::shared::SharedQueries;
use crate::thing_set::ReliefThings;
use crate::things::RunBounds;
use crate::world::ReliefWorld;

/// Where a node is between entering the tree and streaming.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Phase {
    /// Out of the tree (or never entered).
    #[default]
    Stopped,
    /// Its world is opening on a thread.
    Opening,
    /// Streaming; the ground at the focus is not ready yet (last fraction told).
    Loading(f64),
    /// Streaming, and a character can stand at the focus.
    Ready,
    /// The world could not be opened or the runtime not started; nothing streams.
    Failed,
}

/// What a streaming node tells its game besides pieces: the `opened`, `open_failed`,
/// `progress` and `ground_ready` signals.
pub enum Milestone<'a> {
    Opened,
    OpenFailed(&'a str),
    Progress(f64),
    GroundReady,
}

/// What a streaming node keeps besides its exported properties.
#[derive(Default)]
pub struct Streaming {
    driver: Option<Driver>,
    /// The runtime's query handle, kept beside the driver so queries answer even from a
    /// signal handler running while the driver is busy with a frame.
    pub queries: Option<Queries>,
    /// The same, for `ReliefQueries` on other threads.
    pub shared: SharedQueries,
    /// Which chunk covers a position, for `collision_ready`.
    lookup: Option<ChunkLookup>,
    pub bodies: Bodies,
    /// Placed things' MultiMeshes and bodies, with a `things` resource set.
    things: Option<ThingInstances>,
    /// Finds the things near a point, and the world's kind names, for `things_within`.
    pub thing_lookup: Option<(ThingLookup, Vec<String>)>,
    far: Option<FarTextures>,
    pub errors: Reporter,
    /// The planet's radius (0 on a flat world), for the far-ground shader.
    radius: f64,
    phase: Phase,
    /// What `begin` was given, for the runtime once the world is open.
    start: Option<Start>,
    /// Counts begins and stops: a frame that sees it change under it (a signal handler
    /// removed or re-added the node) hands nothing more to the engine.
    generation: u64,
}

struct Start {
    world: Option<Gd<ReliefWorld>>,
    settings: Settings,
    planet: bool,
    things: Option<Gd<ReliefThings>>,
}

impl Streaming {
    /// Starts what `enter_tree` starts: the world opening on its thread. The runtime starts
    /// in the first frame that finds it open; `planet` says which kind of ground the node
    /// streams, and the other kind is an error. With `things`, placed things are streamed
    /// and drawn with its meshes.
    pub fn begin(
        &mut self,
        world: Option<Gd<ReliefWorld>>,
        settings: Settings,
        planet: bool,
        things: Option<Gd<ReliefThings>>,
    ) {
        self.halt();
        if let Some(mut w) = world.clone() {
            w.bind_mut().open_async();
        }
        self.start = Some(Start {
            world,
            settings: Settings {
                things: things.is_some(),
                ..settings
            },
            planet,
            things,
        });
        self.phase = Phase::Opening;
        self.errors.clear();
    }

    /// The runtime for an opened world, or why not.
    fn runtime(
        start: &Start,
        ground: Result<relief::runtime::Ground, String>,
    ) -> Result<Runtime, String> {
        let other = if start.planet {
            "the world is flat: stream it with ReliefTerrain"
        } else {
            "the world is a planet: stream it with ReliefPlanet"
        };
        let g = ground?;
        if g.is_planet() != start.planet {
            return Err(other.to_string());
        }
        Runtime::new(g, start.settings.runtime_config()?).map_err(|e| e.to_string())
    }

    /// Opening done: the runtime started, or the failure reported and returned.
    fn opened(&mut self, ground: Result<relief::runtime::Ground, String>) -> Result<(), String> {
        let start = self.start.as_ref().expect("begun");
        match Streaming::runtime(start, ground) {
            Ok(rt) => {
                self.queries = Some(rt.queries().clone());
                self.shared.set(self.queries.clone());
                self.lookup = rt.chunk_lookup().cloned();
                self.things = start.things.as_ref().and_then(|set| {
                    let (instances, faults) = thing_instances(&rt, &set.bind());
                    if !faults.is_empty() {
                        self.errors.report(format!("things: {}", faults.join("; ")));
                    }
                    instances
                });
                self.thing_lookup = kind_names(&rt).map(|k| (rt.thing_lookup().clone(), k));
                self.radius = rt.queries().planet().map_or(0.0, |t| t.planet().radius());
                let driver = Driver::new(rt, 1);
                self.far = driver
                    .runtime()
                    .lod()
                    .and_then(|l| FarTextures::new(l.clipmap()));
                self.driver = Some(driver);
                self.phase = Phase::Loading(-1.0);
                Ok(())
            }
            Err(e) => {
                self.errors.report(e.clone());
                self.phase = Phase::Failed;
                Err(e)
            }
        }
    }

    /// Everything but the driver's hand-back: bodies freed, queries gone, phase stopped.
    fn halt(&mut self) {
        self.generation += 1;
        self.bodies.clear();
        if let Some(mut t) = self.things.take() {
            t.clear();
        }
        self.thing_lookup = None;
        self.queries = None;
        self.shared.set(None);
        self.lookup = None;
        self.far = None;
        self.phase = Phase::Stopped;
    }

    /// Whether the body of the chunk under `pos` (node space) exists.
    pub fn collision_ready(&self, pos: DVec3) -> bool {
        let id = self.lookup.as_ref().and_then(|l| l.key_at(pos));
        id.is_some_and(|id| self.bodies.contains(id))
    }

    /// Whether a character can stand at `pos`: its collision body is in (with collision on),
    /// or every piece asked for is in (without).
    fn ground_ready(&self, pos: DVec3) -> bool {
        if self.lookup.is_some() {
            return self.collision_ready(pos);
        }
        self.driver.as_ref().is_some_and(|d| {
            let s = d.runtime().pieces().stats();
            s.in_flight == 0 && s.ready > 0 && d.preparing() == 0
        })
    }

    /// See `ReliefTerrain.stats()`; empty before the node starts or during its frame.
    pub fn stats(&self) -> VarDictionary {
        self.driver.as_ref().map_or_else(VarDictionary::new, |d| {
            let mut s = stats(d.runtime(), self.bodies.len());
            if let Some(t) = &self.things {
                let (chunks, drawn) = t.counts();
                s.set("thing_chunks", chunks as i64);
                s.set("things_drawn", drawn as i64);
            }
            s
        })
    }

    pub fn far_ground_texture(&self) -> Option<Gd<Texture2DArray>> {
        self.far.as_ref().map(FarTextures::texture)
    }

    /// The rings for the far-ground shader, bounded by where the shader can lift them (so
    /// the mesh is culled by where it draws, not by its flat grid); None before streaming
    /// starts or without far ground.
    pub fn far_ground_mesh(&self) -> Option<Gd<ArrayMesh>> {
        let driver = self.driver.as_ref()?;
        let c = *driver.runtime().lod()?.clipmap().config();
        let ring = rings::rings(c.levels, c.size, c.base_spacing);
        let (lo, hi) = match self.queries.as_ref()? {
            Queries::Flat(t) => {
                let r = t.world().manifest().height_range;
                (r[0], r[1])
            }
            Queries::Planet(t) => {
                let h = t.planet().blob().header();
                (h.height_min, h.height_max)
            }
        };
        let reach = rings::ring_quad(c.base_spacing, c.levels.max(1) - 1) as f64
            * rings::ring_half(c.size) as f64;
        // A planet's mesh node sits at the plane's origin while its centre follows the camera
        // on the plane, up to R·tan(REANCHOR) away before the plane is laid afresh; its rings
        // curve down below the plane by about r²/(2R) at r from the origin.
        let (reach, drop) = if self.radius > 0.0 {
            let along = reach + self.radius * relief::planet::rings::REANCHOR.tan();
            let r = along * std::f64::consts::SQRT_2;
            (r as f32, (r * r / self.radius) as f32)
        } else {
            (reach as f32, 0.0)
        };
        let bounds = Aabb::new(
            Vector3::new(-reach, lo - drop - 1.0, -reach),
            Vector3::new(2.0 * reach, hi - lo + drop + 2.0, 2.0 * reach),
        );
        let vertices: PackedVector3Array = ring
            .vertices
            .iter()
            .map(|v| Vector3::new(v[0], v[1], v[2]))
            .collect();
        let indices: PackedInt32Array = ring.indices.iter().map(|&i| i as i32).collect();
        let mut arrays = VarArray::new();
        arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
        arrays.set(ArrayType::VERTEX.ord() as usize, &vertices.to_variant());
        arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
        let mut mesh = ArrayMesh::new_gd();
        mesh.add_surface_from_arrays(PrimitiveType::TRIANGLES, &arrays);
        mesh.set_custom_aabb(bounds);
        Some(mesh)
    }
}

/// What `exit_tree` does: every region or tile handed out unloaded (signals), every body
/// freed, the runtime ended. Safe from a signal handler during the node's own frame: the
/// frame then hands nothing more over and ends the runtime itself.
pub fn stop<N: StreamingNode>(node: &mut N) {
    let driver = node.streaming().driver.take();
    node.streaming().halt();
    node.streaming().start = None;
    if let Some(mut driver) = driver {
        hand_back(node, &mut driver);
    }
}

/// The driver's hand-back through the node: unloads for every piece it holds.
fn hand_back<N: StreamingNode>(node: &mut N, driver: &mut Driver) {
    let owner = node.owner();
    let props = node.props();
    let generation = node.streaming().generation;
    driver.stop(&mut Glue {
        node,
        owner,
        props,
        generation,
    });
}

/// Bodies follow the node: called on its transform-changed notification.
pub fn moved<N: StreamingNode>(node: &mut N) {
    let owner = node.owner();
    node.streaming().bodies.follow(&owner);
    if let Some(t) = &mut node.streaming().things {
        t.follow(&owner);
    }
}

/// The names of the kinds `rt` places, by index; None when it places none.
fn kind_names(rt: &Runtime) -> Option<Vec<String>> {
    rt.things()?;
    let Streamed::Flat { world, .. } = rt.streamed() else {
        return None;
    };
    Some(
        world
            .things()
            .kinds
            .iter()
            .map(|k| k.name.clone())
            .collect(),
    )
}

/// The engine side of placed things for `rt`'s world drawn with `set`'s meshes (None when
/// the runtime places none), and what in `set` names no kind.
fn thing_instances(rt: &Runtime, set: &ReliefThings) -> (Option<ThingInstances>, Vec<String>) {
    let Some(kinds) = kind_names(rt) else {
        return (None, Vec::new());
    };
    let (meshes, mut faults) = set.meshes_for(&kinds);
    if !faults.is_empty() {
        faults.push(format!("the world's kinds are {}", kinds.join(", ")));
    }
    let instances = ThingInstances::new(meshes, set.collision, set.cast_shadows);
    (Some(instances), faults)
}

/// The properties a frame reads from its node.
pub struct FrameProps {
    pub focus: NodePath,
    pub frame_budget_ms: f64,
    pub collision_layer: u32,
    pub collision_mask: u32,
    pub far_ground_material: Option<Gd<ShaderMaterial>>,
}

/// A node that streams: its state, its properties, and the signals it emits for pieces.
pub trait StreamingNode {
    fn streaming(&mut self) -> &mut Streaming;
    fn streaming_ref(&self) -> &Streaming;
    /// See [`Streaming::generation`].
    fn generation(&self) -> u64 {
        self.streaming_ref().generation
    }
    /// Emits the milestone's signal.
    fn milestone(&mut self, m: Milestone);
    /// The node itself, as the Node3D bodies and focus are placed against.
    fn owner(&self) -> Gd<Node3D>;
    fn props(&self) -> FrameProps;
    fn region_ready(&mut self, _key: PieceKey, _maps: RegionMaps) {}
    fn tile_ready(&mut self, _key: PieceKey, _height: ImageBytes) {}
    fn piece_unloaded(&mut self, key: PieceKey);
    fn piece_failed(&mut self, key: PieceKey, message: &str);
}

/// One `_process`: a world that finished opening starts its runtime, then the driver's frame
/// at the focus (reporting a missing focus or a bad one), then the loading milestones.
pub fn frame<N: StreamingNode>(node: &mut N) {
    if node.streaming().phase == Phase::Opening {
        let world = node
            .streaming()
            .start
            .as_ref()
            .and_then(|s| s.world.clone());
        let polled = match world {
            Some(mut w) => w.bind_mut().poll_or_start(),
            None => Some(Err(format!("{} has no world", node.owner().get_class()))),
        };
        match polled {
            None => return,
            Some(ground) => match node.streaming().opened(ground) {
                Ok(()) => node.milestone(Milestone::Opened),
                Err(e) => return node.milestone(Milestone::OpenFailed(&e)),
            },
        }
    }
    let Some(mut driver) = node.streaming().driver.take() else {
        return;
    };
    let owner = node.owner();
    let props = node.props();
    let generation = node.streaming().generation;
    let mut focus_at = None;
    match focus_node(&owner, &props.focus) {
        Some(focus) => {
            let focus = local_position(&owner, &focus);
            focus_at = Some(focus);
            let budget = Duration::from_secs_f64(props.frame_budget_ms.clamp(0.0, 1000.0) / 1e3);
            let mut glue = Glue {
                node,
                owner,
                props,
                generation,
            };
            if let Err(e) = driver.frame(focus, budget, Instant::now, &mut glue) {
                glue.node.streaming().errors.report(e.to_string());
            }
        }
        None => node
            .streaming()
            .errors
            .report(format!("focus {} is not a Node3D in the tree", props.focus)),
    }
    if node.streaming().generation != generation {
        // Stopped (and perhaps begun again) by a signal handler: this driver's runtime ends
        // here, after telling the engine to let go of what it still holds.
        hand_back(node, &mut driver);
        return;
    }
    node.streaming().driver = Some(driver);
    if let (Phase::Loading(told), Some(focus)) = (node.streaming().phase, focus_at) {
        loading(node, told, focus);
    }
}

/// While the ground at the focus is loading: `progress` when it moved by a percent, then
/// `progress(1.0)` and `ground_ready` once a character can stand there.
fn loading<N: StreamingNode>(node: &mut N, told: f64, focus: DVec3) {
    let s = node.streaming();
    if s.ground_ready(focus) {
        s.phase = Phase::Ready;
        let generation = s.generation;
        node.milestone(Milestone::Progress(1.0));
        // A progress handler may have removed the node: then it is not ready for anything.
        if node.streaming().generation == generation {
            node.milestone(Milestone::GroundReady);
        }
        return;
    }
    let fraction = s.driver.as_ref().map_or(0.0, |d| {
        let p = d.runtime().pieces().stats();
        loading_fraction(p.ready, p.in_flight)
    });
    if (fraction - told).abs() >= 0.01 {
        s.phase = Phase::Loading(fraction);
        node.milestone(Milestone::Progress(fraction));
    }
}

/// The share of the pieces asked for so far that are in, held below 1 (the last step is the
/// ground under the focus itself).
pub fn loading_fraction(ready: usize, in_flight: usize) -> f64 {
    match ready + in_flight {
        0 => 0.0,
        all => (ready as f64 / all as f64).min(0.99),
    }
}

/// The driver's [`Engine`] over a node: pieces go to the node's signals, chunks to bodies,
/// levels to the far-ground texture and material. After the node stopped under it (a signal
/// handler), it takes nothing new; unloads still go through.
struct Glue<'a, N> {
    node: &'a mut N,
    owner: Gd<Node3D>,
    props: FrameProps,
    generation: u64,
}

impl<N: StreamingNode> Engine for Glue<'_, N> {
    fn accepting(&self) -> bool {
        // `streaming()` needs `&mut`; the generation is read through a shared path instead.
        self.node.generation() == self.generation
    }

    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps) {
        self.node.region_ready(key, maps);
    }

    fn tile_ready(&mut self, key: PieceKey, height: ImageBytes) {
        self.node.tile_ready(key, height);
    }

    fn piece_unloaded(&mut self, key: PieceKey) {
        self.node.piece_unloaded(key);
    }

    fn piece_failed(&mut self, key: PieceKey, message: &str) {
        if self.accepting() {
            self.node.piece_failed(key, message);
        }
    }

    fn chunk_ready(&mut self, id: ChunkId, shape: ShapeData) {
        let (layer, mask) = (self.props.collision_layer, self.props.collision_mask);
        let owner = &self.owner;
        self.node
            .streaming()
            .bodies
            .add(owner, id, shape, layer, mask);
    }

    fn chunk_dropped(&mut self, id: ChunkId) {
        self.node.streaming().bodies.remove(id);
    }

    fn things_ready(&mut self, key: ThingKey, chunk: Arc<ThingChunk>, bounds: Vec<RunBounds>) {
        let layers = (self.props.collision_layer, self.props.collision_mask);
        let owner = &self.owner;
        if let Some(t) = &mut self.node.streaming().things {
            t.add(owner, key, chunk, bounds, layers);
        }
    }

    fn things_dropped(&mut self, key: ThingKey) {
        if let Some(t) = &mut self.node.streaming().things {
            t.remove(key);
        }
    }

    fn level_changed(&mut self, level: usize, bytes: &[u8]) {
        if !self.accepting() {
            return;
        }
        if let Some(far) = &mut self.node.streaming().far {
            far.upload(level, bytes);
        }
    }

    fn levels_moved(&mut self, far: &FarGround) {
        if !self.accepting() {
            return;
        }
        let s = self.node.streaming();
        if let (Some(textures), Some(material)) = (&s.far, &mut self.props.far_ground_material) {
            textures.apply(material, far, s.radius);
        }
    }
}

/// The streaming properties both nodes export, read once when the node starts.
pub struct Settings {
    pub load_radius: f64,
    pub drop_radius: f64,
    pub budget_mb: i64,
    pub worker_threads: i64,
    pub collision: bool,
    pub far_ground: bool,
    /// Stream placed things (set by `begin` from whether a `things` resource is given).
    pub things: bool,
}

impl Settings {
    /// The runtime's configuration, checked by relief ([`RuntimeConfig::validate`]): a value
    /// that cannot work is refused, naming the node's property, never quietly changed.
    pub fn runtime_config(&self) -> Result<RuntimeConfig, String> {
        let workers = usize::try_from(self.worker_threads).map_err(|_| {
            format!(
                "worker_threads: must be 0 (one fewer than the cores) or more, is {}",
                self.worker_threads
            )
        })?;
        let megabytes = usize::try_from(self.budget_mb).unwrap_or(0);
        let pieces = StreamConfig {
            load_radius: self.load_radius,
            drop_radius: self.drop_radius,
            budget_bytes: megabytes.saturating_mul(1 << 20),
            ..StreamConfig::default()
        };
        let config = RuntimeConfig {
            pieces,
            collision: self.collision.then(CollisionConfig::default),
            lod: self.far_ground.then(ClipmapConfig::default),
            things: self.things.then(ThingsConfig::default),
            loader_threads: workers,
            ..RuntimeConfig::default()
        };
        config.validate().map_err(|e| property_error(&e))?;
        Ok(config)
    }
}

/// A refused setting named as the node's property (`loader_threads` is `worker_threads`,
/// `pieces.budget_bytes` is `budget_mb`).
pub fn property_error(e: &ConfigError) -> String {
    let field = match e.field.as_str() {
        "loader_threads" => "worker_threads",
        "pieces.budget_bytes" => "budget_mb",
        other => other.strip_prefix("pieces.").unwrap_or(other),
    };
    format!("{field}: {}", e.problem)
}

/// Reports an error with `push_error` once, not every frame it persists.
#[derive(Default)]
pub struct Reporter {
    last: String,
}

impl Reporter {
    pub fn report(&mut self, message: String) {
        if message != self.last {
            godot_error!("relief: {message}");
            self.last = message;
        }
    }

    pub fn clear(&mut self) {
        self.last.clear();
    }
}

/// One chunk's physics objects, and where the body sits in the node's space.
struct Body {
    body: Rid,
    shape: Rid,
    local: Transform3D,
}

/// Static heightmap bodies, one per collision chunk, no node each.
#[derive(Default)]
pub struct Bodies {
    map: HashMap<ChunkId, Body>,
}

impl Bodies {
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn contains(&self, id: ChunkId) -> bool {
        self.map.contains_key(&id)
    }

    /// Creates (or replaces) chunk `id`'s body in `owner`'s physics space, placed by the
    /// shape's transform under `owner`'s.
    pub fn add(
        &mut self,
        owner: &Gd<Node3D>,
        id: ChunkId,
        shape: ShapeData,
        layer: u32,
        mask: u32,
    ) {
        let Some(space) = owner.get_world_3d().map(|w| w.get_space()) else {
            return;
        };
        let mut ps = PhysicsServer3D::singleton();
        if let Some(old) = self.map.remove(&id) {
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
        ps.body_set_collision_layer(body, layer);
        ps.body_set_collision_mask(body, mask);
        let b = &shape.basis;
        let local = Transform3D::new(
            Basis::from_cols(vector(b[0]), vector(b[1]), vector(b[2])),
            vector(shape.origin),
        );
        let placed = owner.get_global_transform() * local;
        ps.body_set_state(body, BodyState::TRANSFORM, &placed.to_variant());
        ps.body_attach_object_instance_id(body, owner.instance_id().to_i64() as u64);
        ps.body_set_space(body, space);
        self.map.insert(
            id,
            Body {
                body,
                shape: rid,
                local,
            },
        );
    }

    /// Places every body again under `owner`'s transform (it moved).
    pub fn follow(&mut self, owner: &Gd<Node3D>) {
        let global = owner.get_global_transform();
        let mut ps = PhysicsServer3D::singleton();
        for b in self.map.values() {
            ps.body_set_state(
                b.body,
                BodyState::TRANSFORM,
                &(global * b.local).to_variant(),
            );
        }
    }

    pub fn remove(&mut self, id: ChunkId) {
        if let Some(b) = self.map.remove(&id) {
            free(&mut PhysicsServer3D::singleton(), b);
        }
    }

    pub fn clear(&mut self) {
        let mut ps = PhysicsServer3D::singleton();
        for (_, b) in self.map.drain() {
            free(&mut ps, b);
        }
    }
}

fn free(ps: &mut Gd<PhysicsServer3D>, b: Body) {
    ps.free_rid(b.body);
    ps.free_rid(b.shape);
}

/// The far-ground levels as the layers of one `FORMAT_RF` texture array.
pub struct FarTextures {
    texture: Gd<Texture2DArray>,
    size: i32,
}

impl FarTextures {
    /// A texture array of `clipmap`'s levels, every layer as it is now.
    pub fn new(clipmap: &Clipmap) -> Option<FarTextures> {
        let size = clipmap.config().size as i32;
        let mut images = Array::new();
        for k in 0..clipmap.config().levels as usize {
            images.push(&rf_image(size, level_bytes(clipmap, k))?);
        }
        let mut texture = Texture2DArray::new_gd();
        texture.create_from_images(&images);
        Some(FarTextures { texture, size })
    }

    pub fn texture(&self) -> Gd<Texture2DArray> {
        self.texture.clone()
    }

    /// Re-uploads layer `level`: one Image of `size² · 4` bytes.
    pub fn upload(&mut self, level: usize, bytes: &[u8]) {
        if let Some(image) = rf_image(self.size, bytes) {
            self.texture.update_layer(&image, level as i32);
        }
    }

    /// Sets the far-ground shader's parameters on `material` (see the sample's
    /// `far_ground.gdshader`): the texture, each level's window origin and spacing, the level
    /// side, and the plane the levels lie on (with `planet_radius` 0 on a flat world).
    pub fn apply(&self, material: &mut Gd<ShaderMaterial>, far: &FarGround, planet_radius: f64) {
        let p = far.placements();
        let origins: PackedVector2Array = p
            .iter()
            .map(|l| Vector2::new(l.origin[0] as f32, l.origin[1] as f32))
            .collect();
        let spacings: PackedFloat32Array = p.iter().map(|l| l.spacing as f32).collect();
        let phases: PackedVector2Array = p
            .iter()
            .map(|l| {
                let [i, j] = l.phase();
                Vector2::new(i as f32, j as f32)
            })
            .collect();
        let base = p.first().map_or(0.0, |l| l.spacing);
        let plane = far.plane();
        let params: [(&str, Variant); 12] = [
            ("levels", self.texture.to_variant()),
            ("level_count", (p.len() as i64).to_variant()),
            ("level_size", (self.size as f32).to_variant()),
            ("level_origin", origins.to_variant()),
            ("level_spacing", spacings.to_variant()),
            ("level_phase", phases.to_variant()),
            ("ring_quad", rings::ring_quad(base, 0).to_variant()),
            (
                "ring_half",
                (rings::ring_half(self.size as u32) as f32).to_variant(),
            ),
            ("plane_axis_x", vector(plane.axis_x).to_variant()),
            ("plane_up", vector(plane.up).to_variant()),
            ("plane_axis_z", vector(plane.axis_z).to_variant()),
            ("planet_radius", (planet_radius as f32).to_variant()),
        ];
        for (name, value) in params {
            material.set_shader_parameter(name, &value);
        }
    }
}

fn rf_image(size: i32, bytes: &[u8]) -> Option<Gd<Image>> {
    Image::create_from_data(size, size, false, Format::RF, &PackedByteArray::from(bytes))
}

/// Prepared bytes as an Image: the one copy into engine memory.
pub fn image(b: ImageBytes) -> Option<Gd<Image>> {
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

/// The node the focus names, or the viewport's active camera when the path is empty; None
/// if it is not a Node3D in the tree (freed, renamed, never set).
pub fn focus_node(owner: &Gd<Node3D>, focus: &NodePath) -> Option<Gd<Node3D>> {
    if focus.is_empty() {
        owner
            .get_viewport()
            .and_then(|v| v.get_camera_3d())
            .map(|c| c.upcast())
    } else {
        owner
            .clone()
            .upcast::<Node>()
            .get_node_or_null(focus)
            .and_then(|n| n.try_cast::<Node3D>().ok())
    }
}

/// `node`'s position in `owner`'s space, as relief takes positions.
pub fn local_position(owner: &Gd<Node3D>, node: &Gd<Node3D>) -> DVec3 {
    vec3(owner.get_global_transform().affine_inverse() * node.get_global_position())
}

/// A relief position or direction as Godot's `Vector3` (`real_t`: f32 in a standard build).
pub fn vector(c: DVec3) -> Vector3 {
    Vector3::new(c.x as f32, c.y as f32, c.z as f32)
}

/// A Godot `Vector3` as relief's f64 position (exact: every f32 is an f64).
pub fn vec3(p: Vector3) -> DVec3 {
    DVec3::new(p.x as f64, p.y as f64, p.z as f64)
}

pub fn dictionary(fields: Fields) -> VarDictionary {
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

/// The runtime's figures every node's `stats()` returns.
pub fn stats(rt: &relief::Runtime, bodies: usize) -> VarDictionary {
    let s = rt.stats();
    let mut d = vdict! {
        "ready" => s.pieces.ready as i64,
        "cached" => s.pieces.cached as i64,
        "in_flight" => s.pieces.in_flight as i64,
        "loads" => s.pieces.loads as i64,
        "failures" => s.pieces.failures as i64,
        "ready_mb" => s.pieces.ready_bytes as f64 / (1 << 20) as f64,
        "bodies" => bodies as i64,
        "update_p50_ms" => s.update_p50.as_secs_f64() * 1e3,
        "update_p99_ms" => s.update_p99.as_secs_f64() * 1e3,
        "lod_cells_last" => s.lod_cells_last as i64,
    };
    if let Some(c) = s.chunks {
        d.set("chunks_ready", c.ready as i64);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            load_radius: 512.0,
            drop_radius: 704.0,
            budget_mb: 256,
            worker_threads: 0,
            collision: true,
            far_ground: true,
            things: true,
        }
    }

    #[test]
    fn the_default_properties_are_relief_s_defaults() {
        assert_eq!(
            settings().runtime_config().unwrap(),
            RuntimeConfig::default()
        );
        // Without a `things` resource the node places none.
        let bare = Settings {
            things: false,
            ..settings()
        };
        let want = RuntimeConfig {
            things: None,
            ..RuntimeConfig::default()
        };
        assert_eq!(bare.runtime_config().unwrap(), want);
    }

    #[test]
    fn a_property_that_cannot_work_is_refused_by_its_name_never_changed() {
        let refused = |change: fn(&mut Settings)| {
            let mut s = settings();
            change(&mut s);
            s.runtime_config().unwrap_err()
        };
        assert!(refused(|s| s.drop_radius = 100.0).starts_with("drop_radius: "));
        assert!(refused(|s| s.load_radius = f64::NAN).starts_with("load_radius: "));
        assert!(refused(|s| s.worker_threads = -1).starts_with("worker_threads: "));
        assert!(refused(|s| s.worker_threads = 1000).starts_with("worker_threads: "));
        assert!(refused(|s| s.budget_mb = 0).starts_with("budget_mb: "));
        assert!(refused(|s| s.budget_mb = -5).starts_with("budget_mb: "));
        // What relief accepts passes through as it is.
        let mut s = settings();
        (s.load_radius, s.drop_radius, s.worker_threads) = (900.0, 900.0, 3);
        let c = s.runtime_config().unwrap();
        assert_eq!(
            (c.pieces.load_radius, c.pieces.drop_radius, c.loader_threads),
            (900.0, 900.0, 3)
        );
    }
}
