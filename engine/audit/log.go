package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nish-driver/nish-driver/internal/dropqueue"
	"github.com/nish-driver/nish-driver/internal/utf8cut"
)

// Modes of the log's directory and file. Other users must not read what
// the driver did on this person's desktop.
const (
	dirMode  os.FileMode = 0o700
	fileMode os.FileMode = 0o600
)

const (
	// DefaultMaxBytes is the size at which the log rotates.
	DefaultMaxBytes = 10 << 20
	// queueLen bounds the records waiting for the writer; beyond it new
	// records are dropped rather than block the driver.
	queueLen = 1024
	// closeWait bounds how long Close and Flush wait for a stuck write.
	closeWait = 2 * time.Second
	// maxField cuts a string field, so a record stays one short line.
	maxField = 256
)

// Log appends records to the audit file as JSON lines. Record never blocks
// for long: a single writer goroutine owns the file, and a record that
// finds the queue full is dropped and counted. A nil *Log writes nothing.
type Log struct {
	// MaxBytes is the size the file may reach before it is renamed to
	// <path>.1 (replacing an older one) and a new file is started. Set it
	// before the first Record; 0 means DefaultMaxBytes.
	MaxBytes int64

	path string
	q    *dropqueue.Queue[item]

	// Owned by the writer goroutine.
	file *os.File
	size int64

	failed atomic.Uint64
}

// item is one queued line, or (line nil) a flush marker.
type item struct {
	line  []byte
	flush chan struct{}
}

// Open opens (creating as needed) the audit log at path: the directory with
// mode 0700 and the file with 0600, narrowing either if it exists with a
// wider mode. The file must be a regular file, not a symlink.
func Open(path string) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit: no path for the audit log")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("audit: create directory: %w", err)
	}
	if err := narrowMode(dir, dirMode); err != nil {
		return nil, err
	}
	f, size, err := openFile(path)
	if err != nil {
		return nil, err
	}
	l := &Log{path: path, file: f, size: size}
	l.q = dropqueue.Start(queueLen, l.writer)
	return l, nil
}

// narrowMode removes group and other permissions from an existing path.
func narrowMode(path string, want os.FileMode) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if st.Mode().Perm()&^want != 0 {
		if err := os.Chmod(path, want); err != nil {
			return fmt.Errorf("audit: narrow mode: %w", err)
		}
	}
	return nil
}

func openFile(path string) (*os.File, int64, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("audit: %s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		return nil, 0, fmt.Errorf("audit: open: %w", err)
	}
	st, err := f.Stat()
	if err == nil && st.Mode().Perm()&^fileMode != 0 {
		err = f.Chmod(fileMode)
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("audit: %w", err)
	}
	return f, st.Size(), nil
}

// Record queues one record. TimeMs is set to the current Unix time in
// milliseconds when zero. Safe for concurrent use; a nil *Log does nothing.
func (l *Log) Record(r Record) {
	if l == nil {
		return
	}
	if r.TimeMs == 0 {
		r.TimeMs = time.Now().UnixMilli()
	}
	line, err := json.Marshal(bounded(r))
	if err != nil {
		l.failed.Add(1)
		return
	}
	l.q.Send(item{line: append(line, '\n')})
}

// bounded cuts every string field to maxField bytes on a rune boundary.
func bounded(r Record) Record {
	for _, f := range []*string{&r.Event, &r.Session, &r.Tool, &r.Exe, &r.Outcome, &r.Path, &r.Effect, &r.Reason, &r.By, &r.Op} {
		*f, _ = utf8cut.Cut(*f, maxField)
	}
	return r
}

// Flush waits (at most a couple of seconds) until every record queued
// before it has been written.
func (l *Log) Flush() {
	if l == nil {
		return
	}
	done := make(chan struct{})
	timer := time.NewTimer(closeWait)
	defer timer.Stop()
	if !l.q.SendBefore(item{flush: done}, timer.C) {
		return
	}
	select {
	case <-done:
	case <-timer.C:
	}
}

// Close writes what is queued (waiting at most a couple of seconds) and
// closes the file. Records after Close are dropped.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	if !l.q.Close(closeWait) {
		return errors.New("audit: the log did not finish writing in time")
	}
	return nil
}

// writer owns the file: it rotates, writes and finally closes it.
func (l *Log) writer(items <-chan item) {
	defer func() {
		if l.file != nil {
			l.file.Close()
		}
	}()
	for it := range items {
		if it.flush != nil {
			close(it.flush)
			continue
		}
		l.write(it.line)
	}
}

func (l *Log) write(line []byte) {
	limit := l.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if l.file == nil || (l.size > 0 && l.size+int64(len(line)) > limit) {
		l.rotate()
	}
	if l.file == nil {
		l.failed.Add(1)
		return
	}
	n, err := l.file.Write(line)
	l.size += int64(n)
	if err != nil {
		l.failed.Add(1)
	}
}

// rotate renames the full file to <path>.1 and starts a new one. When the
// rename fails the log keeps appending to the old file rather than lose
// records; when the reopen fails, records are dropped until one succeeds.
func (l *Log) rotate() {
	if l.file != nil {
		if err := os.Rename(l.path, l.path+".1"); err != nil {
			return
		}
		l.file.Close()
		l.file = nil
	}
	f, size, err := openFile(l.path)
	if err != nil {
		return
	}
	l.file, l.size = f, size
}
