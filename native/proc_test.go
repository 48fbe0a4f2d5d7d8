package native

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

func TestStartTimeCountsFromTheLastParenthesis(t *testing.T) {
	stat := "4242 (evil) 1 2 3) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 123456 789"
	got, err := startTime(stat)
	if err != nil || got != 987654 {
		t.Fatalf("start time %d, %v", got, err)
	}
	if _, err := startTime("4242 (x) S 1"); err == nil {
		t.Fatal("a short stat must be an error")
	}
	for stat, want := range map[string]bool{"7 (a) Z 1 2": true, "7 (b) X 1": true, "7 (c) S 1": false, "7 (Z) R 1": false} {
		if exited(stat) != want {
			t.Errorf("exited(%q) = %v", stat, !want)
		}
	}
}

// TestAZombieIsGone: a process that exited but was not reaped yet is gone,
// not "another process".
func TestAZombieIsGone(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Process.Kill()
	// Not waited for: the child stays a zombie until Wait.
	defer cmd.Wait()
	testkit.Poll(10*time.Second, func() bool {
		stat, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
		return exited(string(stat))
	})
	_, err := processIdentity(cmd.Process.Pid)
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeWindowGone {
		t.Fatalf("a zombie is window_gone, got %v", err)
	}
}

func TestProcessIdentityOfARunningAndAnExitedProcess(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	id, err := processIdentity(pid)
	if err != nil {
		t.Fatal(err)
	}
	if id.Pid != pid || id.StartTime == 0 || filepath.Base(id.Exe) != "sleep" {
		t.Fatalf("identity %+v", id)
	}
	again, _ := processIdentity(pid)
	if again != id {
		t.Fatal("identity must be stable")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	_, err = processIdentity(pid)
	if e, ok := err.(*engine.Error); !ok || e.Code != engine.CodeWindowGone {
		t.Fatalf("an exited process is window_gone, got %v", err)
	}
	if _, err := processIdentity(os.Getpid()); err != nil {
		t.Fatal(err)
	}
}
