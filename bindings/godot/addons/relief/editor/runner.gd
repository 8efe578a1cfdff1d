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


## Kills the command (if it runs) and waits for the thread: before whatever owns the runner
## goes away.
func stop() -> void:
	cancel()
	if _thread.is_started():
		_thread.wait_to_finish()


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
	# A pipe never reports eof_reached(): once the command closes its output, get_line()
	# comes back empty with an error set.
	var out: FileAccess = pipes["stdio"]
	while true:
		var text := out.get_line()
		if not text.is_empty():
			_line.call_deferred(text)
		if out.get_error() != OK:
			break
	while OS.is_process_running(_pid):
		OS.delay_msec(10)
	# What it said on stderr, once it ended (relief writes little there: errors, no progress
	# bars when not on a terminal).
	var errors: String = (pipes["stderr"] as FileAccess).get_as_text()
	var ok := OS.get_process_exit_code(_pid) == 0
	_mutex.lock()
	ok = ok and not _cancelled
	_mutex.unlock()
	_finish.call_deferred(ok, errors)


func _line(text: String) -> void:
	line.emit(text)


func _finish(ok: bool, errors: String) -> void:
	if _thread.is_started():
		_thread.wait_to_finish()
	finished.emit(ok, errors)
