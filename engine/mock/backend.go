package mock

import "github.com/nish-driver/nish-driver/engine"

// The desktop is a whole engine.Backend, and its indicator an
// engine.Indicator.
var (
	_ engine.Backend   = (*Desktop)(nil)
	_ engine.Indicator = (*indicator)(nil)
)
