@tool
extends EditorPlugin
## relief's editor part: the world inspector (what a ReliefWorld holds) and the Relief dock
## (bake, import, pack). Both run the relief command (ReliefEditorTool finds it and builds
## its command lines), so the editor does what the command-line tool does, no more.

var _inspector: EditorInspectorPlugin
var _dock: Control


func _enter_tree() -> void:
	_inspector = preload("world_inspector.gd").new()
	add_inspector_plugin(_inspector)
	_dock = preload("relief_dock.gd").new()
	_dock.name = "Relief"
	add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)


func _exit_tree() -> void:
	remove_inspector_plugin(_inspector)
	remove_control_from_docks(_dock)
	_dock.queue_free()
