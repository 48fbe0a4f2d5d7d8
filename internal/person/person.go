// Package person is a scripted person for tests, benchmarks and the demo:
// a separate X client that answers the driver's consent dialog the way a
// person does, by moving the real pointer and clicking with XTEST at the
// controls the dialog publishes in its _NISH_CONSENT_LAYOUT property. It
// never answers through any path a model could reach.
package person

import (
	"errors"
	"slices"
	"time"

	"github.com/nish-driver/nish-driver/internal/xtest"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// Person is the person at the screen: a connection that moves the pointer
// and presses (XTEST, through the driver's package), and another client's
// eyes (xtest) that find the dialog and read what it publishes.
type Person struct {
	x    *xlib.Display
	eyes *xtest.Display
}

// Open connects to the display.
func Open(display string) (*Person, error) {
	x, err := xlib.Open(display)
	if err != nil {
		return nil, err
	}
	eyes, err := xtest.Open(display)
	if err != nil {
		x.Close()
		return nil, err
	}
	return &Person{x: x, eyes: eyes}, nil
}

// Close disconnects.
func (p *Person) Close() error {
	p.eyes.Close()
	return p.x.Close()
}

// Display is the person's X connection (for key presses and the like).
func (p *Person) Display() *xlib.Display { return p.x }

// Dialog is a consent dialog on screen.
type Dialog struct {
	Window xlib.Window
	Layout xlib.ConsentLayout
}

// WaitDialog waits for the consent dialog. It returns once the dialog
// takes clicks: it ignores clicks in its first moments on screen (a stray
// click aimed at what was there before), and publishes from when it counts
// them (xlib.ConsentArmedProperty), which the person waits for. A fixed
// wait instead was outlasted on a loaded machine, where the dialog sees
// itself mapped late, and the person's clicks were ignored.
func (p *Person) WaitDialog(timeout time.Duration) (Dialog, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		ids, err := p.eyes.FindByClass(xlib.DriverClass)
		if err == nil && len(ids) > 0 {
			l, at, published := xlib.ReadConsentPublished(p.eyes.TextProperty, ids[0])
			w, werr := p.x.Describe(ids[0])
			if published && werr == nil {
				time.Sleep(time.Until(at))
				return Dialog{Window: w, Layout: l}, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return Dialog{}, errors.New("person: no consent dialog took clicks in time")
}

// Click presses and releases the left button on a control of the dialog
// (app:<pid>, takeover, clipboard_read, allow, deny).
func (p *Person) Click(d Dialog, id string) error {
	i := slices.IndexFunc(d.Layout.Controls, func(c xlib.ConsentControl) bool { return c.ID == id })
	if i < 0 {
		return errors.New("person: the dialog has no control " + id)
	}
	c := d.Layout.Controls[i]
	x := d.Window.Frame.X + c.Rect[0] + c.Rect[2]/2
	y := d.Window.Frame.Y + c.Rect[1] + c.Rect[3]/2
	if err := p.x.FakeMotion(x, y); err != nil {
		return err
	}
	for _, press := range []bool{true, false} {
		if err := p.x.FakeButton(1, press); err != nil {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return p.x.Sync()
}

// Answer waits for the next dialog and clicks the controls in order; it
// runs in the background and the returned channel carries its outcome.
func (p *Person) Answer(timeout time.Duration, ids ...string) <-chan error {
	done := make(chan error, 1)
	go func() {
		d, err := p.WaitDialog(timeout)
		if err != nil {
			done <- err
			return
		}
		for _, id := range ids {
			if err := p.Click(d, id); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	return done
}
