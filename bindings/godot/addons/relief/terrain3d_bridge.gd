class_name ReliefTerrain3DBridge
extends Node
## Feeds a Terrain3D node at run time from a ReliefTerrain's signals: each loaded region
## becomes a Terrain3DRegion (set_data, no pixel scan), added without an update; one
## update_maps() per frame that changed anything. Terrain3D keeps its own collision off
## (relief builds it) and its data directory empty (nothing is ever saved over a project).
##
## Terrain3D's remove_region only marks a region deleted: its maps stay in memory until
## save_directory. The bridge therefore purges after `purge_after` removals, by saving to an
## empty scratch directory, which drops the deleted regions (and writes nothing else, as
## streamed regions are never modified).

## The ReliefTerrain whose signals feed Terrain3D.
@export var relief_terrain: NodePath
## The Terrain3D node to feed.
@export var terrain_3d: NodePath
## Removed regions Terrain3D may hold before a purge (about 3.3 MiB each at 512²).
@export_range(1, 1024) var purge_after: int = 16
## Where the purge "saves": an empty directory of its own.
@export var scratch_dir: String = "user://relief-terrain3d-scratch"

var _data: Object
var _region_size: int = 0
var _height_range := Vector2.ZERO
var _changed := false
var _removed := 0


func _ready() -> void:
	var relief: Node = get_node_or_null(relief_terrain)
	var terrain: Node = get_node_or_null(terrain_3d)
	if relief == null or not relief.has_signal("region_loaded"):
		push_error("relief: the bridge's relief_terrain is not a ReliefTerrain")
		return
	if terrain == null or not ClassDB.class_exists("Terrain3DRegion"):
		push_error("relief: Terrain3D is not installed or terrain_3d is not a Terrain3D node")
		return
	if str(terrain.get("data_directory")) != "":
		push_error("relief: the Terrain3D node's data_directory must be empty when streaming")
		return
	var world: Object = relief.get("world")
	if world == null or not world.call("open"):
		push_error("relief: the ReliefTerrain has no open world")
		return
	_region_size = world.call("region_size")
	_height_range = world.call("height_range")
	# Collision comes from relief; Terrain3D's own would rebuild on every update_maps().
	terrain.set("collision_mode", 0)
	terrain.call("change_region_size", _region_size)
	terrain.set("vertex_spacing", world.call("vertex_spacing"))
	_data = terrain.get("data")
	relief.connect("region_loaded", _on_region_loaded)
	relief.connect("region_unloaded", _on_region_unloaded)


func _process(_delta: float) -> void:
	if _changed:
		_data.call("update_maps")
		_changed = false


func _on_region_loaded(location: Vector2i, height: Image, control: Image, color: Image) -> void:
	if location.x < -16 or location.x > 15 or location.y < -16 or location.y > 15:
		push_error("relief: region %s lies outside Terrain3D's 32×32 region map" % location)
		return
	var region: Object = ClassDB.instantiate("Terrain3DRegion")
	var maps := {
		"region_size": _region_size,
		"location": location,
		"height_range": _height_range,
		"height_map": height,
		"control_map": control if control != null else _blank(Image.FORMAT_RF, false),
		"color_map": color if color != null else _blank(Image.FORMAT_RGBA8, true),
	}
	region.call("set_data", maps)
	_data.call("add_region", region, false)
	_changed = true


func _on_region_unloaded(location: Vector2i) -> void:
	_data.call("remove_regionl", location, false)
	_changed = true
	_removed += 1
	if _removed >= purge_after:
		DirAccess.make_dir_recursive_absolute(scratch_dir)
		_data.call("save_directory", scratch_dir)
		_removed = 0


## A map for a world without that layer: control 0 (base texture 0), color white.
func _blank(format: Image.Format, mipmaps: bool) -> Image:
	var image := Image.create_empty(_region_size, _region_size, false, format)
	if format == Image.FORMAT_RGBA8:
		image.fill(Color.WHITE)
	if mipmaps:
		image.generate_mipmaps()
	return image
