package main

import (
	"fmt"
	"os"
	"syscall"
)

// claimStdout keeps the real stdout for the protocol alone: it returns a
// duplicate of descriptor 1 for the MCP transport and points descriptor 1
// (and os.Stdout) at stderr, so a stray print anywhere in the process, Go
// or C, lands in stderr instead of corrupting the protocol stream.
func claimStdout() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("cannot keep stdout for the protocol: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("cannot move stray output to stderr: %w", err)
	}
	os.Stdout = os.Stderr
	return os.NewFile(uintptr(fd), "mcp-stdout"), nil
}
