package native_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/doctor"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/native/xlib"
	"github.com/nish-driver/nish-driver/schema"
)

// Two monitors on the shared test screen (1920x1080), made with
// `xrandr --setmonitor` for one test and given back after it: LEFT, full
// height, and RIGHT, shorter, so the screen's lower right corner is on
// no monitor.
var (
	monitorLeft  = xlib.Rect{W: 960, H: 1080}
	monitorRight = xlib.Rect{X: 960, W: 960, H: 720}
)

func splitScreen(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("xrandr"); err != nil {
		t.Fatal("xrandr is not installed (Debian: x11-xserver-utils; ci/install-deps.sh installs it)")
	}
	run := func(args ...string) {
		t.Helper()
		if out, err := deskOf(t).Command("xrandr", args...).CombinedOutput(); err != nil {
			t.Fatalf("xrandr %v: %v: %s", args, err, out)
		}
	}
	// LEFT takes the screen's one output, which retires RandR's automatic
	// monitor for it; deleting LEFT brings that monitor back.
	run("--setmonitor", "LEFT", "960/254x1080/286+0+0", "screen")
	t.Cleanup(func() { run("--delmonitor", "LEFT") })
	run("--setmonitor", "RIGHT", "960/254x720/190+960+0", "none")
	t.Cleanup(func() { run("--delmonitor", "RIGHT") })
}

func within(in, r xlib.Rect) bool {
	return r.W > 0 && r.H > 0 && r.X >= in.X && r.Y >= in.Y && r.X+r.W <= in.X+in.W && r.Y+r.H <= in.Y+in.H
}

// TestTakeoverOnTheSecondMonitor runs a takeover on an app whose window is
// on RIGHT: the frame goes round both monitors, the label and Continue sit
// on RIGHT, the person's click on Continue counts there, and the driver's
// click by token lands on the element named.
func TestTakeoverOnTheSecondMonitor(t *testing.T) {
	onDesktop(t)
	splitScreen(t)
	a := startSynthetic(t, 3)
	pid := a.cmd.Process.Pid
	w := newTakeover(t)

	// The doctor lists both monitors, and its report stays valid.
	rep := doctor.Build(w.b.Registry(context.Background()))
	if err := schema.ValidateDoctor(rep); err != nil {
		t.Fatal(err)
	}
	text := doctor.Text(rep)
	if !strings.Contains(text, "LEFT 960x1080+0+0") || !strings.Contains(text, "RIGHT 960x720+960+0 254x190 mm 96 dpi") {
		t.Fatalf("the doctor's monitors line:\n%s", text)
	}

	// The app's window goes to RIGHT (no window manager holds it back).
	wins, err := w.b.WindowsWithoutNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var win uint64
	for _, x := range wins {
		if x.Pid == pid {
			win = uint64(x.ID)
		}
	}
	if win == 0 {
		t.Fatalf("no window of the synthetic app among %+v", wins)
	}
	if err := w.other.MoveWindow(win, 1000, 10); err != nil {
		t.Fatal(err)
	}
	var at xlib.Window
	if !testkit.Poll(30*time.Second, func() bool {
		var err error
		if at, err = w.person.Describe(win); err != nil {
			t.Fatal(err)
		}
		return at.Frame.X == 1000 && at.Frame.Y == 10
	}) {
		t.Fatalf("the window stays at %+v", at.Frame)
	}
	if !within(monitorRight, at.Frame) {
		t.Fatalf("the window at %+v is not wholly on RIGHT %+v", at.Frame, monitorRight)
	}

	w.grantTakeover(pid)
	var frames []xlib.Rect
	var label xlib.Rect
	for _, id := range w.indicatorWindows() {
		d, err := w.person.Describe(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := w.other.TextProperty(id, xlib.IndicatorStateProperty); ok {
			label = d.Frame
			continue
		}
		frames = append(frames, d.Frame)
	}
	onLeft, onRight := 0, 0
	for _, f := range frames {
		switch {
		case within(monitorLeft, f):
			onLeft++
		case within(monitorRight, f):
			onRight++
		default:
			t.Errorf("frame strip %+v is not wholly on one monitor", f)
		}
	}
	if onLeft != 4 || onRight != 4 {
		t.Fatalf("%d frame strips on LEFT and %d on RIGHT, want four round each", onLeft, onRight)
	}
	if st := w.indicatorState(); st.Monitor != "RIGHT" || !within(monitorRight, label) {
		t.Fatalf("the label is at %+v on %q, want on RIGHT with the app", label, st.Monitor)
	}

	// The person takes over with a key; Continue appears on RIGHT and
	// their click on it hands back.
	w.pressKeys("q")
	w.waitPaused(true)
	st := w.indicatorState()
	if len(st.Continue) != 4 {
		t.Fatalf("paused without Continue: %+v", st)
	}
	cont := xlib.Rect{X: st.Continue[0], Y: st.Continue[1], W: st.Continue[2], H: st.Continue[3]}
	if !within(monitorRight, cont) {
		t.Fatalf("Continue %+v is not wholly on RIGHT", cont)
	}
	w.personClick(cont.X+cont.W/2, cont.Y+cont.H/2)
	w.waitPaused(false)

	// The driver's click by token on RIGHT reaches the button named.
	id, read := w.read(pid)
	if id != win {
		t.Fatalf("read window %#x, moved %#x", id, win)
	}
	click := testkit.Token(t, read, "push_button", "Click me")
	res := w.ok("click", map[string]any{"element_token": click, "delivery_mode": "foreground"})
	if res["path"] != "xtest" || !strings.Contains(testkit.JSON(t, res["diff"]), "clicked 1") {
		t.Fatalf("a foreground click on RIGHT: %v", res)
	}
	if st := w.indicatorState(); st.Monitor != "RIGHT" {
		t.Fatalf("after the click the label is on %q", st.Monitor)
	}

	// The capture of the window on RIGHT is the window's own size.
	img, err := w.b.Capture(context.Background(), engine.WindowID(win))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := w.person.Describe(win); img.Rect.Dx() != d.Frame.W || img.Rect.Dy() != d.Frame.H {
		t.Fatalf("the capture is %v, the window %+v", img.Rect, d.Frame)
	}
	w.ok("end_session", nil)
}
