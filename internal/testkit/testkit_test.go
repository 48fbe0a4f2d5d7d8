package testkit

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestPollWaitsForTheConditionAndGivesUpAtTheTimeout(t *testing.T) {
	var n atomic.Int32
	if !Poll(10*time.Second, func() bool { return n.Add(1) >= 3 }) {
		t.Fatal("a condition that holds on the third check was not met")
	}
	if got := n.Load(); got != 3 {
		t.Errorf("checked %d times, want 3 (no check after it held)", got)
	}
	start := time.Now()
	if Poll(20*time.Millisecond, func() bool { return false }) {
		t.Fatal("a condition that never holds was met")
	}
	if took := time.Since(start); took < 20*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", took)
	}
}

func TestAwaitReturnsTheFirstValueWithoutError(t *testing.T) {
	var n atomic.Int32
	got := Await(t, 10*time.Second, "the third value", func() (int32, error) {
		if v := n.Add(1); v >= 3 {
			return v, nil
		}
		return 0, errors.New("not yet")
	})
	if got != 3 {
		t.Errorf("Await = %d, want 3", got)
	}
}

func TestReceiveReturnsTheValueOrFailsAfterTheBound(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Receive(t, ch, 10*time.Second, "the value"); got != 7 {
		t.Errorf("Receive = %d, want 7", got)
	}
	got := failure(t, func(t testing.TB) { Receive(t, ch, time.Millisecond, "a value never sent") })
	if !strings.Contains(got, "a value never sent has not come after 1ms") {
		t.Errorf("Receive of nothing failed with %q", got)
	}
}

func TestSyncBufferKeepsEveryWrite(t *testing.T) {
	var b SyncBuffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			b.Write([]byte("x"))
		}
	}()
	<-done
	if got := len(b.String()); got != 100 {
		t.Errorf("%d bytes kept of 100 written", got)
	}
}

func TestRowLookups(t *testing.T) {
	read := Decode(t, map[string]any{"elements": []any{
		map[string]any{"element_token": "s1:0", "role": "frame", "label": "Form"},
		map[string]any{"element_token": "s1:1", "role": "push_button", "label": "Save"},
		map[string]any{"element_token": "s1:2", "role": "push_button", "label": "Quit"},
	}})
	cases := []struct {
		role, label string
		want        string // "" for no row
	}{
		{"push_button", "Quit", "s1:2"},
		{"push_button", "", "s1:1"},
		{"push_button", "Open", ""},
		{"label", "", ""},
	}
	for _, tc := range cases {
		row, ok := FindRow(read, tc.role, tc.label)
		if got, _ := row["element_token"].(string); ok != (tc.want != "") || got != tc.want {
			t.Errorf("FindRow(%s, %q) = %v, %v; want %q", tc.role, tc.label, row, ok, tc.want)
		}
	}
	if got := Token(t, read, "push_button", "Quit"); got != "s1:2" {
		t.Errorf("Token = %q", got)
	}
	// Several roles: the first row in the read's order with any of them,
	// whichever role comes first in the list.
	several := []struct {
		label string
		roles []string
		want  string // "" for no row
	}{
		{"", []string{"push_button", "frame"}, "s1:0"},
		{"Quit", []string{"frame", "push_button"}, "s1:2"},
		{"", []string{"label", "push_button"}, "s1:1"},
		{"", []string{"label", "table"}, ""},
		{"", nil, ""},
	}
	for _, tc := range several {
		row, ok := FindRowOf(read, tc.label, tc.roles...)
		if got, _ := row["element_token"].(string); ok != (tc.want != "") || got != tc.want {
			t.Errorf("FindRowOf(%q, %v) = %v, %v; want %q", tc.label, tc.roles, row, ok, tc.want)
		}
	}
}

func TestRowLinesIgnoreTheSnapshotAndOrder(t *testing.T) {
	row := func(tok, label string) any {
		return map[string]any{"element_token": tok, "role": "label", "label": label}
	}
	a := RowLines([]any{row("s1:0", "a"), row("s1:1", "b")})
	b := RowLines([]any{row("s9:1", "b"), row("s9:0", "a")})
	if !slices.Equal(a, b) {
		t.Errorf("the same rows under another snapshot, in another order, differ:\n%q\n%q", a, b)
	}
	if c := RowLines([]any{row("s1:0", "a"), row("s1:1", "c")}); slices.Equal(a, c) {
		t.Error("rows with another label compare equal")
	}
}

func TestRepoPathsAreFoundFromTheTop(t *testing.T) {
	top := RepoDir(t)
	for _, c := range []struct{ got, want string }{
		{RepoPath(t, "internal/testkit/repo.go"), top + "/internal/testkit/repo.go"},
		{RepoPath(t, "docs"), top + "/docs"},
		{Fixture(t, "synthetic.py"), top + "/" + FixtureDir + "/synthetic.py"},
		{Fixture(t, "web/form.html"), top + "/" + FixtureDir + "/web/form.html"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// TestTheFixturesHoldThePasswordCanary: each fixture's password field is
// set to PasswordCanary, the string the leak checks look for.
func TestTheFixturesHoldThePasswordCanary(t *testing.T) {
	for _, c := range []struct{ fixture, sets string }{
		{"synthetic.py", `CANARY = "` + PasswordCanary + `"`},
		{"synthetic.py", "password.set_visibility(False)\n    password.set_text(CANARY)"},
		{"web/form.html", `type="password" value="` + PasswordCanary + `"`},
	} {
		b, err := os.ReadFile(Fixture(t, c.fixture))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.sets) {
			t.Errorf("%s does not hold %q: its password is not the canary the leak checks look for", c.fixture, c.sets)
		}
	}
}

// fatalTB is a testing.TB whose Fatal ends only the goroutine it runs in,
// keeping the message, so a test can check what a helper fails with.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// failure runs fn on a fatalTB and returns what it failed with ("" when
// it did not fail).
func failure(t *testing.T, fn func(t testing.TB)) string {
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.msg
}

// TestResultAccessorsFailWithAMessage: a failed read (nil), a read of
// another shape and a missing field fail the test saying what is missing,
// never a panic; a good read gives its rows and fields.
func TestResultAccessorsFailWithAMessage(t *testing.T) {
	good := Decode(t, map[string]any{"elements": []any{
		map[string]any{"element_token": "s1:0", "role": "frame", "label": "Form"},
	}})
	cases := []struct {
		name string
		get  func(t testing.TB)
		want string // in the failure; "" for none
	}{
		{"rows of a good read", func(t testing.TB) {
			if rows := Rows(t, good); len(rows) != 1 || rows[0]["role"] != "frame" {
				t.Fatalf("rows %v", rows)
			}
		}, ""},
		{"rows of a failed read", func(t testing.TB) { Rows(t, nil) }, "the read failed"},
		{"rows of a read without elements", func(t testing.TB) { Rows(t, map[string]any{"error": "x"}) }, "no list of elements"},
		{"rows that are not objects", func(t testing.TB) { Rows(t, map[string]any{"elements": []any{"s1:0"}}) }, "element 0 of the read is string"},
		{"a field of the right type", func(t testing.TB) {
			if got := Field[string](t, Rows(t, good)[0], "element_token"); got != "s1:0" {
				t.Fatalf("token %q", got)
			}
		}, ""},
		{"a missing field", func(t testing.TB) { Field[string](t, Rows(t, good)[0], "value") }, `no string "value"`},
		{"a field of another type", func(t testing.TB) { Field[float64](t, Rows(t, good)[0], "label") }, `no float64 "label" (it is string)`},
		{"the token of a missing row", func(t testing.TB) { Token(t, good, "push_button", "Save") }, `no push_button "Save" row`},
	}
	for _, tc := range cases {
		got := failure(t, tc.get)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: failed with %q, want %q", tc.name, got, tc.want)
		}
	}
}
