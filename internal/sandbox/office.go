package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// LibreOffice on the test desktop. It exposes its tree only with a GTK
// interface (SAL_USE_VCLPLUGIN=gtk3, Debian's libreoffice-gtk3) and
// SAL_ACCESSIBILITY_ENABLED=1 (every program here has it). It is started
// through soffice, a launcher (oosplash) that runs the real program,
// soffice.bin, as its child: that child is the app on the accessibility
// bus, and the first start of a new profile ends it and starts another.
// LibreOffice is a single-instance program per profile, so each command
// here gets a profile of its own.

// Office names a LibreOffice app.
type Office int

const (
	// Calc is the spreadsheet.
	Calc Office = iota + 1
	// Writer is the word processor.
	Writer
)

// offices holds each app's facts in one row: its name as LibreOffice
// titles its windows, and soffice's switch that starts it.
var offices = map[Office]struct{ title, switchArg string }{
	Calc:   {"LibreOffice Calc", "--calc"},
	Writer: {"LibreOffice Writer", "--writer"},
}

// String is the app's name as LibreOffice titles its windows.
func (o Office) String() string {
	if f, ok := offices[o]; ok {
		return f.title
	}
	return fmt.Sprintf("Office(%d)", int(o))
}

// OfficeAppName is the name LibreOffice registers under on the AT-SPI
// bus, whatever the app.
const OfficeAppName = "soffice"

// officeProgram is the process name of LibreOffice's real program.
const officeProgram = "soffice.bin"

// officeSettings are a test profile's settings: no tip of the day, no
// first-start wizard or what's-new bar, no autosave or recovery prompt
// after a killed run, no Java. They are the profile's
// registrymodifications.xcu, written before its first start.
const officeSettings = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Java"><prop oor:name="Enable" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Recovery/AutoSave"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Recovery/RecoveryInfo"><prop oor:name="Enabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Setup/Office"><prop oor:name="ooSetupInstCompleted" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>99.0</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="LastTimeDonateShown" oor:op="fuse"><value>99999</value></prop></item>
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="LastTimeGetInvolvedShown" oor:op="fuse"><value>99999</value></prop></item>
</oor:items>
`

// officeProfile makes a new LibreOffice profile under the desktop's
// private folder and returns its -env:UserInstallation switch.
func (d *Desktop) officeProfile() (string, error) {
	dir, err := d.profile("libreoffice")
	if err != nil {
		return "", err
	}
	user := filepath.Join(dir, "user")
	if err := os.MkdirAll(user, 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(user, "registrymodifications.xcu"), []byte(officeSettings), 0o600); err != nil {
		return "", err
	}
	return "-env:UserInstallation=file://" + dir, nil
}

// ConvertDocument converts src (a CSV, text or HTML file, or any format
// LibreOffice reads) to format (a file extension such as "ods" or "odt",
// optionally with a filter: "odt:writer8") with soffice --headless, in a
// throwaway profile, and returns the path of the file it wrote in outDir.
func (d *Desktop) ConvertDocument(ctx context.Context, src, format, outDir string) (string, error) {
	prog, err := lookTool("soffice", "libreoffice-calc or libreoffice-writer")
	if err != nil {
		return "", err
	}
	profile, err := d.officeProfile()
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, prog, profile, "--headless", "--norestore", "--convert-to", format, "--outdir", outDir, src)
	cmd.Env = d.Env()
	cmd.SysProcAttr = childAttrs()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("sandbox: soffice --convert-to %s %s: %v: %s", format, src, err, strings.TrimSpace(out.String()))
	}
	ext, _, _ := strings.Cut(format, ":")
	base := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	dst := filepath.Join(outDir, base+"."+ext)
	if _, err := os.Stat(dst); err != nil {
		return "", fmt.Errorf("sandbox: soffice wrote no %s: %s", dst, strings.TrimSpace(out.String()))
	}
	return dst, nil
}

// OfficeCommand prepares a LibreOffice app to open file (empty: a new
// document) on this desktop with its tree exposed: the GTK 3 interface, a
// new profile of quiet settings under the desktop's private folder, no
// splash and no recovery. The process started is the launcher; the app on
// the accessibility bus is its soffice.bin child (see WaitForOffice).
func (d *Desktop) OfficeCommand(kind Office, file string) (*exec.Cmd, error) {
	app, ok := offices[kind]
	if !ok {
		return nil, fmt.Errorf("sandbox: unknown LibreOffice app %v", kind)
	}
	prog, err := lookTool("soffice", "libreoffice-calc, libreoffice-writer")
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat("/usr/lib/libreoffice/program/libvclplug_gtk3lo.so"); err != nil {
		return nil, fmt.Errorf("sandbox: LibreOffice's GTK 3 interface is not installed (Debian: libreoffice-gtk3); without it LibreOffice exposes no tree")
	}
	profile, err := d.officeProfile()
	if err != nil {
		return nil, err
	}
	args := []string{profile, "--norestore", "--nologo", "--nolockcheck", app.switchArg}
	if file != "" {
		args = append(args, file)
	}
	cmd := d.Command(prog, args...)
	cmd.Env = append(cmd.Env, "SAL_USE_VCLPLUGIN=gtk3")
	return cmd, nil
}

// WaitForOffice waits until the LibreOffice started by launcher (a
// command of OfficeCommand, started) is on the accessibility bus with a
// window, and returns it: the app is a soffice.bin process below the
// launcher, not the launcher (after a new profile's first start, a second
// soffice.bin replaces the first, which may join the bus before it goes).
func (d *Desktop) WaitForOffice(ctx context.Context, launcher *exec.Cmd, timeout time.Duration) (AccessibleApp, error) {
	deadline := time.Now().Add(timeout)
	for {
		if pids := descendantsNamed(launcher.Process.Pid, officeProgram); len(pids) > 0 {
			apps, err := d.AccessibleApps(ctx)
			if err == nil {
				for _, a := range apps {
					if slices.Contains(pids, a.Pid) && d.hasTopLevels(ctx, a) {
						return a, nil
					}
				}
			}
		} else if !d.Running(launcher) {
			return AccessibleApp{}, fmt.Errorf("sandbox: LibreOffice's launcher exited (%v) and no %s runs", launcher.ProcessState, officeProgram)
		}
		if time.Now().After(deadline) {
			return AccessibleApp{}, fmt.Errorf("sandbox: no %s started by %s was on the AT-SPI bus within %v", officeProgram, launcher.Path, timeout)
		}
		select {
		case <-ctx.Done():
			return AccessibleApp{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// hasTopLevels reports whether app's accessible root has children (its
// windows). The soffice.bin of a new profile's first start joins the bus
// and exits, to be started again, before it makes any window: an app
// with a window is the one that stays.
func (d *Desktop) hasTopLevels(ctx context.Context, app AccessibleApp) bool {
	conn, err := d.a11yConn(ctx)
	if err != nil {
		return false
	}
	defer conn.Close()
	var n dbus.Variant
	err = conn.Object(app.BusName, "/org/a11y/atspi/accessible/root").CallWithContext(ctx,
		"org.freedesktop.DBus.Properties.Get", 0, "org.a11y.atspi.Accessible", "ChildCount").Store(&n)
	count, _ := n.Value().(int32)
	return err == nil && count > 0
}

// WaitForAppPid waits until an app running as process pid is on the
// AT-SPI bus, and returns it.
func (d *Desktop) WaitForAppPid(ctx context.Context, pid int, timeout time.Duration) (AccessibleApp, error) {
	return d.waitForApp(ctx, fmt.Sprintf("process %d", pid), timeout, func(a AccessibleApp) bool { return a.Pid == pid }, func() error {
		if !processAlive(pid) {
			return fmt.Errorf("sandbox: process %d exited before it joined the AT-SPI bus", pid)
		}
		return nil
	})
}

// descendantsNamed lists the live processes below pid (at any depth) whose
// name is name.
func descendantsNamed(pid int, name string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	comm := map[int]string{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		pr, ok := ReadProc(p)
		if !ok || pr.State == "Z" || pr.State == "X" {
			continue
		}
		parent[p], comm[p] = pr.PPID, pr.Name
	}
	var out []int
	for p, c := range comm {
		if c != name {
			continue
		}
		for q, hops := parent[p], 0; q > 1 && hops < 64; q, hops = parent[q], hops+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// processAlive reports whether pid runs (a zombie does not).
func processAlive(pid int) bool {
	pr, ok := ReadProc(pid)
	return ok && pr.State != "Z" && pr.State != "X"
}

// Proc is a process as /proc/PID/stat shows it.
type Proc struct {
	Name  string // the command name
	PPID  int
	State string // "R", "S", "Z" for a zombie...
	// Start is the start time in clock ticks after boot: with the pid, it
	// tells the process apart from a later one that reuses its pid.
	Start string
}

// ReadProc reads /proc/PID/stat (the name is in parentheses and may hold
// spaces, so fields are counted from the last ')'); ok is false when the
// process is gone.
func ReadProc(pid int) (p Proc, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Proc{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return Proc{}, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 20 {
		return Proc{}, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return Proc{}, false
	}
	return Proc{Name: s[open+1 : end], PPID: ppid, State: fields[0], Start: fields[19]}, true
}
