package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineReader cuts a stream into lines without ever holding more than max
// bytes of one line. A longer line is skipped to its end and reported as
// too long, so the stream goes on at the next line.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// line is one line read: its bytes without the line end, or tooLong.
type line struct {
	data    []byte
	tooLong bool
}

// next returns the next line that is not blank. A last line without its
// newline is still a line. The error is the stream's (io.EOF at its end).
func (l *lineReader) next() (line, error) {
	var buf []byte
	over := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !over {
			buf = append(buf, chunk...)
			content := len(buf)
			if err == nil {
				content--
			}
			if content > l.max {
				over, buf = true, nil
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil || (errors.Is(err, io.EOF) && (over || len(bytes.TrimSpace(buf)) > 0)):
			if over {
				return line{tooLong: true}, nil
			}
			data := bytes.TrimSuffix(buf, []byte("\n"))
			data = bytes.TrimSuffix(data, []byte("\r"))
			if len(bytes.TrimSpace(data)) == 0 {
				buf = buf[:0]
				continue
			}
			return line{data: data}, nil
		default:
			return line{}, err
		}
	}
}
