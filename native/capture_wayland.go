package native

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/native/mutter"
	"github.com/nish-driver/nish-driver/native/pipewire"
)

// Capturing a window on a Wayland session goes through the compositor:
// on GNOME, mutter's own screen cast (org.gnome.Mutter.ScreenCast), one
// frame of its PipeWire stream (native/mutter, native/pipewire). Mutter
// records a window by its own id, which no ordinary client can learn, or
// else the window with the keyboard focus; so the driver captures the
// focused window only, and only when it is the one asked for: its frame
// on the accessibility bus is active, and the frame mutter sends has the
// window's size (a focus that moved in between shows as another size and
// the capture is refused, never another app's pixels shown). A capture
// under HiDPI comes in buffer pixels, a whole multiple of the window's
// logical size, and is brought to logical pixels, the space of the read's
// frames, so secure fields are blacked out where they are.

// screenCast is the backend's connection to mutter's screen cast, made on
// the first capture and kept for the backend's life.
type screenCast struct {
	getenv func(string) string

	mu     sync.Mutex
	client *mutter.Client
}

// castBound bounds one screen-cast capture: the session's set-up and the
// frame each (mutter answers in milliseconds; a frame comes within the
// compositor's next paint).
const castBound = 3 * time.Second

// focusedWindow captures the focused window.
func (c *screenCast) focusedWindow(ctx context.Context) (*image.RGBA, error) {
	client, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	var img *image.RGBA
	err = client.Capture(ctx, mutter.FocusedWindow(), func(ctx context.Context, st mutter.Stream) error {
		f, err := pipewire.CaptureFrame(ctx, st.NodeID, pipewire.Options{Getenv: c.getenv, Timeout: castBound})
		if err != nil {
			return err
		}
		img = f.Image
		return nil
	})
	if errors.Is(err, mutter.ErrClosed) || errors.Is(err, mutter.ErrNoBus) {
		c.drop(client)
	}
	return img, err
}

// ready says whether the compositor's screen cast answers (nil), or why
// not: asked on the kept connection (two bus calls) before the focus is
// looked at, so a desktop that cannot capture at all (KDE, sway, a mutter
// that died) says so rather than asking for a focus that would not help.
func (c *screenCast) ready(ctx context.Context) error {
	client, err := c.dial(ctx)
	if err != nil {
		return err
	}
	a := client.Probe(ctx)
	if errors.Is(a.Reason, mutter.ErrNoBus) {
		c.drop(client)
	}
	return a.Reason
}

func (c *screenCast) dial(ctx context.Context) (*mutter.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client != nil {
		return c.client, nil
	}
	client, err := mutter.Dial(ctx, mutter.Options{Getenv: c.getenv, Timeout: castBound})
	if err != nil {
		return nil, err
	}
	c.client = client
	return client, nil
}

// drop forgets a connection that failed, so the next capture dials anew.
func (c *screenCast) drop(client *mutter.Client) {
	c.mu.Lock()
	if c.client == client {
		c.client = nil
	}
	c.mu.Unlock()
	_ = client.Close()
}

func (c *screenCast) close() {
	c.mu.Lock()
	client := c.client
	c.client = nil
	c.mu.Unlock()
	if client != nil {
		_ = client.Close()
	}
}

// capture captures window w when it is the focused one.
func (s *waylandWindows) capture(ctx context.Context, w engine.WindowID) (*image.RGBA, error) {
	f, err := s.frame(ctx, w)
	if err != nil {
		return nil, err
	}
	if err := s.b.cast.ready(ctx); err != nil {
		return nil, castErr(err)
	}
	focused, err := s.focused(ctx)
	if err != nil {
		return nil, err
	}
	if focused != w {
		return nil, engine.Errf(engine.CodeUnsupported,
			"on Wayland the driver can capture only the window that has the keyboard focus, and this one does not")
	}
	img, err := s.b.cast.focusedWindow(ctx)
	if err != nil {
		return nil, castErr(err)
	}
	return toLogical(img, f.geom)
}

// toLogical brings a capture of a window of logical size geom to logical
// pixels, the window's own and no more. A toolkit's window surface may
// hold its client-side shadow around the window (GTK 4's; GTK 3 counts the
// shadow in its window's size, so there the two agree): the shadow is
// black in the capture (premultiplied, its colour is black), so the window
// is the box of pixels that are not, and it must have the window's size.
// Under HiDPI the capture is in buffer pixels, a whole multiple of the
// logical size, and is scaled down. Any other size is a capture of
// another window, and is refused.
func toLogical(img *image.RGBA, geom engine.Rect) (*image.RGBA, error) {
	for _, r := range []image.Rectangle{img.Bounds(), drawnBounds(img)} {
		got := r.Size()
		if got.X == geom.W && got.Y == geom.H {
			return crop(img, r), nil
		}
		if geom.W > 0 && geom.H > 0 && got.X%geom.W == 0 && got.Y%geom.H == 0 && got.X/geom.W == got.Y/geom.H {
			return shrink(crop(img, r), got.X/geom.W), nil
		}
	}
	got := img.Bounds().Size()
	return nil, engine.Errf(engine.CodeFocusChanged,
		"the focus moved while the window was captured (the capture is %dx%d, the window %dx%d); nothing was shown", got.X, got.Y, geom.W, geom.H)
}

// drawnBounds is the smallest rectangle holding every pixel of img that
// is not black: the window inside its shadow.
func drawnBounds(img *image.RGBA) image.Rectangle {
	b := img.Bounds()
	r := image.Rectangle{Min: b.Max, Max: b.Min}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R == 0 && c.G == 0 && c.B == 0 {
				continue
			}
			r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
			r.Max.X, r.Max.Y = max(r.Max.X, x+1), max(r.Max.Y, y+1)
		}
	}
	if r.Empty() {
		return image.Rectangle{}
	}
	return r
}

// crop is r of img as an image of its own, its origin at 0,0 (the read's
// frames are relative to the window's top-left).
func crop(img *image.RGBA, r image.Rectangle) *image.RGBA {
	if r == img.Bounds() && r.Min == (image.Point{}) {
		return img
	}
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Rect, img, r.Min, draw.Src)
	return out
}

// shrink scales img down by a whole factor, taking each block's top-left
// pixel (a screenshot for a model, not for print).
func shrink(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			out.SetRGBA(x, y, img.RGBAAt(b.Min.X+x*k, b.Min.Y+y*k))
		}
	}
	return out
}

// castErr names a failed screen cast in the engine's codes: the desktop
// cannot capture (unsupported), or its capture service is not running or
// did not answer (backend_unavailable, which says to run the doctor).
func castErr(err error) error {
	switch {
	case errors.Is(err, mutter.ErrNoFocusedWindow):
		return engine.Wrap(engine.CodeFocusChanged, err, "no window had the focus when the capture started")
	case errors.Is(err, mutter.ErrUnavailable), errors.Is(err, mutter.ErrTooOld), errors.Is(err, pipewire.ErrNotBuilt), errors.Is(err, pipewire.ErrFormat):
		return engine.Wrap(engine.CodeUnsupported, err, "this desktop gives no capture of a window the driver can read")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	}
	return engine.Wrap(engine.CodeBackendUnavailable, err, "the desktop's screen cast did not give a frame")
}

// castPart is the window_capture part on a Wayland session: mutter's
// screen cast answers and PipeWire runs. PipeWire is asked by a connect to
// its socket, not by the socket file: a PipeWire that crashed leaves the
// file behind.
func (b *Backend) castPart(ctx context.Context) (engine.Feature, engine.Probe) {
	a := mutter.Probe(ctx, mutter.Options{Getenv: b.getenv, Timeout: probeBound})
	if !a.Available {
		return feature(engine.PartCapture, false, doctor.ReasonCompositorUnsupported),
			engine.Probe{Label: "screen cast", Status: "fail", Message: "mutter's screen cast does not answer: " + a.Reason.Error()}
	}
	sock := pipewire.Options{Getenv: b.getenv}.SocketPath()
	if !answers("unix", sock) {
		f := feature(engine.PartCapture, false, doctor.ReasonPortalUnavailable)
		f.Action = "Start PipeWire, the desktop's screen-sharing service (systemctl --user start pipewire), then run nish-driver doctor again."
		return f, engine.Probe{Label: "screen cast", Status: "fail", Message: "PipeWire does not answer at " + sock}
	}
	return feature(engine.PartCapture, true, ""),
		engine.Probe{Label: "screen cast", Status: "ok", Message: fmt.Sprintf("mutter's screen cast (version %d) and PipeWire answer; the focused window can be captured", a.Version)}
}
