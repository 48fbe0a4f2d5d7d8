package control

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// inputLine is one line read from the host: its bytes, or tooLong when it
// passed MaxLine (its bytes are then dropped), or a read error.
type inputLine struct {
	data    []byte
	tooLong bool
	err     error
}

// readLines sends the input's lines until it ends (closing out) or stop
// closes. A last line without a newline still counts.
func readLines(r *bufio.Reader, out chan<- inputLine, stop <-chan struct{}) {
	defer close(out)
	for {
		l, err := readLine(r)
		if l.data != nil || l.tooLong {
			select {
			case out <- l:
			case <-stop:
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				select {
				case out <- inputLine{err: err}:
				case <-stop:
				}
			}
			return
		}
	}
}

// readLine reads up to the next newline, keeping at most MaxLine bytes: a
// longer line is read to its end and reported as tooLong, so one bad line
// never costs more than MaxLine of memory.
func readLine(r *bufio.Reader) (inputLine, error) {
	var l inputLine
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if !l.tooLong {
			if len(buf)+len(frag) > MaxLine+len("\r\n") {
				l.tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if !l.tooLong && len(buf) > 0 {
			if data := bytes.TrimRight(buf, "\r\n"); len(data) > MaxLine {
				l.tooLong = true
			} else {
				l.data = data
			}
		}
		return l, err
	}
}
