package loop

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// The codes of [ThreadsHandler]'s refusals of its own.
const (
	// CodeThreadNotFound: no thread of that id (404).
	CodeThreadNotFound agui.Code = "THREAD_NOT_FOUND"
	// CodeBadQuery: a query parameter is malformed or out of range (400);
	// the body's field names it.
	CodeBadQuery agui.Code = "BAD_QUERY"
	// CodeThreadListUnsupported: the agent's store is no [ThreadStore],
	// so it cannot list, rename or archive threads (501).
	CodeThreadListUnsupported agui.Code = "THREAD_LIST_UNSUPPORTED"
)

// DefaultThreadPage is the page size of a thread list request without a
// limit.
const DefaultThreadPage = 20

// maxPatchBytes bounds a PATCH body: a title and a flag.
const maxPatchBytes = 4 << 10

// ThreadsOption configures a [ThreadsHandler]; options are applied once,
// when the handler is made.
type ThreadsOption func(*threadsConfig)

type threadsConfig struct {
	cleanups []ThreadCleanup
}

// ThreadCleanup deletes what else an application keeps of a thread
// (a resumable route's run logs, say: resume.Log's DeleteThread), for
// the principal deleting it. It is called by concurrent requests, so it
// must be safe for concurrent use.
type ThreadCleanup func(ctx context.Context, threadID, principal string) error

// WithThreadCleanup adds f to what DELETE …/threads/{id} deletes (default:
// the checkpoint alone). Cleanups run in order before the checkpoint is
// deleted, so that a failed one (a 503) leaves the thread to delete
// again.
func WithThreadCleanup(f ThreadCleanup) ThreadsOption {
	return func(c *threadsConfig) { c.cleanups = append(c.cleanups, f) }
}

// ThreadsHandler serves the thread API of a's route, mounted at the
// route's path + "/threads" and below (an exact path and a prefix), behind
// the same middleware (authentication) as the route:
//
//	GET    …/threads?limit=&cursor=&archived=   the caller's threads ([ThreadPage])
//	GET    …/threads/{id}                       transcript and state ([History])
//	PATCH  …/threads/{id}  {"title", "archived"} rename, archive ([ThreadSummary])
//	DELETE …/threads/{id}                       delete (204)
//	GET    …/threads/{id}/messages?before=&after=&limit=  a page of messages ([MessagePage])
//	GET    …/threads/{id}/state                 shared state ({"threadId", "state"})
//
// It reads the path from its end, so the route's own path must not end in
// a segment "threads"; a thread id is one escaped segment. Answers are
// JSON; refusals are [core.RequestError] bodies: 401 (UNAUTHENTICATED)
// when the hook fails, 403 (FORBIDDEN, with no detail) for another
// principal's thread, 404 (THREAD_NOT_FOUND) for an unknown one, 400
// (BAD_QUERY) for a malformed or out-of-range query value, 405 for
// another method, 501 (THREAD_LIST_UNSUPPORTED) for a list, rename or
// archive when a's store is no [ThreadStore], 500 or 503 when the store
// fails. A list needs a principal: without one it is a 403, whatever the
// threads (fail closed). It is safe for concurrent use.
//
// principal is the route's principal hook, the one given to the agent's
// route ([core.WithPrincipal]); nil uses the principal already on the
// request's context (behind [Agent.OwnerGuard], say). Ownership fails
// closed: a thread with an owner is served only to that principal, so a
// route mounted without a hook serves unowned threads only.
//
// A DELETE runs the [WithThreadCleanup] functions, then deletes the
// checkpoint (its transcript, state and pending approval); a run holding
// the thread then loses it at its next save (THREAD_BUSY).
func ThreadsHandler(a *Agent, principal core.PrincipalFunc, opts ...ThreadsOption) http.Handler {
	var cfg threadsConfig
	for _, o := range opts {
		o(&cfg)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := principal.Authenticate(r)
		if err != nil {
			err.(*core.RequestError).WriteHTTP(w)
			return
		}
		th := threadsRequest{a: a, cfg: &cfg, w: w, r: r}
		id, sub, ok := threadPath(r.URL.EscapedPath())
		switch {
		case !ok:
			th.refuse(http.StatusNotFound, CodeThreadNotFound, "no such thread route", "")
		case id == "" && sub == "":
			th.list()
		case sub == "":
			th.thread(id)
		default:
			th.part(id, sub)
		}
	})
}

// threadPath splits an escaped path ending in /threads,
// /threads/{id}, /threads/{id}/messages or /threads/{id}/state; ok is
// false for any other.
func threadPath(p string) (id, sub string, ok bool) {
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	n := len(segs)
	unescape := func(s string) (string, bool) {
		u, err := url.PathUnescape(s)
		return u, err == nil && u != ""
	}
	switch {
	case n >= 3 && segs[n-3] == "threads" && (segs[n-1] == "messages" || segs[n-1] == "state"):
		id, ok = unescape(segs[n-2])
		return id, segs[n-1], ok
	case n >= 2 && segs[n-2] == "threads":
		id, ok = unescape(segs[n-1])
		return id, "", ok
	case n >= 1 && segs[n-1] == "threads":
		return "", "", true
	}
	return "", "", false
}

// threadsRequest is one request of a [ThreadsHandler].
type threadsRequest struct {
	a   *Agent
	cfg *threadsConfig
	w   http.ResponseWriter
	r   *http.Request
}

func (th *threadsRequest) refuse(status int, code agui.Code, msg, field string) {
	(&core.RequestError{Status: status, Code: code, Message: msg, Field: field}).WriteHTTP(th.w)
}

func (th *threadsRequest) json(status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		th.refuse(http.StatusInternalServerError, agui.CodeSerialization, err.Error(), "")
		return
	}
	th.raw(status, body)
}

func (th *threadsRequest) raw(status int, body []byte) {
	th.w.Header().Set("Content-Type", "application/json")
	th.w.Header().Set("Cache-Control", "no-store")
	th.w.WriteHeader(status)
	_, _ = th.w.Write(append(body, '\n'))
}

// allow refuses a method other than those listed (GET brings HEAD).
func (th *threadsRequest) allow(methods ...string) bool {
	for _, m := range methods {
		if th.r.Method == m || (m == http.MethodGet && th.r.Method == http.MethodHead) {
			return true
		}
	}
	allow := strings.Join(methods, ", ")
	if strings.Contains(allow, http.MethodGet) {
		allow += ", HEAD"
	}
	th.w.Header().Set("Allow", allow)
	th.refuse(http.StatusMethodNotAllowed, core.CodeMethodNotAllowed, "this thread route takes "+allow, "")
	return false
}

func (th *threadsRequest) threadStore() (ThreadStore, bool) {
	ts, ok := th.a.cfg.store.(ThreadStore)
	if !ok {
		th.refuse(http.StatusNotImplemented, CodeThreadListUnsupported, "the agent's checkpoint store cannot list threads", "")
	}
	return ts, ok
}

// load returns thread id's checkpoint if the request's principal may see
// it, and answers otherwise.
func (th *threadsRequest) load(id string) (*Checkpoint, bool) {
	cp, _, err := th.a.cfg.store.Load(th.r.Context(), id)
	switch {
	case errors.Is(err, ErrNotFound):
		th.refuse(http.StatusNotFound, CodeThreadNotFound, "no such thread", "") // the id is not echoed: a URL may carry up to a megabyte of it
		return nil, false
	case err != nil:
		th.storeFailed(err)
		return nil, false
	}
	if checkOwner(cp, principalFrom(th.r.Context())) != nil {
		// Another principal's thread, or an owned thread and no
		// principal at all: never skipped, never served.
		th.refuse(http.StatusForbidden, core.CodeForbidden, "the thread belongs to someone else", "")
		return nil, false
	}
	return cp, true
}

// storeFailed answers a store failure without its cause, which is logged.
func (th *threadsRequest) storeFailed(err error) {
	th.a.logger().WarnContext(th.r.Context(), "loop: thread API: store failed", "error", err)
	th.refuse(http.StatusServiceUnavailable, CodeCheckpoint, "the thread store failed", "")
}

func (th *threadsRequest) list() {
	if !th.allow(http.MethodGet) {
		return
	}
	ts, ok := th.threadStore()
	if !ok {
		return
	}
	p, ok := core.PrincipalFrom(th.r.Context())
	if !ok || p == "" {
		th.refuse(http.StatusForbidden, core.CodeForbidden, "listing threads needs a principal", "")
		return
	}
	query := th.r.URL.Query()
	q := ThreadQuery{Limit: DefaultThreadPage, Cursor: query.Get("cursor")}
	if !th.intParam(query, "limit", 1, MaxThreadPage, &q.Limit) {
		return
	}
	if s := query.Get("archived"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			th.refuse(http.StatusBadRequest, CodeBadQuery, "archived is true or false", "archived")
			return
		}
		q.Archived = b
	}
	page, err := ts.Threads(th.r.Context(), p, q)
	switch {
	case errors.Is(err, ErrBadCursor):
		th.refuse(http.StatusBadRequest, CodeBadQuery, "the cursor is not one a list handed out", "cursor")
		return
	case err != nil:
		th.storeFailed(err)
		return
	}
	if page.Threads == nil {
		page.Threads = []ThreadSummary{}
	}
	th.json(http.StatusOK, page)
}

// intParam reads query parameter name into *v when present, answering
// 400 when it is no integer in [lo, hi].
func (th *threadsRequest) intParam(query url.Values, name string, lo, hi int, v *int) bool {
	s := query.Get(name)
	if s == "" {
		return true
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		th.refuse(http.StatusBadRequest, CodeBadQuery, name+" is an integer from "+strconv.Itoa(lo)+" to "+strconv.Itoa(hi), name)
		return false
	}
	*v = n
	return true
}

func (th *threadsRequest) thread(id string) {
	if !th.allow(http.MethodGet, http.MethodPatch, http.MethodDelete) {
		return
	}
	cp, ok := th.load(id)
	if !ok {
		return
	}
	switch th.r.Method {
	case http.MethodPatch:
		th.patch(id)
	case http.MethodDelete:
		th.delete(id)
	default:
		body, err := historyBody(id, cp)
		if err != nil {
			th.refuse(http.StatusInternalServerError, agui.CodeSerialization, err.Error(), "")
			return
		}
		th.raw(http.StatusOK, body)
	}
}

func (th *threadsRequest) patch(id string) {
	ts, ok := th.threadStore()
	if !ok {
		return
	}
	var body struct {
		Title    *string `json:"title"`
		Archived *bool   `json:"archived"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(th.w, th.r.Body, maxPatchBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || !atEOF(dec) {
		th.refuse(http.StatusBadRequest, core.CodeMalformedInput, `the body is a JSON object of "title" and "archived"`, "")
		return
	}
	if t := body.Title; t != nil && (len(*t) > MaxTitle || !utf8.ValidString(*t) || strings.ContainsFunc(*t, unicode.IsControl)) {
		// A title is one line of text: a control character (a NUL,
		// which PostgreSQL's text cannot hold, a newline) is the
		// client's error on every store, not a store failure.
		th.refuse(http.StatusUnprocessableEntity, core.CodeInvalidInput, "the title is one line of UTF-8 of at most "+strconv.Itoa(MaxTitle)+" bytes, without control characters", "title")
		return
	}
	sum, err := ts.UpdateThread(th.r.Context(), id, ThreadUpdate{Title: body.Title, Archived: body.Archived})
	switch {
	case errors.Is(err, ErrNotFound):
		th.refuse(http.StatusNotFound, CodeThreadNotFound, "no such thread", "") // the id is not echoed: a URL may carry up to a megabyte of it
	case err != nil:
		th.storeFailed(err)
	default:
		th.json(http.StatusOK, sum)
	}
}

// atEOF reports whether dec has nothing left but white space, so that a
// body with bytes after its object is refused rather than half read.
func atEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return errors.Is(err, io.EOF)
}

func (th *threadsRequest) delete(id string) {
	ctx := th.r.Context()
	p := principalFrom(ctx)
	for _, f := range th.cfg.cleanups {
		if err := f(ctx, id, p); err != nil {
			th.storeFailed(err)
			return
		}
	}
	if err := th.a.cfg.store.Delete(ctx, id); err != nil {
		th.storeFailed(err)
		return
	}
	th.w.WriteHeader(http.StatusNoContent)
}

func (th *threadsRequest) part(id, sub string) {
	if !th.allow(http.MethodGet) {
		return
	}
	cp, ok := th.load(id)
	if !ok {
		return
	}
	if sub == "state" {
		state := cp.State
		if state == nil {
			state = json.RawMessage("null")
		}
		th.json(http.StatusOK, struct {
			ThreadID string          `json:"threadId"`
			State    json.RawMessage `json:"state"`
		}{id, state})
		return
	}
	query := th.r.URL.Query()
	q := messageQuery{Limit: DefaultMessagePage, Before: query.Get("before"), After: query.Get("after")}
	if !th.intParam(query, "limit", 1, MaxMessagePage, &q.Limit) {
		return
	}
	page, err := messagePage(id, cp.Messages, q)
	var field string
	switch {
	case errors.Is(err, errBothCursors):
		field = "after"
	case errors.Is(err, errUnknownMessage):
		field = "before"
		if q.After != "" {
			field = "after"
		}
	case err != nil:
		th.refuse(http.StatusInternalServerError, agui.CodeSerialization, err.Error(), "")
		return
	default:
		th.raw(http.StatusOK, page)
		return
	}
	th.refuse(http.StatusBadRequest, CodeBadQuery, err.Error(), field)
}
