package native_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	personpkg "github.com/nish-driver/nish-driver/internal/person"
	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
	"github.com/nish-driver/nish-driver/internal/testkit/enginecall"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
	"github.com/nish-driver/nish-driver/native"
)

// The integration tests run the engine on the native backend inside
// private desktops (package sandbox) with real apps. A "person" is a second
// X client that finds the consent dialog by its class, reads its published
// layout and clicks with XTEST, as a person's mouse would.
//
// A desktop test begins with onDesktop(t): it runs in parallel with the
// other desktop tests, each holding a desktop of its own for its whole run
// (desktops_test.go), and the helpers below find that desktop through t.
// The tests spend most of their time waiting on apps, so two desktops
// halve the package's time on two cores.

func TestMain(m *testing.M) {
	flag.Parse()
	if err := makePools(); err != nil {
		fmt.Fprintln(os.Stderr, "native tests need the test desktop (make test installs it):", err)
		os.Exit(1)
	}
	code := m.Run()
	desktops.close()
	waylandDesktops.close()
	swayDesktops.close()
	os.Exit(code)
}

// app is a started fixture.
type app struct {
	cmd  *exec.Cmd
	name string
}

// startApp runs a program on the desktop and waits until it is on the
// accessibility bus under name.
func startApp(t testing.TB, name string, argv ...string) *app {
	t.Helper()
	return &app{cmd: desktop.RunApp(t, deskOf(t), name, argv...), name: name}
}

// startSynthetic runs the synthetic form fixture with rows rows and waits
// for its "ready".
func startSynthetic(t testing.TB, rows int) *app {
	t.Helper()
	cmd := startReady(t, "the synthetic fixture", deskOf(t).Command("/usr/bin/python3", testkit.Fixture(t, "synthetic.py"), fmt.Sprint(rows)))
	return &app{cmd: cmd, name: "synthetic"}
}

// pyatspi runs a pyatspi script of the fixtures on the test desktop,
// ended after bound, and returns what it printed on stdout (pyref.Run: also
// on an error). The scripts are the tests' independent view of an app: a
// walk to count against, or facts a screen reader would see.
func pyatspi(t testing.TB, bound time.Duration, script string, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	return pyref.Run(ctx, deskOf(t).Env(), testkit.Fixture(t, script), args...)
}

// grantedSynthetic starts the synthetic window with rows rows and a
// harness (consent answered within 20 s) whose session the person granted
// it: the start most read and act tests share. It returns the window's pid.
func grantedSynthetic(t testing.TB, rows int) (int, *harness) {
	t.Helper()
	pid := startSynthetic(t, rows).cmd.Process.Pid
	h := newHarness(t, consentWait)
	grant(t, h, pid)
	return pid, h
}

// startReady starts a fixture on the test desktop and waits until it
// prints a line holding "ready" (it is killed when the test ends).
func startReady(t testing.TB, what string, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	desktop.RunReady(t, deskOf(t), what, cmd)
	return cmd
}

// backendOptions aim a backend at t's desktop: its display, and its bus
// addresses before the process's own environment.
func backendOptions(t testing.TB) native.Options {
	d := deskOf(t)
	vars := d.Vars()
	return native.Options{Display: d.Display, Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		if k == "WAYLAND_DISPLAY" {
			return "" // the desktop's, never the caller's own session's
		}
		return os.Getenv(k)
	}}
}

// openBackend opens a native backend on t's desktop, closed when the test
// ends (after the cleanups registered since, such as an engine's on it).
func openBackend(t testing.TB) *native.Backend {
	t.Helper()
	return openBackendWith(t, backendOptions(t))
}

// openBackendWith is openBackend with options of the test's own (an
// environment that tells another session than the desktop's).
func openBackendWith(t testing.TB, opts native.Options) *native.Backend {
	t.Helper()
	b, err := native.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// harness is the engine on the native backend with one connection.
type harness struct {
	t testing.TB
	b *native.Backend
	d *engine.Driver
	c *engine.Conn // a test may replace it with a new connection
}

func newHarness(t testing.TB, consentTimeout time.Duration) *harness {
	t.Helper()
	return newHarnessWith(t, engine.Options{ConsentTimeout: consentTimeout})
}

// newHarnessWith is newHarness with more engine options (the backend is
// filled in).
func newHarnessWith(t testing.TB, opts engine.Options) *harness {
	t.Helper()
	return newHarnessAround(t, opts, nil)
}

// newHarnessAround is newHarnessWith with the engine on wrap(backend)
// instead of the backend itself (nil wrap: the backend), for a test that
// watches the engine's calls into it.
func newHarnessAround(t testing.TB, opts engine.Options, wrap func(*native.Backend) engine.Backend) *harness {
	t.Helper()
	return newHarnessOn(t, openBackend(t), opts, wrap)
}

// newHarnessOn is newHarnessAround on a backend the test opened itself.
func newHarnessOn(t testing.TB, b *native.Backend, opts engine.Options, wrap func(*native.Backend) engine.Backend) *harness {
	t.Helper()
	opts.Backend = b
	if wrap != nil {
		opts.Backend = wrap(b)
	}
	d := engine.New(opts)
	h := harnessOn(t, b, d, "itest")
	t.Cleanup(func() {
		h.c.Close()
		d.Shutdown()
	})
	return h
}

// harnessOn is a harness for one connection named client to driver d on
// backend b (the caller closes them).
func harnessOn(t testing.TB, b *native.Backend, d *engine.Driver, client string) *harness {
	return &harness{t: t, b: b, d: d, c: d.Connect(engine.ClientInfo{Name: client, Pid: os.Getpid()})}
}

// calls runs calls on the harness's current connection.
func (h *harness) calls() enginecall.Caller {
	return enginecall.Caller{T: h.t, Conn: h.c, Bound: 60 * time.Second}
}

func (h *harness) call(tool string, args map[string]any) engine.Result {
	h.t.Helper()
	return h.calls().Call(tool, args)
}

func (h *harness) ok(tool string, args map[string]any) map[string]any {
	h.t.Helper()
	return h.calls().OK(tool, args)
}

// fail runs a call that must fail with code and returns the error object.
func (h *harness) fail(code engine.Code, tool string, args map[string]any) map[string]any {
	h.t.Helper()
	return h.calls().Fail(code, tool, args)
}

// diffShows checks that an act's result res shows want (a fragment of its
// diff's JSON). An act that did not settle (its app still busy at the
// settle's bound, as a loaded machine makes LibreOffice) says so, and its
// diff can only hold what had happened by then: the effect must then show
// in a read of the window soon after. An act that settled must show it in
// its diff.
func diffShows(t testing.TB, h *harness, pid int, res map[string]any, what, want string) {
	t.Helper()
	if strings.Contains(testkit.JSON(t, res["diff"]), want) {
		return
	}
	if settle, _ := res["settle"].(map[string]any); settle["settled"] != false {
		t.Fatalf("%s: the settled act's diff lacks %s: %v", what, want, res)
	}
	t.Logf("%s: the act did not settle (%v) and its diff lacks %s; waiting for a read to show it", what, res["settle"], want)
	var last timedRead
	if !testkit.Poll(30*time.Second, func() bool {
		last = readOnce(t, h, pid)
		return last.read != nil && strings.Contains(testkit.JSON(t, last.read["elements"]), want)
	}) {
		t.Fatalf("%s: no read shows %s after the act: %s\nthe act: %v", what, want, last.summary(), res)
	}
}

// asMap is testkit.Decode under the name the everyday-app tests use.
var asMap = testkit.Decode

// person answers consent dialogs with real XTEST clicks from a separate X
// connection (package person), failing the test when it cannot.
type person struct {
	t testing.TB
	p *personpkg.Person
}

func newPerson(t testing.TB) *person {
	p, err := personpkg.Open(deskOf(t).Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return &person{t: t, p: p}
}

// The person's steps run in the background, beside the call that shows the
// dialog; what the call returns is what the tests check, so a step that
// cannot happen (no dialog) only shows in that result.

// consentWait is how long a test's consent dialog may take to show and be
// answered on a loaded machine: the consent timeout of a harness whose
// person answers, and the person's own wait for the dialog. One bound for
// both, so the person never gives up on a dialog the call still waits on
// (a denial then, with nothing to say why).
const consentWait = 30 * time.Second

func (p *person) dialog() personpkg.Dialog {
	d, _ := p.p.WaitDialog(consentWait)
	return d
}

func (p *person) click(d personpkg.Dialog, id string) { _ = p.p.Click(d, id) }

// answer clicks the given controls in order, in the background.
func (p *person) answer(ids ...string) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	ch := p.p.Answer(consentWait, ids...)
	go func() {
		defer wg.Done()
		<-ch
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
		x := p.p.Display()
		for _, k := range names {
			_ = x.FakeKey(k, true)
			_ = x.FakeKey(k, false)
		}
		_ = x.Sync()
	}()
	return &wg
}
