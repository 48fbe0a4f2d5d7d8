package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Done returns a channel closed once cmd, started with Start, has exited
// and been reaped (its ProcessState is then set). For a command the
// desktop did not start it returns nil, which blocks forever.
func (d *Desktop) Done(cmd *exec.Cmd) <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, p := range d.procs {
		if p.cmd == cmd {
			return p.done
		}
	}
	return nil
}

// Running reports whether cmd, started with Start, has not exited.
func (d *Desktop) Running(cmd *exec.Cmd) bool {
	done := d.Done(cmd)
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// Stop ends a program started with Start the way a session does at logout:
// SIGTERM to the program alone, so it can close its windows and end its
// own helpers. It waits up to grace for it to exit, then kills what is left
// of its process group (helpers that outlived it). It returns the
// program's exit state, and an error when it had already exited before
// Stop (a crash to report) or had to be killed.
func (d *Desktop) Stop(cmd *exec.Cmd, grace time.Duration) (*os.ProcessState, error) {
	done := d.Done(cmd)
	if done == nil {
		return nil, fmt.Errorf("sandbox: %s was not started on this desktop", cmd.Path)
	}
	select {
	case <-done:
		return cmd.ProcessState, fmt.Errorf("sandbox: %s had already exited (%v)", cmd.Path, cmd.ProcessState)
	default:
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	var err error
	select {
	case <-done:
	case <-time.After(grace):
		err = fmt.Errorf("sandbox: %s did not exit within %v of SIGTERM; killed", cmd.Path, grace)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return cmd.ProcessState, err
}

// Crash kills one of the desktop's own services (named by its program:
// "mutter", "pipewire", "wireplumber", "at-spi-bus-launcher") with its
// whole process group at once, as a crash would end it: mutter takes
// Xwayland with it, the bus launcher its bus. It waits until the service
// has been reaped. Tests of what the driver does when a part of the
// desktop goes away use it, on a desktop of their own.
func (d *Desktop) Crash(service string) error {
	d.mu.Lock()
	var found []proc
	for _, p := range d.procs {
		if filepath.Base(p.cmd.Path) == service {
			found = append(found, p)
		}
	}
	d.mu.Unlock()
	if len(found) == 0 {
		return fmt.Errorf("sandbox: no %s runs on this desktop", service)
	}
	for _, p := range found {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	for _, p := range found {
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			return fmt.Errorf("sandbox: %s did not end within 5 s of SIGKILL", service)
		}
	}
	return nil
}
