// Package pipewire takes one frame of a PipeWire video stream, the way a
// compositor's screen cast hands out what it shows: mutter's
// org.gnome.Mutter.ScreenCast (package native/mutter) and the ScreenCast
// portal both answer with a PipeWire node id, and the pixels come only
// through PipeWire. It is thin cgo over libpipewire-0.3 (pw_frame.c): a
// stream connected to the node, a raw 32-bit RGB format negotiated in
// memory buffers (never DmaBuf: the driver reads pixels on the CPU, and a
// machine without a GPU has nothing else), the first whole frame copied and
// converted to RGBA, everything torn down again.
//
// The caller says which PipeWire to use (Options): the package never
// falls back to the person's session when a test means its sandbox. The
// socket is dialled from Go, so a missing PipeWire is a named error before
// any C runs, and the stream is bounded by a timeout and the context: a
// stream that never delivers a frame ends with ErrNoFrame, never a hang.
//
// A binary built without cgo keeps the API; CaptureFrame returns
// ErrNotBuilt.
package pipewire
