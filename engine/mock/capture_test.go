package mock

import (
	"image"
	"testing"

	"github.com/nish-driver/nish-driver/engine"
)

// canaryPixels counts pixels of the canary colour inside and outside a
// rectangle (window coordinates).
func canaryPixels(img *image.RGBA, r image.Rectangle) (in, out int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.RGBAAt(x, y) == CanaryColor {
				if (image.Point{X: x, Y: y}).In(r) {
					in++
				} else {
					out++
				}
			}
		}
	}
	return in, out
}

func TestCaptureShowsSecureFieldsInTheCanaryColour(t *testing.T) {
	d := NewDemo()
	f := d.Demo().Form
	img, err := d.Capture(testCtx(t), f.Window.ID())
	if err != nil {
		t.Fatal(err)
	}
	wf := f.Window.Frame()
	if img.Bounds() != image.Rect(0, 0, wf.W, wf.H) {
		t.Fatalf("bounds %v, window %+v", img.Bounds(), wf)
	}
	pf := f.Password.Frame()
	secure := image.Rect(pf.X-wf.X, pf.Y-wf.Y, pf.X-wf.X+pf.W, pf.Y-wf.Y+pf.H)
	in, out := canaryPixels(img, secure)
	if in != pf.W*pf.H || out != 0 {
		t.Errorf("canary pixels %d inside (want %d), %d outside", in, pf.W*pf.H, out)
	}
	if img.RGBAAt(1, 1) != BackgroundColor {
		t.Errorf("corner %v", img.RGBAAt(1, 1))
	}
	sf := f.Save.Frame()
	if got := img.RGBAAt(sf.Center().X-wf.X, sf.Center().Y-wf.Y); got != RoleColor("push_button") {
		t.Errorf("button pixel %v", got)
	}
}

func TestCaptureWithoutSecureFieldsHasNoCanary(t *testing.T) {
	d := NewDemo()
	img, err := d.Capture(testCtx(t), d.Demo().Editor.Window.ID())
	if err != nil {
		t.Fatal(err)
	}
	if in, out := canaryPixels(img, image.Rectangle{}); in+out != 0 {
		t.Errorf("%d canary pixels", in+out)
	}
}

func TestRoleColoursAreNeverTheCanary(t *testing.T) {
	for role := range roleTable {
		if RoleColor(role) == CanaryColor {
			t.Errorf("%s is canary-coloured", role)
		}
	}
}

func TestCaptureFailures(t *testing.T) {
	d := NewDemo()
	id := d.Demo().Form.Window.ID()
	d.SetCaptureFails(true)
	_, err := d.Capture(testCtx(t), id)
	wantCode(t, "failing capture", err, engine.CodeInternal)
	d.SetCaptureError(engine.CodeRateLimited)
	_, err = d.Capture(testCtx(t), id)
	wantCode(t, "chosen code", err, engine.CodeRateLimited)
	d.SetCaptureFails(false)
	if _, err := d.Capture(testCtx(t), id); err != nil {
		t.Fatal(err)
	}
	_, err = d.Capture(testCtx(t), 12345)
	wantCode(t, "unknown window", err, engine.CodeWindowGone)
}
