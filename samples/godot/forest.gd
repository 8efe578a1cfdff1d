extends Node
## Gives the terrain a forest before it starts streaming: a mesh for each kind of thing the
## default world places (its things.json: conifer, broadleaf, shrub, boulder, grass, reeds),
## made from Godot's primitive meshes lifted to stand on their base (a primitive is centred
## on its origin; a placed thing's origin is where it meets the ground). A game sets a
## ReliefThings resource with its own meshes in the inspector instead.
##
## It must come before the terrain in the scene: the terrain reads `things` when it enters
## the tree, and siblings enter in order.

## The terrain to give the forest to.
@export var terrain: ReliefTerrain


func _enter_tree() -> void:
	if terrain == null:
		push_error("forest.gd: no terrain set")
		return
	var things := ReliefThings.new()
	things.meshes = {
		"conifer": _standing(_cone(1.8, 0.0, 9.0, 8), Color(0.13, 0.28, 0.15)),
		"broadleaf": _standing(_ball(2.6, 7.0), Color(0.24, 0.42, 0.16)),
		"shrub": _standing(_ball(0.7, 1.0), Color(0.3, 0.4, 0.18)),
		"boulder": _standing(_ball(0.8, 1.1), Color(0.45, 0.44, 0.42)),
		"grass": _standing(_cone(0.06, 0.0, 0.5, 3), Color(0.36, 0.55, 0.2)),
		"reeds": _standing(_cone(0.03, 0.02, 1.6, 4), Color(0.45, 0.5, 0.25)),
	}
	terrain.things = things


func _cone(bottom: float, top: float, height: float, sides: int) -> PrimitiveMesh:
	var m := CylinderMesh.new()
	m.bottom_radius = bottom
	m.top_radius = top
	m.height = height
	m.radial_segments = sides
	m.rings = 1
	return m


func _ball(radius: float, height: float) -> PrimitiveMesh:
	var m := SphereMesh.new()
	m.radius = radius
	m.height = height
	m.radial_segments = 12
	m.rings = 6
	return m


## `mesh` lifted by half its height, in one colour.
func _standing(mesh: PrimitiveMesh, color: Color) -> ArrayMesh:
	var arrays := mesh.get_mesh_arrays()
	var vertices: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	var lift := mesh.get_aabb().size.y / 2.0
	for i in vertices.size():
		var v := vertices[i]
		v.y += lift
		vertices[i] = v
	arrays[Mesh.ARRAY_VERTEX] = vertices
	var out := ArrayMesh.new()
	out.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
	var material := StandardMaterial3D.new()
	material.albedo_color = color
	out.surface_set_material(0, material)
	return out
