extends MeshInstance3D
## The far-ground mesh: the rings ReliefTerrain.far_ground_mesh() (or ReliefPlanet's) makes,
## one per clipmap level, each twice as coarse as the one inside it, lifted onto the levels by
## far_ground.gdshader. A child of the terrain node; it follows the camera in steps of its
## coarsest quad so the grid does not swim. On a planet it sits on the levels' tangent plane
## (at planet_radius · plane_up, the plane's axes as its basis), as the shader expects.

## The ReliefTerrain or ReliefPlanet whose levels it draws (its far_ground_material must be
## this mesh's material).
@export var terrain: Node3D
## Nearer than this the streamed regions are drawn by something else (Terrain3D): 0 draws all.
@export var hide_within := 0.0

## The grid offset last set on the material.
var _grid := Vector2(INF, INF)


func _ready() -> void:
	if terrain == null or not terrain.has_method("far_ground_mesh"):
		push_error("far_ground.gd: terrain is not a ReliefTerrain or ReliefPlanet")
		return
	material_override = terrain.get("far_ground_material")
	if material_override == null:
		push_error("far_ground.gd: the terrain has no far_ground_material")
		return
	material_override.set_shader_parameter("hide_within", hide_within)
	# The mesh (and its bounds, from the world's height range) once the world is open.
	terrain.connect("opened", func() -> void: mesh = terrain.call("far_ground_mesh"))


func _process(_delta: float) -> void:
	var camera := get_viewport().get_camera_3d()
	if mesh == null or camera == null:
		return
	var m := material_override as ShaderMaterial
	var count: int = m.get_shader_parameter("level_count")
	var quad: float = m.get_shader_parameter("ring_quad")
	var step := quad * float(1 << (count - 1))
	var radius: float = m.get_shader_parameter("planet_radius")
	var at := terrain.to_local(camera.global_position)
	var place := Transform3D.IDENTITY
	var snapped: Vector2
	if radius > 0.0:
		var x: Vector3 = m.get_shader_parameter("plane_axis_x")
		var up: Vector3 = m.get_shader_parameter("plane_up")
		var z: Vector3 = m.get_shader_parameter("plane_axis_z")
		# The plane point under the camera: where the ray from the centre meets the plane.
		var lift := maxf(at.dot(up), 1.0)
		var on := Vector2(at.dot(x), at.dot(z)) * (radius / lift)
		snapped = Vector2(snappedf(on.x, step), snappedf(on.y, step))
		place = Transform3D(Basis(x, up, z), up * radius)
	else:
		snapped = Vector2(snappedf(at.x, step), snappedf(at.z, step))
		place.origin = Vector3(snapped.x, 0.0, snapped.y)
	# Most frames the camera stays within its step: nothing to set.
	if snapped == _grid and place == transform:
		return
	_grid = snapped
	transform = place
	m.set_shader_parameter("grid_offset", snapped)
