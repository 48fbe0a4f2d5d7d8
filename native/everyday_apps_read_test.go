package native_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Qt and LibreOffice apps against a reference client (pyatspi): Writer's read is as
// complete as a walk (the Qt apps' in qt_test.go), and what Calc's sheet
// offers a screen reader (containers.py). The findings are in
// docs/qt-and-libreoffice.md with the figures these tests log.

// writerCompleteAsWalk: a read of the 400-paragraph document is complete
// (within 2 % of a pyatspi walk) and holds the document and its visible
// paragraphs as rows.
func writerCompleteAsWalk(t *testing.T, a *desktopApp, h *harness) {
	walked, ms, ok := walkWindow(t, a.pid, 60*time.Second)
	if !ok {
		t.Fatal("the pyatspi walk of Writer did not finish in a minute")
	}
	r := readOnce(t, h, a.pid)
	t.Logf("Writer, 400 paragraphs: walk %d elements in %.0f ms; read: %s; rows by role %v", walked, ms, r.summary(), rolesOf(r.read))
	if r.read == nil || r.read["truncated"] != false {
		t.Fatalf("the read: %s", r.summary())
	}
	if diff := r.count() - walked; diff*50 > walked || -diff*50 > walked {
		t.Fatalf("the read has %d elements, a pyatspi walk %d", r.count(), walked)
	}
	roles := rolesOf(r.read)
	if roles["document_text"] != 1 || roles["paragraph"] < 10 {
		t.Fatalf("the document and its visible paragraphs are rows: %v", roles)
	}
}

// sheetFacts is containers.py's account of a sheet.
type sheetFacts struct {
	Role           string `json:"role"`
	ChildCount     int    `json:"child_count"`
	Extents        []int  `json:"extents"`
	Rows           int    `json:"rows"`
	Columns        int    `json:"columns"`
	VisibleRows    int    `json:"visible_rows"`
	VisibleColumns int    `json:"visible_columns"`
	FirstCells     []struct {
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"first_cells"`
	Below struct {
		Name    string `json:"name"`
		Showing bool   `json:"showing"`
	} `json:"cell_below_block"`
	raw string
}

// layout is where the sheet lies and how much of it shows: what a read's
// visible block follows.
func (f sheetFacts) layout() string {
	return fmt.Sprintf("%d x %d cells showing, the sheet at %v", f.VisibleRows, f.VisibleColumns, f.Extents)
}

// waitSheet runs containers.py on Calc until two reports in a row give the
// sheet the same layout, and returns the last: the block a read is held to
// must be the settled one. The window's contents are on the bus a moment
// after the window; and a fresh clone's CI run once counted 45 rows where
// every settled Calc here shows 40, with the read a moment later at 40: a
// sheet 71 to 87 px taller than the settled one (two of Calc's tool bars
// are 78 to 81 px), a report from before Calc's layout settled. Not
// reproduced here (CPU burners, Calc stopped 40 ms in every 48, mutter's
// marks on the root): the sheet came on the bus laid out. Each report is
// a new process and some 50 calls, so Calc's main loop runs its pending
// layout between two of them; a change between two is logged.
func waitSheet(t *testing.T, a *desktopApp) sheetFacts {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	var prev *sheetFacts
	for {
		f, out, err := sheetReport(t, a)
		if f != nil && prev != nil {
			if prev.layout() == f.layout() {
				return *f
			}
			t.Logf("Calc's sheet changed between two reports: %s, then %s", prev.layout(), f.layout())
		}
		a.alive(t)
		if time.Now().After(deadline) {
			if f != nil {
				t.Fatalf("Calc's sheet never kept its layout for two reports in a row; the last: %s", f.layout())
			}
			t.Fatalf("no sheet in Calc's window (err %v):\n%s", err, out)
		}
		if f != nil {
			prev = f
			continue
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// sheetReport runs containers.py on Calc once: its account of the sheet,
// or nil with what it printed when it found none.
func sheetReport(t *testing.T, a *desktopApp) (*sheetFacts, []byte, error) {
	t.Helper()
	out, err := pyatspi(t, 30*time.Second, "containers.py", strconv.Itoa(a.pid))
	if err != nil {
		return nil, out, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		var f sheetFacts
		if json.Unmarshal([]byte(line), &f) == nil && f.Role == "table" && f.Rows > 0 {
			f.raw = line
			return &f, out, nil
		}
	}
	return nil, out, nil
}

// rssKiB is a process's resident memory in KiB.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	t.Fatalf("no VmRSS for pid %d", pid)
	return 0
}
