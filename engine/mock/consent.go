package mock

import (
	"context"
	"slices"

	"github.com/nish-driver/nish-driver/engine"
)

// ConsentPolicy is how the scripted person answers the consent dialog. It
// returns the answer and true, or false to leave the dialog unanswered (then
// only AnswerConsent or the dialog's context ending closes it). A policy may
// block (to model a slow person); AskConsent still ends with its context.
//
// Whatever a policy returns, the dialog only lets the person tick lines it
// shows: pids outside the request are dropped, and Takeover and
// ClipboardRead count only when the request showed those lines. A denial
// carries nothing ticked.
type ConsentPolicy func(req engine.ConsentRequest) (ans engine.ConsentAnswer, answered bool)

// AllowAll ticks every app line, and the takeover and clipboard lines when
// the dialog shows them, then clicks Allow.
func AllowAll(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
	return engine.ConsentAnswer{Allowed: true, Pids: requestPids(req), Takeover: req.Takeover, ClipboardRead: req.ClipboardRead}, true
}

// AllowAppsOnly ticks every app line but leaves takeover and clipboard
// reading unticked, then clicks Allow.
func AllowAppsOnly(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
	return engine.ConsentAnswer{Allowed: true, Pids: requestPids(req)}, true
}

// Deny clicks Deny.
func Deny(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
	return engine.ConsentAnswer{}, true
}

// Ignore never answers: AskConsent blocks until its context ends and then
// returns a denial (Allowed false) with a nil error, as the real dialog
// does when its 120 s run out. AnswerConsent can still answer it.
func Ignore(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
	return engine.ConsentAnswer{}, false
}

// AllowOnly ticks just the listed pids' lines (and no takeover or
// clipboard line), then clicks Allow.
func AllowOnly(pids ...int) ConsentPolicy {
	return func(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
		var keep []int
		for _, p := range requestPids(req) {
			if slices.Contains(pids, p) {
				keep = append(keep, p)
			}
		}
		return engine.ConsentAnswer{Allowed: true, Pids: keep}, true
	}
}

// AllowWith ticks every app line, and the takeover and clipboard lines as
// given (when shown), then clicks Allow.
func AllowWith(takeover, clipboardRead bool) ConsentPolicy {
	return func(req engine.ConsentRequest) (engine.ConsentAnswer, bool) {
		return engine.ConsentAnswer{Allowed: true, Pids: requestPids(req), Takeover: takeover, ClipboardRead: clipboardRead}, true
	}
}

func requestPids(req engine.ConsentRequest) []int {
	out := make([]int, 0, len(req.Apps))
	for _, a := range req.Apps {
		out = append(out, a.Pid)
	}
	return out
}

// dialog is one consent dialog on screen.
type dialog struct {
	answer chan engine.ConsentAnswer // buffered 1: the first answer wins
}

// SetConsent sets how the person answers consent dialogs from now on (nil
// means Ignore). New desktops ignore the dialog; NewDemo's allow all.
func (d *Desktop) SetConsent(p ConsentPolicy) {
	if p == nil {
		p = Ignore
	}
	d.mu.Lock()
	d.consent = p
	d.mu.Unlock()
}

// AskConsent shows the dialog and waits for the person's answer or the
// context's end, which is a denial (Allowed false, nil error). The request
// is recorded (ConsentRequests).
func (d *Desktop) AskConsent(ctx context.Context, req engine.ConsentRequest) (engine.ConsentAnswer, error) {
	i := d.record(Call{Method: "AskConsent"})
	d.mu.Lock()
	if d.unavailable {
		d.mu.Unlock()
		err := errUnavailable()
		d.finish(i, err)
		return engine.ConsentAnswer{}, err
	}
	kept := req
	kept.Apps = append([]engine.ConsentApp(nil), req.Apps...)
	d.consentReqs = append(d.consentReqs, kept)
	dl := &dialog{answer: make(chan engine.ConsentAnswer, 1)}
	d.dialogs = append(d.dialogs, dl)
	policy := d.consent
	d.mu.Unlock()

	go func() {
		if ans, ok := policy(kept); ok {
			select {
			case dl.answer <- ans:
			default:
			}
		}
	}()
	var ans engine.ConsentAnswer
	select {
	case ans = <-dl.answer:
	case <-ctx.Done():
	}

	d.mu.Lock()
	d.dialogs = slices.DeleteFunc(d.dialogs, func(x *dialog) bool { return x == dl })
	d.mu.Unlock()
	d.finish(i, nil)
	return shown(ans, req), nil
}

// shown keeps only what the dialog let the person tick.
func shown(ans engine.ConsentAnswer, req engine.ConsentRequest) engine.ConsentAnswer {
	if !ans.Allowed {
		return engine.ConsentAnswer{}
	}
	asked := requestPids(req)
	out := engine.ConsentAnswer{
		Allowed:       true,
		Takeover:      ans.Takeover && req.Takeover,
		ClipboardRead: ans.ClipboardRead && req.ClipboardRead,
	}
	for _, p := range ans.Pids {
		if slices.Contains(asked, p) && !slices.Contains(out.Pids, p) {
			out.Pids = append(out.Pids, p)
		}
	}
	return out
}

// AnswerConsent answers the oldest open consent dialog by hand (a person
// clicking); it reports whether a dialog was open.
func (d *Desktop) AnswerConsent(ans engine.ConsentAnswer) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dl := range d.dialogs {
		select {
		case dl.answer <- ans:
			return true
		default: // already answered, closing
		}
	}
	return false
}

// OpenConsents is the number of consent dialogs on screen.
func (d *Desktop) OpenConsents() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.dialogs)
}

// ConsentRequests returns every consent request shown so far, oldest first.
func (d *Desktop) ConsentRequests() []engine.ConsentRequest {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]engine.ConsentRequest, len(d.consentReqs))
	for i, r := range d.consentReqs {
		r.Apps = append([]engine.ConsentApp(nil), r.Apps...)
		out[i] = r
	}
	return out
}
