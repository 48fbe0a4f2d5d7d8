package mock

import (
	"testing"
	"time"

	"github.com/nish-driver/nish-driver/engine"
)

// next waits for one indicator event.
func next(t *testing.T, ind engine.Indicator) (engine.IndicatorEvent, bool) {
	t.Helper()
	select {
	case ev, ok := <-ind.Events():
		return ev, ok
	case <-time.After(30 * time.Second):
		t.Fatal("no indicator event")
		return engine.IndicatorEvent{}, false
	}
}

// none checks that no event is waiting.
func none(t *testing.T, ind engine.Indicator) {
	t.Helper()
	select {
	case ev, ok := <-ind.Events():
		t.Fatalf("unexpected event %+v (open %v)", ev, ok)
	default:
	}
}

func TestIndicatorStatesAndContinue(t *testing.T) {
	d := New()
	if d.IndicatorState() != IndicatorNone {
		t.Fatal("an indicator before any")
	}
	ind, err := d.ShowIndicator(testCtx(t), false)
	if err != nil {
		t.Fatal(err)
	}
	if d.IndicatorState() != IndicatorActive || d.IndicatorsShown() != 1 {
		t.Fatalf("state %s", d.IndicatorState())
	}
	if d.ClickContinue() {
		t.Error("Continue clicked while active (there is no button)")
	}
	none(t, ind)
	if err := ind.SetPaused(true); err != nil {
		t.Fatal(err)
	}
	if d.IndicatorState() != IndicatorPaused {
		t.Fatalf("state %s", d.IndicatorState())
	}
	if d.ClickContinueSynthetic() {
		t.Error("a synthetic click counted")
	}
	none(t, ind)
	if !d.ClickContinue() {
		t.Fatal("a real click on Continue did not land")
	}
	if ev, ok := next(t, ind); !ok || ev.Kind != engine.IndicatorContinue || ev.At.IsZero() {
		t.Fatalf("event %+v", ev)
	}
	_ = ind.SetPaused(false)
	if d.IndicatorState() != IndicatorActive {
		t.Fatalf("state %s", d.IndicatorState())
	}
	ind.Remove()
	ind.Remove()
	if _, ok := next(t, ind); ok {
		t.Fatal("Events not closed by Remove")
	}
	if d.IndicatorState() != IndicatorNone {
		t.Fatalf("state %s after Remove", d.IndicatorState())
	}
	if err := ind.SetPaused(true); err != nil {
		t.Errorf("SetPaused after Remove: %v", err)
	}
}

func TestIndicatorShownPaused(t *testing.T) {
	d := New()
	ind, _ := d.ShowIndicator(testCtx(t), true)
	defer ind.Remove()
	if d.IndicatorState() != IndicatorPaused || !d.ClickContinue() {
		t.Fatalf("state %s", d.IndicatorState())
	}
}

func TestIndicatorLost(t *testing.T) {
	d := New()
	ind, _ := d.ShowIndicator(testCtx(t), false)
	if !d.DestroyIndicator() {
		t.Fatal("nothing destroyed")
	}
	if ev, ok := next(t, ind); !ok || ev.Kind != engine.IndicatorLost {
		t.Fatalf("event %+v", ev)
	}
	if d.IndicatorState() != IndicatorNone {
		t.Errorf("state %s after loss", d.IndicatorState())
	}
	wantCode(t, "SetPaused on a lost indicator", ind.SetPaused(true), engine.CodeWindowGone)
	if d.DestroyIndicator() {
		t.Error("destroyed twice")
	}
	ind.Remove()
	if _, ok := next(t, ind); ok {
		t.Fatal("Events not closed")
	}
}

func TestIndicatorCanFail(t *testing.T) {
	d := New()
	d.FailIndicator(true)
	ind, err := d.ShowIndicator(testCtx(t), false)
	wantCode(t, "ShowIndicator", err, engine.CodeBackendUnavailable)
	if ind != nil || d.IndicatorState() != IndicatorNone {
		t.Error("an indicator came up anyway")
	}
	d.FailIndicator(false)
	ind, err = d.ShowIndicator(testCtx(t), false)
	if err != nil {
		t.Fatal(err)
	}
	ind.Remove()
}

func TestNewestIndicatorIsTheOneSeen(t *testing.T) {
	d := New()
	first, _ := d.ShowIndicator(testCtx(t), false)
	second, _ := d.ShowIndicator(testCtx(t), true)
	if d.IndicatorState() != IndicatorPaused {
		t.Fatalf("state %s", d.IndicatorState())
	}
	d.ClickContinue()
	if ev, _ := next(t, second); ev.Kind != engine.IndicatorContinue {
		t.Fatalf("event %+v", ev)
	}
	none(t, first)
	second.Remove()
	if d.IndicatorState() != IndicatorActive {
		t.Fatalf("state %s with the first still up", d.IndicatorState())
	}
	first.Remove()
}
