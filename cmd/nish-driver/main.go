// Command nish-driver lets an AI model see and operate a person's Linux
// desktop apps through accessibility, as an MCP server a host app starts
// over stdio. This file only wires the commands; each command lives in its
// own file, and the rules live in the engine.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"

	"github.com/nish-driver/nish-driver/native"
)

// cli is the command line.
type cli struct {
	MCP      mcpCmd      `cmd:"" name:"mcp" help:"Serve MCP over stdio (what a host app starts)."`
	Daemon   daemonCmd   `cmd:"" help:"Own the display for several hosts: serve MCP and the daemon methods on a private Unix socket."`
	Stop     stopCmd     `cmd:"" help:"The kill switch as a command: end every session and takeover of every nish-driver of this user (bind it to a shortcut on Wayland)."`
	Doctor   doctorCmd   `cmd:"" help:"Report whether the desktop can be driven, and what to fix. Exit status 0 when ready, else 1."`
	Manifest manifestCmd `cmd:"" help:"Print the tools and capabilities as JSON, without starting MCP."`
	Sandbox  sandboxCmd  `cmd:"" help:"Run a private virtual desktop (Xvfb and the accessibility bus) with the given apps, accessibility switched on for each, printing the environment that reaches it."`
	Version  versionCmd  `cmd:"" help:"Print the driver and contract versions."`
	Manpage  manpageCmd  `cmd:"" hidden:"" help:"Print the manual page (roff), made from this command line."`
}

// streams are where a command writes; stdout is the protocol's in mcp.
type streams struct {
	Stdout io.Writer
	Stderr io.Writer
}

// exitStatus is an error that only sets the process's exit status (the
// command already said what it had to).
type exitStatus int

// The exit statuses, each named once: the commands return them, and the
// man page's EXIT STATUS section is exitStatuses.
const (
	exitFailed         exitStatus = 1  // doctor: not ready; mcp, daemon, stop: ended with an error
	exitOther          exitStatus = 2  // any other failure, said on standard error
	exitAlreadyRunning exitStatus = 75 // daemon: another serves the socket (EX_TEMPFAIL, sysexits.h)
	exitBadCommandLine exitStatus = 80 // kong's status for a command line it cannot parse
)

// exitStatuses say what each status means, in the man page's words.
var exitStatuses = []struct {
	status  exitStatus
	meaning string
}{
	{0, "Success; for doctor, the desktop can be driven."},
	{exitFailed, "doctor found the desktop not ready, or an MCP session, the daemon or stop ended with an error."},
	{exitOther, "Any other failure; a message on standard error says what failed."},
	{exitAlreadyRunning, "daemon: another nish-driver daemon already serves the socket."},
	{exitBadCommandLine, "The command line could not be parsed."},
}

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// kongOptions make the command line's model: its name, description and the
// values its flags' defaults and help name (a default's owner is the code
// that acts on it, not this file).
func kongOptions() []kong.Option {
	return []kong.Option{
		kong.Name("nish-driver"),
		kong.Description("Drive Linux desktop apps through accessibility, as an MCP server."),
		kong.Vars{"default_kill_switch": native.DefaultKillSwitch},
	}
}

func main() {
	var c cli
	// No usage on a parse error: it would go to stdout, which is the
	// protocol's in mcp. The error itself goes to stderr.
	ctx := kong.Parse(&c, kongOptions()...)
	err := ctx.Run(&streams{Stdout: os.Stdout, Stderr: os.Stderr})
	var status exitStatus
	switch {
	case err == nil:
	case errors.As(err, &status):
		os.Exit(int(status))
	default:
		fmt.Fprintln(os.Stderr, "nish-driver:", err)
		os.Exit(int(exitOther))
	}
}
