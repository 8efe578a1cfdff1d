@tool
extends EditorPlugin
## relief's editor part: the world inspector (what a ReliefWorld holds) and the Relief dock
## (bake, import, pack). Both run the relief command (ReliefEditorTool finds it and builds
## its command lines), so the editor does what the command-line tool does, no more.

const WorldInspector := preload("world_inspector.gd")
const Dock := preload("relief_dock.gd")

var _inspector: WorldInspector
var _dock: Dock


func _enter_tree() -> void:
	_inspector = WorldInspector.new()
	add_inspector_plugin(_inspector)
	_dock = Dock.new()
	_dock.name = "Relief"
	add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)


func _exit_tree() -> void:
	_inspector.stop_all()
	remove_inspector_plugin(_inspector)
	remove_control_from_docks(_dock)
	_dock.queue_free()
