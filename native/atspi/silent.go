package atspi

import (
	"context"
	"sync"
	"time"
)

// Apps that fell silent, and why a listing stops waiting for them.
//
// Listing the apps (Apps) and their windows (AllFrames) asks every app on
// the bus and waits for each within listBound. An app that is stopped
// (SIGSTOP), hung or busy answers none of it, so without a rule every
// listing would wait the whole bound for it: on Wayland, where every
// window lookup lists every app, every call on every other app would
// cost listBound. So:
//
//   - an app that does not answer a listing within the bound is marked
//     silent;
//   - a later listing asks a silent app nothing and returns it at once
//     with Err set (KindNotResponding), as if it had timed out: the
//     caller keeps what it knew of it (a busy app keeps its windows);
//   - a silent app is sent one probe (its name, the cheapest call a
//     listing makes) at a time, started by a listing when none is in
//     flight and bounded by silentProbeBound; its answer clears the mark,
//     so the listing after it asks the app as any other;
//   - the mark goes when the app leaves the bus (the registry stops
//     listing it).
//
// So an app that falls silent costs one listing the bound and, while it
// stays silent, one call in flight; the other apps' listings wait on it
// no more.

// silentProbeBound bounds one probe of a silent app: long, since it only
// limits how often a silent app is asked again, and a probe ends at once
// when the app answers, leaves the bus or the client closes.
const silentProbeBound = 30 * time.Second

// silentApps are the apps that missed a listing's bound, by bus name;
// the value says whether a probe is in flight.
type silentApps struct {
	mu sync.Mutex
	m  map[string]bool
}

// silentNow returns the marked apps among those the registry lists, and
// forgets the marks of apps no longer listed.
func (s *silentApps) silentNow(apps []App) map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	listed := make(map[string]bool, len(apps))
	for _, a := range apps {
		listed[a.Bus] = true
	}
	now := map[string]bool{}
	for bus := range s.m {
		if listed[bus] {
			now[bus] = true
		} else {
			delete(s.m, bus)
		}
	}
	return now
}

// mark marks an app silent; it reports whether a probe should start (none
// in flight), and notes one started.
func (s *silentApps) mark(bus string) (probe bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]bool{}
	}
	if s.m[bus] {
		return false
	}
	s.m[bus] = true
	return true
}

// probed ends a probe: an app that answered is silent no more; one that
// did not stays marked, with no probe in flight.
func (s *silentApps) probed(bus string, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[bus]; !ok {
		return
	}
	if answered {
		delete(s.m, bus)
	} else {
		s.m[bus] = false
	}
}

// answered clears an app's mark: it answered some other call.
func (s *silentApps) answered(bus string) { s.probed(bus, true) }

// errSilent is a silent app's Err in a listing that did not ask it.
var errSilent = failure(KindNotResponding, "the app did not answer an earlier listing and has not answered since")

// markSilent marks an app that missed a listing's bound silent and, when
// no probe of it is in flight, starts one on the client's bus connection
// as it is (never dialling: a closed client starts none).
func (c *Client) markSilent(name string) {
	c.mu.Lock()
	bus := c.bus
	c.mu.Unlock()
	if bus == nil || bus.isClosed() || !c.silent.mark(name) {
		return
	}
	go c.probeSilent(bus, name)
}

// probeSilent asks a silent app its name, once; closing the bus
// connection (the client's Close) ends it.
func (c *Client) probeSilent(bus *wireConn, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), silentProbeBound)
	defer cancel()
	_, err := bus.call(ctx, name, rootPath, propertiesIface, "Get", "org.a11y.atspi.Accessible", "Name")
	c.silent.probed(name, err == nil || KindOf(mapErr(err, bus, ctx, targetApp)) != KindNotResponding)
}

// listingMissed says whether a listing's call failed because the app did
// not answer within the listing's bound lctx while the caller's own ctx
// still runs: only then is the app itself silent.
func listingMissed(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() == nil && KindOf(err) == KindNotResponding
}
