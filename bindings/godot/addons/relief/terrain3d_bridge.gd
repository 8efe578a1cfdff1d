class_name ReliefTerrain3DBridge
extends Node
## Feeds a Terrain3D node at run time from a ReliefTerrain's signals: each loaded region
## becomes a Terrain3DRegion (set_data, no pixel scan). Terrain3D's update_maps() rebuilds
## its texture arrays from every region it holds, so the bridge paces it with a
## ReliefTerrain3DFeed: changes queue, a few are applied each frame (add_region and
## remove_regionl without an update), and one update_maps() shows them, at most once per
## update_interval_s and only while its measured cost stays within update_share of the
## frame time. Terrain3D keeps its own collision off (relief builds it) and its data
## directory empty (nothing is ever saved over a project).
##
## Terrain3D's remove_region only marks a region deleted: its maps stay in memory until
## save_directory. The bridge therefore purges after `purge_after` removals, by saving to an
## empty scratch directory, which drops the deleted regions (and writes nothing else, as
## streamed regions are never modified).

## Terrain3DRegion.MapType.TYPE_MAX: update_maps() rebuilds height, control and color.
const TYPE_MAX := 3

## The ReliefTerrain whose signals feed Terrain3D.
@export var relief_terrain: NodePath
## The Terrain3D node to feed.
@export var terrain_3d: NodePath
## Least time between two update_maps() calls, seconds.
@export_range(0.0, 5.0) var update_interval_s: float = 0.25
## Most of the main thread's time update_maps() may take over time (0.1: a tenth).
@export_range(0.01, 1.0) var update_share: float = 0.1
## Most add_region/remove_regionl calls a frame.
@export_range(1, 64) var changes_per_frame: int = 4
## Removed regions Terrain3D may hold before a purge (about 3.3 MiB each at 512²).
@export_range(1, 1024) var purge_after: int = 16
## Where the purge "saves": an empty directory of its own.
@export var scratch_dir: String = "user://relief-terrain3d-scratch"

var _relief: Node
var _terrain: Node
var _data: Object
var _feed := ReliefTerrain3DFeed.new()
## Location -> the Terrain3DRegion waiting to be handed over (the newest maps).
var _waiting := {}
var _region_size: int = 0
var _height_range := Vector2.ZERO
var _removed := 0


func _ready() -> void:
	_relief = get_node_or_null(relief_terrain)
	_terrain = get_node_or_null(terrain_3d)
	if _relief == null or not _relief.has_signal("region_loaded"):
		push_error("relief: the bridge's relief_terrain is not a ReliefTerrain")
		return
	if _terrain == null or not ClassDB.class_exists("Terrain3DRegion"):
		push_error("relief: Terrain3D is not installed or terrain_3d is not a Terrain3D node")
		return
	if str(_terrain.get("data_directory")) != "":
		push_error("relief: the Terrain3D node's data_directory must be empty when streaming")
		return
	_feed.update_interval_s = update_interval_s
	_feed.update_share = update_share
	_feed.changes_per_frame = changes_per_frame
	# The world opens on its own thread; Terrain3D is set up once it is open.
	_relief.connect("opened", _on_opened)


func _on_opened() -> void:
	var world: Object = _relief.get("world")
	if world == null or not world.call("is_open"):
		push_error("relief: the ReliefTerrain has no open world")
		return
	_region_size = world.call("region_size")
	_height_range = world.call("height_range")
	# Collision comes from relief; Terrain3D's own would rebuild on every update_maps().
	_terrain.set("collision_mode", 0)
	_terrain.call("change_region_size", _region_size)
	_terrain.set("vertex_spacing", world.call("vertex_spacing"))
	_data = _terrain.get("data")
	if not _relief.is_connected("region_loaded", _on_region_loaded):
		_relief.connect("region_loaded", _on_region_loaded)
		_relief.connect("region_unloaded", _on_region_unloaded)


func _process(_delta: float) -> void:
	if _data == null or not _feed.busy():
		return
	var now := Time.get_ticks_usec() / 1e6
	var plan: Dictionary = _feed.frame(now)
	for location: Vector2i in plan["remove"]:
		_data.call("remove_regionl", location, false)
		_removed += 1
	for location: Vector2i in plan["add"]:
		_data.call("add_region", _waiting[location], false)
		_waiting.erase(location)
	if plan["update"]:
		var began := Time.get_ticks_usec()
		_data.call("update_maps", TYPE_MAX, true, false)
		_feed.updated(now, (Time.get_ticks_usec() - began) / 1e6)
	if _removed >= purge_after:
		DirAccess.make_dir_recursive_absolute(scratch_dir)
		_data.call("save_directory", scratch_dir)
		_removed = 0


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
	_waiting[location] = region
	_feed.loaded(location)


func _on_region_unloaded(location: Vector2i) -> void:
	_waiting.erase(location)
	_feed.unloaded(location)


## A map for a world without that layer: control 0 (base texture 0), color white.
func _blank(format: Image.Format, mipmaps: bool) -> Image:
	var image := Image.create_empty(_region_size, _region_size, false, format)
	if format == Image.FORMAT_RGBA8:
		image.fill(Color.WHITE)
	if mipmaps:
		image.generate_mipmaps()
	return image
