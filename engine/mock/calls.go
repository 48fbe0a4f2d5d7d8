package mock

import (
	"errors"

	"github.com/nish-driver/nish-driver/engine"
)

// Call is one backend call as the mock saw it. It never holds text the
// engine sent (typed text is in Texts) nor app text.
type Call struct {
	// Method is the engine.Backend method's name: "ReadTree", "DoAction",
	// "InsertText", "Send", "AskConsent", ...
	Method  string
	Window  engine.WindowID
	Element engine.ElementID
	Action  string // DoAction's action name; Send's event kind
	Pid     int    // Process's pid
	// Nodes is how many elements a batched read covered (Refresh,
	// ReadDetails, ReadFrames: the nodes asked for; ReadSubtree: the
	// nodes returned), so a test can count what a read cost the app.
	Nodes int
	// Done is set when the call returned; Code is its error code ("" for
	// success).
	Done bool
	Code engine.Code
}

// TextCall is the text of one InsertText or SetText call, kept apart from
// Calls so that a test that prints calls never prints typed text.
type TextCall struct {
	Method  string
	Element engine.ElementID
	Text    string
}

// record appends a call and returns its index, counted from the first
// call ever (ResetCalls does not reuse indexes).
func (d *Desktop) record(c Call) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.keepCalls > 0 && len(d.calls) >= d.keepCalls {
		// Forget the older half, as ResetCalls forgets all.
		drop := len(d.calls) - d.keepCalls/2
		d.callBase += drop
		d.calls = append([]Call(nil), d.calls[drop:]...)
	}
	d.calls = append(d.calls, c)
	return d.callBase + len(d.calls) - 1
}

// KeepCalls bounds the call log to about the last n calls (0: keep every
// call, as tests want). A desktop served by a long-running process, such
// as `nish-driver mcp --backend mock`, would otherwise grow with every
// call it ever answered.
func (d *Desktop) KeepCalls(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.keepCalls = n
}

// finish marks a recorded call as returned with err's code.
func (d *Desktop) finish(i int, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i -= d.callBase
	if i < 0 || i >= len(d.calls) { // ResetCalls ran meanwhile
		return
	}
	d.calls[i].Done = true
	d.calls[i].Code = codeOf(err)
}

// noteNodes sets the Nodes of a recorded call once the read knows them.
func (d *Desktop) noteNodes(i, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if i -= d.callBase; i >= 0 && i < len(d.calls) {
		d.calls[i].Nodes = n
	}
}

func codeOf(err error) engine.Code {
	if err == nil {
		return ""
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return engine.CodeInternal
}

// Calls returns every backend call so far, oldest first.
func (d *Desktop) Calls() []Call {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Call(nil), d.calls...)
}

// CallsOf returns the calls of one method, oldest first.
func (d *Desktop) CallsOf(method string) []Call {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Call
	for _, c := range d.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// changeMethods are the backend methods that change something in an app.
var changeMethods = map[string]bool{"DoAction": true, "InsertText": true, "SetText": true,
	"SetNumber": true, "ScrollIntoView": true, "Raise": true}

// ChangeCalls counts what could have changed an app so far: the synthetic
// events sent and the calls of the methods that act on an element. A test
// compares it before and after a refused call to tell that the call did
// nothing.
func (d *Desktop) ChangeCalls() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.sent)
	for _, c := range d.calls {
		if changeMethods[c.Method] {
			n++
		}
	}
	return n
}

// WaitsListening counts the WaitChange calls in flight: the waits that
// have read their window and listen to it (from the call log, so a
// desktop told to KeepCalls may forget some).
func (d *Desktop) WaitsListening() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, c := range d.calls {
		if c.Method == "WaitChange" && !c.Done {
			n++
		}
	}
	return n
}

// ResetCalls forgets the recorded calls, texts and sent events (not the
// person's input nor consent requests).
func (d *Desktop) ResetCalls() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.callBase += len(d.calls)
	d.calls, d.texts, d.sent = nil, nil, nil
}

// Texts returns the text of every InsertText and SetText call, oldest first.
// Test-only: the engine never sees it.
func (d *Desktop) Texts() []TextCall {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]TextCall(nil), d.texts...)
}

// Sent returns every synthetic event Send was given, oldest first.
func (d *Desktop) Sent() []engine.InputEvent {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]engine.InputEvent(nil), d.sent...)
}
