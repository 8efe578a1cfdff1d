@tool
extends VBoxContainer
## The Relief dock: bake a world or a planet, import a heightmap or a Terrain3D data
## directory, pack a world, each with the relief command. A job writes beside its target
## (`<out>.partial`) and moves into place only when it succeeded, so a failed or cancelled
## job leaves nothing half-written in the project.

const Runner := preload("runner.gd")

var _tool := ReliefEditorTool.new()
var _run: Runner
var _target := ""
var _fields := {}
var _log := TextEdit.new()
var _cancel := Button.new()
var _buttons: Array[Button] = []


func _ready() -> void:
	var scroll := ScrollContainer.new()
	scroll.size_flags_vertical = Control.SIZE_EXPAND_FILL
	var forms := VBoxContainer.new()
	forms.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	scroll.add_child(forms)
	add_child(scroll)
	_form(
		forms,
		"Bake a world",
		"bake",
		[["seed", "relief"], ["size (m)", "4096"], ["out (directory)", "res://worlds/island"]]
	)
	_form(
		forms,
		"Bake a planet",
		"bake_planet",
		[
			["seed", "relief"],
			["radius (m)", "600000"],
			["face resolution", "1024"],
			["out (.plnt)", "res://worlds/planet.plnt"]
		]
	)
	_form(
		forms,
		"Import a heightmap",
		"import_heightmap",
		[
			["file (.r16, .raw, .f32, .png)", ""],
			["lowest (m)", "0"],
			["highest (m)", "500"],
			["spacing (m)", "1"],
			["out (.rlpack)", "res://worlds/imported.rlpack"]
		]
	)
	_form(
		forms,
		"Import Terrain3D data",
		"import_terrain3d",
		[
			["data directory", "res://terrain3d_data"],
			["out (.rlpack)", "res://worlds/terrain3d.rlpack"]
		]
	)
	_form(
		forms,
		"Pack a world",
		"pack",
		[
			["world (directory)", "res://worlds/island"],
			["out (.rlpack)", "res://worlds/island.rlpack"]
		]
	)
	_log.editable = false
	_log.custom_minimum_size = Vector2(0.0, 160.0)
	add_child(_log)
	_cancel.text = "Cancel"
	_cancel.disabled = true
	_cancel.pressed.connect(_on_cancel)
	add_child(_cancel)


func _exit_tree() -> void:
	# The editor is closing or the plugin going: end the job before its runner goes.
	if _run != null:
		_run.stop()
		_remove(_target + ".partial")
		_run = null


func _on_cancel() -> void:
	if _run != null:
		_run.cancel()


func _form(parent: Control, title: String, job: String, fields: Array) -> void:
	var label := Label.new()
	label.text = title
	parent.add_child(label)
	var edits: Array[LineEdit] = []
	for field: Array in fields:
		var edit := LineEdit.new()
		edit.placeholder_text = field[0]
		edit.text = field[1]
		edit.tooltip_text = field[0]
		parent.add_child(edit)
		edits.append(edit)
	_fields[job] = edits
	var button := Button.new()
	button.text = title
	button.pressed.connect(_start.bind(job))
	parent.add_child(button)
	_buttons.append(button)


func _start(job: String) -> void:
	var command := _tool.tool_path()
	if command.is_empty():
		_say("The relief command was not found; looked in " + _tool.where_looked())
		return
	var v: Array = (_fields[job] as Array).map(func(e: LineEdit) -> String: return e.text)
	_target = v[v.size() - 1]
	var partial: String = _target + ".partial"
	_remove(partial)
	var arguments: PackedStringArray
	match job:
		"bake":
			arguments = _tool.bake(v[0], int(v[1]), partial)
		"bake_planet":
			arguments = _tool.bake_planet(v[0], float(v[1]), int(v[2]), partial)
		"import_heightmap":
			arguments = _tool.import_heightmap(v[0], partial, float(v[1]), float(v[2]), float(v[3]))
		"import_terrain3d":
			arguments = _tool.import_terrain3d(v[0], partial)
		"pack":
			arguments = _tool.pack(v[0], partial)
	DirAccess.make_dir_recursive_absolute(ProjectSettings.globalize_path(_target.get_base_dir()))
	_log.text = "relief " + " ".join(arguments) + "\n"
	_busy(true)
	_run = Runner.new()
	_run.line.connect(_say)
	_run.finished.connect(_finished.bind(partial))
	_run.start(command, arguments)


func _finished(ok: bool, errors: String, partial: String) -> void:
	_run = null
	_busy(false)
	if not errors.is_empty():
		_say(errors)
	if not ok:
		_remove(partial)
		_say("Failed or cancelled: nothing was written.")
		return
	_remove(_target)
	var moved := DirAccess.rename_absolute(
		ProjectSettings.globalize_path(partial), ProjectSettings.globalize_path(_target)
	)
	if moved != OK:
		_say("Done, but could not move %s into place: %s" % [partial, error_string(moved)])
		return
	_say("Done: " + _target)
	EditorInterface.get_resource_filesystem().scan()


func _busy(busy: bool) -> void:
	_cancel.disabled = not busy
	for button in _buttons:
		button.disabled = busy


func _say(text: String) -> void:
	_log.text += text + "\n"
	_log.scroll_vertical = _log.get_line_count()


## Removes a file or a directory tree on disk (a `res://` path), if it is there.
func _remove(path: String) -> void:
	var disk := ProjectSettings.globalize_path(path)
	if FileAccess.file_exists(disk):
		DirAccess.remove_absolute(disk)
		return
	var dir := DirAccess.open(disk)
	if dir == null:
		return
	for file in dir.get_files():
		DirAccess.remove_absolute(disk.path_join(file))
	for sub in dir.get_directories():
		_remove(path.path_join(sub))
	DirAccess.remove_absolute(disk)
