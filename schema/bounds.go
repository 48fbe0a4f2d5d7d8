package schema

import (
	"regexp"
	"strconv"

	"github.com/nish-driver/nish-driver/engine"
	"github.com/nish-driver/nish-driver/schema/input"
)

// ToolsListBudget is the most bytes tools/list's result may take, every
// tool's name, description, input schema, annotations and the result's
// framing together: what a host pays in its model's context for the tools
// on every conversation. The Go tests (internal/mcpserver, this package)
// and the outside client's (e2e/tsclient, which reads this line) hold the
// driver to it.
const ToolsListBudget = 24 << 10

var maxLengthRe = regexp.MustCompile(`"maxLength":\s*(\d+)`)

// LongestInputString is the largest maxLength of any string in any tool's
// input schema: a string one character longer is over every bound, which
// is what the bad-input tests send (cheaper than a megabyte, and still
// refused everywhere).
func LongestInputString() int {
	longest := 0
	for _, tool := range engine.ToolNames() {
		raw, _ := input.Schema(tool)
		for _, m := range maxLengthRe.FindAllSubmatch(raw, -1) {
			if n, err := strconv.Atoi(string(m[1])); err == nil {
				longest = max(longest, n)
			}
		}
	}
	return longest
}
