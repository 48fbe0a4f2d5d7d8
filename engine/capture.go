package engine

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// screenshot captures a window's own contents for a read or an observe. It
// is refused when the whole-window read was cut by the zoom budget (then not
// every secure field's bounds are known) and above 5 captures a second.
// Every secure field's frame is painted black; full reads also get a thin
// outline round each listed actionable row (skeleton reads get no marks).
func (s *Session) screenshot(ctx context.Context, sn *snapshot, w Window, marks bool, elements any) (*ImageBlock, *ImageInfo, *Error) {
	if sn.tree.Truncated {
		return nil, nil, Errf(CodeInvalidArguments, "the window has more than %d elements; a screenshot needs every secure field's bounds", s.d.opts.ZoomBudget.MaxElements)
	}
	if !s.capture.take() {
		return nil, nil, Errf(CodeRateLimited, "more than 5 captures a second")
	}
	cctx, cancel := s.d.callBound(ctx)
	defer cancel()
	img, err := s.d.backend.Capture(cctx, w.ID)
	if err != nil {
		return nil, nil, AsError(inBound(cctx, err))
	}
	blacked := 0
	bounds := img.Bounds()
	for i := range sn.tree.Nodes {
		n := &sn.tree.Nodes[i]
		if !n.Secure {
			continue
		}
		r := relFrame(n.Frame, w.Frame)
		rect := image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H).Add(bounds.Min).Intersect(bounds)
		draw.Draw(img, rect, image.NewUniform(color.RGBA{0, 0, 0, 255}), image.Point{}, draw.Src)
		blacked++
	}
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
