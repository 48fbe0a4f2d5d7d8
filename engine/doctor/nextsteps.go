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
	steps := []NextStep{}
	index := map[string]int{} // reason code -> position in steps
	for _, b := range backends {
		if b.Status != statusUnavailable {
			continue
		}
		reason := b.ReasonCode
		if reason == "" {
			reason = ReasonNotBuilt
		}
		if i, ok := index[reason]; ok {
			s := &steps[i]
			if s.Backend == nil {
				s.Backend = nullable(b.ID)
			}
			s.Required = s.Required || b.Required
			if s.Action == "" {
				s.Action = actionFor(reason, b.Action)
			}
			continue
		}
		index[reason] = len(steps)
		steps = append(steps, NextStep{
			ReasonCode: reason,
			Backend:    nullable(b.ID),
			Required:   b.Required,
			Action:     actionFor(reason, b.Action),
		})
	}
	for _, p := range perms {
		if p.Status != permMissing {
			continue
		}
		reason := p.ReasonCode
		if reason == "" {
			reason = ReasonNotBuilt
		}
		if i, ok := index[reason]; ok {
			s := &steps[i]
			if s.Permission == nil {
				s.Permission = nullable(p.Name)
			}
			if s.Action == "" {
				s.Action = actionFor(reason, p.Action)
			}
			continue
		}
		index[reason] = len(steps)
		steps = append(steps, NextStep{
			ReasonCode: reason,
			Permission: nullable(p.Name),
			Action:     actionFor(reason, p.Action),
		})
	}
	return steps
}
