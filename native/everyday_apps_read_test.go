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

// waitSheet runs containers.py on Calc until it reports the sheet (the
// window's contents are on the bus a moment after the window).
func waitSheet(t *testing.T, a *desktopApp) sheetFacts {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		out, err := pyatspi(t, 30*time.Second, "containers.py", strconv.Itoa(a.pid))
		if err == nil {
			for _, line := range strings.Split(string(out), "\n") {
				var f sheetFacts
				if json.Unmarshal([]byte(line), &f) == nil && f.Role == "table" && f.Rows > 0 {
					f.raw = line
					return f
				}
			}
		}
		a.alive(t)
		if time.Now().After(deadline) {
			t.Fatalf("no sheet in Calc's window (err %v):\n%s", err, out)
		}
		time.Sleep(300 * time.Millisecond)
	}
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
