package native_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/engine/control"
	"github.com/nish-driver/nish-driver/engine/mock"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/xtest"
	"github.com/nish-driver/nish-driver/native"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The takeover on the test desktop: the engine on the native backend with
// a control pipe host, a person who is a second X client sending XTEST
// input on a connection of their own, and a spy that records every event
// the driver sends, so a test can tell what was sent after a refusal or
// after the person's input.

// sendSpy is the native backend with every Send recorded.
type sendSpy struct {
	*native.Backend
	mu   sync.Mutex
	sent []spied
}

type spied struct {
	ev engine.InputEvent
	at time.Time // when the send returned: the event was on the wire
}

func (s *sendSpy) Send(ctx context.Context, ev engine.InputEvent) error {
	err := s.Backend.Send(ctx, ev)
	s.mu.Lock()
	s.sent = append(s.sent, spied{ev, time.Now()})
	s.mu.Unlock()
	return err
}

// count returns how many sends so far matched kind ("" for any).
func (s *sendSpy) count(kind engine.InputKind) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.sent {
		if kind == "" || e.ev.Kind == kind {
			n++
		}
	}
	return n
}

// since returns the sends after the first n.
func (s *sendSpy) since(n int) []spied {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]spied(nil), s.sent[n:]...)
}

// testHost is the host on the control pipe: it allows every approval and
// keeps the events and acks it gets.
type testHost struct {
	out io.Writer
	mu  sync.Mutex
	evs []map[string]any
}

func (h *testHost) send(t testing.TB, method string, params map[string]any) {
	t.Helper()
	line, _ := json.Marshal(map[string]any{"method": method, "params": params})
	if _, err := h.out.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
}

// find returns the first event or ack named name (for acks, "ack:"+method)
// after the first skip events, waiting up to 10 s for it.
func (h *testHost) find(t testing.TB, name string, skip int) map[string]any {
	t.Helper()
	return testkit.Await(t, 10*time.Second, "the host's "+name, func() (map[string]any, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, ev := range h.evs[min(skip, len(h.evs)):] {
			n, _ := ev["event"].(string)
			if n == "ack" {
				m, _ := ev["method"].(string)
				n += ":" + m
			}
			if n == name {
				return ev, nil
			}
		}
		return nil, errNotYet
	})
}

// errNotYet is a wait's answer while what it waits for has not come.
var errNotYet = errors.New("not yet")

func (h *testHost) mark() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.evs)
}

// tk is a takeover test's world: the person is a second connection that
// moves the pointer and presses (XTEST, as the driver does), other the
// rest of the desktop, which looks at and does what any client can.
type tk struct {
	*harness
	spy    *sendSpy
	host   *testHost
	person *xlib.Display
	other  *xtest.Display
}

func newTakeover(t testing.TB) *tk { return newTakeoverOn(t, nil) }

// newTakeoverOn is newTakeover with the engine's backend wrapped by wrap
// (nil: the spy itself), for a test that gives the engine a backend with a
// fault of its own.
func newTakeoverOn(t testing.TB, wrap func(*sendSpy) engine.Backend) *tk {
	t.Helper()
	b := openBackend(t)
	spy := &sendSpy{Backend: b}
	var be engine.Backend = spy
	if wrap != nil {
		be = wrap(spy)
	}
	d := engine.New(engine.Options{Backend: be, ConsentTimeout: consentWait})
	h := harnessOn(t, b, d, "takeover")

	hostIn, driverOut := io.Pipe()
	driverIn, hostOut := io.Pipe()
	pipe := control.New(driverIn, driverOut, d, control.Options{ApprovalTimeout: 10 * time.Second})
	d.SetHost(pipe)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { _ = pipe.Run(ctx) }()
	host := &testHost{out: hostOut}
	go playHost(hostIn, hostOut, func(map[string]any) (bool, bool) { return true, true }, func(ev map[string]any) {
		host.mu.Lock()
		host.evs = append(host.evs, ev)
		host.mu.Unlock()
	})
	person, err := xlib.Open(deskOf(t).Display)
	if err != nil {
		t.Fatal(err)
	}
	other, err := xtest.Open(deskOf(t).Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.c.Close()
		d.Shutdown()
		cancel()
		pipe.Close()
		_ = hostIn.Close()
		_ = driverIn.Close()
		person.Close()
		other.Close()
	})
	return &tk{harness: h, spy: spy, host: host, person: person, other: other}
}

// clickOccluded checks that a takeover click on the element of tok, which
// something covers, is occluded (retry after a refresh) and sends nothing.
func (w *tk) clickOccluded(t *testing.T, tok string) {
	t.Helper()
	sent := w.spy.count("")
	e := w.fail(engine.CodeOccluded, "click", map[string]any{"element_token": tok, "delivery_mode": "foreground"})
	if testkit.Field[map[string]any](t, e, "disposition")["retry"] != "after_refresh" {
		t.Fatalf("occluded: %v", e)
	}
	if got := w.spy.since(sent); len(got) != 0 {
		t.Fatalf("an occluded click sent %v", got)
	}
}

// grantTakeover starts a session on pid with the takeover line ticked by
// the person's click, and checks the session is in a takeover.
func (w *tk) grantTakeover(pid int) map[string]any {
	w.t.Helper()
	p := newPerson(w.t)
	wg := p.answer("takeover", "allow")
	st := w.ok("start_session", map[string]any{"apps": []any{pid}, "input": "takeover"})
	wg.Wait()
	tko := testkit.Field[map[string]any](w.t, st, "takeover")
	if st["input"] != "takeover" || tko["on"] != true || tko["indicator"] != true || tko["paused"] != false {
		w.t.Fatalf("a granted takeover: %v", st)
	}
	return st
}

// takeoverOnSynthetic starts the synthetic fixture with rows rows and a
// takeover harness granted a takeover of it; it returns the harness and the
// fixture's pid.
func takeoverOnSynthetic(t testing.TB, rows int) (*tk, int) {
	t.Helper()
	pid := startSynthetic(t, rows).cmd.Process.Pid
	w := newTakeover(t)
	w.grantTakeover(pid)
	return w, pid
}

// indicatorWindows lists the indicator's windows as another client sees
// them.
func (w *tk) indicatorWindows() []uint64 {
	w.t.Helper()
	ids, err := w.other.FindByClass(xlib.IndicatorClass)
	if err != nil {
		w.t.Fatal(err)
	}
	return ids
}

// waitIndicatorGone waits until no indicator window is left.
func (w *tk) waitIndicatorGone() {
	w.t.Helper()
	testkit.Eventually(w.t, 10*time.Second, "the indicator is off the screen", func() bool { return len(w.indicatorWindows()) == 0 })
}

// indicatorState reads _NISH_INDICATOR_STATE off the label window.
func (w *tk) indicatorState() xlib.IndicatorState {
	w.t.Helper()
	for _, id := range w.indicatorWindows() {
		if v, ok, err := w.other.TextProperty(id, xlib.IndicatorStateProperty); err == nil && ok {
			var st xlib.IndicatorState
			if err := json.Unmarshal([]byte(v), &st); err != nil {
				w.t.Fatal(err)
			}
			return st
		}
	}
	w.t.Fatal("no indicator window carries its state")
	return xlib.IndicatorState{}
}

// takeoverState is get_session_state's takeover object.
func (w *tk) takeoverState() map[string]any {
	w.t.Helper()
	return testkit.Field[map[string]any](w.t, w.ok("get_session_state", nil), "takeover")
}

// waitPaused waits until the session is paused, or (with paused false) no
// longer paused, and the indicator shows it: the session's state changes
// first (acts are refused at once), the indicator's look a moment later.
func (w *tk) waitPaused(paused bool) map[string]any {
	w.t.Helper()
	var st map[string]any
	if !testkit.Poll(10*time.Second, func() bool { st = w.takeoverState(); return st["paused"] == paused }) {
		w.t.Fatalf("the session never became paused=%v: %v", paused, st)
	}
	look := xlib.IndicatorActive
	if paused {
		look = xlib.IndicatorPaused
	}
	var ind xlib.IndicatorState
	if !testkit.Poll(10*time.Second, func() bool { ind = w.indicatorState(); return ind.State == look }) {
		w.t.Fatalf("the session is paused=%v, the indicator shows %+v", paused, ind)
	}
	return st
}

// nothingHeld fails when a key or button is still down on the server.
func (w *tk) nothingHeld(when string) {
	w.t.Helper()
	keys, buttons, err := w.other.HeldInput()
	if err != nil {
		w.t.Fatal(err)
	}
	if len(keys) != 0 || len(buttons) != 0 {
		w.t.Fatalf("%s: keys %v and buttons %v are still held", when, keys, buttons)
	}
}

// pressKeys has the person press keys in order and release them in
// reverse, on their own connection.
func (w *tk) pressKeys(keys ...string) {
	w.t.Helper()
	for _, k := range keys {
		if err := w.person.FakeKey(k, true); err != nil {
			w.t.Fatal(err)
		}
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if err := w.person.FakeKey(keys[i], false); err != nil {
			w.t.Fatal(err)
		}
	}
	if err := w.person.Sync(); err != nil {
		w.t.Fatal(err)
	}
}

// personClick has the person click the left button at a root point.
func (w *tk) personClick(x, y int) {
	w.t.Helper()
	if err := w.person.FakeMotion(x, y); err != nil {
		w.t.Fatal(err)
	}
	for _, press := range []bool{true, false} {
		if err := w.person.FakeButton(1, press); err != nil {
			w.t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := w.person.Sync(); err != nil {
		w.t.Fatal(err)
	}
}

// nudgeUntil has the person move the pointer 20 px off the driver's path,
// and on a little, as a hand on a mouse does, until the call returns (at
// most 20 moves). A single jump can land just after the driver's check of
// the pointer and be undone by its next step before the watcher reads the
// position; a person's hand never makes just one motion.
func (w *tk) nudgeUntil(done <-chan engine.Result) engine.Result {
	w.t.Helper()
	p, err := w.b.Pointer(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if err := w.person.FakeMotion(p.X+20+i, p.Y); err != nil {
			w.t.Fatal(err)
		}
		_ = w.person.Sync()
		select {
		case r := <-done:
			return r
		case <-time.After(15 * time.Millisecond):
		}
	}
	return <-done
}

// waitSends waits until the driver has sent at least n events of kind.
func (w *tk) waitSends(kind engine.InputKind, n int) {
	w.t.Helper()
	if !testkit.Poll(10*time.Second, func() bool { return w.spy.count(kind) >= n }) {
		w.t.Fatalf("the driver sent only %d %s events", w.spy.count(kind), kind)
	}
}

// async runs a tool call in the background.
func (w *tk) async(tool string, args map[string]any) <-chan engine.Result {
	done := make(chan engine.Result, 1)
	go func() { done <- w.call(tool, args) }()
	return done
}

// window is the synthetic app's window id and a fresh read of it.
func (w *tk) read(pid int) (uint64, map[string]any) {
	w.t.Helper()
	read := w.ok("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	return windowOf(w.t, read), read
}

// entryValue reads the text of the entry that held "value 0".
func (w *tk) entryValue(pid int, index string) string {
	w.t.Helper()
	_, read := w.read(pid)
	for _, row := range testkit.Rows(w.t, read) {
		if tokenIndex(testkit.Field[string](w.t, row, "element_token")) == index {
			v, _ := row["value"].(string)
			return v
		}
	}
	w.t.Fatalf("element %s is gone", index)
	return ""
}

func tokenIndex(tok string) string { return tok[strings.IndexByte(tok, ':')+1:] }

// entryOf finds the entry holding "value N" in a read.
func entryOf(t testing.TB, read map[string]any, value string) (string, map[string]any) {
	t.Helper()
	for _, row := range testkit.Rows(t, read) {
		if row["role"] == "text" && row["value"] == value {
			return testkit.Field[string](t, row, "element_token"), row
		}
	}
	t.Fatalf("no entry holding %q", value)
	return "", nil
}

// wantTookOver checks a call stopped for the person with reason.
func wantTookOver(t *testing.T, r engine.Result, reason engine.PauseReason, effect engine.Effect) engine.ErrorBody {
	t.Helper()
	if r.Err == nil || r.Err.Code != engine.CodeUserTookOver {
		t.Fatalf("want user_took_over, got %s", r.Text)
	}
	body := r.Err.Body()
	if body.PausedReason != reason || body.Effect != effect {
		t.Fatalf("want paused_reason %s and effect %s: %+v", reason, effect, body)
	}
	return body
}

func TestTakeoverGrantedShowsAClickThroughIndicatorCapturesLeaveOut(t *testing.T) {
	onDesktop(t)
	w, pid := takeoverOnSynthetic(t, 3)

	ids := w.indicatorWindows()
	if len(ids) < 5 {
		t.Fatalf("the indicator has %d windows, want the four frame strips and the label", len(ids))
	}
	for _, id := range ids {
		if n, err := w.other.InputShapeRects(id); err != nil || n != 0 {
			t.Fatalf("indicator window %#x: %d input rectangles (%v); clicks must pass through", id, n, err)
		}
	}
	if st := w.indicatorState(); st.State != xlib.IndicatorActive || st.Continue != nil {
		t.Fatalf("the indicator says %+v", st)
	}

	// The app's window sits at the screen's corner, under the frame; its
	// capture holds its own pixels only.
	win, _ := w.read(pid)
	img, err := w.b.Capture(context.Background(), engine.WindowID(win))
	if err != nil {
		t.Fatal(err)
	}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R == 0xe5 && c.G == 0x39 && c.B == 0x35 {
				t.Fatalf("the capture holds the indicator's red at %d,%d", x, y)
			}
		}
	}

	reg := w.b.Registry(context.Background())
	caps := map[string]string{}
	for _, c := range reg.Capabilities() {
		caps[c.Name] = c.Status
	}
	for _, name := range []string{"input_takeover", "takeover_indicator", "takeover_handback"} {
		if caps[name] != "available" {
			t.Errorf("capability %s is %q on a desktop with XTEST, XInput 2.1 and Shape", name, caps[name])
		}
	}

	// end_session takes it down before it returns.
	w.ok("end_session", nil)
	if ids := w.indicatorWindows(); len(ids) != 0 {
		t.Fatalf("%d indicator windows left after end_session", len(ids))
	}
}

// TestTakeoverActsOnTheDesktop runs every act tool through XTEST on a real
// app and checks what the app got.
func TestTakeoverActsOnTheDesktop(t *testing.T) {
	onDesktop(t)
	w, pid := takeoverOnSynthetic(t, 60)
	win, read := w.read(pid)

	res := w.ok("bring_to_front", map[string]any{"window_id": win})
	if res["path"] != "xtest" {
		t.Fatalf("bring_to_front: %v", res)
	}
	if f, _ := w.b.FocusedWindow(context.Background()); uint64(f) != win {
		t.Fatalf("focus is in %#x, not the app's window %#x", f, win)
	}

	// The window's left edge lies under the indicator's frame, which
	// hit-testing looks through: not occluded.
	if res := w.ok("click", map[string]any{"window_id": win, "x": 1, "y": 650}); res["path"] != "xtest" {
		t.Fatalf("a click under the indicator's frame: %v", res)
	}
	click := testkit.Token(t, read, "push_button", "Click me")
	res = w.ok("click", map[string]any{"element_token": click, "delivery_mode": "foreground"})
	if res["path"] != "xtest" || res["took_cursor"] != true || !strings.Contains(testkit.JSON(t, res["diff"]), "clicked 1") {
		t.Fatalf("a foreground click: %v", res)
	}
	_, read = w.read(pid)
	click = testkit.Token(t, read, "push_button", "Click me")
	res = w.ok("double_click", map[string]any{"element_token": click, "delivery_mode": "foreground"})
	if !strings.Contains(testkit.JSON(t, res["diff"]), "clicked 3") {
		t.Fatalf("a double click clicks twice: %v", res["diff"])
	}

	// Typing: a click puts the caret in the emptied entry, then keys,
	// shifted characters and characters the keymap lacks.
	_, read = w.read(pid)
	entry, _ := entryOf(t, read, "value 0")
	idx := tokenIndex(entry)
	w.ok("set_value", map[string]any{"element_token": entry, "value": ""})
	_, read = w.read(pid)
	w.ok("click", map[string]any{"element_token": read["snapshot_id"].(string) + ":" + idx, "delivery_mode": "foreground"})
	text := "Hi, World! é€ж"
	res = w.ok("type_text", map[string]any{"window_id": win, "text": text, "delivery_mode": "foreground"})
	if got := w.entryValue(pid, idx); got != text || res["typed_characters"] != float64(utf8.RuneCountInString(text)) {
		t.Fatalf("typed %q (typed_characters %v), the entry holds %q", text, res["typed_characters"], got)
	}
	// The entry reported its caret: the text read where it stood confirms.
	if res["effect"] != "confirmed" {
		t.Fatalf("typing into the entry: effect %v", res["effect"])
	}
	w.ok("press_key", map[string]any{"window_id": win, "key": "BackSpace"})
	if got := w.entryValue(pid, idx); got != "Hi, World! é€" {
		t.Fatalf("after BackSpace the entry holds %q", got)
	}
	w.ok("hotkey", map[string]any{"window_id": win, "keys": []any{"Control_L", "a"}})
	w.ok("type_text", map[string]any{"window_id": win, "text": "fresh", "delivery_mode": "foreground"})
	if got := w.entryValue(pid, idx); got != "fresh" {
		t.Fatalf("Ctrl+A then typing leaves %q", got)
	}

	// A drag presses at one end, moves, and releases at the other.
	_, read = w.read(pid)
	_, row := entryOf(t, read, "fresh")
	f := row["frame"].(map[string]any)
	x0, y0 := int(f["x"].(float64)), int(f["y"].(float64))
	fw, fh := int(f["w"].(float64)), int(f["h"].(float64))
	from := engine.Point{X: x0 + fw - 3, Y: y0 + fh/2}
	to := engine.Point{X: x0 + 2, Y: y0 + fh/2}
	sent := w.spy.count("")
	res = w.ok("drag", map[string]any{"window_id": win, "from_x": from.X, "from_y": from.Y, "to_x": to.X, "to_y": to.Y})
	var at engine.Point
	var path []string
	for _, e := range w.spy.since(sent) {
		switch e.ev.Kind {
		case engine.InputMotion:
			at = e.ev.At
		case engine.InputButtonPress, engine.InputButtonRelease:
			path = append(path, fmt.Sprintf("%s %d at %d,%d", e.ev.Kind, e.ev.Button, at.X, at.Y))
		}
	}
	wantPath := []string{fmt.Sprintf("button_press 1 at %d,%d", from.X, from.Y), fmt.Sprintf("button_release 1 at %d,%d", to.X, to.Y)}
	if !slices.Equal(path, wantPath) || res["path"] != "xtest" {
		t.Fatalf("a drag sent %v, want %v (%v)", path, wantPath, res)
	}
	if p, _ := w.b.Pointer(context.Background()); p != to {
		t.Fatalf("the drag left the pointer at %v, not %v", p, to)
	}

	// Scrolling the rows moves them up: what was drawn where row 10's
	// label sits changes (a part of the window no caret blinks in). The
	// pointer is there first, so a hover highlight is in both captures.
	w.ok("move_cursor", map[string]any{"window_id": win, "x": 850, "y": 600})
	_, read = w.read(pid)
	row10 := testkit.Row(t, read, "label", "Row 10")
	rf := testkit.Field[map[string]any](t, row10, "frame")
	x, y := testkit.Int(t, rf, "x"), testkit.Int(t, rf, "y")
	strip := image.Rect(x, y, x+testkit.Int(t, rf, "w"), y+testkit.Int(t, rf, "h"))
	shot := func() [32]byte {
		img, err := w.b.Capture(context.Background(), engine.WindowID(win))
		if err != nil {
			t.Fatal(err)
		}
		sub := img.SubImage(strip).(*image.RGBA)
		h := sha256.New()
		for y := sub.Rect.Min.Y; y < sub.Rect.Max.Y; y++ {
			i := sub.PixOffset(sub.Rect.Min.X, y)
			h.Write(sub.Pix[i : i+4*sub.Rect.Dx()])
		}
		return [32]byte(h.Sum(nil))
	}
	// Once the app has drawn the hover, the strip holds still: two
	// captures in a row agree. Then the scroll changes it.
	var before [32]byte
	testkit.Eventually(t, 30*time.Second, "row 10's place drawn the same twice in a row", func() bool {
		first := shot()
		before = shot()
		return first == before
	})
	w.ok("scroll", map[string]any{"window_id": win, "x": 850, "y": 600, "direction": "down", "amount": 10})
	testkit.Eventually(t, 30*time.Second, "the rows moved by scrolling down", func() bool { return shot() != before })

	// A right click on the entry opens its menu; Escape closes it.
	w.ok("right_click", map[string]any{"window_id": win, "x": x0 + 5, "y": y0 + fh/2})
	w.ok("press_key", map[string]any{"window_id": win, "key": "Escape"})

	res = w.ok("move_cursor", map[string]any{"window_id": win, "x": 300, "y": 400, "duration_ms": 100})
	if p, _ := w.b.Pointer(context.Background()); p != (engine.Point{X: 300, Y: 400}) || res["took_cursor"] != true {
		t.Fatalf("move_cursor left the pointer at %v: %v", p, res)
	}
	if n := w.spy.count(engine.InputButtonPress) - w.spy.count(engine.InputButtonRelease); n != 0 {
		t.Fatalf("%d more button presses than releases were sent", n)
	}
	w.nothingHeld("after the acts")
	if st := w.takeoverState(); st["paused"] != false {
		t.Fatalf("the driver's own input paused the takeover: %v", st)
	}
}

// TestHandBack: the person's pointer and key stop the driver; while paused
// only reads work; only a real click on Continue, or the host, resumes.
func TestHandBack(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	pid := a.cmd.Process.Pid
	w := newTakeover(t)
	st := w.grantTakeover(pid)
	session := st["session"].(string)
	win, _ := w.read(pid)
	w.ok("bring_to_front", map[string]any{"window_id": win})
	w.ok("move_cursor", map[string]any{"window_id": win, "x": 50, "y": 100})

	t.Run("a pointer move stops a glide", func(t *testing.T) {
		mark := w.host.mark()
		before := w.spy.count(engine.InputMotion)
		done := w.async("move_cursor", map[string]any{"window_id": win, "x": 850, "y": 650, "duration_ms": 3000})
		w.waitSends(engine.InputMotion, before+20)
		r := w.nudgeUntil(done)
		wantTookOver(t, r, engine.PausedPointerMoved, engine.EffectStopped)
		if n := w.spy.count(engine.InputMotion) - before; n >= 250 {
			t.Fatalf("the glide ran on: %d of 300 steps sent", n)
		}
		if ev := w.host.find(t, "takeover.paused", mark); ev["reason"] != "pointer_moved" || ev["session"] != session {
			t.Fatalf("takeover.paused: %v", ev)
		}
		if st := w.indicatorState(); st.State != xlib.IndicatorPaused || len(st.Continue) != 4 {
			t.Fatalf("the indicator while paused: %+v", st)
		}
		w.nothingHeld("after the glide stopped")
	})

	t.Run("while paused acts are refused and reads work", func(t *testing.T) {
		_, read := w.read(pid)
		click := testkit.Token(t, read, "push_button", "Click me")
		sent := w.spy.count("")
		for tool, args := range map[string]map[string]any{
			"click":          {"element_token": click},
			"type_text":      {"element_token": click, "text": "x", "delivery_mode": "foreground"},
			"set_value":      {"element_token": click, "value": "x"},
			"press_key":      {"window_id": win, "key": "a"},
			"hotkey":         {"window_id": win, "keys": []any{"Control_L", "a"}},
			"scroll":         {"window_id": win, "direction": "down"},
			"drag":           {"window_id": win, "from_x": 10, "from_y": 10, "to_x": 20, "to_y": 20},
			"move_cursor":    {"window_id": win, "x": 1, "y": 1},
			"bring_to_front": {"window_id": win},
		} {
			wantTookOver(t, w.call(tool, args), engine.PausedPointerMoved, engine.EffectRefused)
		}
		if n := w.spy.count(""); n != sent {
			t.Fatalf("refused acts sent %d events", n-sent)
		}
		// A model call cannot resume: start_session neither.
		w.ok("start_session", map[string]any{"apps": []any{pid}, "input": "takeover"})
		if st := w.takeoverState(); st["paused"] != true || st["paused_reason"] != "pointer_moved" {
			t.Fatalf("start_session resumed: %v", st)
		}
	})

	t.Run("the driver's own click on Continue does not resume, the person's does", func(t *testing.T) {
		c := w.indicatorState().Continue
		cx, cy := c[0]+c[2]/2, c[1]+c[3]/2
		ctx := context.Background()
		for _, ev := range []engine.InputEvent{
			{Kind: engine.InputMotion, At: engine.Point{X: cx, Y: cy}},
			{Kind: engine.InputButtonPress, Button: 1},
			{Kind: engine.InputButtonRelease, Button: 1},
		} {
			if err := w.b.Send(ctx, ev); err != nil {
				t.Fatal(err)
			}
		}
		pressed := time.Now()
		// Within 1.5 s of the driver's press even the person's click does
		// not count. The rule is one of time, so the check waits out the
		// 1.5 s (as the next click must anyway): a click wrongly counted
		// would have resumed the session long before.
		w.personClick(cx, cy)
		time.Sleep(time.Until(pressed.Add(1600 * time.Millisecond)))
		if st := w.takeoverState(); st["paused"] != true {
			t.Fatalf("a click within 1.5 s of the driver's press resumed: %v", st)
		}
		mark := w.host.mark()
		w.personClick(cx, cy)
		w.waitPaused(false)
		if ev := w.host.find(t, "takeover.resumed", mark); ev["by"] != "indicator" {
			t.Fatalf("takeover.resumed: %v", ev)
		}
		if st := w.indicatorState(); st.State != xlib.IndicatorActive {
			t.Fatalf("the indicator after the resume: %+v", st)
		}
	})

	t.Run("a key press stops typing; the app holds exactly typed_characters", func(t *testing.T) {
		_, read := w.read(pid)
		entry, _ := entryOf(t, read, "value 0")
		idx := tokenIndex(entry)
		w.ok("set_value", map[string]any{"element_token": entry, "value": ""})
		_, read = w.read(pid)
		w.ok("click", map[string]any{"element_token": read["snapshot_id"].(string) + ":" + idx, "delivery_mode": "foreground"})
		// Capitals make XTEST press Shift itself: that must not count as
		// the person's, and the person's own Shift must.
		// Long enough (3 s at the key interval) that the person's key lands
		// while it types, even on a loaded machine.
		text := strings.Repeat("Hello World ", 50)[:600]
		before := w.spy.count(engine.InputKeyPress)
		done := w.async("type_text", map[string]any{"window_id": win, "text": text, "delivery_mode": "foreground"})
		w.waitSends(engine.InputKeyPress, before+40)
		w.pressKeys("Shift_L")
		r := <-done
		body := wantTookOver(t, r, engine.PausedKeyPressed, engine.EffectStopped)
		if body.TypedCharacters == nil || *body.TypedCharacters >= len(text) || *body.TypedCharacters < 40 {
			t.Fatalf("typed_characters: %v", body.TypedCharacters)
		}
		if n := w.spy.count(engine.InputKeyPress) - before; n != *body.TypedCharacters {
			t.Fatalf("the driver pressed %d keys, typed_characters says %d", n, *body.TypedCharacters)
		}
		if got := utf8.RuneCountInString(w.entryValue(pid, idx)); got != *body.TypedCharacters {
			t.Fatalf("the entry holds %d characters, typed_characters says %d", got, *body.TypedCharacters)
		}
		w.nothingHeld("after typing stopped")
	})

	t.Run("the host resumes; earlier tokens are stale", func(t *testing.T) {
		_, read := w.read(pid)
		click := testkit.Token(t, read, "push_button", "Click me")
		mark := w.host.mark()
		w.host.send(t, "takeover.resume", map[string]any{"session": session})
		ack := w.host.find(t, "ack:takeover.resume", mark)
		if got := testkit.JSON(t, ack["resumed"]); got != `["`+session+`"]` {
			t.Fatalf("the ack lists %s", got)
		}
		if ev := w.host.find(t, "takeover.resumed", mark); ev["by"] != "host" {
			t.Fatalf("takeover.resumed: %v", ev)
		}
		w.fail(engine.CodeStaleElementToken, "click", map[string]any{"element_token": click})
		_, read = w.read(pid)
		fresh := testkit.Token(t, read, "push_button", "Click me")
		if tokenIndex(fresh) != tokenIndex(click) {
			t.Fatal("a resume keeps row numbers")
		}
		w.ok("click", map[string]any{"element_token": fresh, "delivery_mode": "foreground"})
	})
}

// TestTakeoverEnds: the indicator taken down by another client, the kill
// switch and the host's revocation each end a takeover, running or paused.
func TestTakeoverEnds(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	pid := a.cmd.Process.Pid
	w := newTakeover(t)

	t.Run("another client destroys the indicator", func(t *testing.T) {
		w.grantTakeover(pid)
		mark := w.host.mark()
		if err := w.other.DestroyWindow(w.indicatorWindows()[0]); err != nil {
			t.Fatal(err)
		}
		ev := w.host.find(t, "takeover.ended", mark)
		if ev["reason"] != "indicator_lost" {
			t.Fatalf("takeover.ended: %v", ev)
		}
		st := w.ok("get_session_state", nil)
		if tko := st["takeover"].(map[string]any); st["input"] != "headless" || tko["on"] != false || tko["reason"] != "indicator_lost" {
			t.Fatalf("after the indicator was destroyed: %v", st)
		}
		w.waitIndicatorGone()
		w.fail(engine.CodeRequiresTakeover, "press_key", map[string]any{"pid": pid, "key": "a"})
		w.ok("end_session", nil)
	})

	t.Run("start_session headless and the connection's close take the indicator down", func(t *testing.T) {
		w.grantTakeover(pid)
		st := w.ok("start_session", map[string]any{"apps": []any{pid}, "input": "headless"})
		if tko := st["takeover"].(map[string]any); st["input"] != "headless" || tko["on"] != false || len(w.indicatorWindows()) != 0 {
			t.Fatalf("after switching to headless: %v, %d indicator windows", st, len(w.indicatorWindows()))
		}
		w.grantTakeover(pid)
		w.c.Close()
		if n := len(w.indicatorWindows()); n != 0 {
			t.Fatalf("%d indicator windows left after the connection closed", n)
		}
		w.c = w.d.Connect(engine.ClientInfo{Name: "takeover", Pid: os.Getpid()})
	})

	release, err := w.b.GrabKillSwitch("", func() { w.d.KillSwitch() })
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	killSwitch := func() { w.pressKeys("Control_L", "Alt_L", "Shift_L", "Escape") }
	revoke := func() { w.host.send(t, "session.revoke", map[string]any{}) }
	for _, c := range []struct {
		name string
		end  func()
	}{{"the kill switch", killSwitch}, {"session.revoke", revoke}} {
		t.Run(c.name+" ends a running glide", func(t *testing.T) {
			w.grantTakeover(pid)
			win, _ := w.read(pid)
			w.ok("move_cursor", map[string]any{"window_id": win, "x": 50, "y": 100})
			before := w.spy.count(engine.InputMotion)
			done := w.async("move_cursor", map[string]any{"window_id": win, "x": 850, "y": 650, "duration_ms": 3000})
			w.waitSends(engine.InputMotion, before+10)
			mark := w.host.mark()
			c.end()
			if r := <-done; r.Err == nil {
				t.Fatalf("the glide ran to its end: %s", r.Text)
			}
			if n := w.spy.count(engine.InputMotion) - before; n >= 250 {
				t.Fatalf("the glide ran on for %d steps", n)
			}
			w.waitIndicatorGone()
			w.host.find(t, "session.ended", mark)
			w.fail(engine.CodeSessionRevoked, "get_session_state", nil)
			w.nothingHeld("after the end")
		})
		t.Run(c.name+" ends a paused session", func(t *testing.T) {
			w.grantTakeover(pid)
			w.pressKeys("Shift_R")
			w.waitPaused(true)
			if st := w.indicatorState(); st.State != xlib.IndicatorPaused {
				t.Fatalf("paused indicator: %+v", st)
			}
			mark := w.host.mark()
			c.end()
			w.waitIndicatorGone()
			w.host.find(t, "session.ended", mark)
			w.fail(engine.CodeSessionRevoked, "click", map[string]any{"pid": pid, "x": 1, "y": 1})
			if got := w.d.TakeoverResume(""); len(got) != 0 {
				t.Fatalf("a resume after the end resumed %v", got)
			}
		})
	}
	if ev := w.host.find(t, "kill_switch", 0); ev == nil {
		t.Fatal("the host never heard kill_switch")
	}
}

// startDropTarget shows a plain GTK window at (1000, 100), away from the
// synthetic app's corner, and returns once it is on screen.
func startDropTarget(t *testing.T) {
	t.Helper()
	script := `import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk
w = Gtk.Window(title="Drop target")
w.set_default_size(300, 200)
w.move(1000, 100)
w.show_all()
GLib.timeout_add(200, lambda: print("ready", flush=True) and False)
Gtk.main()
`
	startReady(t, "the drop target", deskOf(t).Command("/usr/bin/python3", "-c", script))
}

// TestTakeoverRefusals: the takeover checks (docs/contract.md#takeover-checks)
// on the real desktop refuse with their codes and send nothing past the
// refusal.
func TestTakeoverRefusals(t *testing.T) {
	onDesktop(t)
	a := startSynthetic(t, 3)
	b := startSynthetic(t, 4) // mapped later, so on top of a
	startDropTarget(t)
	pid := a.cmd.Process.Pid
	w := newTakeover(t)
	w.grantTakeover(pid)
	win, read := w.read(pid)
	otherWin := uint64(0)
	wins, _ := w.b.Windows(context.Background())
	for _, x := range wins {
		if x.Pid == b.cmd.Process.Pid {
			otherWin = uint64(x.ID)
		}
	}

	t.Run("an occluded target", func(t *testing.T) {
		click := testkit.Token(t, read, "push_button", "Click me")
		w.clickOccluded(t, click)
	})

	w.ok("bring_to_front", map[string]any{"window_id": win})

	t.Run("focus stolen mid-typing", func(t *testing.T) {
		_, read := w.read(pid)
		entry, _ := entryOf(t, read, "value 0")
		w.ok("click", map[string]any{"element_token": entry, "delivery_mode": "foreground"})
		before := w.spy.count(engine.InputKeyPress)
		done := w.async("type_text", map[string]any{"window_id": win, "text": strings.Repeat("q", 200), "delivery_mode": "foreground"})
		w.waitSends(engine.InputKeyPress, before+20)
		if err := w.person.Raise(otherWin); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.Err == nil || r.Err.Code != engine.CodeFocusChanged {
			t.Fatalf("want focus_changed, got %s", r.Text)
		}
		body := r.Err.Body()
		if body.TypedCharacters == nil || *body.TypedCharacters < 20 || *body.TypedCharacters >= 200 {
			t.Fatalf("typed_characters: %v", body.TypedCharacters)
		}
		if n := w.spy.count(engine.InputKeyPress) - before; n != *body.TypedCharacters {
			t.Fatalf("%d keys were pressed, typed_characters says %d", n, *body.TypedCharacters)
		}
		w.nothingHeld("after focus_changed")
	})

	w.ok("bring_to_front", map[string]any{"window_id": win})

	t.Run("a secure field", func(t *testing.T) {
		_, read := w.read(pid)
		pw := testkit.Token(t, read, "password_text", "")
		// A click that focuses it is allowed; typing into it is not.
		w.ok("click", map[string]any{"element_token": pw, "delivery_mode": "foreground"})
		_, read = w.read(pid)
		pw = testkit.Token(t, read, "password_text", "")
		sent := w.spy.count("")
		for _, args := range []map[string]any{
			{"element_token": pw, "text": "x", "delivery_mode": "foreground"},
			{"window_id": win, "text": "x", "delivery_mode": "foreground"},
		} {
			r := w.fail(engine.CodeSecureField, "type_text", args)
			if strings.Contains(testkit.JSON(t, r), testkit.PasswordCanary) {
				t.Fatal("the refusal shows the password")
			}
		}
		if got := w.spy.since(sent); len(got) != 0 {
			t.Fatalf("typing into a secure field sent %v", got)
		}
	})

	t.Run("a drag into another window", func(t *testing.T) {
		_, read := w.read(pid)
		entry, _ := entryOf(t, read, "value 1")
		sent := w.spy.count("")
		w.fail(engine.CodeInvalidArguments, "drag", map[string]any{"from_token": entry, "to_x": 1150, "to_y": 200})
		if got := w.spy.since(sent); len(got) != 0 {
			t.Fatalf("a refused drag sent %v", got)
		}
	})

	t.Run("the middle button", func(t *testing.T) {
		ctx := context.Background()
		for _, kind := range []engine.InputKind{engine.InputButtonPress, engine.InputButtonRelease} {
			err := w.b.Send(ctx, engine.InputEvent{Kind: kind, Button: 2})
			var e *engine.Error
			if !asEngineError(err, &e) || e.Code != engine.CodeInvalidArguments {
				t.Fatalf("a %s of button 2: %v", kind, err)
			}
		}
		w.nothingHeld("after the middle button was refused")
	})
}

func asEngineError(err error, out **engine.Error) bool {
	e, ok := err.(*engine.Error)
	if ok {
		*out = e
	}
	return ok
}

// TestKillSwitchGrab: one client holds the combination; a second backend is
// told another client holds it, and the doctor says which.
func TestKillSwitchGrab(t *testing.T) {
	onDesktop(t)
	w := newTakeover(t)
	release, err := w.b.GrabKillSwitch("ctrl+alt+shift+Escape", func() {})
	if err != nil {
		t.Fatal(err)
	}
	probe := func(b *native.Backend) engine.Probe {
		for _, p := range b.Registry(context.Background()).Probes {
			if p.Label == "kill switch" {
				return p
			}
		}
		t.Fatal("no kill switch probe")
		return engine.Probe{}
	}
	if p := probe(w.b); p.Status != "ok" || !strings.Contains(p.Message, "grabbed") {
		t.Fatalf("the holder's probe: %+v", p)
	}
	other := openBackend(t)
	if p := probe(other); p.Status != "fail" {
		t.Fatalf("another process's doctor while it is held: %+v", p)
	}
	if _, err := other.GrabKillSwitch("", func() {}); !errors.Is(err, xlib.ErrKillSwitchTaken) {
		t.Fatalf("a second grab = %v", err)
	}
	if p := probe(other); p.Status != "fail" || !strings.Contains(p.Message, "another X client") {
		t.Fatalf("after its own grab failed: %+v", p)
	}
	demo := mock.NewDemo()
	defer demo.Close()
	for _, c := range []struct {
		backend engine.Backend
		spec    string
		want    error
	}{
		{other, "hyper+Escape", native.ErrBadKillSwitch},
		{other, "ctrl+alt+NoSuchKeyName", xlib.ErrUnknownKey},
		{demo, "hyper+Escape", native.ErrBadKillSwitch},
		{demo, "", nil},
	} {
		release, err := native.GrabKillSwitchOn(c.backend, c.spec, func() {})
		if !errors.Is(err, c.want) || release == nil {
			t.Fatalf("GrabKillSwitchOn(%T, %q) = %v, want %v", c.backend, c.spec, err, c.want)
		}
		release()
	}
	release()
	if p := probe(openBackend(t)); p.Status != "ok" {
		t.Fatalf("once released: %+v", p)
	}
}
