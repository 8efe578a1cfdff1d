//! `ReliefTerrain`: the streaming terrain node for a flat world. Each frame it runs the
//! [`Driver`]: one runtime update at the focus, regions and chunks prepared on worker threads,
//! at most `frame_budget_ms` turning prepared ones into Images (emitted with `region_loaded`)
//! and physics bodies (through PhysicsServer3D, no node per chunk), and the far-ground levels
//! that changed re-uploaded into one texture array.

use godot::classes::notify::Node3DNotification;
use godot::classes::{ArrayMesh, INode3D, Image, Node3D, ShaderMaterial, Texture2DArray};
use godot::prelude::*;
use relief::runtime::{PieceKey, Queries};

use crate::ask;
use crate::maps::RegionMaps;
use crate::node::{self, FrameProps, Milestone, Settings, Streaming, StreamingNode};
use crate::queries::ReliefQueries;
use crate::thing_set::ReliefThings;
use crate::world::ReliefWorld;

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
    /// Keep far-ground levels (6 of 128² cells from 16 m, out to ±32 km) as a texture array.
    #[export]
    #[init(val = true)]
    far_ground: bool,
    /// A material using the far-ground shader: its parameters are set whenever the levels
    /// move (see `far_ground_texture`).
    #[export]
    far_ground_material: Option<Gd<ShaderMaterial>>,
    /// Placed things (trees, rocks, grass: the world's `things.json`) and the mesh drawing
    /// each kind; none streamed when empty. Bodies use `collision_layer` and `collision_mask`.
    #[export]
    things: Option<Gd<ReliefThings>>,

    streaming: Streaming,
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

    /// The world finished opening and streaming started.
    #[signal]
    fn opened();

    /// The world could not be opened (missing, corrupt, the wrong kind, a URL that timed
    /// out) or the settings were refused; `message` is relief's, also pushed as an error
    /// once. Nothing streams until the node enters the tree again, which tries again.
    #[signal]
    fn open_failed(message: GString);

    /// How far loading the ground at the focus has come, 0–1, at most once a frame and only
    /// when it moved by a percent; 1.0 right before `ground_ready`. For a loading screen.
    #[signal]
    fn progress(fraction: f64);

    /// A character can stand at the focus: its collision body is in the physics space (the
    /// pieces around it, with `collision` off). Once per entering the tree.
    #[signal]
    fn ground_ready();

    /// The ground's answers for other threads (a `WorkerThreadPool` task): a
    /// `ReliefQueries`, safe to call from any thread, answering for this node while it
    /// streams. This node's own query methods are for the main thread.
    #[func]
    fn queries(&self) -> Gd<ReliefQueries> {
        ReliefQueries::create(self.streaming.shared.clone())
    }

    /// Ground height at `position` (x, z in this node's space), metres; NaN for a hole or
    /// outside the world. Main thread (other threads: `queries()`).
    #[func]
    fn height(&self, position: Vector3) -> f32 {
        ask::height(self.streaming.queries.as_ref(), position)
    }

    /// Heights at many positions at once.
    #[func]
    fn heights(&self, positions: PackedVector3Array) -> PackedFloat32Array {
        ask::heights(self.streaming.queries.as_ref(), &positions)
    }

    /// The ground's upward normal at `position` (unit length; straight up where unknown).
    #[func]
    fn normal(&self, position: Vector3) -> Vector3 {
        ask::normal(self.streaming.queries.as_ref(), position)
    }

    /// What the ground is at `position`: `{biome, base_texture, overlay_texture, blend,
    /// hole, lake, text}`; empty where no region is loaded.
    #[func]
    fn ground(&self, position: Vector3) -> VarDictionary {
        ask::ground(self.streaming.queries.as_ref(), position)
    }

    /// The nearest river reach within `radius` metres: `{reach, kind, width, distance,
    /// bed_height, in_water, nearest_x, nearest_z, text}`; empty if none.
    #[func]
    fn river(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::river(self.streaming.queries.as_ref(), position, radius)
    }

    /// The nearest lake within `radius` metres: `{lake, level, distance, inside, text}`;
    /// empty if none.
    #[func]
    fn lake(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::lake(self.streaming.queries.as_ref(), position, radius)
    }

    /// The world's longest river from its head to the sea, as world (x, z) points; empty
    /// when no river reaches the sea or the node has not started. The sample's walker
    /// follows it.
    #[func]
    fn longest_river(&self) -> PackedVector2Array {
        let path = self
            .streaming
            .queries
            .as_ref()
            .and_then(Queries::flat)
            .and_then(|t| t.world().longest_river())
            .unwrap_or_default();
        path.iter()
            .map(|p| Vector2::new(p[0] as f32, p[1] as f32))
            .collect()
    }

    /// The placed things within `radius` metres of `position` (x, z), nearest first, each
    /// `{id, kind, position, distance}` (`id` the same in every session of the world): which
    /// tree the player touches. Only things near enough to be built are found; empty with no
    /// `things` resource.
    #[func]
    fn things_within(&self, position: Vector3, radius: f64) -> Array<VarDictionary> {
        ask::things_within(self.streaming.thing_lookup.as_ref(), position, radius)
    }

    /// Whether the collision body under `position` is in the physics space: a character can
    /// stand there. False before the node starts or with `collision` off.
    #[func]
    fn collision_ready(&self, position: Vector3) -> bool {
        self.streaming.collision_ready(node::vec3(position))
    }

    /// Streaming figures: regions ready, cached and in flight, loads, failures, bodies,
    /// update times. Empty while called from a signal handler during the node's frame.
    #[func]
    fn stats(&self) -> VarDictionary {
        self.streaming.stats()
    }

    /// The far-ground levels as one `FORMAT_RF` texture array, a layer per level (null until
    /// the node starts, or with `far_ground` off). Its cells are toroidal: sample layer k with
    /// repeat wrap at `uv = position.xz / (level_spacing[k] · level_size)`.
    #[func]
    fn far_ground_texture(&self) -> Option<Gd<Texture2DArray>> {
        self.streaming.far_ground_texture()
    }

    /// The far-ground rings for a MeshInstance3D drawn with the far-ground shader
    /// (`samples/godot/far_ground.gdshader`): vertices `(x, ring, z)`, one ring per level,
    /// with a custom AABB covering where the shader lifts them. Null until `opened`, or with
    /// `far_ground` off.
    #[func]
    fn far_ground_mesh(&self) -> Option<Gd<ArrayMesh>> {
        self.streaming.far_ground_mesh()
    }
}
#[godot_api]
impl INode3D for ReliefTerrain {
    fn enter_tree(&mut self) {
        self.base_mut().set_notify_transform(true);
        let settings = Settings {
            load_radius: self.load_radius,
            drop_radius: self.drop_radius,
            budget_mb: self.budget_mb,
            worker_threads: self.worker_threads,
            collision: self.collision,
            far_ground: self.far_ground,
            things: false,
        };
        let things = self.things.clone();
        self.streaming
            .begin(self.world.clone(), settings, false, things);
    }

    fn process(&mut self, _delta: f64) {
        node::frame(self);
    }

    fn exit_tree(&mut self) {
        node::stop(self);
    }

    fn on_notification(&mut self, what: Node3DNotification) {
        if what == Node3DNotification::TRANSFORM_CHANGED {
            node::moved(self);
        }
    }
}

impl StreamingNode for ReliefTerrain {
    fn streaming(&mut self) -> &mut Streaming {
        &mut self.streaming
    }

    fn streaming_ref(&self) -> &Streaming {
        &self.streaming
    }

    fn milestone(&mut self, m: Milestone) {
        match m {
            Milestone::Opened => self.signals().opened().emit(),
            Milestone::OpenFailed(e) => self.signals().open_failed().emit(&GString::from(e)),
            Milestone::Progress(f) => self.signals().progress().emit(f),
            Milestone::GroundReady => self.signals().ground_ready().emit(),
        }
    }

    fn owner(&self) -> Gd<Node3D> {
        self.to_gd().upcast()
    }

    fn props(&self) -> FrameProps {
        FrameProps {
            focus: self.focus.clone(),
            frame_budget_ms: self.frame_budget_ms,
            collision_layer: self.collision_layer,
            collision_mask: self.collision_mask,
            far_ground_material: self.far_ground_material.clone(),
        }
    }

    fn region_ready(&mut self, key: PieceKey, maps: RegionMaps) {
        let PieceKey::Region(loc) = key else {
            return;
        };
        let control = maps.control.and_then(node::image);
        let color = maps.color.and_then(node::image);
        if let Some(height) = node::image(maps.height) {
            self.signals().region_loaded().emit(
                Vector2i::new(loc.x, loc.z),
                &height,
                control.as_ref(),
                color.as_ref(),
            );
        }
    }

    fn piece_unloaded(&mut self, key: PieceKey) {
        if let PieceKey::Region(loc) = key {
            self.signals()
                .region_unloaded()
                .emit(Vector2i::new(loc.x, loc.z));
        }
    }

    fn piece_failed(&mut self, key: PieceKey, message: &str) {
        if let PieceKey::Region(loc) = key {
            self.signals()
                .region_failed()
                .emit(Vector2i::new(loc.x, loc.z), &GString::from(message));
        }
    }
}
