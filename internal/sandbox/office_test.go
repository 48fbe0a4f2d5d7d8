package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOfficeAppsJoinTheBus converts a sheet and a document with soffice
// --headless and opens each in its LibreOffice app as OfficeCommand
// prepares it: the app joins the accessibility bus as a soffice.bin below
// the launcher that was started (not as the launcher), its window shows the
// file, and it exits by itself when asked to.
func TestOfficeAppsJoinTheBus(t *testing.T) {
	ctx := context.Background()
	d := startDesk(t)
	dir := t.TempDir()
	var csv, txt strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&csv, "Item %d,%d\n", i, i*10)
		fmt.Fprintf(&txt, "Paragraph %d.\n", i)
	}
	for name, body := range map[string]string{"sheet.csv": csv.String(), "letter.txt": txt.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		kind   Office
		src    string
		format string
	}{
		{Calc, "sheet.csv", "ods"},
		{Writer, "letter.txt", "odt"},
	}
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			file, err := d.ConvertDocument(ctx, filepath.Join(dir, c.src), c.format, dir)
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := d.OfficeCommand(c.kind, file)
			if err != nil {
				t.Fatal(err)
			}
			out := startCapturing(t, d, cmd)
			app, err := d.WaitForOffice(ctx, cmd, 60*time.Second)
			if err != nil {
				t.Fatalf("%v; LibreOffice said:\n%s", err, out.String())
			}
			if app.Name != OfficeAppName || app.Pid == cmd.Process.Pid {
				t.Fatalf("registered as %q with pid %d; the launcher is %d", app.Name, app.Pid, cmd.Process.Pid)
			}
			if !slices.Contains(descendantsNamed(cmd.Process.Pid, officeProgram), app.Pid) {
				t.Fatalf("pid %d is no %s below the launcher", app.Pid, officeProgram)
			}
			if _, err := d.Stop(cmd, 20*time.Second); err != nil {
				t.Fatalf("%v; LibreOffice said:\n%s", err, out.String())
			}
		})
	}
}

// TestOfficeCommandUsesAThrowawayProfile checks the command without
// starting it: the GTK 3 interface, the app's switch, a new profile inside
// the desktop's folder holding the quiet settings, and the file last.
func TestOfficeCommandUsesAThrowawayProfile(t *testing.T) {
	d := unstartedDesktop(t)
	for _, kind := range []Office{Calc, Writer} {
		first, err := d.OfficeCommand(kind, "/tmp/x.ods")
		if err != nil {
			t.Fatalf("%v (make test installs it): %v", kind, err)
		}
		second, err := d.OfficeCommand(kind, "/tmp/x.ods")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(first.Env, "SAL_USE_VCLPLUGIN=gtk3") || !slices.Contains(first.Env, "SAL_ACCESSIBILITY_ENABLED=1") {
			t.Errorf("%v: the GTK 3 interface and accessibility are not both on", kind)
		}
		if !slices.Contains(first.Args, offices[kind].switchArg) || first.Args[len(first.Args)-1] != "/tmp/x.ods" {
			t.Errorf("%v: args %q", kind, first.Args)
		}
		profile := strings.TrimPrefix(first.Args[1], "-env:UserInstallation=file://")
		if profile == first.Args[1] || !strings.HasPrefix(profile, d.Root+string(filepath.Separator)) {
			t.Fatalf("%v: profile switch %q is not a folder inside %s", kind, first.Args[1], d.Root)
		}
		if first.Args[1] == second.Args[1] {
			t.Fatalf("%v: two commands share a profile (LibreOffice would open both in one process)", kind)
		}
		b, err := os.ReadFile(filepath.Join(profile, "user", "registrymodifications.xcu"))
		if err != nil || !strings.Contains(string(b), "ShowTipOfTheDay") {
			t.Fatalf("%v: the profile's settings: %v", kind, err)
		}
	}
}
