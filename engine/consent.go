package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// startArgs are start_session's decoded arguments.
type startArgs struct {
	apps           []json.RawMessage
	input          InputMode
	leaseMinutes   int64
	clipboardRead  bool
	clipboardWrite bool
	purpose        string
}

func parseStartArgs(a *Args) (startArgs, *Error) {
	sa := startArgs{input: InputHeadless, leaseMinutes: 30}
	items, ok := a.Array("apps")
	if !ok || len(items) == 0 {
		return sa, Errf(CodeInvalidArguments, "apps must list 1 to 16 app names or pids")
	}
	if len(items) > 16 {
		return sa, Errf(CodeInvalidArguments, "apps must list 1 to 16 app names or pids")
	}
	sa.apps = items
	if v, ok, err := a.StrictEnum("input", string(InputHeadless), string(InputTakeover)); err != nil {
		return sa, err
	} else if ok {
		sa.input = InputMode(v)
	}
	if v, ok, err := a.Int("lease_minutes", 1, 240); err != nil {
		return sa, err
	} else if ok {
		sa.leaseMinutes = v
	}
	sa.clipboardRead = a.Bool("clipboard_read", false)
	sa.clipboardWrite = a.Bool("clipboard_write", false)
	if v, ok, err := a.String("purpose", 120); err != nil {
		return sa, err
	} else if ok {
		sa.purpose = v
	}
	return sa, nil
}

// resolveApps maps the requested names and pids to visible apps' pids. A
// pid or name of an app that did not answer the listing (silent) is
// app_not_responding: it is there, it has no window the driver could see.
func resolveApps(items []json.RawMessage, wins, silent []Window) (map[int]string, *Error) {
	found := map[int]string{}
	for _, raw := range items {
		var pid int
		var name string
		if json.Unmarshal(raw, &pid) == nil && pid > 0 {
			matched := false
			for _, w := range wins {
				if w.Pid == pid {
					found[pid] = w.App
					matched = true
				}
			}
			if !matched && silentPid(silent, int64(pid)) {
				return nil, notAnswering(fmt.Sprintf("pid %d", pid))
			}
			if !matched {
				return nil, Errf(CodeWindowTargetNotFound, "no visible window belongs to pid %d", pid)
			}
			continue
		}
		if json.Unmarshal(raw, &name) != nil || strings.TrimSpace(name) == "" || len(name) > 200 {
			return nil, Errf(CodeInvalidArguments, "each app must be a name or a pid from list_windows")
		}
		matched := false
		for _, w := range wins {
			if strings.EqualFold(w.App, name) {
				found[w.Pid] = w.App
				matched = true
			}
		}
		if !matched && silentApp(silent, name) {
			return nil, notAnswering("the app of that name")
		}
		if !matched {
			return nil, Errf(CodeWindowTargetNotFound, "no visible app has that name")
		}
	}
	return found, nil
}

func startSession(ctx context.Context, c *Conn, a *Args) Result {
	sa, err := parseStartArgs(a)
	if err != nil {
		return Failure(err)
	}
	d := c.d
	var refusal *Capability
	if sa.input == InputTakeover {
		if cp, refused := d.takeoverRefusal(ctx); refused {
			refusal = &cp
		}
	}
	wins, silent, werr := d.windows(ctx)
	if werr != nil {
		return Failure(werr)
	}
	wanted, rerr := resolveApps(sa.apps, wins, silent)
	if rerr != nil {
		return Failure(rerr)
	}

	c.mu.Lock()
	s := c.session
	if s != nil {
		s.mu.Lock()
		stale := s.ended
		s.mu.Unlock()
		if stale {
			s = nil
		}
	}
	if s == nil {
		s = d.newSession(c.id)
		c.session = s
	}
	client := c.client
	c.mu.Unlock()
	// The dialog and the grant end with the session (the kill switch while
	// the person looks at it): the call then answers as the session's end
	// says.
	life := s.lifeScope()
	ctx, unbind := bindCall(ctx, life)
	defer unbind()

	newApps, askTakeover, askClipRead := s.toAsk(ctx, wanted, sa)
	if refusal != nil {
		askTakeover = false
		s.mu.Lock()
		s.tk.reason, s.tk.action = refusal.ReasonCode, refusal.Action
		s.mu.Unlock()
	}
	dialog := len(newApps) > 0 || askTakeover || askClipRead
	if dialog {
		req := ConsentRequest{
			Host:          shownName(client.Name),
			Purpose:       CutEscape(sa.purpose, 120),
			Apps:          newApps,
			Takeover:      askTakeover,
			ClipboardRead: askClipRead,
		}
		if len(req.Apps) == 0 {
			// Asking only for a capability still names the apps it covers.
			s.mu.Lock()
			for _, app := range s.sortedAppsLocked() {
				req.Apps = append(req.Apps, ConsentApp{Pid: app.identity.Pid, Name: shownName(app.name)})
			}
			s.mu.Unlock()
		}
		ans, aerr := d.askConsent(ctx, req)
		if err := endedDuring(life); err != nil {
			return Failure(err)
		}
		if aerr != nil {
			return Failure(aerr)
		}
		if !ans.Allowed {
			d.audit(audit.Record{Event: "consent.denied", Session: s.id})
			return Failure(Errf(CodeConsentDenied, "the person did not allow access"))
		}
		if gerr := s.grant(ctx, ans, newApps, sa); gerr != nil {
			return Failure(gerr)
		}
		if ans.Takeover && askTakeover {
			if terr := s.startTakeover(ctx); terr != nil {
				s.mu.Lock()
				s.tk.reason = "indicator_unavailable"
				s.tk.action = ""
				s.mu.Unlock()
			}
		} else if askTakeover {
			s.mu.Lock()
			s.tk.reason = "not_granted"
			s.tk.action = ""
			s.mu.Unlock()
		}
	} else {
		s.mu.Lock()
		if sa.clipboardWrite {
			s.caps.ClipboardWrite = true
		}
		s.mu.Unlock()
	}
	if sa.input == InputHeadless {
		s.endTakeover("switched_to_headless")
	}
	if len(s.snapshotApps()) == 0 {
		return Failure(Errf(CodeConsentDenied, "no app was allowed"))
	}
	res := s.state()
	res.Dialog = dialog
	res.AccessibilitySwitch = d.enableAccessibility(ctx)
	return Result{Structured: res, Text: sessionText(res)}
}

// toAsk is what a start_session needs the person's answer for: the wanted
// apps the session does not hold (or holds for a process that has since
// gone, its pid reused), the takeover when it is not on, and clipboard
// reading when it is not granted. A lapsed lease holds nothing. The
// session's state is copied under its lock and the processes' identities
// read (from /proc) after, with no lock held.
func (s *Session) toAsk(ctx context.Context, wanted map[int]string, sa startArgs) (apps []ConsentApp, takeover, clipRead bool) {
	s.mu.Lock()
	expired := s.leaseEnd.IsZero() || !s.d.clock.Now().Before(s.leaseEnd)
	held := map[int]ProcessIdentity{}
	if !expired {
		for pid := range wanted {
			if app, ok := s.apps[pid]; ok {
				held[pid] = app.identity
			}
		}
	}
	takeover = sa.input == InputTakeover && !s.tk.on
	clipRead = sa.clipboardRead && (!s.caps.ClipboardRead || expired)
	s.mu.Unlock()

	for pid, name := range wanted {
		if id, ok := held[pid]; ok {
			if live, err := s.d.backend.Process(ctx, pid); err == nil && live == id {
				continue
			}
		}
		apps = append(apps, ConsentApp{Pid: pid, Name: shownName(name)})
	}
	sortConsentApps(apps)
	return apps, takeover, clipRead
}

func sortConsentApps(apps []ConsentApp) {
	slices.SortFunc(apps, func(a, b ConsentApp) int { return cmp.Compare(a.Pid, b.Pid) })
}

func (s *Session) snapshotApps() []approvedApp {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sortedAppsLocked()
}

// askConsent shows the dialog with its own bound; no answer in time is a
// denial.
func (d *Driver) askConsent(ctx context.Context, req ConsentRequest) (ConsentAnswer, *Error) {
	cctx, cancel := context.WithTimeout(ctx, d.opts.ConsentTimeout)
	defer cancel()
	ans, err := d.backend.AskConsent(cctx, req)
	if err != nil {
		if cctx.Err() != nil {
			return ConsentAnswer{}, nil
		}
		return ConsentAnswer{}, AsError(err)
	}
	return ans, nil
}

// grant records what the person allowed and starts the lease.
func (s *Session) grant(ctx context.Context, ans ConsentAnswer, asked []ConsentApp, sa startArgs) *Error {
	ticked := map[int]bool{}
	for _, p := range ans.Pids {
		ticked[p] = true
	}
	type ided struct {
		app approvedApp
	}
	var add []ided
	for _, app := range asked {
		if !ticked[app.Pid] {
			continue
		}
		id, err := s.d.backend.Process(ctx, app.Pid)
		if err != nil {
			return AsError(err)
		}
		add = append(add, ided{approvedApp{identity: id, name: app.Name}})
	}
	now := s.d.clock.Now()
	s.mu.Lock()
	if s.leaseEnd.IsZero() || !now.Before(s.leaseEnd) {
		// A lapsed grant is replaced whole, and so are the calls it ran
		// (callscope.go): none of them outlives it.
		s.apps = map[int]approvedApp{}
		s.caps = ConsentedCapabilities{}
		if !s.leaseEnd.IsZero() {
			s.endGrant(leaseEnded(s.id))
			s.granted, s.endGrant = context.WithCancelCause(s.life)
		}
	}
	for _, a := range add {
		s.apps[a.app.identity.Pid] = a.app
	}
	s.leaseEnd = now.Add(time.Duration(sa.leaseMinutes) * time.Minute)
	if s.stopLease != nil {
		s.stopLease()
	}
	s.stopLease = s.d.clock.AfterFunc(s.leaseEnd.Sub(now), s.leaseRanOut)
	if ans.ClipboardRead {
		s.caps.ClipboardRead = true
	}
	if sa.clipboardWrite {
		s.caps.ClipboardWrite = true
	}
	if ans.Takeover {
		s.caps.Takeover = true
	}
	n := len(s.apps)
	s.mu.Unlock()
	s.d.audit(audit.Record{Event: "consent.granted", Session: s.id, Apps: len(add)})
	s.d.audit(audit.Record{Event: "session.started", Session: s.id, Apps: n})
	s.d.emit(HostEvent{Event: "session.started", Session: s.id})
	return nil
}

func getSessionState(ctx context.Context, c *Conn, a *Args) Result {
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	res := s.state()
	return Result{Structured: res, Text: sessionText(res)}
}

func endSessionTool(ctx context.Context, c *Conn, a *Args) Result {
	s, err := c.sessionFor()
	if err != nil {
		return Failure(err)
	}
	c.d.endSession(s, "ended_by_model")
	c.mu.Lock()
	c.session = nil
	c.mu.Unlock()
	res := EndSessionResult{OK: true, Session: s.id, Ended: true}
	return Result{Structured: res, Text: "session " + s.id + " ended"}
}

// sessionText is the compact text form of a session state.
func sessionText(r SessionResult) string {
	var b strings.Builder
	b.WriteString("session ")
	b.WriteString(r.Session)
	b.WriteString(" input=")
	b.WriteString(string(r.Input))
	if r.Takeover.On {
		b.WriteString(" takeover=on")
	}
	if r.Takeover.Paused {
		b.WriteString(" paused=" + string(r.Takeover.PausedReason))
	}
	if r.Takeover.Reason != "" {
		b.WriteString(" takeover_reason=" + r.Takeover.Reason)
	}
	if r.Lease != nil {
		b.WriteString(" lease_remaining_s=")
		b.WriteString(itoa(int(r.Lease.RemainingS)))
	}
	if r.AccessibilitySwitch != "" {
		b.WriteString(" accessibility_switch=" + r.AccessibilitySwitch)
	}
	b.WriteString(" apps:")
	for _, a := range r.Apps {
		b.WriteString(" ")
		b.WriteString(quote(a.App))
		b.WriteString("/")
		b.WriteString(itoa(a.Pid))
	}
	return b.String()
}
