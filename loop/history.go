package loop

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// CodeThreadNotFound is the code of [HistoryHandler]'s 404 answer.
const CodeThreadNotFound = "THREAD_NOT_FOUND"

// History is a thread as [HistoryHandler] serves it: its transcript in
// AG-UI message shapes and its shared state (JSON null without one).
type History struct {
	ThreadID string          `json:"threadId"`
	Messages json.RawMessage `json:"messages"`
	State    json.RawMessage `json:"state"`
}

// HistoryHandler serves GET …/threads/{threadId}: the thread's transcript
// and state from a's checkpoints as a [History], 404 with a JSON error body
// ({"error", "code": "THREAD_NOT_FOUND"}) for a thread a has none of, and
// 405 for other methods. The thread id is the request's "threadId" path
// value (a net/http ServeMux pattern) or else the path's last segment, so
// it mounts under any router; mount it behind the same middleware
// (authentication) as the agent's route. It is safe for concurrent use.
//
// principal is the route's principal hook, the one given to the agent's
// route ([core.WithPrincipal]); nil uses the principal already on the
// request's context (behind [Agent.OwnerGuard], say). A failing hook is a
// JSON 401 (core.CodeUnauthenticated). Ownership fails closed: a thread
// with an owner is served only to that principal, and a request without a
// principal, or with another, gets 403 (THREAD_FORBIDDEN), so a route
// mounted without a hook serves unowned threads only.
func HistoryHandler(a *Agent, principal core.PrincipalFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := principal.Authenticate(r)
		if err != nil {
			err.(*core.RequestError).WriteHTTP(w)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeJSONError(w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "only GET reads a thread")
			return
		}
		id := r.PathValue("threadId")
		if id == "" {
			seg := r.URL.EscapedPath()
			seg = seg[strings.LastIndexByte(seg, '/')+1:]
			id, _ = url.PathUnescape(seg)
		}
		cp, _, err := a.cfg.store.Load(r.Context(), id)
		switch {
		case errors.Is(err, ErrNotFound) || id == "":
			writeJSONError(w, http.StatusNotFound, CodeThreadNotFound, "no thread "+id)
			return
		case err != nil:
			writeJSONError(w, http.StatusInternalServerError, string(CodeCheckpoint), "the thread could not be read")
			return
		}
		if err := checkOwner(cp, principalFrom(r.Context())); err != nil {
			// Another principal's thread, or an owned thread and no
			// principal at all: never skipped, never served.
			writeJSONError(w, http.StatusForbidden, string(agui.CodeOf(err)), "the thread belongs to someone else")
			return
		}
		msgs, err := messagesJSON(cp.Messages)
		if err != nil {
			writeJSONError(w, http.StatusInternalServerError, string(agui.CodeSerialization), err.Error())
			return
		}
		h := History{ThreadID: id, Messages: msgs, State: cp.State}
		if h.State == nil {
			h.State = json.RawMessage("null")
		}
		body, err := json.Marshal(h)
		if err != nil {
			writeJSONError(w, http.StatusInternalServerError, string(agui.CodeSerialization), err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(append(body, '\n'))
	})
}

// messagesJSON encodes msgs as the AG-UI messages array.
func messagesJSON(msgs []agui.Message) (json.RawMessage, error) {
	b, err := (&agui.MessagesSnapshot{Messages: msgs}).AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	var ev struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(b, &ev); err != nil {
		return nil, err
	}
	return ev.Messages, nil
}

func writeJSONError(w http.ResponseWriter, status int, code, msg string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
		Code  string `json:"code"`
	}{msg, code}) // two strings always marshal
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// announceHistory sends MESSAGES_SNAPSHOT of the thread's transcript when
// the input's history lacks a message the thread has: a reloaded page or
// a second tab then shows the whole thread before the run goes on.
func (r *run) announceHistory(in []agui.Message) {
	if r.line.depth > 0 {
		// A delegated run's transcript is the loop's own business.
		return
	}
	have := make(map[string]bool, len(in))
	for _, m := range in {
		have[m.MessageID()] = true
	}
	view := slices.Clip(r.cp.Messages)
	if msg, first := r.pendingTurn(); msg != nil {
		// What the client holds of a turn still pending: the results it
		// was sent or sent itself, in call order.
		for _, c := range msg.ToolCalls[first:] {
			for _, p := range r.cp.Parked {
				if p.ToolCallID == c.ID && !r.announce[c.ID] {
					view = append(view, p)
				}
			}
		}
	}
	view = append(view, r.input...)
	for _, m := range view {
		if !have[m.MessageID()] {
			r.emit(&agui.MessagesSnapshot{Messages: view})
			// The client now holds every call of the snapshot, as if its
			// history had carried them.
			for id := range callIDs(view) {
				r.clientCalls[id] = true
			}
			return
		}
	}
}
