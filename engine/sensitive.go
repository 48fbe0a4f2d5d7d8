package engine

// redact replaces credential-looking spans of app text before it reaches
// the model. Wired to engine/credential once that package lands.
var redact = func(s string) string { return s }

// looksSensitive reports text that looks like a credential (contract §5.3).
var looksSensitive = func(s string) bool { return false }
