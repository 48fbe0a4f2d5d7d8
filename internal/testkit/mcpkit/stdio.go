package mcpkit

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nish-driver/nish-driver/internal/mcpserver/wire"
)

// Stdio is the client's side of a server served as `nish-driver mcp`
// serves stdin and stdout: what the client writes and what it reads.
type Stdio struct {
	In  *io.PipeWriter // the server's input; closing it is the host leaving
	Out *io.PipeReader // the server's output; it ends when the server returns
}

// ServeStdio runs serve (a server's Run) on the stdio transport (package
// wire) over two pipes, so a test drives the path `nish-driver mcp` serves
// without a process. When the test ends it closes the server's input,
// cancels it and waits for it to return.
func ServeStdio(tb testing.TB, serve func(context.Context, mcp.Transport) error) Stdio {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serve(ctx, &wire.Transport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	tb.Cleanup(func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	})
	return Stdio{In: inW, Out: outR}
}
