package engine

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// reportedScreenshot is screenshot as a read and an act's observation
// report it: the image and its info or, in their place, why there is none
// (screenshot_error). A screenshot that cannot be taken never fails the
// read or the act it was asked with.
func (s *Session) reportedScreenshot(ctx context.Context, sn *snapshot, w Window, hint *AccessibilityHint, marks bool, elements any) (*ImageBlock, *ImageInfo, *ErrorBody) {
	img, info, err := s.screenshot(ctx, sn, w, hint, marks, elements)
	if err != nil {
		b := err.Body()
		return nil, nil, &b
	}
	return img, info, nil
}

// screenshot captures a window's own contents for a read or an observe.
// Every secure field's frame is painted black, so it is taken only where
// every secure field's frame is known (secureFrames): a window that reads
// as its frame (hint is its accessibility hint) is refused, and so is one
// too big for the bounded search. Above 5 captures a second it is refused
// too. Full reads also get a thin outline round each listed actionable
// row (skeleton reads get no marks).
func (s *Session) screenshot(ctx context.Context, sn *snapshot, w Window, hint *AccessibilityHint, marks bool, elements any) (*ImageBlock, *ImageInfo, *Error) {
	if hint != nil {
		// Its content is drawn by an app the driver cannot see into: a
		// password field on a page is a secure field no read holds.
		return nil, nil, Errf(CodeUnsupported, "window %d reads as its frame (accessibility hint %s): the driver cannot see its secure fields, so it is not captured; follow the hint, then read it again", w.ID, hint.Code)
	}
	if !s.capture.take() {
		return nil, nil, Errf(CodeRateLimited, "more than 5 captures a second")
	}
	secure, serr := s.d.secureFrames(ctx, sn.tree)
	if serr != nil {
		return nil, nil, serr
	}
	cctx, cancel := s.d.callBound(ctx)
	defer cancel()
	img, err := s.d.backend.Capture(cctx, w.ID)
	if err != nil {
		return nil, nil, AsError(inBound(cctx, err))
	}
	bounds := img.Bounds()
	for _, f := range secure {
		r := relFrame(f, w.Frame)
		rect := image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H).Add(bounds.Min).Intersect(bounds)
		draw.Draw(img, rect, image.NewUniform(color.RGBA{0, 0, 0, 255}), image.Point{}, draw.Src)
	}
	blacked := len(secure)
	if rows, ok := elements.([]ElementRow); ok && marks {
		for i := range rows {
			if len(rows[i].Actions) == 0 || rows[i].Secure {
				continue
			}
			outline(img, rows[i].Frame, bounds.Min)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, nil, Wrap(CodeInternal, err, "the screenshot could not be encoded")
	}
	info := &ImageInfo{MIMEType: "image/png", Width: bounds.Dx(), Height: bounds.Dy(), Bytes: buf.Len(), BlackedOut: blacked}
	return &ImageBlock{MIMEType: "image/png", Data: buf.Bytes()}, info, nil
}

// secureSearchFactor bounds the search for the secure fields of a window
// whose read the zoom budget cut: the window's structure is read again up
// to this many times the budget's elements. The structure of a window
// comes in one reply on AT-SPI, so a window ten times the budget is still
// searched within one call bound; beyond, the screenshot is refused.
const secureSearchFactor = 10

// secureFrames lists the frames of every secure field of the window read
// as t (its secure rows' details already read). A read the budget cut
// holds only some of them, so the window's structure is searched again
// within a larger bound and its secure fields' frames read; a read cut only
// by tables read by their visible block holds every secure field on screen
// (Tree.BlocksOnly) and needs no search. A search that cannot see the whole window either is
// unsupported: a screenshot with a secure field left unpainted is never
// sent.
func (d *Driver) secureFrames(ctx context.Context, t *Tree) ([]Rect, *Error) {
	if t.Truncated && !t.BlocksOnly {
		b := d.opts.ZoomBudget
		b.MaxElements *= secureSearchFactor
		cctx, cancel := d.callBound(ctx)
		defer cancel()
		found, err := d.backend.ReadStructure(cctx, t.Window, b)
		if err != nil {
			return nil, AsError(inBound(cctx, err))
		}
		if found == nil || len(found.Nodes) == 0 {
			return nil, Errf(CodeWindowGone, "window %d has no accessible tree", t.Window)
		}
		if found.Truncated && !found.BlocksOnly {
			return nil, Errf(CodeUnsupported, "window %d has more than %d elements or %d levels; a screenshot needs every secure field's bounds", t.Window, b.MaxElements, b.MaxDepth)
		}
		var nodes []*Node
		for i := range found.Nodes {
			if found.Nodes[i].Secure {
				nodes = append(nodes, &found.Nodes[i])
			}
		}
		if err := d.backend.ReadFrames(cctx, t.Window, nodes); err != nil {
			return nil, AsError(inBound(cctx, err))
		}
		t = found
	}
	var out []Rect
	for i := range t.Nodes {
		if t.Nodes[i].Secure {
			out = append(out, t.Nodes[i].Frame)
		}
	}
	return out, nil
}

var markColor = color.RGBA{0, 120, 255, 255}

// outline draws a one-pixel rectangle border.
func outline(img *image.RGBA, r Rect, origin image.Point) {
	if r.Empty() {
		return
	}
	b := img.Bounds()
	x0, y0 := origin.X+r.X, origin.Y+r.Y
	x1, y1 := x0+r.W-1, y0+r.H-1
	for x := x0; x <= x1; x++ {
		setIn(img, b, x, y0)
		setIn(img, b, x, y1)
	}
	for y := y0; y <= y1; y++ {
		setIn(img, b, x0, y)
		setIn(img, b, x1, y)
	}
}

func setIn(img *image.RGBA, b image.Rectangle, x, y int) {
	if (image.Point{x, y}).In(b) {
		img.SetRGBA(x, y, markColor)
	}
}
