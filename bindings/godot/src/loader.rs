//! `ReliefWorldLoader`: makes `.rlpack` packs and `.plnt` planets resources Godot knows.
//!
//! The editor's file system only lists files whose extension some resource loader
//! recognizes, and an export ("Export all resources", the default, or a scene that uses the
//! file) only ships what it lists. Registered by the extension, this loader puts worlds in
//! every export with no include filter to remember. Loading one (`load("res://x.rlpack")`,
//! or a scene's `ext_resource`) gives a `ReliefWorld` with that path, without reading the
//! file: the world opens when a node streams it.

use godot::classes::{IResourceFormatLoader, ResourceFormatLoader, ResourceLoader};
use godot::prelude::*;

use crate::world::ReliefWorld;
use crate::world_files::{is_world_file, EXTENSIONS};

#[derive(GodotClass)]
#[class(init, tool, base = ResourceFormatLoader)]
pub struct ReliefWorldLoader {
    base: Base<ResourceFormatLoader>,
}

#[godot_api]
impl IResourceFormatLoader for ReliefWorldLoader {
    fn get_recognized_extensions(&self) -> PackedStringArray {
        EXTENSIONS.iter().map(|e| GString::from(*e)).collect()
    }

    fn handles_type(&self, type_: StringName) -> bool {
        type_ == "ReliefWorld" || type_ == "Resource"
    }

    fn get_resource_type(&self, path: GString) -> GString {
        if is_world_file(&path.to_string()) {
            GString::from("ReliefWorld")
        } else {
            GString::new()
        }
    }

    fn load(
        &self,
        path: GString,
        _original_path: GString,
        _use_sub_threads: bool,
        _cache_mode: i32,
    ) -> Variant {
        let mut world = ReliefWorld::new_gd();
        world.bind_mut().set_world_path(path);
        world.to_variant()
    }
}

thread_local! {
    /// The loader while registered (init and deinit both run on the main thread).
    static REGISTERED: std::cell::RefCell<Option<Gd<ReliefWorldLoader>>> = const { std::cell::RefCell::new(None) };
}

/// Adds the loader to Godot's ResourceLoader (at the extension's scene level).
pub fn register() {
    let loader = ReliefWorldLoader::new_gd();
    ResourceLoader::singleton().add_resource_format_loader(&loader);
    REGISTERED.with(|r| *r.borrow_mut() = Some(loader));
}

/// Takes it out again (at the extension's scene-level deinit).
pub fn unregister() {
    if let Some(loader) = REGISTERED.with(|r| r.borrow_mut().take()) {
        ResourceLoader::singleton().remove_resource_format_loader(&loader);
    }
}
