package pipewire

import "errors"

// Errors the package returns; callers tell them apart with errors.Is.
var (
	// ErrNotBuilt is what CaptureFrame returns in a binary built without cgo.
	ErrNotBuilt = errors.New("pipewire: screen capture over PipeWire was not built into this binary (it needs cgo)")
	// ErrNoPipeWire: no PipeWire answers on the socket (it does not run
	// in this session, or the runtime folder is another one).
	ErrNoPipeWire = errors.New("pipewire: no PipeWire is running at the socket")
	// ErrNoFrame: the stream connected but sent no frame within the bound.
	ErrNoFrame = errors.New("pipewire: the stream sent no frame in time")
	// ErrStream: PipeWire or the producer reported an error on the stream
	// (a node that does not exist, a producer that went away).
	ErrStream = errors.New("pipewire: the stream failed")
	// ErrFormat: the producer offered no raw 32-bit RGB video in memory
	// buffers, which is all the package reads.
	ErrFormat = errors.New("pipewire: the stream's format is not one the driver reads")
	// ErrSetup: libpipewire could not make its loop, context or stream.
	ErrSetup = errors.New("pipewire: libpipewire could not set up a stream")
)
