//! `ReliefPlanet`: the streaming node for a PLNT planet, centred on the node's origin. The
//! same [`Driver`] as `ReliefTerrain`: tiles around the focus (emitted as `FORMAT_RF` height
//! Images), collision chunks as static bodies placed with their tangent frames, LOD rings as
//! the far-ground texture array on the rings' tangent plane, and queries by position (in the
//! node's space, which is the planet's frame) or by latitude and longitude.

use godot::classes::notify::Node3DNotification;
use godot::classes::{ArrayMesh, INode3D, Image, Node3D, ShaderMaterial, Texture2DArray};
use godot::prelude::*;
use relief::runtime::{PieceKey, Queries};

use crate::ask;
use crate::maps::ImageBytes;
use crate::node::{self, FrameProps, Milestone, Settings, Streaming, StreamingNode};
use crate::queries::ReliefQueries;
use crate::thing_set::ReliefThings;
use crate::world::ReliefWorld;

#[derive(GodotClass)]
#[class(init, base = Node3D)]
pub struct ReliefPlanet {
    /// The planet to stream (a `.plnt` blob).
    #[export]
    world: Option<Gd<ReliefWorld>>,
    /// The node whose position the ground streams around; the active camera when empty.
    #[export]
    focus: NodePath,
    /// Tiles load within this distance of the focus, metres along the surface.
    #[export]
    #[init(val = 512.0)]
    load_radius: f64,
    /// Loaded tiles stay until farther than this, metres (at least `load_radius`).
    #[export]
    #[init(val = 704.0)]
    drop_radius: f64,
    /// Memory for tiles, MB.
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
    /// Build static collision bodies, each in its chunk's tangent frame, near the focus.
    #[export]
    #[init(val = true)]
    collision: bool,
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_layer: u32,
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_mask: u32,
    /// Keep LOD rings (6 levels of 128² cells from 16 m on a tangent plane near the focus).
    #[export]
    #[init(val = true)]
    far_ground: bool,
    /// A material using the far-ground shader; set whenever the rings move or re-anchor.
    #[export]
    far_ground_material: Option<Gd<ShaderMaterial>>,
    /// Placed things (trees, rocks, grass: the planet's placement table) and the mesh
    /// drawing each kind, each standing along its local up; none streamed when empty. Bodies
    /// use `collision_layer` and `collision_mask`.
    #[export]
    things: Option<Gd<ReliefThings>>,

    streaming: Streaming,
    base: Base<Node3D>,
}

#[godot_api]
impl ReliefPlanet {
    /// A tile is ready: cube `face` (0–5), tile (x, y) on it, and its heights (`FORMAT_RF`,
    /// metres above the radius).
    #[signal]
    fn tile_loaded(face: i64, tile: Vector2i, height: Gd<Image>);

    /// A tile left the drop radius.
    #[signal]
    fn tile_unloaded(face: i64, tile: Vector2i);

    /// A tile failed to load (it is retried); what is already loaded stays.
    #[signal]
    fn tile_failed(face: i64, tile: Vector2i, message: GString);

    /// As `ReliefTerrain.opened`.
    #[signal]
    fn opened();

    /// As `ReliefTerrain.open_failed`.
    #[signal]
    fn open_failed(message: GString);

    /// As `ReliefTerrain.progress`.
    #[signal]
    fn progress(fraction: f64);

    /// As `ReliefTerrain.ground_ready`.
    #[signal]
    fn ground_ready();

    /// The ground's answers for other threads (see `ReliefTerrain.queries()`).
    #[func]
    fn queries(&self) -> Gd<ReliefQueries> {
        ReliefQueries::create(self.streaming.shared.clone())
    }

    /// Ground height above the radius under `position` (node space = planet frame), metres;
    /// NaN before the node starts, for a non-finite position or the centre. Main thread
    /// (other threads: `queries()`), as every query method here.
    #[func]
    fn height(&self, position: Vector3) -> f32 {
        ask::height(self.q(), position)
    }

    /// Heights above the radius under many positions at once.
    #[func]
    fn heights(&self, positions: PackedVector3Array) -> PackedFloat32Array {
        ask::heights(self.q(), &positions)
    }

    /// The ground's unit normal under `position` (planet frame); `Vector3.UP` before the
    /// node starts.
    #[func]
    fn normal(&self, position: Vector3) -> Vector3 {
        ask::normal(self.q(), position)
    }

    /// The point on the ground under latitude/longitude (degrees), planet frame.
    #[func]
    fn position_at(&self, latitude: f64, longitude: f64) -> Vector3 {
        ask::position_at(self.q(), latitude, longitude)
    }

    /// The placed things within `radius` metres of `position` (along the sea-level sphere),
    /// nearest first, each `{id, kind, position, distance}` as `ReliefTerrain.things_within`
    /// gives them; empty with no `things` resource.
    #[func]
    fn things_within(&self, position: Vector3, radius: f64) -> Array<VarDictionary> {
        ask::things_within(self.streaming.thing_lookup.as_ref(), position, radius)
    }

    /// Latitude and longitude of `position`, degrees (x = latitude, y = longitude).
    #[func]
    fn lat_lon(&self, position: Vector3) -> Vector2 {
        ask::lat_lon(self.q(), position)
    }

    /// Ground height above the radius at latitude/longitude, degrees.
    #[func]
    fn height_at_lat_lon(&self, latitude: f64, longitude: f64) -> f32 {
        ask::height_at_lat_lon(self.q(), latitude, longitude)
    }

    /// The biome under `position`: `{biome, biome_id, text}`.
    #[func]
    fn ground(&self, position: Vector3) -> VarDictionary {
        ask::ground(self.q(), position)
    }

    /// The nearest river reach within `radius` metres: `{reach, kind, width, distance,
    /// bed_height, in_water, nearest_x, nearest_y, nearest_z, text}`; empty if none.
    #[func]
    fn river(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::river(self.q(), position, radius)
    }

    /// The nearest lake within `radius` metres: `{lake, level, distance, inside, text}`.
    #[func]
    fn lake(&self, position: Vector3, radius: f64) -> VarDictionary {
        ask::lake(self.q(), position, radius)
    }

    /// Whether the collision body under `position` is in the physics space.
    #[func]
    fn collision_ready(&self, position: Vector3) -> bool {
        self.streaming.collision_ready(node::vec3(position))
    }

    /// Streaming figures, as `ReliefTerrain.stats()`.
    #[func]
    fn stats(&self) -> VarDictionary {
        self.streaming.stats()
    }

    /// The LOD rings as one `FORMAT_RF` texture array (see `ReliefTerrain`).
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

impl ReliefPlanet {
    fn q(&self) -> Option<&Queries> {
        self.streaming.queries.as_ref()
    }
}

#[godot_api]
impl INode3D for ReliefPlanet {
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
            .begin(self.world.clone(), settings, true, things);
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

impl StreamingNode for ReliefPlanet {
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

    fn tile_ready(&mut self, key: PieceKey, height: ImageBytes) {
        let (face, x, y) = key.face_x_z();
        if let Some(image) = node::image(height) {
            self.signals()
                .tile_loaded()
                .emit(face as i64, Vector2i::new(x, y), &image);
        }
    }

    fn piece_unloaded(&mut self, key: PieceKey) {
        let (face, x, y) = key.face_x_z();
        self.signals()
            .tile_unloaded()
            .emit(face as i64, Vector2i::new(x, y));
    }

    fn piece_failed(&mut self, key: PieceKey, message: &str) {
        let (face, x, y) = key.face_x_z();
        self.signals().tile_failed().emit(
            face as i64,
            Vector2i::new(x, y),
            &GString::from(message),
        );
    }
}
