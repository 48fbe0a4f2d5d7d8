package pipewire

import (
	"image"
	"os"
	"path/filepath"
	"time"
)

// Frame is one frame of a stream.
type Frame struct {
	// Image holds the region the producer filled (Crop), as RGBA with
	// its own stride (Image.Stride); Image.Rect starts at 0,0.
	Image *image.RGBA
	// Size is the whole buffer's size in pixels. A mutter window stream
	// is as large as the window's monitor (times its scale), whatever the
	// window's size, with the window in its top-left corner.
	Size image.Point
	// Crop is the region of the buffer the producer said it filled
	// (SPA_META_VideoCrop), or the whole buffer when it said nothing.
	Crop image.Rectangle
	// Cropped says the producer sent a crop region.
	Cropped bool
	// Format is the negotiated pixel order, as SPA names it ("BGRx").
	Format string
	// Stride is the buffer's bytes per row as the producer wrote it.
	Stride int
	// Nudges counts the times the stream was paused and resumed because
	// no frame came (pw_frame.c, nudge_interval_ms).
	Nudges int
}

// Options say which PipeWire to use and how long to wait.
type Options struct {
	// Socket is the PipeWire socket's path. When empty it is
	// $PIPEWIRE_RUNTIME_DIR or else $XDG_RUNTIME_DIR, then "/", then
	// $PIPEWIRE_REMOTE or "pipewire-0", read through Getenv.
	Socket string
	// Getenv reads the environment (default os.Getenv); a test passes its
	// sandbox's variables so that the person's PipeWire is never used.
	Getenv func(string) string
	// Timeout bounds the whole capture, connection included
	// (default DefaultTimeout). The context can end it sooner.
	Timeout time.Duration
}

// DefaultTimeout is how long a capture waits for its frame: mutter sends
// the first one as the stream starts, within a few frames of 60 Hz.
const DefaultTimeout = 3 * time.Second

// SocketPath is the PipeWire socket the options name (the doctor checks
// it is there).
func (o Options) SocketPath() string {
	if o.Socket != "" {
		return o.Socket
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := getenv("PIPEWIRE_RUNTIME_DIR")
	if dir == "" {
		dir = getenv("XDG_RUNTIME_DIR")
	}
	name := getenv("PIPEWIRE_REMOTE")
	if name == "" {
		name = "pipewire-0"
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}
