package audit

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func readLines(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q is not a record: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// openTemp opens a log in a directory of the test's own.
func openTemp(t *testing.T) *Log {
	t.Helper()
	l, err := Open(filepath.Join(t.TempDir(), "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func perm(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestOpenCreatesPrivateDirAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "nish-driver")
	path := filepath.Join(dir, "audit.jsonl")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got := perm(t, dir); got != 0o700 {
		t.Errorf("directory mode %o, want 700", got)
	}
	if got := perm(t, path); got != 0o600 {
		t.Errorf("file mode %o, want 600", got)
	}
	if l.Path() != path {
		t.Errorf("Path() = %q", l.Path())
	}
}

func TestOpenNarrowsWiderModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nish-driver")
	path := filepath.Join(dir, "audit.jsonl")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{\"event\":\"old\",\"time_ms\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Record(Record{Event: "kill_switch"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := perm(t, dir); got != 0o700 {
		t.Errorf("directory mode %o, want 700", got)
	}
	if got := perm(t, path); got != 0o600 {
		t.Errorf("file mode %o, want 600", got)
	}
	recs := readLines(t, path)
	if len(recs) != 2 || recs[0].Event != "old" || recs[1].Event != "kill_switch" {
		t.Fatalf("records %+v, want the old one then the new one", recs)
	}
}

func TestOpenRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if l, err := Open(path); err == nil {
		l.Close()
		t.Fatal("Open followed a symlink")
	}
}

func TestOpenWithoutPathFails(t *testing.T) {
	if _, err := Open(""); err == nil {
		t.Fatal("Open(\"\") succeeded")
	}
}

func TestRecordSetsTimeOnlyWhenZero(t *testing.T) {
	l := openTemp(t)
	path := l.Path()
	l.Record(Record{Event: "session.started", Session: "s1"})
	l.Record(Record{Event: "session.ended", Session: "s1", TimeMs: 42})
	l.Close()
	recs := readLines(t, path)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	if recs[0].TimeMs < 1_600_000_000_000 {
		t.Errorf("TimeMs %d is not a Unix millisecond time", recs[0].TimeMs)
	}
	if recs[1].TimeMs != 42 {
		t.Errorf("TimeMs %d, want the given 42", recs[1].TimeMs)
	}
}

func TestRecordCutsLongFields(t *testing.T) {
	l := openTemp(t)
	path := l.Path()
	l.Record(Record{Event: "act", Exe: strings.Repeat("é", 300)})
	l.Close()
	recs := readLines(t, path)
	if len(recs) != 1 || len(recs[0].Exe) > maxField || !strings.HasPrefix(recs[0].Exe, "éé") {
		t.Fatalf("exe not cut on a rune boundary: %d bytes", len(recs[0].Exe))
	}
}

func TestRotation(t *testing.T) {
	l := openTemp(t)
	path := l.Path()
	l.MaxBytes = 200
	for range 10 {
		l.Record(Record{Event: "act", Session: "mcp:host:1", Tool: "click", Outcome: "ok", TimeMs: 1})
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	cur, old := readLines(t, path), readLines(t, path+".1")
	if len(cur) == 0 || len(old) == 0 || len(cur)+len(old) > 10 {
		t.Fatalf("current %d, old %d records", len(cur), len(old))
	}
	for _, p := range []string{path, path + ".1"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 200 {
			t.Errorf("%s has %d bytes, over the limit", filepath.Base(p), st.Size())
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %o", filepath.Base(p), st.Mode().Perm())
		}
	}
	if _, err := os.Stat(path + ".2"); !os.IsNotExist(err) {
		t.Errorf("a second old file exists: %v", err)
	}
}

func TestRotationKeepsExistingSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 150)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l.MaxBytes = 200
	l.Record(Record{Event: "session.started", Session: "mcp:host:1", TimeMs: 1})
	l.Close()
	if recs := readLines(t, path); len(recs) != 1 {
		t.Fatalf("the file that would pass the limit was not rotated: %d records", len(recs))
	}
	if b, _ := os.ReadFile(path + ".1"); !strings.HasPrefix(string(b), "xxx") {
		t.Fatal("the old file did not become .1")
	}
}

func TestConcurrentRecords(t *testing.T) {
	l := openTemp(t)
	path := l.Path()
	const writers, each = 20, 40 // 800 fits the queue, so none is dropped
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				l.Record(Record{Event: "act", Tool: "click", WindowID: uint64(w*1000 + i)})
				if i%10 == 0 {
					l.Flush()
				}
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readLines(t, path)
	if len(recs) != writers*each || l.Dropped() != 0 {
		t.Fatalf("%d records, %d dropped; want %d", len(recs), l.Dropped(), writers*each)
	}
	seen := map[uint64]bool{}
	for _, r := range recs {
		seen[r.WindowID] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct records", len(seen))
	}
}

func TestRecordAfterCloseIsDropped(t *testing.T) {
	l := openTemp(t)
	l.Close()
	l.Record(Record{Event: "act"})
	l.Flush()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l.Dropped() != 1 {
		t.Fatalf("Dropped() = %d, want 1", l.Dropped())
	}
}

func TestNilLogIsANoOpSink(t *testing.T) {
	var l *Log
	var s Sink = l
	s.Record(Record{Event: "act"})
	l.Flush()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if l.Dropped() != 0 || l.Path() != "" {
		t.Fatal("nil log reports state")
	}
}

func TestDefaultPath(t *testing.T) {
	cases := []struct {
		name, state, home, want string
	}{
		{"xdg state home", "/x/state", "/home/ann", "/x/state/nish-driver/audit.jsonl"},
		{"unset falls back to home", "", "/home/ann", "/home/ann/.local/state/nish-driver/audit.jsonl"},
		{"relative is ignored", "rel/state", "/home/ann", "/home/ann/.local/state/nish-driver/audit.jsonl"},
		{"nothing known", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_STATE_HOME", tc.state)
			t.Setenv("HOME", tc.home)
			if got := DefaultPath(); got != tc.want {
				t.Fatalf("DefaultPath() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRecordNeverLosesCountOfRecords(t *testing.T) {
	// More records than the queue holds, as fast as possible: each is
	// either written or counted as dropped, and Record returns every time.
	l := openTemp(t)
	path := l.Path()
	const n = 4 * queueLen
	for i := range n {
		l.Record(Record{Event: "act", WindowID: uint64(i)})
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := uint64(len(readLines(t, path))) + l.Dropped(); got != n {
		t.Fatalf("written + dropped = %d, want %d", got, n)
	}
}
