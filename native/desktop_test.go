package native_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native"
	"github.com/nish-driver/nish-driver/native/xlib"
	"github.com/nish-driver/nish-driver/sandbox"
)

// The integration tests run the engine on the native backend inside one
// private desktop (package sandbox) with real apps. A "person" is a second
// X client that finds the consent dialog by its class, reads its published
// layout and clicks with XTEST, as a person's mouse would.

var desk *sandbox.Desktop

func TestMain(m *testing.M) {
	d, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "native tests need the test desktop (make test installs it):", err)
		os.Exit(1)
	}
	desk = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// app is a started fixture.
type app struct {
	cmd  *exec.Cmd
	name string
}

// startApp runs a program on the desktop and waits until it is on the
// accessibility bus under name.
func startApp(t *testing.T, name string, argv ...string) *app {
	t.Helper()
	cmd := desk.Command(argv[0], argv[1:]...)
	if err := desk.Start(cmd); err != nil {
		t.Fatalf("%s: %v", argv[0], err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	if _, err := desk.WaitForApp(context.Background(), name, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return &app{cmd: cmd, name: name}
}

// startSynthetic runs the synthetic form fixture with rows rows and waits
// for its "ready".
func startSynthetic(t *testing.T, rows int) *app {
	t.Helper()
	cmd := desk.Command("/usr/bin/python3", "atspi/testdata/synthetic.py", fmt.Sprint(rows))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := desk.Start(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "ready") {
				ready <- true
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the synthetic fixture did not say ready")
	}
	return &app{cmd: cmd, name: "synthetic"}
}

func getenv(k string) string {
	if v, ok := desk.Vars()[k]; ok {
		return v
	}
	return os.Getenv(k)
}

// harness is the engine on the native backend with one connection.
type harness struct {
	t *testing.T
	b *native.Backend
	d *engine.Driver
	c *engine.Conn
}

func newHarness(t *testing.T, consentTimeout time.Duration) *harness {
	t.Helper()
	b, err := native.Open(native.Options{Display: desk.Display, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	d := engine.New(engine.Options{Backend: b, ConsentTimeout: consentTimeout})
	h := &harness{t: t, b: b, d: d, c: d.Connect(engine.ClientInfo{Name: "itest", Pid: os.Getpid()})}
	t.Cleanup(func() {
		h.c.Close()
		d.Shutdown()
		b.Close()
	})
	return h
}

func (h *harness) call(tool string, args map[string]any) engine.Result {
	h.t.Helper()
	raw, _ := json.Marshal(args)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return h.c.Call(ctx, tool, raw)
}

func (h *harness) ok(tool string, args map[string]any) map[string]any {
	h.t.Helper()
	r := h.call(tool, args)
	if r.Err != nil {
		h.t.Fatalf("%s %v: %s", tool, args, r.Text)
	}
	return asMap(h.t, r.Structured)
}

func (h *harness) fail(code engine.Code, tool string, args map[string]any) map[string]any {
	h.t.Helper()
	r := h.call(tool, args)
	if r.Err == nil || r.Err.Code != code {
		h.t.Fatalf("%s %v: want %s, got %s", tool, args, code, r.Text)
	}
	return asMap(h.t, r.Structured)
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// person answers consent dialogs with real XTEST clicks from a separate X
// connection.
type person struct {
	t *testing.T
	x *xlib.Display
}

func newPerson(t *testing.T) *person {
	x, err := xlib.Open(desk.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	return &person{t: t, x: x}
}

// dialog waits for the consent dialog and returns its window and layout.
func (p *person) dialog() (uint64, xlib.ConsentLayout, xlib.Window) {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		ids, err := p.x.FindByClass(xlib.DriverClass)
		if err == nil && len(ids) > 0 {
			if l, err := p.x.ReadConsentLayout(ids[0]); err == nil {
				if w, err := p.x.Describe(ids[0]); err == nil {
					// The dialog ignores clicks in its first moments on
					// screen, as a person's stray click would be.
					time.Sleep(500 * time.Millisecond)
					return ids[0], l, w
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatal("no consent dialog appeared")
	return 0, xlib.ConsentLayout{}, xlib.Window{}
}

// click presses and releases the left button on a control of the dialog.
func (p *person) click(l xlib.ConsentLayout, w xlib.Window, id string) {
	c, ok := l.Control(id)
	if !ok {
		p.t.Fatalf("the dialog has no control %q: %+v", id, l.Controls)
	}
	x, y := w.Frame.X+c.Rect[0]+c.Rect[2]/2, w.Frame.Y+c.Rect[1]+c.Rect[3]/2
	if err := p.x.FakeMotion(x, y); err != nil {
		p.t.Fatal(err)
	}
	for _, press := range []bool{true, false} {
		if err := p.x.FakeButton(1, press); err != nil {
			p.t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = p.x.Sync()
}

// answer clicks the given controls in order, in the background, and
// reports when done.
func (p *person) answer(ids ...string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, l, w := p.dialog()
		for _, id := range ids {
			p.click(l, w, id)
		}
	}()
	return &wg
}

// keys presses keys at the dialog (which must ignore them).
func (p *person) keys(names ...string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.dialog()
		for _, k := range names {
			_ = p.x.FakeKey(k, true)
			_ = p.x.FakeKey(k, false)
		}
		_ = p.x.Sync()
	}()
	return &wg
}
