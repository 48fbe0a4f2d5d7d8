package native

import (
	"sync"
	"time"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/native/xlib"
)

// The input watcher sees the driver's own XTEST input as well as the
// person's, and not in the terms the engine logged it: a typed "A" comes
// back as a Shift_L press (XTEST adds Shift) and an "a" press (the watcher
// names a key by its unshifted keysym), and a character the keymap lacks
// comes back under the keysym lent to a spare keycode. The echo log keeps,
// for each press the backend is about to send, what the watcher will
// report for it, and translates the raw events back into the events the
// engine logged; the Shift that XTEST adds is dropped. Anything it cannot
// pair with a press of its own passes as it came, for the engine's send
// log to judge: so a person's Shift press during typing still shows, since
// each echo is paired once.

// echoTTL: an echo the watcher has not reported within this long never
// will; the engine's send log keeps its entries as long.
const echoTTL = engine.SendLogWindow

// motionLag: a raw motion at a pointer target the driver sent this
// recently, but which a newer target has replaced, is the driver's own
// motion read before the newer one was applied.
const motionLag = 100 * time.Millisecond

// maxMotionEchoes is how many recent pointer targets are remembered.
const maxMotionEchoes = 4

// echoLog is the backend's memory of its own recent input. Safe from any
// goroutine.
type echoLog struct {
	mu      sync.Mutex
	keys    []keyEcho
	motions []motionEcho // oldest first
}

// keyEcho is one press the watcher has yet to report.
type keyEcho struct {
	keysym string // the key's name as the watcher reports it
	shift  string // the Shift key XTEST adds and the watcher reports first, "" once seen or when none
	sent   engine.InputEvent
	at     time.Time
}

type motionEcho struct {
	at engine.Point
	t  time.Time
}

// noteKey remembers a key press about to be sent, with its predicted echo.
func (l *echoLog) noteKey(ev engine.InputEvent, echo xlib.KeyEcho, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expireLocked(now)
	l.keys = append(l.keys, keyEcho{keysym: echo.Keysym, shift: echo.Shift, sent: ev, at: now})
}

// noteMotion remembers a pointer target about to be sent.
func (l *echoLog) noteMotion(p engine.Point, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.motions = append(l.motions, motionEcho{at: p, t: now})
	if n := len(l.motions); n > maxMotionEchoes {
		l.motions = append(l.motions[:0], l.motions[n-maxMotionEchoes:]...)
	}
}

func (l *echoLog) expireLocked(now time.Time) {
	kept := l.keys[:0]
	for _, k := range l.keys {
		if now.Sub(k.at) <= echoTTL {
			kept = append(kept, k)
		}
	}
	l.keys = kept
}

// translate turns a raw event into the engine's terms; ok is false for an
// event that is the driver's own and means nothing to the engine (the
// Shift XTEST added).
func (l *echoLog) translate(raw xlib.RawEvent, now time.Time) (engine.RawInput, bool) {
	in := engine.RawInput{Time: raw.Time}
	switch raw.Kind {
	case xlib.RawMotion:
		in.Kind, in.At = engine.InputMotion, l.motionTarget(engine.Point{X: raw.X, Y: raw.Y}, now)
	case xlib.RawButtonPress:
		in.Kind, in.Button = engine.InputButtonPress, raw.Button
	case xlib.RawButtonRelease:
		in.Kind, in.Button = engine.InputButtonRelease, raw.Button
	case xlib.RawKeyRelease:
		in.Kind, in.Key = engine.InputKeyRelease, raw.Keysym
	case xlib.RawKeyPress:
		return l.keyPress(raw, now)
	default:
		return engine.RawInput{}, false
	}
	return in, true
}

// keyPress pairs a raw key press with the oldest echo it matches: the
// Shift an echo still waits for, or the echo's key (whose Shift, if any,
// is then taken as seen).
func (l *echoLog) keyPress(raw xlib.RawEvent, now time.Time) (engine.RawInput, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expireLocked(now)
	for i := range l.keys {
		k := &l.keys[i]
		if k.shift != "" && k.shift == raw.Keysym {
			k.shift = ""
			return engine.RawInput{}, false
		}
		if k.keysym == raw.Keysym {
			sent := k.sent
			l.keys = append(l.keys[:i], l.keys[i+1:]...)
			return engine.RawInput{Kind: engine.InputKeyPress, Key: sent.Key, Char: sent.Char, Time: raw.Time}, true
		}
	}
	return engine.RawInput{Kind: engine.InputKeyPress, Key: raw.Keysym, Time: raw.Time}, true
}

// motionTarget reports a position at one of the driver's recent pointer
// targets as the newest target: the watcher reads the pointer when it
// takes a batch of events off its connection, which can be just before
// the driver's next step lands.
func (l *echoLog) motionTarget(p engine.Point, now time.Time) engine.Point {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.motions)
	if n == 0 {
		return p
	}
	newest := l.motions[n-1].at
	for i, m := range l.motions[:n-1] {
		replaced := l.motions[i+1].t
		if m.at == p && now.Sub(replaced) <= motionLag {
			return newest
		}
	}
	return p
}
