package atspi

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestStoppedAppTimesOutOthersStayReadable(t *testing.T) {
	other := synthetic200(t)
	f := startSynthetic(t, 20)
	defer f.stop()
	tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		t.Fatal(err)
	}
	btn := find(t, tree, "push_button", "Click me")

	// Stop the app while a read is in flight: the read ends at its
	// bound, with app_not_responding unless it finished before the stop.
	// (The later limits below are hang guards, not speeds.)
	const bound = 700 * time.Millisecond
	midCtx, midCancel := context.WithTimeout(context.Background(), bound)
	midDone := make(chan error, 1)
	reading := make(chan struct{})
	t0 := time.Now()
	go func() {
		close(reading)
		_, err := client.ReadTree(midCtx, f.frame.ID, ReadOptions{Details: DetailsAll, Budget: Budget{MaxElements: 5000}})
		midDone <- err
	}()
	<-reading
	if err := syscall.Kill(f.pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(f.pid, syscall.SIGCONT)
	if err := <-midDone; err != nil {
		wantKind(t, err, KindNotResponding)
	}
	midCancel()
	if took := time.Since(t0); took > bound+10*time.Second {
		t.Errorf("the read in flight ended %v after it started, long past its %v bound", took, bound)
	}

	var wg sync.WaitGroup
	var otherErr error
	var otherTime time.Duration
	wg.Add(1)
	go func() {
		// While the stopped app holds its calls, another app answers at
		// its usual speed.
		defer wg.Done()
		time.Sleep(100 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		t0 := time.Now()
		_, otherErr = client.ReadTree(ctx, other.frame.ID, ReadOptions{Details: DetailsAll})
		otherTime = time.Since(t0)
	}()
	cases := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"ReadTree", func(ctx context.Context) error {
			_, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll})
			return err
		}},
		{"DoAction", func(ctx context.Context) error { return client.DoAction(ctx, ref(btn), "click") }},
	}
	for _, tc := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		t0 := time.Now()
		err := tc.call(ctx)
		took := time.Since(t0)
		cancel()
		wantKind(t, err, KindNotResponding)
		if took > bound+10*time.Second {
			t.Errorf("%s: the error took %v, long past a %v bound", tc.name, took, bound)
		}
	}
	// Listing windows does not wait for the stopped app beyond its own
	// bound for one app: it returns before the listing's context ends.
	lctx, lcancel := context.WithTimeout(context.Background(), 30*time.Second)
	_, apps, err := client.AllFrames(lctx)
	ended := lctx.Err()
	lcancel()
	if err != nil {
		t.Fatal(err)
	}
	if ended != nil {
		t.Error("listing windows waited on the stopped app until its context ended")
	}
	stoppedListed := false
	for _, a := range apps {
		if a.Pid == f.pid {
			stoppedListed = true
			wantKind(t, a.Err, KindNotResponding)
		}
	}
	if !stoppedListed {
		t.Error("the stopped app is missing from the app list")
	}
	wg.Wait()
	if otherErr != nil {
		t.Fatalf("the other app was not readable while one was stopped: %v", otherErr)
	}
	t.Logf("the other app read in %v meanwhile", otherTime)

	if err := syscall.Kill(f.pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	again, err := client.ReadTree(ctx, f.frame.ID, ReadOptions{Details: DetailsAll})
	if err != nil {
		t.Fatalf("after SIGCONT: %v", err)
	}
	if len(again.Nodes) != len(tree.Nodes) {
		t.Errorf("after SIGCONT the read has %d elements, before %d", len(again.Nodes), len(tree.Nodes))
	}
}

func TestKilledAppIsWindowGone(t *testing.T) {
	f := startSynthetic(t, 5)
	tree, err := client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	btn := find(t, tree, "push_button", "Click me")
	f.stop()
	_, err = client.ReadTree(callCtx(t), f.frame.ID, ReadOptions{})
	wantKind(t, err, KindGone)
	wantKind(t, client.DoAction(callCtx(t), ref(btn), "click"), KindGone)
	_, err = client.ReadValue(callCtx(t), ref(btn), 1<<10)
	wantKind(t, err, KindGone)
}

func TestVanishedElementIsStale(t *testing.T) {
	f := synthetic200(t)
	bus, _, _ := splitID(f.frame.ID)
	gone := ID(bus + "/org/a11y/atspi/accessible/99999999")
	_, err := client.ReadValue(callCtx(t), ID(bus+"@7/org/a11y/atspi/accessible/1"), 1<<10)
	wantKind(t, err, KindGone)
	wantKind(t, client.DoAction(callCtx(t), gone, "click"), KindStale)
	_, err = client.ReadValue(callCtx(t), gone, 1<<10)
	wantKind(t, err, KindStale)
	_, err = client.ReadTree(callCtx(t), ID(bus+"/org/a11y/atspi/accessible/99999999"), ReadOptions{})
	wantKind(t, err, KindGone)
}
