package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nish-driver/nish-driver/internal/sandbox"
)

// TestDoctorOnARealDesktop runs the binary's doctor inside a private
// desktop (Xvfb, session bus, AT-SPI bus): the native backend is there and
// ready, and the report says so.
func TestDoctorOnARealDesktop(t *testing.T) {
	desk, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatalf("the test desktop must start (make test installs it): %v", err)
	}
	defer desk.Close()
	out, errOut, exit := run(t, desk.Env(), "doctor", "--json")
	if exit != 0 {
		t.Fatalf("exit %d on a ready desktop; stderr %q\n%s", exit, errOut, out)
	}
	r := doctorJSON(t, out)
	status := map[string]string{}
	for _, b := range r.Backends {
		status[b.ID] = b.Status
	}
	if !r.Ready || r.SessionType != "x11" || status["x11"] != "available" || status["atspi"] != "available" {
		t.Fatalf("a ready desktop: %s", out)
	}
}

// TestBuildWithoutCgo: a build without cgo compiles and, on a desktop that
// is there, says honestly that its native backend is not built.
func TestBuildWithoutCgo(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "nish-driver-nocgo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the no-cgo build fails: %v\n%s", err, out)
	}
	desk, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer desk.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "doctor", "--json")
	cmd.Env = desk.Env()
	out, _ := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the no-cgo build's doctor --json did not finish within %v", hangGuard)
	}
	if cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("exit %d; a build without its backend is not ready:\n%s", cmd.ProcessState.ExitCode(), out)
	}
	if !strings.Contains(string(out), `"not_built"`) {
		t.Fatalf("the report names not_built:\n%s", out)
	}
}
