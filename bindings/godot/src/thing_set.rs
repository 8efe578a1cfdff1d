//! `ReliefThings`: which mesh draws each kind of placed thing, and whether things collide. A
//! resource (saved as `.tres`, shared between scenes) that a `ReliefTerrain` names in its
//! `things` property; with none set, the terrain places no things.

use godot::classes::{IResource, Mesh, Resource};
use godot::prelude::*;

#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct ReliefThings {
    /// Kind name (the world's `things.json`: `conifer`, `boulder`, …) → the Mesh drawn for
    /// it, one MultiMesh per kind per chunk. A kind with no mesh is not drawn (its colliders
    /// still collide); a name the world has no kind for is reported once.
    #[export]
    pub meshes: VarDictionary,
    /// Give kinds with a collision shape static bodies (one per chunk, a shape per thing).
    #[export]
    #[init(val = true)]
    pub collision: bool,
    /// Whether the drawn things cast shadows.
    #[export]
    #[init(val = true)]
    pub cast_shadows: bool,
    base: Base<Resource>,
}

#[godot_api]
impl IResource for ReliefThings {}

impl ReliefThings {
    /// The mesh for each of `kinds` (by index), and the names in `meshes` that are no kind of
    /// the world's, or whose value is not a Mesh.
    pub fn meshes_for(&self, kinds: &[String]) -> (Vec<Option<Gd<Mesh>>>, Vec<String>) {
        let mut by_kind = vec![None; kinds.len()];
        let mut unknown = Vec::new();
        for (name, value) in self.meshes.iter_shared() {
            let name = name.to_string();
            let Some(k) = kinds.iter().position(|n| *n == name) else {
                unknown.push(format!("no kind is called `{name}`"));
                continue;
            };
            match value.try_to::<Gd<Mesh>>() {
                Ok(mesh) => by_kind[k] = Some(mesh),
                Err(_) => unknown.push(format!("`{name}` is not a Mesh")),
            }
        }
        (by_kind, unknown)
    }
}
