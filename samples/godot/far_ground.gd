extends MeshInstance3D
## The far-ground mesh: one ring of quads per clipmap level, each ring twice as coarse as the
## one inside it, drawn by far_ground.gdshader from the terrain's level textures. A child of
## the ReliefTerrain; it follows the focus in steps of its coarsest quad so the grid does not
## swim.

## The terrain whose levels it draws (its far_ground_material must be this mesh's material).
@export var terrain: ReliefTerrain
## Levels, cells per level side and level 0's spacing: the terrain's clipmap (relief's
## defaults: 6 levels of 128² from 16 m).
@export var levels := 6
@export var level_size := 128
@export var base_spacing := 16.0
## Nearer than this the streamed regions are drawn by something else (Terrain3D): 0 draws all.
@export var hide_within := 0.0

var _step := 0.0


func _ready() -> void:
	mesh = _rings()
	# The shader moves vertices far from the flat grid: never cull the mesh by its flat box.
	extra_cull_margin = 16384.0
	_step = base_spacing * pow(2.0, levels - 1) * 2.0
	if terrain == null:
		push_error("far_ground.gd: no terrain set")
		return
	material_override = terrain.far_ground_material
	if material_override != null:
		material_override.set_shader_parameter("hide_within", hide_within)


func _process(_delta: float) -> void:
	if terrain == null or material_override == null:
		return
	var camera := get_viewport().get_camera_3d()
	if camera == null:
		return
	var at := terrain.to_local(camera.global_position)
	var snapped := Vector2(snappedf(at.x, _step), snappedf(at.z, _step))
	position = Vector3(snapped.x, 0.0, snapped.y)
	material_override.set_shader_parameter("grid_offset", snapped)


## Rings of quads, level k's quads 2·spacing_k wide; level 0 is a full square.
func _rings() -> ArrayMesh:
	var st := SurfaceTool.new()
	st.begin(Mesh.PRIMITIVE_TRIANGLES)
	var half := level_size / 4
	for k in levels:
		var quad := base_spacing * pow(2.0, k) * 2.0
		for j in range(-half, half):
			for i in range(-half, half):
				var inner := absi(i * 2 + 1) < half and absi(j * 2 + 1) < half
				if k > 0 and inner:
					continue
				_quad(st, Vector3(i * quad, 0.0, j * quad), quad)
	return st.commit()


func _quad(st: SurfaceTool, corner: Vector3, side: float) -> void:
	var a := corner
	var b := corner + Vector3(side, 0.0, 0.0)
	var c := corner + Vector3(side, 0.0, side)
	var d := corner + Vector3(0.0, 0.0, side)
	for v in [a, b, c, a, c, d]:
		st.add_vertex(v)
