package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"
)

// readBuffer is the client's read buffer per stream: small, so that the
// heap Run measures is mostly the server's.
const readBuffer = 512

// Patterns the client looks for in the raw (chunked) SSE response. Each
// event is one write and starts a line with "data: ", and our encoder puts
// "type" first.
var (
	patEvent    = []byte("\ndata: ")
	patFinished = []byte(`data: {"type":"RUN_FINISHED"`)
	patError    = []byte(`data: {"type":"RUN_ERROR"`)
	patLastCk   = []byte("\r\n0\r\n\r\n")
)

// outcome is what one stream measured.
type outcome struct {
	ttfe   time.Duration // time to first event; 0 if none arrived
	events int
	err    error
}

// matcher counts occurrences of a pattern across reads: it keeps the last
// len(pattern)-1 bytes of the stream, so that an occurrence split between
// two reads is counted once.
type matcher struct {
	pat  []byte
	tail []byte
	n    int
}

func (m *matcher) feed(p []byte) {
	window := append(m.tail, p...)
	m.n += bytes.Count(window, m.pat)
	keep := min(len(m.pat)-1, len(window))
	m.tail = append(m.tail[:0], window[len(window)-keep:]...)
}

// leaving is how a stream may end before its run does: once open is
// closed, the stream leaves after after more events (after > 0).
type leaving struct {
	open  <-chan struct{}
	after int
}

// stream runs one request over a raw HTTP/1.1 connection to addr and reads
// its SSE response until the chunked body ends, or until it may leave.
// The first event is reported through first. ctx bounds the whole stream.
func stream(ctx context.Context, addr, path string, body []byte, first func(), leave leaving) (o outcome) {
	start := time.Now()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return outcome{err: err}
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	req := make([]byte, 0, 256+len(body))
	req = append(req, "POST "+path+" HTTP/1.1\r\nHost: "+addr+
		"\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "+
		strconv.Itoa(len(body))+"\r\n\r\n"...)
	req = append(req, body...)
	if _, err := conn.Write(req); err != nil {
		return outcome{err: err}
	}

	buf := make([]byte, readBuffer)
	events := matcher{pat: patEvent}
	finished := matcher{pat: patFinished}
	failed := matcher{pat: patError}
	last := matcher{pat: patLastCk}
	status := false
	var head []byte
	leaveAt := -1 // the event count at which the stream leaves, once known
	for {
		n, err := conn.Read(buf)
		p := buf[:n]
		if !status && n > 0 {
			// The status line comes first; ask only for "200".
			head = append(head, p...)
			if len(head) < 12 {
				continue
			}
			if !bytes.HasPrefix(head, []byte("HTTP/1.1 200")) {
				line, _, _ := bytes.Cut(head, []byte("\r\n"))
				return outcome{err: fmt.Errorf("status %q", line)}
			}
			status = true
			p = head
		}
		if len(p) > 0 {
			before := events.n
			events.feed(p)
			finished.feed(p)
			failed.feed(p)
			last.feed(p)
			if before == 0 && events.n > 0 {
				o.ttfe = time.Since(start)
				first()
			}
		}
		o.events = events.n
		if leave.after > 0 && leaveAt < 0 {
			select {
			case <-leave.open:
				leaveAt = events.n + leave.after
			default:
			}
		}
		switch {
		case failed.n > 0:
			o.err = errors.New("RUN_ERROR")
			return o
		case last.n > 0:
			if finished.n == 0 {
				o.err = errors.New("the stream ended without RUN_FINISHED")
			}
			return o
		case leaveAt >= 0 && events.n >= leaveAt:
			return o // left on purpose; the server sees a disconnect
		case err != nil:
			o.err = err
			return o
		}
	}
}
