package wire

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encodeError is the reply line (without its newline) of an error.
func encodeError(id json.RawMessage, code int64, message string) []byte {
	msg, _ := json.Marshal(message)
	out := make([]byte, 0, 64+len(id)+len(msg))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"error":{"code":`...)
	out = strconv.AppendInt(out, code, 10)
	out = append(out, `,"message":`...)
	out = append(out, msg...)
	return append(out, "}}"...)
}

// encodeResponse is the reply line of an SDK response (its result, or its
// error), under the client's own id. The result is the SDK's encoding, or
// the server's own held encoding, passed through untouched.
func encodeResponse(id json.RawMessage, result json.RawMessage, rerr error, lc lifecycle) []byte {
	if rerr != nil {
		code, message := publicError(rerr, lc)
		return encodeError(id, code, message)
	}
	if len(result) == 0 {
		result = json.RawMessage("{}")
	}
	out := make([]byte, 0, 40+len(id)+len(result))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// publicError turns an SDK error into a JSON-RPC code and a fixed message
// for that code. The SDK's own messages repeat the client's method names
// and arguments and name Go types, so none of them goes out; an error
// without a code (the SDK uses 0 for those) is coded by the lifecycle
// (lifecycle.codeless).
func publicError(err error, lc lifecycle) (int64, string) {
	var code int64
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		code = we.Code
	}
	switch code {
	case codeParseError:
		return code, "parse error"
	case codeInvalidRequest:
		return code, "invalid request"
	case codeMethodNotFound:
		return code, "method not found"
	case codeInvalidParams:
		return code, msgInvalidParams
	case codeInternalError:
		return code, msgInternal
	case 0:
		return lc.codeless()
	}
	return code, "the request failed"
}

func jsonInt(n int64) []byte { return strconv.AppendInt(nil, n, 10) }
