package agui

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
)

// ReadSSE returns the events of an SSE body (media type [SSEContentType])
// in order. It yields a nil event with an error for a frame that does not
// decode (a [*Error] with code SERIALIZATION, wrapping the decoder's
// [*InputError]) and stops after it; a body that ends cleanly ends the sequence
// with no error. Use an [SSEReader] to see event ids and comments.
func ReadSSE(r io.Reader) iter.Seq2[Event, error] {
	return NewSSEReader(r).Events()
}

// ReadProto returns the events of a protobuf body (media type
// [ProtoContentType]): frames of a 4-byte big-endian length and an encoded
// event, as [AppendProto] writes them. A frame over [MaxEventSize], a frame
// cut short or one that does not decode ends the sequence with an error.
func ReadProto(r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		br := bufio.NewReader(r)
		var size [protoPrefix]byte
		for {
			if _, err := io.ReadFull(br, size[:]); err != nil {
				if err != io.EOF {
					yield(nil, &Error{Code: CodeSerialization, Message: "protobuf: frame cut short", Err: err})
				}
				return
			}
			n := binary.BigEndian.Uint32(size[:])
			if n > MaxEventSize {
				yield(nil, &Error{Code: CodeSerialization,
					Message: fmt.Sprintf("protobuf: frame of %d bytes exceeds the 10 MiB limit", n)})
				return
			}
			frame := make([]byte, protoPrefix+int(n))
			copy(frame, size[:])
			if _, err := io.ReadFull(br, frame[protoPrefix:]); err != nil {
				yield(nil, &Error{Code: CodeSerialization, Message: "protobuf: frame cut short", Err: err})
				return
			}
			ev, err := DecodeProto(frame)
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// ReadEvents reads a body in the encoding its Content-Type names:
// [ReadProto] for [ProtoContentType], [ReadSSE] otherwise.
func ReadEvents(r io.Reader, contentType string) iter.Seq2[Event, error] {
	if mt, _, _ := strings.Cut(contentType, ";"); strings.EqualFold(strings.TrimSpace(mt), ProtoContentType) {
		return ReadProto(r)
	}
	return ReadSSE(r)
}

// SSEReader parses a server-sent event stream as the HTML Living Standard
// defines it (https://html.spec.whatwg.org/multipage/server-sent-events.html):
// lines end in LF, CRLF or CR; a frame's data lines are joined with LF; a
// blank line dispatches it; "id:" sets the last event id; a line starting
// with ":" is a comment. Each dispatched frame's data must be one AG-UI
// event in JSON. Frames over [MaxEventSize] are refused.
//
// An SSEReader is not safe for concurrent use.
type SSEReader struct {
	sc       *bufio.Scanner
	data     bytes.Buffer
	lastID   string
	comments int
	frameID  string // the id field of the frame being read
	hasID    bool   // whether that frame has one
	eventID  string // frameID of the frame Next last returned
	eventHas bool
}

// NewSSEReader returns a reader of r's frames.
func NewSSEReader(r io.Reader) *SSEReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 32<<10), MaxEventSize+len("data: \r\n"))
	sc.Split(scanLines)
	return &SSEReader{sc: sc}
}

// LastEventID is the value of the last "id:" field read, as a browser's
// EventSource keeps it for Last-Event-ID; "" before any.
func (s *SSEReader) LastEventID() string { return s.lastID }

// EventID is the "id:" field of the frame whose event [SSEReader.Next]
// last returned, and whether that frame had one. [SSEReader.LastEventID]
// keeps the last id the stream set, as a browser does for its next
// reconnection; EventID tells a frame that carries no id (a server's
// closing event that is no part of a replayable log, say) from one that
// carries the same id again.
func (s *SSEReader) EventID() (id string, ok bool) { return s.eventID, s.eventHas }

// Comments is the number of comment lines read so far (heartbeats).
func (s *SSEReader) Comments() int { return s.comments }

// errFrameTooLarge is wrapped in the error for a frame over MaxEventSize.
var errFrameTooLarge = errors.New("SSE frame over the event size limit")

// Next returns the next event, or [io.EOF] when the body ends. A frame that
// was not dispatched by a blank line before the end is discarded, as the
// standard says.
func (s *SSEReader) Next() (Event, error) {
	data, err := s.NextData()
	if err != nil {
		return nil, err
	}
	ev, err := DecodeEvent(data)
	if err != nil {
		return nil, &Error{Code: CodeSerialization, Message: "an SSE frame is not an AG-UI event: " + err.Error(), Err: err}
	}
	return ev, nil
}

// NextData is [SSEReader.Next] without the decoding: the next frame's data,
// its lines joined with LF, or [io.EOF] when the body ends. The bytes are
// valid until the next call. A client that must look at an event before
// [DecodeEvent] judges it (to drop an event type from a newer protocol,
// say) reads frames with it.
func (s *SSEReader) NextData() ([]byte, error) {
	for {
		if !s.sc.Scan() {
			if err := s.sc.Err(); err != nil {
				if errors.Is(err, bufio.ErrTooLong) {
					err = errFrameTooLarge
				}
				return nil, &Error{Code: CodeSerialization, Message: "cannot read the SSE stream: " + err.Error(), Err: err}
			}
			return nil, io.EOF
		}
		line := s.sc.Bytes()
		if len(line) == 0 {
			frameID, hasID := s.frameID, s.hasID
			s.frameID, s.hasID = "", false
			if s.data.Len() == 0 {
				continue
			}
			data := s.data.Bytes()
			data = data[:len(data)-1] // the LF after the last data line
			s.data.Reset()            // data stays valid: Reset keeps the buffer
			s.eventID, s.eventHas = frameID, hasID
			return data, nil
		}
		if line[0] == ':' {
			s.comments++
			continue
		}
		field, value, found := bytes.Cut(line, []byte{':'})
		if found && len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(field) {
		case "data":
			if s.data.Len()+len(value) > MaxEventSize {
				return nil, &Error{Code: CodeSerialization, Message: "cannot read the SSE stream: " + errFrameTooLarge.Error(), Err: errFrameTooLarge}
			}
			s.data.Write(value)
			s.data.WriteByte('\n')
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				s.lastID = string(value)
				s.frameID, s.hasID = s.lastID, true
			}
		}
		// "event", "retry" and unknown fields carry nothing an AG-UI event needs.
	}
}

// Events returns the remaining events as a sequence; see [ReadSSE].
func (s *SSEReader) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			ev, err := s.Next()
			if err == io.EOF {
				return
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// scanLines splits at LF, CRLF or CR, as the SSE grammar allows. A CR at
// the end of the data waits for the next byte, which may be its LF.
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		if atEOF {
			// A last line with no terminator belongs to a frame that was
			// never dispatched: drop it.
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	if data[i] == '\n' {
		return i + 1, data[:i], nil
	}
	if i+1 < len(data) {
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	}
	if atEOF {
		return i + 1, data[:i], nil
	}
	return 0, nil, nil
}
