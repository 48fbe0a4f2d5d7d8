package engine

import (
	"context"
	"slices"
	"time"

	"github.com/nish-driver/nish-driver/engine/audit"
)

// The takeover state machine (docs/contract.md#takeover,
// docs/contract.md#hand-back).
//
//	headless ──grant+indicator──▶ takeover(active) ──person's input──▶ takeover(paused)
//	     ▲                             │    ▲                              │
//	     └──end / lease / lost / ──────┘    └──Continue click / host's─────┘
//	        kill switch / headless               takeover.resume
//
// Paused belongs to the session, not to the indicator: start_session
// {input: "headless"} while paused ends the takeover but the session stays
// paused (its acts refused) until the host resumes it or a new takeover's
// indicator, which comes up paused, gets its Continue click.
type takeover struct {
	on           bool
	indicator    Indicator
	paused       bool
	pausedReason PauseReason
	reason       string // why takeover is off or ended, once it was asked for
	action       string // what to do about reason, when the desktop refused the takeover
	stopWatch    context.CancelFunc

	// The send log: what the driver itself sent, so the watcher can tell
	// the person's input from the driver's.
	ref       Point      // where the driver last put the pointer (8 px rule)
	presses   []logEntry // presses sent and not yet seen by the watcher
	held      []InputEvent
	lastPress time.Time // the driver's last button press (the 1.5 s rule)

	// The Continue click's own press reaches the input watcher on another
	// connection than the click reaches the indicator, so it can arrive
	// after the resume it caused. lastLeft is when the watcher last
	// reported a left press (paused or not); a resume by the indicator
	// with no left press reported shortly before it expects that press
	// late and lets one through until continueLate.
	lastLeft     time.Time
	continueLate time.Time

	// resumedAt is when the last resume happened, on the engine's clock
	// (which RawInput.Time is on too). The watcher reads
	// events (and the pointer's position with them) on its own connection
	// and hands them on a little later; an event it read before the resume
	// tells of the time before it and is not judged against the new state.
	resumedAt time.Time
}

type logEntry struct {
	kind   InputKind
	key    string
	char   rune
	button int
	at     time.Time
}

// PauseReason is what the person did that paused a takeover; its value is
// the wire string.
type PauseReason string

// Paused reasons on the wire.
const (
	PausedPointerMoved  PauseReason = "pointer_moved"
	PausedKeyPressed    PauseReason = "key_pressed"
	PausedButtonPressed PauseReason = "button_pressed"
)

// handbackRadius is the 8 px rule: the pointer further than this on either
// axis from where the driver put it is the person's doing.
const handbackRadius = 8

// driverPressQuiet: a press on the driver's own controls (the consent
// dialog's, the indicator's Continue) within this long after the driver's
// own button press never counts: it could be the driver's.
const driverPressQuiet = 1500 * time.Millisecond

// DriverPressedRecently reports whether a press at now falls within the
// quiet after the driver's own last button press (last; zero: never), so
// that it could be the driver's and must not answer the driver's own
// controls. The engine holds the indicator's Continue to it, and a
// backend's consent dialog and indicator take it as their rule.
func DriverPressedRecently(last, now time.Time) bool {
	return !last.IsZero() && now.Sub(last) < driverPressQuiet
}

// SendLogWindow is how long the send log keeps the driver's own presses
// for matching the raw input they come back as: a press not reported
// within it never will be. A backend that pairs echoes of its own keeps
// them as long (native/takeover_echo.go).
const SendLogWindow = 2 * time.Second

// continueClickLag bounds how far the Continue click's own press may be
// reported from the resume it caused, on either side.
const continueClickLag = time.Second

func (t *takeover) stateLocked() TakeoverState {
	return TakeoverState{On: t.on, Indicator: t.on && t.indicator != nil, Paused: t.paused, PausedReason: t.pausedReason, Reason: t.reason, Action: t.action}
}

// startTakeover shows the indicator and starts the input watcher. No
// indicator, no takeover.
func (s *Session) startTakeover(ctx context.Context) *Error {
	s.mu.Lock()
	if s.tk.on {
		s.mu.Unlock()
		return nil
	}
	paused := s.tk.paused
	s.mu.Unlock()

	ind, err := s.d.backend.ShowIndicator(ctx, paused)
	if err != nil {
		return Wrap(CodeBackendUnavailable, err, "the takeover indicator could not be shown")
	}
	ref, perr := s.d.backend.Pointer(ctx)
	if perr != nil {
		ind.Remove()
		return AsError(perr)
	}
	wctx, cancel := context.WithCancel(context.Background())
	if err := s.d.backend.WatchInput(wctx, s.onRawInput); err != nil {
		cancel()
		ind.Remove()
		return Wrap(CodeBackendUnavailable, err, "the input watcher could not start")
	}
	s.mu.Lock()
	s.tk.on = true
	s.tk.indicator = ind
	s.tk.reason = ""
	s.tk.action = ""
	s.tk.stopWatch = cancel
	s.tk.ref = ref
	s.tk.presses = nil
	s.input = InputTakeover
	s.mu.Unlock()
	go s.watchIndicator(ind)
	s.placeIndicatorOnApps(ctx, ind)
	s.d.audit(audit.Record{Event: "takeover.started", Session: s.id})
	return nil
}

// placeIndicatorOnApps puts the indicator's label on the monitor of the
// topmost window of the session's apps. It is best effort: without that
// window the label stays on the primary monitor.
func (s *Session) placeIndicatorOnApps(ctx context.Context, ind Indicator) {
	s.mu.Lock()
	pids := map[int]bool{}
	for _, a := range s.apps {
		pids[a.identity.Pid] = true
	}
	s.mu.Unlock()
	wins, _, err := s.d.windowsFor(ctx, targetArgs{hasPid: true})
	if err != nil {
		return
	}
	for _, w := range wins { // topmost first
		if pids[w.Pid] && w.OnScreen && w.Frame.W > 0 && w.Frame.H > 0 {
			_ = ind.Place(w.Frame)
			return
		}
	}
}

// placeIndicatorAt moves the label to the monitor of the point the driver
// is about to press at: the target of the act, so the person sees the
// label (and Continue, once paused) where the driver works. Like a send,
// it returns when ctx ends even if the indicator's display has not
// answered.
func (s *Session) placeIndicatorAt(ctx context.Context, at Point) {
	s.mu.Lock()
	ind := s.tk.indicator
	s.mu.Unlock()
	if ind == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_ = ind.Place(Rect{X: at.X, Y: at.Y, W: 1, H: 1})
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// watchIndicator turns the indicator's events into resumes and ends.
func (s *Session) watchIndicator(ind Indicator) {
	for ev := range ind.Events() {
		switch ev.Kind {
		case IndicatorContinue:
			s.mu.Lock()
			tooSoon := DriverPressedRecently(s.tk.lastPress, s.d.clock.Now())
			current := s.tk.indicator == ind
			s.mu.Unlock()
			if current && !tooSoon {
				s.resume("indicator")
			}
		case IndicatorLost:
			s.mu.Lock()
			current := s.tk.indicator == ind
			s.mu.Unlock()
			if current {
				s.endTakeover("indicator_lost")
			}
		}
	}
}

// endTakeover removes the indicator, stops the watcher and releases
// anything the driver holds. Paused stays as it is.
func (s *Session) endTakeover(reason string) {
	s.mu.Lock()
	if !s.tk.on {
		s.mu.Unlock()
		return
	}
	ind, stop := s.tk.indicator, s.tk.stopWatch
	s.tk.on = false
	s.tk.indicator = nil
	s.tk.stopWatch = nil
	s.tk.reason = reason
	s.tk.action = ""
	s.input = InputHeadless
	s.mu.Unlock()
	if ind != nil {
		ind.Remove()
	}
	if stop != nil {
		stop()
	}
	s.releaseHeld()
	s.d.audit(audit.Record{Event: "takeover.ended", Session: s.id, Reason: reason})
	s.d.emit(HostEvent{Event: "takeover.ended", Session: s.id, Reason: reason})
}

// pause hands the computer back to the person.
func (s *Session) pause(reason PauseReason) {
	s.mu.Lock()
	if s.tk.paused || !s.tk.on {
		s.mu.Unlock()
		return
	}
	s.tk.paused = true
	s.tk.pausedReason = reason
	ind := s.tk.indicator
	s.mu.Unlock()
	s.releaseHeld()
	if ind != nil {
		_ = ind.SetPaused(true)
	}
	s.d.audit(audit.Record{Event: "takeover.paused", Session: s.id, Reason: string(reason)})
	s.d.emit(HostEvent{Event: "takeover.paused", Session: s.id, Reason: string(reason)})
}

// resume ends a pause. Only the indicator's Continue (a real click) and the
// host's takeover.resume call it; no tool can. Every earlier token is stale
// afterwards.
func (s *Session) resume(by string) bool {
	s.mu.Lock()
	if !s.tk.paused || s.ended {
		s.mu.Unlock()
		return false
	}
	s.tk.paused = false
	s.tk.pausedReason = ""
	s.epoch++
	s.tk.continueLate = time.Time{}
	now := s.d.clock.Now()
	s.tk.resumedAt = now
	if by == "indicator" && (s.tk.lastLeft.IsZero() || now.Sub(s.tk.lastLeft) > continueClickLag) {
		s.tk.continueLate = now.Add(continueClickLag)
	}
	ind := s.tk.indicator
	s.mu.Unlock()
	if ind != nil {
		_ = ind.SetPaused(false)
	}
	if p, err := s.d.backend.Pointer(context.Background()); err == nil {
		s.mu.Lock()
		s.tk.ref = p
		s.mu.Unlock()
	}
	s.d.audit(audit.Record{Event: "takeover.resumed", Session: s.id, By: by})
	s.d.emit(HostEvent{Event: "takeover.resumed", Session: s.id, By: by})
	return true
}

// TakeoverResume is the host's takeover.resume (part of HostCommands).
func (d *Driver) TakeoverResume(id string) []string {
	resumed := []string{}
	for _, s := range d.liveSessions() {
		if (id == "" || s.id == id) && s.resume("host") {
			resumed = append(resumed, s.id)
		}
	}
	return resumed
}

// onRawInput is the watcher's sink: input that is not in the send log is the
// person's, and pauses the takeover at once.
func (s *Session) onRawInput(ev RawInput) {
	now := s.d.clock.Now()
	s.mu.Lock()
	if ev.Kind == InputButtonPress && ev.Button == 1 {
		s.tk.lastLeft = now
	}
	if !s.tk.on || s.tk.paused || (!ev.Time.IsZero() && ev.Time.Before(s.tk.resumedAt)) {
		s.mu.Unlock()
		return
	}
	var reason PauseReason
	switch ev.Kind {
	case InputKeyPress, InputButtonPress:
		switch {
		case s.tk.consumeLocked(ev, now):
		case ev.Kind == InputButtonPress && ev.Button == 1 && now.Before(s.tk.continueLate):
			s.tk.continueLate = time.Time{} // the Continue click's own press, late
		case ev.Kind == InputButtonPress:
			reason = PausedButtonPressed
		default:
			reason = PausedKeyPressed
		}
	case InputMotion:
		if farFrom(ev.At, s.tk.ref) {
			reason = PausedPointerMoved
		}
	}
	s.mu.Unlock()
	if reason != "" {
		s.pause(reason)
	}
}

// consumeLocked matches a raw press against the send log.
func (t *takeover) consumeLocked(ev RawInput, now time.Time) bool {
	kept := t.presses[:0]
	found := false
	for _, p := range t.presses {
		if now.Sub(p.at) > SendLogWindow {
			continue
		}
		if !found && p.kind == ev.Kind && p.button == ev.Button && p.key == ev.Key && p.char == ev.Char {
			found = true
			continue
		}
		kept = append(kept, p)
	}
	t.presses = kept
	return found
}

func farFrom(a, b Point) bool {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx > handbackRadius || dx < -handbackRadius || dy > handbackRadius || dy < -handbackRadius
}

// handbackCheck is the check before every synthetic call: still in
// takeover, not paused, the lease valid, and the pointer where the driver
// left it.
func (s *Session) handbackCheck(ctx context.Context) *Error {
	if err := s.checkLease(); err != nil {
		return err
	}
	s.mu.Lock()
	on, paused, reason, ref := s.tk.on, s.tk.paused, s.tk.pausedReason, s.tk.ref
	s.mu.Unlock()
	if paused {
		return tookOver(reason, EffectStopped)
	}
	if !on {
		return Errf(CodeRequiresTakeover, "the takeover ended")
	}
	p, err := s.d.backend.Pointer(ctx)
	if err != nil {
		return AsError(err)
	}
	if farFrom(p, ref) {
		s.pause(PausedPointerMoved)
		return tookOver(PausedPointerMoved, EffectStopped)
	}
	return nil
}

func tookOver(reason PauseReason, effect Effect) *Error {
	e := Errf(CodeUserTookOver, "the person took control")
	e.PausedReason = reason
	e.Effect = effect
	return e
}

// synth sends one synthetic event after the hand-back check, logging it
// first so the watcher knows it for the driver's own.
//
// A release is not checked: letting go of what the driver holds is always
// safe, and the character or click its press began is then complete. A
// release of something no longer held (the pause or the takeover's end
// already released it) sends nothing.
func (s *Session) synth(ctx context.Context, ev InputEvent) *Error {
	if ev.Kind == InputButtonPress || ev.Kind == InputButtonRelease {
		if ev.Button == 2 {
			return Errf(CodeInvalidArguments, "the middle button is never sent")
		}
	}
	if ev.Kind == InputKeyRelease || ev.Kind == InputButtonRelease {
		s.mu.Lock()
		held := s.tk.dropHeldLocked(ev)
		s.mu.Unlock()
		if !held {
			return nil
		}
		return s.sendBounded(ctx, ev)
	}
	if ctx.Err() != nil {
		// The call ended (its session did, say): nothing more is pressed.
		return Errf(CodeAppNotResponding, "the call was cancelled")
	}
	if err := s.handbackCheck(ctx); err != nil {
		return err
	}
	now := s.d.clock.Now()
	s.mu.Lock()
	if !s.tk.on && (ev.Kind == InputKeyPress || ev.Kind == InputButtonPress) {
		// The takeover ended after the checks above: its end has already
		// released what was held, and a press made now would stay down
		// with nobody left to let go of it.
		s.mu.Unlock()
		return Errf(CodeRequiresTakeover, "the takeover ended")
	}
	switch ev.Kind {
	case InputMotion:
		s.tk.ref = ev.At
	case InputKeyPress, InputButtonPress:
		s.tk.presses = append(s.tk.presses, logEntry{kind: ev.Kind, key: ev.Key, char: ev.Char, button: ev.Button, at: now})
		s.tk.held = append(s.tk.held, ev)
		if ev.Kind == InputButtonPress {
			s.tk.lastPress = now
		}
	}
	at := s.tk.ref
	s.mu.Unlock()
	if ev.Kind == InputButtonPress {
		s.placeIndicatorAt(ctx, at)
	}
	if n, ok := s.d.backend.(OwnInputNoter); ok {
		n.NoteOwnInput(ev)
	}
	return s.sendBounded(ctx, ev)
}

// sendBounded sends one event, returning when the context ends even if the
// backend has not answered (a stuck display must not hold a release path
// or an act past its bound).
func (s *Session) sendBounded(ctx context.Context, ev InputEvent) *Error {
	done := make(chan error, 1)
	go func() {
		err := s.d.backend.Send(ctx, ev)
		if ev.Kind == InputKeyPress || ev.Kind == InputButtonPress {
			s.releaseIfLetGo(ev)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return AsError(err)
		}
		return nil
	case <-ctx.Done():
		return Errf(CodeAppNotResponding, "the display did not take the input in time")
	}
}

// dropHeldLocked forgets the press a release lets go of and reports
// whether it was held.
func (t *takeover) dropHeldLocked(rel InputEvent) bool {
	press := InputKeyPress
	if rel.Kind == InputButtonRelease {
		press = InputButtonPress
	}
	for i, h := range t.held {
		if samePress(h, InputEvent{Kind: press, Key: rel.Key, Char: rel.Char, Button: rel.Button}) {
			t.held = append(t.held[:i], t.held[i+1:]...)
			return true
		}
	}
	return false
}

// releaseHeld releases every key and button the driver holds, even after
// cancellation, with bounded I/O (the kill switch's release path).
func (s *Session) releaseHeld() {
	s.mu.Lock()
	held := s.tk.held
	s.tk.held = nil
	s.mu.Unlock()
	if len(held) == 0 {
		return
	}
	s.d.releaseMu.Lock()
	defer s.d.releaseMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	for i := len(held) - 1; i >= 0; i-- {
		_ = s.sendBounded(ctx, releaseOf(held[i]))
	}
}

// releaseIfLetGo runs once a press has reached the display (or failed to).
// A pause or the takeover's end that came while the press was on its way
// has already sent its release, which may have reached the display first
// and left the key or button down: so a press no longer held is released
// again. A second release of something up does nothing.
func (s *Session) releaseIfLetGo(press InputEvent) {
	s.mu.Lock()
	held := slices.ContainsFunc(s.tk.held, func(h InputEvent) bool { return samePress(h, press) })
	s.mu.Unlock()
	if held {
		return
	}
	s.d.releaseMu.Lock()
	defer s.d.releaseMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_ = s.d.backend.Send(ctx, releaseOf(press))
}

// releaseOf is the release that lets go of press.
func releaseOf(press InputEvent) InputEvent {
	if press.Kind == InputButtonPress {
		return InputEvent{Kind: InputButtonRelease, Button: press.Button}
	}
	return InputEvent{Kind: InputKeyRelease, Key: press.Key, Char: press.Char}
}

// samePress reports whether two presses press the same key or button.
func samePress(a, b InputEvent) bool {
	return a.Kind == b.Kind && a.Key == b.Key && a.Char == b.Char && a.Button == b.Button
}

func (s *Session) isPaused() (bool, PauseReason) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tk.paused, s.tk.pausedReason
}

func (s *Session) inTakeover() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tk.on
}
