package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/nish-driver/nish-driver/internal/sandbox"
	"github.com/nish-driver/nish-driver/internal/stats"
	"github.com/nish-driver/nish-driver/internal/testkit/desktop"
)

// Everyday apps: Qt apps, LibreOffice and Thunderbird with the same
// fixtures the native tests use (internal/testkit/desktop).

// everydayApp names one of them; 0 is none.
type everydayApp int

const (
	keePassXC everydayApp = iota + 1
	featherPad
	writer400
	calc200
	calc100k
	thunderbird1000
)

// office is the LibreOffice app and fixture of an office subject.
func (e everydayApp) office() (sandbox.Office, desktop.OfficeFixture, bool) {
	switch e {
	case writer400:
		return sandbox.Writer, desktop.LongDocument, true
	case calc200:
		return sandbox.Calc, desktop.Sheet200, true
	case calc100k:
		return sandbox.Calc, desktop.Sheet100k, true
	}
	return 0, desktop.OfficeFixture{}, false
}

// calcNoWalk says why Calc's rows have no pyatspi baseline.
const calcNoWalk = "a pyatspi walk enumerates the sheet's 2^31 - 1 cells and never ends"

// everydaySubjects are the rows: KeePassXC's unlock view,
// FeatherPad with a 60-line file, Writer with 400 paragraphs, Calc with a
// 200 x 8 and a 100,000 x 3 sheet, Thunderbird's three-pane window on a
// folder of 1,000 messages.
func everydaySubjects() []subject {
	return []subject{
		{name: "KeePassXC unlock view", everyday: keePassXC, bus: "KeePassXC", settle: true},
		{name: "FeatherPad 60 lines", everyday: featherPad, bus: "FeatherPad", settle: true},
		{name: "Writer 400 paragraphs", everyday: writer400, settle: true},
		{name: "Calc 200 x 8", everyday: calc200, settle: true, noWalk: calcNoWalk},
		{name: "Calc 100000 x 3", everyday: calc100k, settle: true, noWalk: calcNoWalk},
		{name: "Thunderbird 1000 messages", everyday: thunderbird1000, bus: sandbox.ThunderbirdAppName, settle: true},
	}
}

// fixtureDir is a folder for the fixtures under the desktop's own, removed
// with it.
func (b *bench) fixtureDir() (string, error) {
	dir := filepath.Join(b.desk.Root, "bench-fixtures")
	return dir, os.MkdirAll(dir, 0o700)
}

// everydayCommand makes the subject's fixture and its app's command.
func (b *bench) everydayCommand(s subject) (*exec.Cmd, error) {
	dir, err := b.fixtureDir()
	if err != nil {
		return nil, err
	}
	switch s.everyday {
	case keePassXC:
		db, err := desktop.KeePassXCVault(b.desk, dir)
		if err != nil {
			return nil, err
		}
		return b.desk.KeePassXCCommand(db)
	case featherPad:
		file, err := desktop.FeatherPadNotes(dir)
		if err != nil {
			return nil, err
		}
		return b.desk.FeatherPadCommand(file)
	case thunderbird1000:
		return desktop.ThunderbirdMail(b.desk)
	}
	kind, fix, ok := s.everyday.office()
	if !ok {
		return nil, fmt.Errorf("unknown everyday app %d", s.everyday)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	file, err := fix.Make(ctx, b.desk, dir)
	if err != nil {
		return nil, err
	}
	return b.desk.OfficeCommand(kind, file)
}

// officeBound bounds LibreOffice's start until soffice.bin is on the bus.
const officeBound = 60 * time.Second

// officePid waits for the LibreOffice program the launcher started and
// returns its pid on the bus.
func (b *bench) officePid(launcher *exec.Cmd) (int, error) {
	app, err := b.desk.WaitForOffice(context.Background(), launcher, officeBound)
	if err != nil {
		return 0, err
	}
	return app.Pid, nil
}

// everydayChecks are the targets set for these apps, judged on the whole read (the
// first after settling): KeePassXC and FeatherPad read as completely as the
// pyatspi walk (within 2 %) and ≥ 10× faster; Writer's 400-paragraph
// document ≥ 5× the walk; Calc's window with the sheet's visible block ≤
// 300 ms at either sheet size; Thunderbird's three-pane window as complete
// as the walk (its row gives the times; no speed target is set for it).
func everydayChecks(rows []row) []check {
	var out []check
	for _, r := range rows {
		ok := r.failed == ""
		switch r.subject.everyday {
		case keePassXC, featherPad:
			ok = ok && len(r.walkMs) > 0
			out = append(out, completeCheck(r.subject.name, r, ok), speedCheck(r.subject.name, r, ok, 10, true))
		case thunderbird1000:
			out = append(out, completeCheck(r.subject.name, r, ok && len(r.walkMs) > 0))
		case writer400:
			out = append(out, speedCheck(r.subject.name, r, ok && len(r.walkMs) > 0, 5, true))
		case calc200, calc100k:
			c := check{target: r.subject.name + ": whole read with the sheet's visible block (the first after settling) ≤ 300 ms", missing: !ok}
			if ok {
				c.measured = fmt.Sprintf("%.1f ms (%d elements)", stats.Ms(r.fullFirst), r.elements)
				c.met = stats.Ms(r.fullFirst) <= 300
			}
			out = append(out, c)
		}
	}
	return out
}

// speedCheck is "name: full read ≥ times× faster than the pyatspi walk",
// of the median re-read, or with whole of the first read after settling:
// a re-read of an unchanged window is the engine's kept read, which asks
// the app nothing, while the targets are about reading the app.
func speedCheck(name string, r row, ok bool, times float64, whole bool) check {
	read, what := r.fullMedian(), "full read"
	if whole {
		read, what = r.fullFirst, "whole read (the first after settling)"
	}
	return readSpeedCheck(name, what, read, r, ok, times)
}

// readSpeedCheck is "name: what ≥ times× faster than the pyatspi walk",
// judged on read.
func readSpeedCheck(name, what string, read time.Duration, r row, ok bool, times float64) check {
	c := check{target: fmt.Sprintf("%s: %s ≥ %.0f× faster than the pyatspi walk", name, what, times), missing: !ok}
	if ok && read > 0 {
		x := r.walkMedian() / stats.Ms(read)
		c.measured = fmt.Sprintf("%.1f× (pyatspi %.0f ms / driver %.1f ms)", x, r.walkMedian(), stats.Ms(read))
		c.met = x >= times
	}
	return c
}
