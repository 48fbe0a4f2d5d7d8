package main

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
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
	growPipe(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("cannot move stray output to stderr: %w", err)
	}
	os.Stdout = os.Stderr
	return os.NewFile(uintptr(fd), "mcp-stdout"), nil
}

// protocolPipeSize is the buffer asked for when stdout is a pipe: a full
// read of a big window is over a megabyte of JSON, which a 64 KiB pipe
// (Linux's default) passes in twenty wake-ups of the host's reader.
const protocolPipeSize = 1 << 20

// growPipe asks for a larger pipe buffer on fd; on anything but a pipe, or
// past the system's limit (/proc/sys/fs/pipe-max-size), it changes nothing.
func growPipe(fd int) {
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, protocolPipeSize)
}
