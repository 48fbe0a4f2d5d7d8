package engine

import "github.com/nish-driver/nish-driver/engine/credential"

// looksSensitive reports text that looks like a credential
// (docs/contract.md#credential-looking-text): such text is never typed, set
// or moved through the clipboard.
func looksSensitive(s string) bool {
	_, found := credential.Detect(s)
	return found
}
