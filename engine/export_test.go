package engine

// What the engine's tests read of its tables. The driver reads them
// directly and never lists them, so these live with the tests.

// Codes returns the whole error table, in declaration order.
func Codes() []CodeInfo { return append([]CodeInfo(nil), codeTable...) }

// HintMessage returns the fixed text of a hint code ("" for an unknown
// code).
func HintMessage(code string) string { return hintMessages[code] }

// MaxEarlyPatches is how many times an act's settled read is patched
// early, while its quiet period runs (settle.go).
const MaxEarlyPatches = maxEarly
