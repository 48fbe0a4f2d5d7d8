package daemon

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestFrameReader(t *testing.T) {
	const max = 16
	cases := []struct {
		name   string
		in     string
		frames []string
		end    error
	}{
		{"one a line", "a\nb\n", []string{"a", "b"}, io.EOF},
		{"blank lines are skipped", "\n  \na\n\r\n\nb\n", []string{"a", "b"}, io.EOF},
		{"CRLF line ends", "a\r\nb\r\n", []string{"a", "b"}, io.EOF},
		{"a last line without its newline", "a\nb", []string{"a", "b"}, io.EOF},
		{"just under the limit", strings.Repeat("x", max-1) + "\n", []string{strings.Repeat("x", max-1)}, io.EOF},
		{"at the limit", "a\n" + strings.Repeat("x", max) + "\nb\n", []string{"a"}, errFrameTooLarge},
		{"at the limit without a newline", strings.Repeat("x", max), nil, errFrameTooLarge},
		{"far over the limit", strings.Repeat("x", 10*max), nil, errFrameTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fr := newFrameReader(strings.NewReader(tc.in), max)
			var got []string
			var err error
			for {
				var f []byte
				f, err = fr.next()
				if err != nil {
					break
				}
				got = append(got, string(f))
			}
			if strings.Join(got, "|") != strings.Join(tc.frames, "|") {
				t.Errorf("frames %q, want %q", got, tc.frames)
			}
			if !errors.Is(err, tc.end) {
				t.Errorf("ended with %v, want %v", err, tc.end)
			}
		})
	}
}

func TestFrameReaderAtTheRealLimit(t *testing.T) {
	under := strings.Repeat("x", MaxFrame-1)
	fr := newFrameReader(strings.NewReader(under+"\n"+under+"x\n"), MaxFrame)
	if f, err := fr.next(); err != nil || len(f) != MaxFrame-1 {
		t.Fatalf("a frame of 1 MiB - 1 bytes: len %d, %v", len(f), err)
	}
	if _, err := fr.next(); !errors.Is(err, errFrameTooLarge) {
		t.Fatalf("a frame of 1 MiB: %v, want errFrameTooLarge", err)
	}
}

// An MCP connection's stream starts with its first frame again, then
// goes on with the connection's bytes exactly as they came (the MCP layer
// checks them line by line itself).
func TestSocketTransportReplaysTheFirstFrame(t *testing.T) {
	fr := newFrameReader(strings.NewReader("\n a \r\nb"), 64)
	first, err := fr.next()
	if err != nil {
		t.Fatal(err)
	}
	tr := newSocketTransport("x", nil, nil, fr, first)
	b, err := io.ReadAll(tr.in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), " a \nb"; got != want {
		t.Errorf("stream %q, want %q", got, want)
	}
}
