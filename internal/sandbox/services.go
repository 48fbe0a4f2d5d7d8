package sandbox

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
)

// The desktop's own services (the session bus, the AT-SPI bus launcher,
// PipeWire, mutter) start one way: on the desktop's environment, in their
// own process group, stopped with the desktop, their messages in the log
// unless the caller reads one of their outputs (an address, a display).

// output names which of a service's outputs the caller reads.
type output int

const (
	fromStdout output = iota + 1
	fromStderr
)

// startQuiet starts a service with both its outputs in the log.
func (d *Desktop) startQuiet(name string, args ...string) error {
	_, err := d.startReading(0, name, args...)
	return err
}

// startReading starts a service and returns the output the caller reads
// (which); the other goes to the log.
func (d *Desktop) startReading(which output, name string, args ...string) (io.Reader, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = d.Env()
	cmd.Stdout, cmd.Stderr = d.opts.Log, d.opts.Log
	cmd.SysProcAttr = childAttrs()
	var r io.Reader
	var err error
	switch which {
	case fromStdout:
		cmd.Stdout = nil
		r, err = cmd.StdoutPipe()
	case fromStderr:
		cmd.Stderr = nil
		r, err = cmd.StderrPipe()
	}
	if err != nil {
		return nil, err
	}
	return r, d.startCmd(cmd)
}

// startCmd starts a service prepared by the caller and tracks it.
func (d *Desktop) startCmd(cmd *exec.Cmd) error {
	if err := spawn(cmd); err != nil {
		return fmt.Errorf("sandbox: %s: %w", filepath.Base(cmd.Path), err)
	}
	d.track(cmd)
	return nil
}
