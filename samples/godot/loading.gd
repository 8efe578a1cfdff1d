extends CanvasLayer
## The loading screen: a bar while the world opens and the ground at the walker loads, the
## error if the world cannot be opened, gone once a character can stand there. It only
## listens to ReliefTerrain's signals (opened, progress, open_failed, ground_ready).

## The terrain to listen to.
@export var terrain: ReliefTerrain

var _label := Label.new()
var _bar := ProgressBar.new()


func _ready() -> void:
	var box := VBoxContainer.new()
	box.set_anchors_and_offsets_preset(Control.PRESET_CENTER)
	box.custom_minimum_size = Vector2(360.0, 0.0)
	_label.text = "Opening the world…"
	_bar.max_value = 1.0
	box.add_child(_label)
	box.add_child(_bar)
	add_child(box)
	if terrain == null:
		_label.text = "loading.gd: no terrain set"
		return
	terrain.opened.connect(func() -> void: _label.text = "Loading the ground…")
	terrain.progress.connect(func(fraction: float) -> void: _bar.value = fraction)
	terrain.open_failed.connect(_on_open_failed)
	terrain.ground_ready.connect(hide)


func _on_open_failed(message: String) -> void:
	_bar.hide()
	_label.text = "The world could not be opened:\n" + message
