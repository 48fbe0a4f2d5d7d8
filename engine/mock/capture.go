package mock

import (
	"context"
	"hash/fnv"
	"image"
	"image/color"

	"github.com/nish-driver/nish-driver/engine"
)

// CanaryColor fills every secure element's frame in a capture, so a test
// can check by pixels that the engine blacked secure fields out: no other
// pixel of a capture is ever this colour.
var CanaryColor = color.RGBA{R: 255, G: 0, B: 255, A: 255}

// BackgroundColor is a capture's background.
var BackgroundColor = color.RGBA{R: 245, G: 245, B: 245, A: 255}

// RoleColor is the fill of an element of a role in captures: a mid tone
// derived from the role's name (never the canary colour, since every
// channel is between 64 and 223).
func RoleColor(role string) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte(role))
	v := h.Sum32()
	return color.RGBA{R: 64 + uint8(v%160), G: 64 + uint8((v>>8)%160), B: 64 + uint8((v>>16)%160), A: 255}
}

// Capture renders a window's own contents at its own size in device
// pixels: the background,
// then every element but the root in tree order, filled with its role's
// colour and outlined darker, then every secure element's frame filled with
// CanaryColor. Other windows and the indicator never appear. SetCaptureFails
// makes it fail.
func (d *Desktop) Capture(ctx context.Context, id engine.WindowID) (*image.RGBA, error) {
	var img *image.RGBA
	err := d.plainCall(Call{Method: "Capture", Window: id}, func() error {
		w := d.liveWindow(id)
		if w == nil {
			return errGone(id)
		}
		if d.captureErr != "" {
			return engine.Errf(d.captureErr, "window capture failed")
		}
		img = w.render()
		return nil
	})
	return img, err
}

// render draws the window. mu held.
func (w *Window) render() *image.RGBA {
	bounds := image.Rect(0, 0, max(1, w.frame.W), max(1, w.frame.H))
	img := image.NewRGBA(bounds)
	fill(img, bounds, BackgroundColor)
	lay := w.layout()
	var secure []image.Rectangle
	w.root.walk(func(e *Element) {
		if e == w.root {
			return
		}
		r := w.toDevice(lay[e])
		rect := image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H).Intersect(bounds)
		if e.secure {
			secure = append(secure, rect)
			return
		}
		c := RoleColor(e.role)
		fill(img, rect, c)
		outline(img, rect, color.RGBA{R: c.R / 2, G: c.G / 2, B: c.B / 2, A: 255})
	})
	for _, r := range secure {
		fill(img, r, CanaryColor)
	}
	return img
}

// fill paints a rectangle: its first row pixel by pixel, the others as
// copies of it.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return
	}
	first := img.PixOffset(r.Min.X, r.Min.Y)
	n := r.Dx() * 4
	row := img.Pix[first : first+n]
	for i := 0; i < n; i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, c.A
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		o := img.PixOffset(r.Min.X, y)
		copy(img.Pix[o:o+n], row)
	}
}

func outline(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	if r.Empty() {
		return
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		img.SetRGBA(x, r.Min.Y, c)
		img.SetRGBA(x, r.Max.Y-1, c)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		img.SetRGBA(r.Min.X, y, c)
		img.SetRGBA(r.Max.X-1, y, c)
	}
}

// SetCaptureFails makes Capture fail with internal (true) or work (false).
func (d *Desktop) SetCaptureFails(fail bool) {
	if fail {
		d.SetCaptureError(engine.CodeInternal)
	} else {
		d.SetCaptureError("")
	}
}

// SetCaptureError makes Capture fail with a chosen code ("" to work).
func (d *Desktop) SetCaptureError(code engine.Code) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.captureErr = code
}
