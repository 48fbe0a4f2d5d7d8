package native_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"

	"github.com/nish-driver/nish-driver/internal/testkit"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
	"github.com/nish-driver/nish-driver/internal/testkit/pyref"
	"github.com/nish-driver/nish-driver/native"
)

// Everyday apps, part 2: Qt apps (KeePassXC, FeatherPad) and
// LibreOffice (Calc, Writer), started on the test desktop by the sandbox's
// helpers with fixtures the tests make. This file holds what their tests
// share: starting each app, knowing it is still alive, and reading its
// window once with a bound.

// masterPassword locks the KeePassXC fixture. It is typed by nobody in
// these tests; the canary of the secure-field test is another string.
const masterPassword = desktop.MasterPassword

// desktopApp is an app started for a test: the process the tests watch
// (for LibreOffice the soffice.bin below the launcher) and the app's
// registration on the accessibility bus.
type desktopApp struct {
	what string
	cmd  *exec.Cmd
	pid  int
	app  sandbox.AccessibleApp
	out  *testkit.SyncBuffer
}

// startDesktopApp starts cmd, kills its process group when the test ends,
// and shows its output when the test fails.
func startDesktopApp(t testing.TB, what string, cmd *exec.Cmd) *desktopApp {
	t.Helper()
	a := &desktopApp{what: what, cmd: cmd, out: &testkit.SyncBuffer{}}
	cmd.Stdout, cmd.Stderr = a.out, a.out
	if err := deskOf(t).Start(cmd); err != nil {
		t.Fatalf("starting %s: %v", what, err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s's output:\n%s", what, a.out.String())
		}
		_, _ = deskOf(t).Stop(cmd, 5*time.Second)
	})
	return a
}

// alive fails the test when the app's process is gone.
func (a *desktopApp) alive(t testing.TB) {
	t.Helper()
	if st := testkit.ProcState(a.pid); st == "" || st == "Z" || st == "X" {
		t.Fatalf("%s (pid %d) is no longer running (state %q); its output:\n%s", a.what, a.pid, st, a.out.String())
	}
}

// startOwnApp starts the command of an app that is its own process on the
// accessibility bus (the Qt apps, Thunderbird; not LibreOffice's
// launcher) and waits until that process is on the bus and its window is
// on screen.
func startOwnApp(t testing.TB, what string, cmd *exec.Cmd) *desktopApp {
	t.Helper()
	a := startDesktopApp(t, what, cmd)
	a.pid = cmd.Process.Pid
	a.app = waitPid(t, a)
	waitWindowShown(t, a)
	return a
}

// startKeePassXC makes the KeePassXC fixture database (two entries, locked
// with masterPassword) and opens it: the window shows the unlock view with
// the master password field focused.
func startKeePassXC(t testing.TB) *desktopApp {
	t.Helper()
	db, err := desktop.KeePassXCVault(deskOf(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := deskOf(t).KeePassXCCommand(db)
	if err != nil {
		t.Fatal(err)
	}
	return startOwnApp(t, "KeePassXC", cmd)
}

// startFeatherPad opens a 60-line text file in FeatherPad.
func startFeatherPad(t testing.TB) *desktopApp {
	t.Helper()
	return startOwnApp(t, "FeatherPad", featherPadCommand(t))
}

// featherPadCommand is FeatherPad on the test's desktop with a fresh notes
// file, not started.
func featherPadCommand(t testing.TB) *exec.Cmd {
	t.Helper()
	file, err := desktop.FeatherPadNotes(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := deskOf(t).FeatherPadCommand(file)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// waitPid waits until the app's process is on the accessibility bus.
func waitPid(t testing.TB, a *desktopApp) sandbox.AccessibleApp {
	t.Helper()
	app, err := deskOf(t).WaitForAppPid(context.Background(), a.pid, 45*time.Second)
	if err != nil {
		t.Fatalf("%s: %v; its output:\n%s", a.what, err, a.out.String())
	}
	return app
}

// officeFixture is a file the LibreOffice tests open, made once per test
// binary (desktop.OfficeFixture).
type officeFixture = desktop.OfficeFixture

var (
	sheet200     = desktop.Sheet200
	sheet100k    = desktop.Sheet100k
	longDocument = desktop.LongDocument
)

var (
	officeFilesMu sync.Mutex
	officeFiles   = map[string]string{}
	officeDir     string
)

// officeFile returns the converted fixture, converting it on first use.
func officeFile(t testing.TB, f officeFixture) string {
	t.Helper()
	officeFilesMu.Lock()
	defer officeFilesMu.Unlock()
	if p, ok := officeFiles[f.Name]; ok {
		return p
	}
	if officeDir == "" {
		// Under the desktop's folder: removed with the desktop.
		officeDir = filepath.Join(deskOf(t).Root, "office-fixtures")
		if err := os.MkdirAll(officeDir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	p, err := f.Make(context.Background(), deskOf(t), officeDir)
	if err != nil {
		t.Fatal(err)
	}
	officeFiles[f.Name] = p
	return p
}

// startOffice opens a fixture in a LibreOffice app and waits until the app
// (the soffice.bin below the launcher) is on the accessibility bus.
func startOffice(t testing.TB, kind sandbox.Office, f officeFixture) *desktopApp {
	t.Helper()
	file := officeFile(t, f)
	cmd, err := deskOf(t).OfficeCommand(kind, file)
	if err != nil {
		t.Fatal(err)
	}
	a := startDesktopApp(t, kind.String(), cmd)
	app, err := deskOf(t).WaitForOffice(context.Background(), cmd, 60*time.Second)
	if err != nil {
		t.Fatalf("%v; its output:\n%s", err, a.out.String())
	}
	a.pid, a.app = app.Pid, app
	waitWindowShown(t, a)
	return a
}

// waitWindowShown waits until the app has a window on screen: an app joins
// the accessibility bus before its window is mapped, and a session asked
// for in between finds no window of its (window_target_not_found).
func waitWindowShown(t testing.TB, a *desktopApp) {
	t.Helper()
	b, err := native.Open(backendOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	testkit.Eventually(t, 60*time.Second, "a window of "+a.what+" on screen", func() bool {
		ws, err := b.Windows(context.Background())
		if err != nil {
			return false
		}
		for _, w := range ws {
			if w.Pid == a.pid && w.OnScreen {
				return true
			}
		}
		a.alive(t)
		return false
	})
}

// timedRead is one get_window_state of a window, with how long it took.
type timedRead struct {
	read    map[string]any // nil when the call failed
	code    string         // the error's code when it failed
	text    string
	elapsed time.Duration
}

// grantedRead starts a session the person granted on the app and reads
// its window once; a read that fails fails the test.
func grantedRead(t testing.TB, a *desktopApp) (*harness, timedRead) {
	t.Helper()
	h := newHarness(t, consentWait)
	grant(t, h, a.pid)
	r := readOnce(t, h, a.pid)
	r.ok(t, a.what)
	return h, r
}

// readOnce reads the app's window once with a 5,000-element budget.
func readOnce(t testing.TB, h *harness, pid int) timedRead {
	t.Helper()
	start := time.Now()
	r := h.call("get_window_state", map[string]any{"pid": pid, "max_elements": 5000})
	tr := timedRead{elapsed: time.Since(start), text: r.Text}
	if r.Err != nil {
		tr.code = string(r.Err.Code)
		return tr
	}
	tr.read = asMap(t, r.Structured)
	return tr
}

// ok is the read, failing the test with the call's code and message when
// it failed (a failed read is nil, which no row lookup can use).
func (r timedRead) ok(t testing.TB, what string) map[string]any {
	t.Helper()
	if r.read == nil {
		t.Fatalf("reading %s failed with %s after %v: %s", what, r.code, r.elapsed.Round(time.Millisecond), r.text)
	}
	return r.read
}

// count is a read's element_count (0 for a failed read).
func (r timedRead) count() int {
	if r.read == nil {
		return 0
	}
	n, _ := r.read["element_count"].(float64)
	return int(n)
}

// summary says what a read returned, for the test log.
func (r timedRead) summary() string {
	if r.read == nil {
		return fmt.Sprintf("failed with %s after %v: %s", r.code, r.elapsed.Round(time.Millisecond), r.text)
	}
	hint := ""
	if h, ok := r.read["accessibility_hint"].(map[string]any); ok {
		hint = fmt.Sprintf(", hint %v", h["code"])
	}
	return fmt.Sprintf("%d elements, truncated %v, %v%s", r.count(), r.read["truncated"], r.elapsed.Round(time.Millisecond), hint)
}

// rolesOf counts a read's rows by role (none for a read without rows).
func rolesOf(read map[string]any) map[string]int {
	out := map[string]int{}
	rows, _ := read["elements"].([]any)
	for _, e := range rows {
		row, _ := e.(map[string]any)
		out[asString(row["role"])]++
	}
	return out
}

// walkWindow runs the pyatspi walk (atspi/testdata/walk.py) of the app's
// first window with a bound, and returns how many elements it visited and
// how long one walk took; ok is false when it did not finish in time (a
// walk that enumerates a sheet's 2^31 cells never does). Any other failure
// fails the test with the script's error.
func walkWindow(t testing.TB, pid int, bound time.Duration) (n int, ms float64, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	walks, n, err := pyref.TimedWalks(ctx, deskOf(t).Env(), testkit.Fixture(t, "walk.py"), pid, "", 1)
	if errors.Is(err, context.DeadlineExceeded) {
		return 0, 0, false
	}
	if err != nil {
		t.Fatalf("the pyatspi walk: %v", err)
	}
	return n, walks[0], true
}
