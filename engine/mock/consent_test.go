package mock

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/internal/testkit"
)

func TestConsentPolicies(t *testing.T) {
	full := engine.ConsentRequest{
		Host: "host", Purpose: "testing",
		Apps:     []engine.ConsentApp{{Pid: 4000, Name: "Form Demo"}, {Pid: 4001, Name: "Editor"}},
		Takeover: true, ClipboardRead: true,
	}
	appsOnly := full
	appsOnly.Takeover, appsOnly.ClipboardRead = false, false
	cases := []struct {
		name   string
		policy ConsentPolicy
		req    engine.ConsentRequest
		want   engine.ConsentAnswer
	}{
		{"allow all", AllowAll, full, engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 4001}, Takeover: true, ClipboardRead: true}},
		{"allow all without the lines", AllowAll, appsOnly, engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 4001}}},
		{"apps only", AllowAppsOnly, full, engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 4001}}},
		{"deny", Deny, full, engine.ConsentAnswer{}},
		{"allow only one", AllowOnly(4001), full, engine.ConsentAnswer{Allowed: true, Pids: []int{4001}}},
		{"allow with takeover", AllowWith(true, false), full, engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 4001}, Takeover: true}},
		{"cannot tick a line not shown", AllowWith(true, true), appsOnly, engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 4001}}},
		{"cannot tick an app not asked", func(engine.ConsentRequest) (engine.ConsentAnswer, bool) {
			return engine.ConsentAnswer{Allowed: true, Pids: []int{4000, 9999}}, true
		}, full, engine.ConsentAnswer{Allowed: true, Pids: []int{4000}}},
		{"a denial carries nothing", func(engine.ConsentRequest) (engine.ConsentAnswer, bool) {
			return engine.ConsentAnswer{Pids: []int{4000}, Takeover: true}, true
		}, full, engine.ConsentAnswer{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := New()
			d.SetConsent(c.policy)
			got, err := d.AskConsent(testCtx(t), c.req)
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("answer %+v %v, want %+v", got, err, c.want)
			}
			reqs := d.ConsentRequests()
			if len(reqs) != 1 || !reflect.DeepEqual(reqs[0], c.req) {
				t.Errorf("recorded %+v", reqs)
			}
		})
	}
}

func TestIgnoredConsentIsADenialAtTheDeadline(t *testing.T) {
	d := New() // ignores by default
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ans, err := d.AskConsent(ctx, engine.ConsentRequest{Apps: []engine.ConsentApp{{Pid: 1}}})
	if err != nil || ans.Allowed || ans.Pids != nil {
		t.Fatalf("answer %+v %v", ans, err)
	}
	// It answered because the deadline passed, not before.
	if ctx.Err() == nil {
		t.Error("an ignored dialog returned before its deadline")
	}
	if d.OpenConsents() != 0 {
		t.Error("dialog still open")
	}
	if c := d.CallsOf("AskConsent"); len(c) != 1 || !c[0].Done || c[0].Code != "" {
		t.Errorf("calls %+v", c)
	}
}

func TestManualConsentAnswer(t *testing.T) {
	d := New()
	d.SetConsent(Ignore)
	if d.AnswerConsent(engine.ConsentAnswer{Allowed: true}) {
		t.Fatal("answered a dialog that is not open")
	}
	done := make(chan engine.ConsentAnswer, 1)
	go func() {
		ans, _ := d.AskConsent(testCtx(t), engine.ConsentRequest{Apps: []engine.ConsentApp{{Pid: 7}}, Takeover: true})
		done <- ans
	}()
	testkit.Eventually(t, 10*time.Second, "the dialog is open", func() bool { return d.OpenConsents() != 0 })
	if !d.AnswerConsent(engine.ConsentAnswer{Allowed: true, Pids: []int{7}, Takeover: true}) {
		t.Fatal("no open dialog")
	}
	if ans := testkit.Receive(t, done, 30*time.Second, "the answer"); !ans.Allowed || !ans.Takeover || len(ans.Pids) != 1 {
		t.Errorf("answer %+v", ans)
	}
}

// TestSlowPersonLosesToTheDeadline: a person who allows only after the
// dialog's deadline has passed is a denial. The person answers once
// AskConsent has returned, so the answer is late however slow the machine.
func TestSlowPersonLosesToTheDeadline(t *testing.T) {
	d := New()
	returned := make(chan struct{})
	d.SetConsent(func(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
		<-returned
		return AllowAll(req)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	ans, err := d.AskConsent(ctx, engine.ConsentRequest{Apps: []engine.ConsentApp{{Pid: 1}}})
	close(returned)
	if err != nil || ans.Allowed {
		t.Errorf("answer %+v %v", ans, err)
	}
}

func TestDemoAllowsAll(t *testing.T) {
	d := NewDemo()
	ans, err := d.AskConsent(testCtx(t), engine.ConsentRequest{Apps: []engine.ConsentApp{{Pid: 4000}}, ClipboardRead: true})
	if err != nil || !ans.Allowed || !ans.ClipboardRead {
		t.Errorf("answer %+v %v", ans, err)
	}
}
