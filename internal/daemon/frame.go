package daemon

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxFrame is the size from which a request frame is refused: a frame must
// be smaller than 1 MiB (the newline not counted). A frame that reaches it
// closes its connection, and only that one.
const MaxFrame = 1 << 20

// errFrameTooLarge ends a connection whose client sent a frame of MaxFrame
// bytes or more.
var errFrameTooLarge = errors.New("request frame of 1 MiB or more")

// frameReader cuts a connection's bytes into frames: one JSON value a line.
// Blank lines are skipped; a last line without its newline is still a
// frame. It never buffers more than MaxFrame bytes of one line.
type frameReader struct {
	r   *bufio.Reader
	max int
}

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next frame without its line end.
func (f *frameReader) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.r.ReadSlice('\n')
		line = append(line, chunk...)
		content := len(line)
		if err == nil {
			content-- // the newline
		}
		if content >= f.max {
			return nil, errFrameTooLarge
		}
		switch {
		case err == nil:
			frame := bytes.TrimRight(line[:content], "\r")
			if len(bytes.TrimSpace(frame)) == 0 {
				line = line[:0]
				continue
			}
			return frame, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(line)) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
