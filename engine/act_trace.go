package engine

import "time"

// ActTrace is how long each step of one act took. The driver hands one to
// Options.ActTrace after every act that got as far as acting, so that a
// benchmark can tell the driver's own work from the time spent waiting for
// the app to go quiet. It carries no arguments and no app text.
type ActTrace struct {
	Tool string
	// Total is the whole call, from the gate to the rendered result.
	Total time.Duration
	// Resolve is finding the window and re-checking the app's process
	// identity (and the host's approval, when it is asked).
	Resolve time.Duration
	// PreRead is the read before the act and the token's check against it
	// (without a read when a fresh snapshot was reused: PreReadReused).
	PreRead       time.Duration
	PreReadReused bool
	// Perform is the act itself: the backend call into the app (for a
	// synthetic act, every event and its pacing).
	Perform time.Duration
	// Quiet is the wait for the app to go quiet after the act.
	Quiet time.Duration
	// PostRead is the settled read, and PostReadKind how it was made:
	// "full" (the window read again), "patched" (the read before, with
	// the elements the app reported changed read again) or "polled" (the
	// settle loop without change reports, whose reads are all in Quiet).
	PostRead     time.Duration
	PostReadKind string
	// PostReadEarly: the settled read was patched while the quiet period
	// ran, and nothing was reported after it (settle.go's earlyPatch), so
	// PostRead is only the check of that.
	PostReadEarly bool
}

// Post-read kinds.
const (
	PostReadFull    = "full"
	PostReadPatched = "patched"
	PostReadPolled  = "polled"
)
