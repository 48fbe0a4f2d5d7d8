package doctor

import "github.com/nish-driver/nish-driver/engine"

// NextSteps lists what the person must do: one step per distinct reason
// code, in the order the reasons first appear (unavailable backends first,
// then missing permissions). A missing permission whose reason an
// unavailable backend already gave joins that backend's step rather than
// adding its own. A step is required when any required backend shares its
// reason. Available, planned and granted entries produce no step: there is
// nothing the person can do about a planned backend.
func NextSteps(backends []engine.BackendEntry, perms []engine.Permission) []NextStep {
	n := nextSteps{steps: []NextStep{}} // never null in the report
	for _, b := range backends {
		if b.Status == engine.StatusUnavailable {
			n.add(b.ReasonCode, b.Action, NextStep{Backend: nullable(b.ID), Required: b.Required})
		}
	}
	for _, p := range perms {
		if p.Status == permMissing {
			n.add(p.ReasonCode, p.Action, NextStep{Permission: nullable(p.Name)})
		}
	}
	return n.steps
}

// nextSteps gathers the steps, one per reason code, in the order their
// reasons first come.
type nextSteps struct {
	steps []NextStep
	index map[string]int // reason code -> position in steps
}

// add merges what is missing into the step of its reason (an unknown
// reason is not_built): the first backend and permission named, required
// when any is, and the first action there is.
func (n *nextSteps) add(reason, action string, what NextStep) {
	if reason == "" {
		reason = ReasonNotBuilt
	}
	i, ok := n.index[reason]
	if !ok {
		if n.index == nil {
			n.index = map[string]int{}
		}
		n.index[reason] = len(n.steps)
		what.ReasonCode, what.Action = reason, actionFor(reason, action)
		n.steps = append(n.steps, what)
		return
	}
	s := &n.steps[i]
	if s.Backend == nil {
		s.Backend = what.Backend
	}
	if s.Permission == nil {
		s.Permission = what.Permission
	}
	s.Required = s.Required || what.Required
	if s.Action == "" {
		s.Action = actionFor(reason, action)
	}
}
