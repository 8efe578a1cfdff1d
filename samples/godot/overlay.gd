extends CanvasLayer
## F3 toggles a debug overlay: what relief's queries say at the walker (river, lake, ground)
## and the streamer's figures.

## The terrain to ask.
@export var terrain: ReliefTerrain
## Whose position is asked about.
@export var walker: Node3D
## How far to look for a river or lake, metres.
@export var search_radius := 200.0

var _label := Label.new()


func _ready() -> void:
	_label.position = Vector2(12.0, 12.0)
	add_child(_label)


func _unhandled_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key != null and key.pressed and not key.echo and key.keycode == KEY_F3:
		visible = not visible


func _process(_delta: float) -> void:
	if not visible or terrain == null or walker == null:
		return
	var at := walker.global_position
	var lines := PackedStringArray()
	lines.append("at %.0f, %.0f, %.0f" % [at.x, at.y, at.z])
	for answer in [
		terrain.river(at, search_radius),
		terrain.lake(at, search_radius),
		terrain.ground(at),
	]:
		if not answer.is_empty():
			lines.append(answer["text"])
	var stats := terrain.stats()
	if not stats.is_empty():
		lines.append(
			(
				"%d regions ready, %d bodies, update p99 %.2f ms"
				% [stats["ready"], stats["bodies"], stats["update_p99_ms"]]
			)
		)
	_label.text = "\n".join(lines)
