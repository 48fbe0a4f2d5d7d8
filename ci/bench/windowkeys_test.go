package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestWindowKeysTable(t *testing.T) {
	var buf bytes.Buffer
	plain := row{subject: subject{name: "Chromium form.html"}, lane: x11}
	if printWindowKeys(&buf, []row{plain}) {
		t.Fatal("a table for rows without typing")
	}
	typed := row{subject: subject{name: "Firefox form.html"}, lane: x11,
		typing: &typeRow{total: []time.Duration{msDur(181.5), msDur(170.25), msDur(240)}, own: []time.Duration{msDur(120.5)}}}
	if !printWindowKeys(&buf, []row{plain, typed}) {
		t.Fatal("no table for a row with typing")
	}
	out := buf.String()
	for _, want := range []string{"Firefox form.html", "x11", "181.5", "170.2", "240.0", "120.5", "100 characters"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the window_keys table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Chromium") {
		t.Fatalf("the table lists a row without typing:\n%s", out)
	}
}
