@tool
extends RefCounted
## Runs one relief command on a thread of its own: `line` for each line it prints, then
## `finished` with whether it succeeded and what it said on stderr. Both signals arrive on
## the main thread. `cancel()` kills it (then `finished` says it failed).

signal line(text: String)
signal finished(ok: bool, errors: String)

var _thread := Thread.new()
var _mutex := Mutex.new()
var _pid := -1
var _cancelled := false


func start(command: String, arguments: PackedStringArray) -> void:
	_thread.start(_run.bind(command, arguments))


func running() -> bool:
	return _thread.is_started()


func cancel() -> void:
	_mutex.lock()
	_cancelled = true
	if _pid > 0 and OS.is_process_running(_pid):
		OS.kill(_pid)
	_mutex.unlock()


func _run(command: String, arguments: PackedStringArray) -> void:
	var pipes := OS.execute_with_pipe(command, arguments)
	if pipes.is_empty():
		_finish.call_deferred(false, "could not start " + command)
		return
	_mutex.lock()
	_pid = pipes["pid"]
	_mutex.unlock()
	var out: FileAccess = pipes["stdio"]
	while not out.eof_reached():
		var text := out.get_line()
		if not text.is_empty():
			line.emit.call_deferred(text)
	var errors: String = (pipes["stderr"] as FileAccess).get_as_text()
	while OS.is_process_running(_pid):
		OS.delay_msec(10)
	var ok := OS.get_process_exit_code(_pid) == 0
	_mutex.lock()
	ok = ok and not _cancelled
	_mutex.unlock()
	_finish.call_deferred(ok, errors)


func _finish(ok: bool, errors: String) -> void:
	_thread.wait_to_finish()
	finished.emit(ok, errors)
