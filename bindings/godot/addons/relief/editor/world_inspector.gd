@tool
extends EditorInspectorPlugin
## Above a ReliefWorld's properties: what the world is (kind, size, height range, region
## size, spacing, biomes), and on request its census (`relief info`) and a preview image
## (`relief preview`).

const PREVIEW_PIXELS := 256
const Runner := preload("runner.gd")

## Commands under way: kept here until they finish (a runner owns its thread).
var _runs: Array[Runner] = []


func _can_handle(object: Object) -> bool:
	return object is ReliefWorld


func _parse_begin(object: Object) -> void:
	var world := object as ReliefWorld
	var box := VBoxContainer.new()
	var facts := Label.new()
	facts.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	facts.text = _facts(world)
	box.add_child(facts)
	var button := Button.new()
	button.text = "Census and preview"
	box.add_child(button)
	var census := Label.new()
	census.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	box.add_child(census)
	var preview := TextureRect.new()
	preview.expand_mode = TextureRect.EXPAND_FIT_WIDTH_PROPORTIONAL
	preview.stretch_mode = TextureRect.STRETCH_KEEP_ASPECT_CENTERED
	box.add_child(preview)
	button.pressed.connect(_census_and_preview.bind(world, button, census, preview))
	add_custom_control(box)


## What the world's own methods say; a URL is not fetched from the inspector.
func _facts(world: ReliefWorld) -> String:
	var path := world.path
	if path.is_empty():
		return "No path: choose a .rlpack pack or .plnt planet."
	if path.begins_with("http://") or path.begins_with("https://"):
		return "A URL: it opens when a node streams it."
	if not world.open():
		return "Cannot open: " + world.error()
	var size := world.size_m()
	var heights := world.height_range()
	var lines := PackedStringArray()
	if world.is_planet():
		lines.append("Planet, %.0f km across" % (size.x / 1000.0))
		lines.append("%d samples a tile side" % world.region_size())
	else:
		lines.append("Flat world, %.1f × %.1f km" % [size.x / 1000.0, size.y / 1000.0])
		lines.append("Regions of %d² samples" % world.region_size())
	lines.append("%.2f m between samples" % world.vertex_spacing())
	lines.append("Heights %.1f to %.1f m" % [heights.x, heights.y])
	var biomes := world.biome_names()
	if not biomes.is_empty():
		lines.append("Biomes: " + ", ".join(biomes))
	return "\n".join(lines)


func _census_and_preview(
	world: ReliefWorld, button: Button, census: Label, preview: TextureRect
) -> void:
	var tool := ReliefEditorTool.new()
	var command := tool.tool_path()
	if command.is_empty():
		census.text = "The relief command was not found; looked in " + tool.where_looked()
		return
	button.disabled = true
	census.text = "Counting…"
	var png := "user://relief-preview.png"
	var info := _runner()
	var lines := PackedStringArray()
	info.line.connect(func(text: String) -> void: lines.append(text))
	info.finished.connect(
		func(ok: bool, errors: String) -> void:
			if not is_instance_valid(census):
				return  # the inspector moved on
			census.text = "\n".join(lines) if ok else "relief info failed: " + errors
			var draw := _runner()
			draw.finished.connect(
				func(drawn: bool, why: String) -> void:
					if not is_instance_valid(button):
						return
					button.disabled = false
					if not drawn:
						census.text += "\nrelief preview failed: " + why
						return
					var image := Image.load_from_file(ProjectSettings.globalize_path(png))
					if image != null:
						preview.texture = ImageTexture.create_from_image(image)
			)
			draw.start(command, tool.preview(world.path, png, PREVIEW_PIXELS))
	)
	info.start(command, tool.info(world.path))


func _runner() -> Runner:
	var run := Runner.new()
	_runs.append(run)
	# One shot: the connection (which holds the runner) goes once it fired.
	run.finished.connect(
		func(_ok: bool, _errors: String) -> void: _runs.erase(run), CONNECT_ONE_SHOT
	)
	return run


## Ends every command under way (the plugin is going).
func stop_all() -> void:
	for run in _runs:
		run.stop()
	_runs.clear()
