package engine

import (
	"strings"

	"github.com/nish-driver/nish-driver/engine/credential"
)

// What the model may see of an element or a window: the one view that
// reads render and that every matcher and comparison uses. A filter or a
// condition that looked at the text before this view would answer
// questions about what a read hides: a wait_for on the text of a
// redacted key, guessed a character at a time, would tell met from not
// met and give the key away. So find_elements, wait_for, window targets
// by title fragment, and act diffs all go through these functions, and
// through nothing else, to reach an element's label, value or a window's
// title (docs/contract.md#credential-looking-text).

// labelOf is an element's label as reads show it: its name, else its
// description, with credential-looking spans redacted, escaped and cut.
func labelOf(n *Node) string {
	l := n.Name
	if strings.TrimSpace(l) == "" {
		l = n.Description
	}
	return CutEscape(redact(l), labelMax)
}

// shownValue is an element's whole value as the model may see it: none
// for a secure field or an element without a value, else the value with
// credential-looking spans redacted. Rows cut it at valueMax; a drill-down
// shows it whole.
func shownValue(n *Node) (string, bool) {
	if !n.HasValue || n.Secure {
		return "", false
	}
	return redact(n.Value), true
}

// shownTitle is a window's title as reads and list_windows show it.
func shownTitle(title string) string { return CutEscape(redact(title), titleMax) }

// shownName is an app's name (or a host's, as the consent dialog shows
// it) wherever a result, a message or the dialog shows it.
func shownName(name string) string { return CutEscape(name, nameMax) }

// redact replaces credential-looking spans of app text before it reaches
// the model.
func redact(s string) string {
	if s == "" {
		return s
	}
	out, _ := credential.Redact(s)
	return out
}

// shownValueChanged tells whether the model would see a's value change
// into b's: a secure field's never does, and a key that changed into
// another key reads "[redacted]" both times.
func shownValueChanged(a, b *Node) bool {
	av, aok := shownValue(a)
	bv, bok := shownValue(b)
	if a.Secure || b.Secure {
		return false
	}
	return aok != bok || av != bv
}
