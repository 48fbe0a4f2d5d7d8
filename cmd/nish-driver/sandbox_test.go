package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

// TestSandboxStopsCleanly runs `nish-driver sandbox` with a real app and
// stops it the two ways a person does (Ctrl-C in its terminal, or a
// SIGTERM from a supervisor): it exits 0, and nothing it started outlives
// it — no Xvfb, no bus, no app, no helper the session bus activated — and
// its private folder is gone. (Its X socket is not checked: Xvfb takes the
// lowest free display, so a sandbox of a test running beside this one may
// take the same number at once.)
func TestSandboxStopsCleanly(t *testing.T) {
	fixture := testkit.Fixture(t, "synthetic.py")
	lanes := []struct {
		name  string
		flags []string
		procs []string // processes the running sandbox has
	}{
		{"X11", nil, []string{"Xvfb", "dbus-daemon", "python3"}},
		{"Wayland", []string{"--wayland"}, []string{"mutter", "Xwayland", "pipewire", "wireplumber", "dbus-daemon", "python3"}},
	}
	stops := []struct {
		name string
		sig  syscall.Signal
	}{
		{"Ctrl-C", syscall.SIGINT},
		{"SIGTERM", syscall.SIGTERM},
	}
	for _, lane := range lanes {
		for _, stop := range stops {
			t.Run(lane.name+"/"+stop.name, func(t *testing.T) {
				sb := startSandboxWith(t, lane.flags, "/usr/bin/python3 "+fixture+" 3")
				procs := sb.processes(t)
				for _, want := range lane.procs {
					if !hasComm(procs, want) {
						t.Fatalf("the running sandbox has no %s among its processes: %v", want, procs)
					}
				}

				if err := sb.cmd.Process.Signal(stop.sig); err != nil {
					t.Fatal(err)
				}
				if exit := sb.wait(t); exit != 0 {
					t.Fatalf("exit %d after %s; stderr:\n%s", exit, stop.name, sb.stderr.String())
				}
				for _, p := range survivors(procs) {
					t.Errorf("%s (pid %d) outlived the sandbox", p.comm, p.pid)
				}
				if _, err := os.Stat(sb.root); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the private folder %s is still there (%v)", sb.root, err)
				}
			})
		}
	}
}

// The doctor run inside the Wayland sandbox's environment (a GNOME
// Wayland session's: WAYLAND_DISPLAY, DISPLAY and XAUTHORITY for Xwayland)
// says ready, names the session, the compositor and Xwayland, refuses
// what is not built there with its reason, and names the kill switch in
// force: `nish-driver stop`, not a key that hears nothing over Wayland
// windows.
func TestDoctorInTheWaylandSandbox(t *testing.T) {
	sb := startSandboxWith(t, []string{"--wayland"})
	env := noDesktopEnv(t)
	for k, v := range sb.vars {
		env = append(env, k+"="+v)
	}
	out, stderr, exit := run(t, env, "doctor", "--json")
	if exit != 0 {
		t.Fatalf("exit %d: %s\n%s", exit, out, stderr)
	}
	var rep struct {
		Ready       bool   `json:"ready"`
		SessionType string `json:"session_type"`
		Desktop     *struct {
			Compositor string  `json:"compositor"`
			Xwayland   *string `json:"xwayland"`
		} `json:"desktop"`
		Capabilities []struct {
			Name       string  `json:"name"`
			Status     string  `json:"status"`
			ReasonCode *string `json:"reason_code"`
		} `json:"capabilities"`
		Probes []struct {
			Label   string `json:"label"`
			Message string `json:"message"`
		} `json:"probes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !rep.Ready || rep.SessionType != "wayland" || rep.Desktop == nil || rep.Desktop.Compositor != "gnome-mutter" ||
		rep.Desktop.Xwayland == nil || *rep.Desktop.Xwayland != sb.display {
		t.Fatalf("ready %v, session %q, desktop %+v; want ready, wayland, gnome-mutter on Xwayland %s:\n%s",
			rep.Ready, rep.SessionType, rep.Desktop, sb.display, out)
	}
	want := map[string]string{"read_tree": "available", "act_semantic": "available", "capture_window": "available",
		"input_takeover": "wayland_portal_not_built", "takeover_handback": "wayland_portal_not_built"}
	for _, c := range rep.Capabilities {
		w, ok := want[c.Name]
		if !ok {
			continue
		}
		got := c.Status
		if c.ReasonCode != nil {
			got = *c.ReasonCode
		}
		if got != w {
			t.Errorf("%s: %s, want %s", c.Name, got, w)
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("capabilities missing from the report: %v", want)
	}
	var kill string
	for _, p := range rep.Probes {
		if strings.Contains(strings.ToLower(p.Label), "kill switch") {
			kill += p.Message + "\n"
		}
	}
	if !strings.Contains(kill, "nish-driver stop") {
		t.Errorf("the kill switch lines do not name nish-driver stop:\n%s", kill)
	}
}

// runningSandbox is a `nish-driver sandbox` process that said it is ready.
type runningSandbox struct {
	cmd     *exec.Cmd
	exited  chan int
	stderr  *bytes.Buffer
	display string            // DISPLAY it printed
	vars    map[string]string // every variable it printed
	root    string            // its private folder (the parent of XDG_RUNTIME_DIR)
}

// startSandbox starts the sandbox command with apps (no desktop of this
// machine in its environment) and waits for its "ready" line.
func startSandbox(t *testing.T, apps ...string) *runningSandbox {
	t.Helper()
	return startSandboxWith(t, nil, apps...)
}

// startSandboxWith is startSandbox with the command's flags.
func startSandboxWith(t *testing.T, flags []string, apps ...string) *runningSandbox {
	t.Helper()
	args := append(append([]string{"sandbox"}, flags...), "--")
	cmd := exec.Command(binary, append(args, apps...)...)
	cmd.Env = noDesktopEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sb := &runningSandbox{cmd: cmd, exited: make(chan int, 1), stderr: &bytes.Buffer{}}
	// A failed test must not leave a desktop behind: the sandbox's children
	// die with it (they are signalled when it dies).
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	envDone := make(chan map[string]string, 1)
	go func() { envDone <- parseExports(stdout) }()
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			sb.stderr.WriteString(sc.Text() + "\n")
			if !said && strings.HasPrefix(sc.Text(), "sandbox: ready") {
				said = true
				ready <- true
			}
		}
		if !said {
			ready <- false
		}
		_ = cmd.Wait()
		sb.exited <- cmd.ProcessState.ExitCode()
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("the sandbox ended before it was ready:\n%s", sb.stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the sandbox did not say ready:\n%s", sb.stderr.String())
	}
	// The environment is printed before the ready line, but stdout is its
	// own pipe: wait for its lines to be read (the pipe stays open).
	var vars map[string]string
	select {
	case vars = <-envDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the sandbox's environment lines did not arrive")
	}
	sb.display, sb.vars = vars["DISPLAY"], vars
	if runtime := vars["XDG_RUNTIME_DIR"]; runtime != "" {
		sb.root = filepath.Dir(runtime)
	}
	if !strings.HasPrefix(sb.display, ":") || sb.root == "" || sb.root == "/" {
		t.Fatalf("the printed environment names no display or private folder: %v", vars)
	}
	return sb
}

// parseExports reads `export K="V"` lines until the sandbox's stdout has
// given its DISPLAY line and the lines after it (they are printed sorted,
// all at once), or until stdout closes.
func parseExports(r io.Reader) map[string]string {
	vars := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		vars[k] = v
		// XDG_STATE_HOME sorts last among the names the sandbox prints.
		if k == "XDG_STATE_HOME" {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	return vars
}

// wait waits for the sandbox to exit and returns its exit status.
func (sb *runningSandbox) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-sb.exited:
		return code
	case <-time.After(30 * time.Second):
		t.Fatalf("the sandbox did not exit; stderr:\n%s", sb.stderr.String())
		return -1
	}
}

// process is one running process, told apart from a later one that reuses
// its pid by its start time.
type process struct {
	pid   int
	comm  string
	start string
}

// alive reports whether the same process still runs (a zombie has ended).
func (p process) alive() bool {
	pr, ok := sandbox.ReadProc(p.pid)
	return ok && pr.Start == p.start && pr.State != "Z" && pr.State != "X"
}

// survivors returns the processes still alive once the killed ones have
// had a moment to end (a SIGKILL is delivered, not awaited).
func survivors(procs []process) []process {
	var alive []process
	testkit.Poll(10*time.Second, func() bool {
		alive = nil
		for _, p := range procs {
			if p.alive() {
				alive = append(alive, p)
			}
		}
		return len(alive) == 0
	})
	return alive
}

// processes lists what the sandbox runs: its descendants, and any process
// whose environment points into its private folder (a helper the session
// bus started that left the tree would still carry it).
func (sb *runningSandbox) processes(t *testing.T) []process {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	parent := map[int]int{}
	all := map[int]process{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		pr, ok := sandbox.ReadProc(pid)
		if !ok || pr.State == "Z" {
			continue
		}
		parent[pid] = pr.PPID
		all[pid] = process{pid: pid, comm: pr.Name, start: pr.Start}
	}
	marker := []byte("XDG_RUNTIME_DIR=" + filepath.Join(sb.root, "runtime") + "\x00")
	var out []process
	for pid, p := range all {
		if pid == sb.cmd.Process.Pid {
			continue
		}
		ours := false
		for a := parent[pid]; a > 1 && !ours; a = parent[a] {
			ours = a == sb.cmd.Process.Pid
		}
		if !ours {
			env, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
			ours = bytes.Contains(env, marker)
		}
		if ours {
			out = append(out, p)
		}
	}
	return out
}

func hasComm(procs []process, comm string) bool {
	for _, p := range procs {
		if p.comm == comm {
			return true
		}
	}
	return false
}

func TestParseBrowserSpec(t *testing.T) {
	tests := []struct {
		spec string
		want sandbox.Browser
		url  string
		ok   bool
	}{
		{"chromium=file:///tmp/a.html", sandbox.Chromium, "file:///tmp/a.html", true},
		{"Firefox=https://example.test/?a=b", sandbox.Firefox, "https://example.test/?a=b", true},
		{"chromium=", 0, "", false},
		{"opera=file:///a", 0, "", false},
		{"file:///a", 0, "", false},
	}
	for _, tt := range tests {
		kind, url, err := parseBrowserSpec(tt.spec)
		if (err == nil) != tt.ok || kind != tt.want || url != tt.url {
			t.Errorf("%q: %v %q %v", tt.spec, kind, url, err)
		}
	}
}
