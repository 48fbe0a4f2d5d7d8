// Command checkdoctor checks a `nish-driver doctor --json` report read from
// standard input: it must validate against the doctor schema, say whether
// the desktop is ready as expected, and name the expected reason for each
// backend given. The package's clean-install test (ci/deb-install-test.sh)
// runs it on the report of the installed binary.
//
//	checkdoctor -ready=false -reason x11=display_unreachable < report.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/nish-driver/nish-driver/schema"
)

// reasons collects -reason BACKEND=CODE flags.
type reasons map[string]string

func (r reasons) String() string { return fmt.Sprint(map[string]string(r)) }

func (r reasons) Set(v string) error {
	id, code, ok := strings.Cut(v, "=")
	if !ok || id == "" || code == "" {
		return fmt.Errorf("want BACKEND=REASON_CODE, got %q", v)
	}
	r[id] = code
	return nil
}

func main() {
	wantReady := flag.Bool("ready", false, "whether the report must say the desktop is ready")
	want := reasons{}
	flag.Var(want, "reason", "BACKEND=REASON_CODE the report must give (repeatable)")
	flag.Parse()
	report, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkdoctor:", err)
		os.Exit(2)
	}
	if err := check(report, *wantReady, want); err != nil {
		fmt.Fprintln(os.Stderr, "checkdoctor:", err)
		os.Exit(1)
	}
	fmt.Println("checkdoctor: the report validates and says what was expected")
}

// check validates report and compares its readiness and reasons.
func check(report []byte, wantReady bool, want reasons) error {
	if err := schema.ValidateDoctor(json.RawMessage(report)); err != nil {
		return fmt.Errorf("the report does not validate: %w", err)
	}
	var r struct {
		Ready    bool `json:"ready"`
		Backends []struct {
			ID         string  `json:"id"`
			ReasonCode *string `json:"reason_code"`
		} `json:"backends"`
	}
	if err := json.Unmarshal(report, &r); err != nil {
		return err
	}
	var problems []string
	if r.Ready != wantReady {
		problems = append(problems, fmt.Sprintf("ready is %v, want %v", r.Ready, wantReady))
	}
	got := map[string]string{}
	for _, b := range r.Backends {
		if b.ReasonCode != nil {
			got[b.ID] = *b.ReasonCode
		}
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if got[id] != want[id] {
			problems = append(problems, fmt.Sprintf("backend %s: reason %q, want %q", id, got[id], want[id]))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}
