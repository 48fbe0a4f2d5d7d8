// Command demoperson is the simulated person of `make demo`. It connects to
// the demo's private X display as a client of its own, waits for the
// driver's consent dialog, and answers it the way a person does: by moving
// the pointer to the controls the dialog publishes and clicking them with
// XTEST (package internal/person). The driver cannot tell it from a mouse,
// and nothing a model sends reaches it.
//
// Usage:
//
//	demoperson [-display :N] [-timeout 60s] [-click allow]
//
// It prints "demoperson: watching" once connected (the demo waits for that
// line before asking for consent), then one line once it has answered the
// next dialog, and exits: 0 when it clicked, 1 when no dialog came in time
// or a click failed, 2 on bad arguments. One run answers one dialog; a
// script that asks twice starts it twice.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/internal/person"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv("DISPLAY"), os.Stdout, os.Stderr))
}

// options are the command line.
type options struct {
	display string
	timeout time.Duration
	clicks  []string
}

// parse reads the command line; display defaults to $DISPLAY.
func parse(args []string, display string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("demoperson", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := options{}
	fs.StringVar(&o.display, "display", display, "X display the dialog shows on (default $DISPLAY)")
	fs.DurationVar(&o.timeout, "timeout", 60*time.Second, "how long to wait for each dialog")
	click := fs.String("click", "allow", "comma-separated controls to click in order: app:<pid>, takeover, clipboard_read, allow, deny")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.display == "" {
		return o, errors.New("no display: set DISPLAY or pass -display")
	}
	if o.timeout <= 0 {
		return o, errors.New("-timeout must be positive")
	}
	for _, id := range strings.Split(*click, ",") {
		if id = strings.TrimSpace(id); id != "" {
			o.clicks = append(o.clicks, id)
		}
	}
	if len(o.clicks) == 0 {
		return o, errors.New("-click names no control")
	}
	return o, nil
}

// run is the program; it returns the exit status.
func run(args []string, display string, stdout, stderr io.Writer) int {
	o, err := parse(args, display, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "demoperson:", err)
		return 2
	}
	p, err := person.Open(o.display)
	if err != nil {
		fmt.Fprintf(stderr, "demoperson: cannot open display %s: %v\n", o.display, err)
		return 1
	}
	defer p.Close()
	fmt.Fprintln(stdout, "demoperson: watching")
	d, err := p.WaitDialog(o.timeout)
	if err != nil {
		fmt.Fprintln(stderr, "demoperson:", err)
		return 1
	}
	for _, id := range o.clicks {
		if err := p.Click(d, id); err != nil {
			fmt.Fprintln(stderr, "demoperson:", err)
			return 1
		}
	}
	// Only the controls' ids are printed: the dialog's text holds the host's
	// words and app names, which are not ours to echo.
	fmt.Fprintf(stdout, "demoperson: answered the dialog (%d controls; clicked %s)\n",
		len(d.Layout.Controls), strings.Join(o.clicks, ", "))
	return 0
}
