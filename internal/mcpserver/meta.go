package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/engine"
)

// Keys of the _meta the driver adds to initialize (and server/discover)
// and tools/list results, so a host can check what it talks to before
// calling anything.
const (
	MetaContractVersion        = "contract_version"
	MetaToolsListSchemaVersion = "tools_list_schema_version"
)

// contractMeta is a receiving middleware that stamps the contract and
// tools/list versions on the results that describe the server.
func contractMeta(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			r.Meta = withContract(r.Meta)
		case *mcp.DiscoverResult:
			r.Meta = withContract(r.Meta)
		case *mcp.ListToolsResult:
			r.Meta = withContract(r.Meta)
		}
		return res, nil
	}
}

// withContract returns a fresh map (results must not share one: the SDK
// adds its own keys to them) holding m's keys and the contract's.
func withContract(m mcp.Meta) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range m {
		out[k] = v
	}
	out[MetaContractVersion] = engine.ContractVersion
	out[MetaToolsListSchemaVersion] = engine.ToolsListSchemaVersion
	return out
}
