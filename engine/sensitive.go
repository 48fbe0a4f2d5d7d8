package engine

import "github.com/nish-driver/nish-driver/engine/credential"

// redact replaces credential-looking spans of app text before it reaches
// the model (row values, diffs, drill-down text).
func redact(s string) string {
	if s == "" {
		return s
	}
	out, _ := credential.Redact(s)
	return out
}

// looksSensitive reports text that looks like a credential
// (docs/contract.md#credential-looking-text): such text is never typed, set
// or moved through the clipboard.
func looksSensitive(s string) bool {
	_, found := credential.Detect(s)
	return found
}
