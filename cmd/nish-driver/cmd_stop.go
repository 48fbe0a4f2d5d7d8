package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/internal/stopsock"
)

// stopCmd is the kill switch as a command: it ends every session and
// takeover of every nish-driver of this user, whatever started them, with
// or without a display. On Wayland, where the key grab hears nothing while
// a Wayland window has focus, a desktop shortcut that runs it is the kill
// switch (README).
type stopCmd struct {
	Timeout time.Duration `name:"timeout" default:"5s" placeholder:"DURATION" help:"How long to wait for each driver's answer; a driver that takes longer is reported."`
}

func (c *stopCmd) Run(s *streams) error {
	dir, err := stopsock.Dir()
	if err != nil {
		return err
	}
	rep, err := stopsock.StopAll(context.Background(), dir, c.Timeout)
	if err != nil {
		return err
	}
	fmt.Fprint(s.Stdout, stopSummary(rep))
	for _, u := range rep.Unanswered {
		fmt.Fprintf(s.Stderr, "nish-driver stop: the driver with pid %d %v; its sessions may still run (kill %d ends it)\n", u.Pid, u.Err, u.Pid)
	}
	if len(rep.Unanswered) > 0 {
		return exitFailed
	}
	return nil
}

// stopSummary is what stop prints: how many drivers and sessions it ended,
// or that none ran, then one line per driver.
func stopSummary(rep stopsock.Report) string {
	var b strings.Builder
	switch {
	case len(rep.Stopped) == 0 && len(rep.Unanswered) == 0:
		b.WriteString("No nish-driver is running: nothing to stop.\n")
	default:
		fmt.Fprintf(&b, "Stopped %s: %s ended.\n", plural(len(rep.Stopped), "driver"), plural(rep.Sessions(), "session"))
		for _, st := range rep.Stopped {
			fmt.Fprintf(&b, "  pid %d: %s ended", st.Pid, plural(len(st.Ended), "session"))
			if len(st.Ended) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(st.Ended, ", "))
			}
			b.WriteString("\n")
		}
	}
	if rep.Cleaned > 0 {
		fmt.Fprintf(&b, "Removed %s left by drivers that are gone.\n", plural(rep.Cleaned, "socket"))
	}
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
