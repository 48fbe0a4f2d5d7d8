package mcpserver

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
)

// toolOrder is a receiving middleware that lists tools in the engine
// table's order (session tools, then reads and acts, as a model would use
// them) instead of the SDK's alphabetical order. tools/list always fits one
// page, so the reordering never crosses a page boundary.
func toolOrder(next mcp.MethodHandler) mcp.MethodHandler {
	rank := map[string]int{}
	for i, name := range engine.ToolNames() {
		rank[name] = i
	}
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.ListToolsResult); ok && err == nil && r.NextCursor == "" {
			r.Tools = slices.Clone(r.Tools)
			slices.SortStableFunc(r.Tools, func(a, b *mcp.Tool) int {
				ra, oka := rank[a.Name]
				rb, okb := rank[b.Name]
				switch {
				case oka && okb:
					return ra - rb
				case oka:
					return -1
				case okb:
					return 1
				}
				return 0
			})
		}
		return res, err
	}
}
