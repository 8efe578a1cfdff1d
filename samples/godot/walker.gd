extends CharacterBody3D
## Walks down the default world's longest river, head to sea, standing on relief's collision.
## When the world has opened it goes to the river's head; once the ground there is ready
## (its collision body is in) it stands on the exact height and sets off.

## The terrain it walks on.
@export var terrain: ReliefTerrain
## Metres per second.
@export var speed := 6.0
## How close to a river point counts as reaching it, metres.
@export var reach := 3.0

var _path := PackedVector2Array()
var _next := 0

var _walking := false


func _ready() -> void:
	if terrain == null:
		push_error("walker.gd: no terrain set")
		return
	terrain.opened.connect(_on_opened)
	terrain.ground_ready.connect(_on_ground_ready)


func _on_opened() -> void:
	_path = terrain.longest_river()
	if _path.is_empty():
		push_error("walker.gd: the world has no river that reaches the sea")
		return
	# The focus moves to the river's head; the ground loads around it.
	_place_at(_path[0])


func _on_ground_ready() -> void:
	# The height is now the region's own, not the overview's: never start under the ground.
	if not _path.is_empty():
		_place_at(Vector2(global_position.x, global_position.z))
		_walking = true


func _physics_process(delta: float) -> void:
	if not _walking or not terrain.collision_ready(global_position):
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
