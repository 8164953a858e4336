package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLine is the longest line a [Reader] reads, 32 MiB, the limit of the
// SDKs' decoders it replaces: a longer one fails the stream with
// [ErrTooLong].
const MaxLine = 32 << 20

// ErrTooLong is the error of a stream with a line over [MaxLine].
var ErrTooLong = errors.New("sse: line too long")

// Reader reads events from a stream. It reads as the SDKs' decoders do: a
// line ends at "\n" (a "\r" before it is dropped), a blank line ends an
// event, a line starting with ":" is a comment, "event" sets the event's
// type and each "data" line adds its value and "\n" to the event's data;
// other fields are ignored, and an event left unended at the end of the
// stream is dropped. A Reader is not safe for concurrent use.
type Reader struct {
	br   *bufio.Reader
	typ  []byte
	data []byte
	// long gathers a line longer than br's buffer.
	long []byte
	err  error
}

// NewReader returns a reader of r's events.
func NewReader(r io.Reader) *Reader { return &Reader{br: bufio.NewReaderSize(r, 16<<10)} }

// Next reads the next event that has a type or data, and reports whether
// there was one; false means the stream ended or failed (see Err).
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	r.typ, r.data = r.typ[:0], r.data[:0]
	for {
		line, err := r.line()
		if err != nil {
			if err != io.EOF {
				r.err = err
			}
			return false
		}
		if len(line) == 0 {
			if len(r.typ) > 0 || len(r.data) > 0 {
				return true
			}
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) { // compiled without a conversion
		case "event":
			r.typ = append(r.typ[:0], value...)
		case "data":
			r.data = append(append(r.data, value...), '\n')
		}
	}
}

// line returns the next line without its end; it is valid until the next
// read. A last line without an end is returned with io.EOF, which drops
// it as it cannot end an event.
func (r *Reader) line() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(r.long) > MaxLine {
				return nil, ErrTooLong
			}
			b, err = r.br.ReadSlice('\n')
			r.long = append(r.long, b...)
		}
		if len(r.long) > MaxLine+1 {
			return nil, ErrTooLong
		}
		b = r.long
	}
	if err != nil {
		return nil, err // io.EOF included
	}
	b = b[:len(b)-1]
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if len(b) > MaxLine {
		return nil, ErrTooLong
	}
	return b, nil
}

// Type is the current event's type ("" when it set none); valid until the
// next call to Next.
func (r *Reader) Type() []byte { return r.typ }

// Data is the current event's data, each data line followed by "\n";
// valid until the next call to Next.
func (r *Reader) Data() []byte { return r.data }

// Err is the error that ended the stream, nil at its end.
func (r *Reader) Err() error { return r.err }
