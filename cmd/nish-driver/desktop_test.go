package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/nish-driver/nish-driver/sandbox"
	"github.com/nish-driver/nish-driver/schema"
)

// TestDoctorOnARealDesktop runs the binary's doctor inside a private
// desktop (Xvfb, session bus, AT-SPI bus): the native backend is there and
// ready, and the report says so.
func TestDoctorOnARealDesktop(t *testing.T) {
	desk, err := sandbox.Start(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatalf("the test desktop must start (make test installs it): %v", err)
	}
	defer desk.Close()
	out, errOut, exit := run(t, desk.Env(), "doctor", "--json")
	if exit != 0 {
		t.Fatalf("exit %d on a ready desktop; stderr %q\n%s", exit, errOut, out)
	}
	if err := schema.ValidateDoctor(json.RawMessage(out)); err != nil {
		t.Fatalf("report does not validate: %v\n%s", err, out)
	}
	var r struct {
		Ready       bool   `json:"ready"`
		SessionType string `json:"session_type"`
		Backends    []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"backends"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, b := range r.Backends {
		status[b.ID] = b.Status
	}
	if !r.Ready || r.SessionType != "x11" || status["x11"] != "available" || status["atspi"] != "available" {
		t.Fatalf("a ready desktop: %s", out)
	}
}
