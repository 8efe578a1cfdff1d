extends CharacterBody3D
## Walks down the default world's longest river, head to sea, standing on relief's collision.
## Until the body under it is in the physics space it waits where it is.

## The terrain it walks on.
@export var terrain: ReliefTerrain
## Metres per second.
@export var speed := 6.0
## How close to a river point counts as reaching it, metres.
@export var reach := 3.0

var _path := PackedVector2Array()
var _next := 0


func _ready() -> void:
	if terrain == null:
		push_error("walker.gd: no terrain set")
		return
	_path = terrain.longest_river()
	if _path.is_empty():
		push_error("walker.gd: the world has no river that reaches the sea")
		return
	_place_at(_path[0])


func _physics_process(delta: float) -> void:
	if _path.is_empty() or not terrain.collision_ready(global_position):
		velocity = Vector3.ZERO
		return
	var here := Vector2(global_position.x, global_position.z)
	while _next < _path.size() - 1 and here.distance_to(_path[_next]) < reach:
		_next += 1
	var way := (_path[_next] - here).normalized()
	velocity.x = way.x * speed
	velocity.z = way.y * speed
	velocity.y = 0.0 if is_on_floor() else velocity.y - 9.8 * delta
	move_and_slide()


## Puts the walker a little above the ground at plane point `p` (x, z).
func _place_at(p: Vector2) -> void:
	var ground := terrain.height(Vector3(p.x, 0.0, p.y))
	var y := 0.0 if is_nan(ground) else ground
	global_position = Vector3(p.x, y + 1.5, p.y)
