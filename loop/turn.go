package loop

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// turnCall is one tool call being assembled from a stream.
type turnCall struct {
	index    int
	id, name string
	args     strings.Builder
	deltas   []string
}

// modelTurn asks the provider for one turn, streaming its text and
// reasoning as events, and returns the assembled assistant message. Tool
// call events are not emitted here: each call's START/ARGS/END goes out
// just before the call starts, so that events follow the batch's order.
// The streamed argument fragments are kept in r.argDeltas for that.
func (r *run) modelTurn(ctx context.Context) (*agui.AssistantMessage, error) {
	tools, err := r.toolSpecs()
	if err != nil {
		return nil, err
	}
	req := ModelRequest{
		Instructions: r.instructions(),
		Messages:     r.modelMessages(),
		Tools:        tools,
		Settings:     r.settings(),
		Output:       r.outputSpec(),
	}
	req, err = r.prepareRequest(ctx, req)
	if err != nil {
		return nil, err
	}
	r.turnFinish = ""
	// textMsg is the turn's text message, opened at its first delta
	// through core's handle, whose deltas reuse the run's events rather
	// than allocating one per token (the token path's profile, issue 26);
	// msgID is its id, or a fresh one for a turn without text.
	var (
		text          strings.Builder
		textMsg       *core.MessageHandle
		msgID         string
		reasoning     bool
		reasoningID   string
		reasoningText strings.Builder
		kept          []agui.Message
		calls         = map[int]*turnCall{}
	)
	closeReasoning := func() {
		if reasoning {
			r.emit(&agui.ReasoningMessageEnd{MessageID: reasoningID})
			r.emit(&agui.ReasoningEnd{MessageID: reasoningID})
			reasoning = false
		}
	}
	closeText := func() {
		if textMsg != nil && r.emitErr == nil {
			r.refused(textMsg.End())
		}
		textMsg = nil
	}
	var streamErr error
	deltas, stop := r.pump(ctx, req)
	defer stop()
	// Deltas arriving close together go out together (see
	// coalesceWindow): release ends the hold on the client's writer, held
	// counts the deltas emitted under it, window ends it in time, last is
	// when the previous delta arrived.
	var (
		release func()
		held    int
		window  *time.Timer
		windowC <-chan time.Time
		last    time.Time
	)
	endHold := func() {
		if release != nil {
			release()
			release, windowC = nil, nil
		}
	}
	defer func() {
		if window != nil {
			window.Stop()
		}
	}()
read:
	for {
		var (
			it streamed
			ok bool
		)
		// Under a hold, a waiting delta is taken without the full select
		// (the profile showed selectgo at a tenth of the loop's CPU); a
		// hold is short, so the lease's renewals still get their turn.
		took := false
		if release != nil {
			select {
			case it, ok = <-deltas:
				took = true
			default:
			}
		}
		if !took {
			select {
			case it, ok = <-deltas:
			case <-windowC:
				endHold()
				continue
			case <-r.renewals():
				if err := r.tick(ctx); err != nil {
					r.lost, streamErr = err, err
					break read
				}
				continue
			}
		}
		if !ok {
			break
		}
		d, err := it.delta, it.err
		if err != nil {
			streamErr = err
			break
		}
		// near: this delta came soon after the one before. With more
		// waiting the clock is not read (the profile showed it at a
		// twentieth of the loop's CPU): the hold is taken anyway.
		near := len(deltas) > 0
		if !near {
			now := time.Now()
			near = !last.IsZero() && now.Sub(last) < coalesceWindow
			last = now
		}
		if release == nil && near {
			release, held = r.sink.coalesce(), 0
			if window == nil {
				window = time.NewTimer(coalesceWindow)
			} else {
				window.Reset(coalesceWindow)
			}
			windowC = window.C
		}
		if d.Reasoning != "" || d.ReasoningEncrypted != "" {
			if !reasoning {
				reasoningID = newID("reasoning")
				r.emit(&agui.ReasoningStart{MessageID: reasoningID})
				r.emit(&agui.ReasoningMessageStart{MessageID: reasoningID})
				reasoning = true
				reasoningText.Reset()
			}
			if d.Reasoning != "" {
				r.emit(&agui.ReasoningMessageContent{MessageID: reasoningID, Delta: d.Reasoning})
				reasoningText.WriteString(d.Reasoning)
			}
		}
		if d.ReasoningEncrypted != "" {
			closeReasoning()
			r.emit(&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: reasoningID,
				EncryptedValue: d.ReasoningEncrypted, EncryptedValueType: d.ReasoningEncryptedType})
			kept = append(kept, &agui.ReasoningMessage{ID: reasoningID, Content: reasoningText.String(),
				EncryptedValue: d.ReasoningEncrypted, EncryptedValueType: d.ReasoningEncryptedType})
		}
		if d.Finish != "" {
			r.turnFinish = d.Finish
		}
		if d.Text != "" {
			closeReasoning()
			if textMsg == nil && msgID == "" && r.emitErr == nil {
				textMsg, err = r.sink.message()
				r.refused(err)
				if textMsg != nil {
					msgID = textMsg.ID()
				}
			}
			if textMsg != nil && r.emitErr == nil {
				r.refused(textMsg.Delta(d.Text))
			}
			text.WriteString(d.Text)
		}
		if tc := d.ToolCall; tc != nil {
			c := calls[tc.Index]
			if c == nil {
				c = &turnCall{index: tc.Index}
				calls[tc.Index] = c
			}
			if tc.ID != "" {
				c.id = tc.ID
			}
			if tc.Name != "" {
				c.name = tc.Name
			}
			if tc.Args != "" {
				c.args.WriteString(tc.Args)
				c.deltas = append(c.deltas, tc.Args)
				r.predict(c)
			}
		}
		if d.Usage != nil {
			r.usage = r.usage.Add(*d.Usage)
			r.cp.Usage = r.cp.Usage.Add(*d.Usage)
		}
		if release != nil {
			if held++; held >= coalesceMax || (len(deltas) == 0 && !near) {
				endHold()
			}
		}
	}
	endHold()
	closeReasoning()
	closeText()
	if streamErr != nil {
		return nil, streamErr
	}
	if len(kept) > 0 {
		// Reasoning the provider needs back precedes its turn.
		r.cp.Messages = append(slices.Clip(r.cp.Messages), kept...)
	}
	if msgID == "" {
		msgID = newID("msg")
	}
	msg := &agui.AssistantMessage{ID: msgID, Content: text.String()}
	ordered := make([]*turnCall, 0, len(calls))
	for _, c := range calls {
		ordered = append(ordered, c)
	}
	slices.SortFunc(ordered, func(a, b *turnCall) int { return cmp.Compare(a.index, b.index) })
	used := r.callIDs()
	for _, c := range ordered {
		// A call id must be unique in the thread: results and approvals
		// are matched to calls by it.
		if c.id == "" || used[c.id] {
			c.id = newID("call")
		}
		used[c.id] = true
		msg.ToolCalls = append(msg.ToolCalls, agui.ToolCall{
			ID:       c.id,
			Function: agui.FunctionCall{Name: c.name, Arguments: c.args.String()},
		})
		r.argDeltas[c.id] = c.deltas
	}
	return msg, nil
}

// streamed is one item of a provider's stream.
type streamed struct {
	delta Delta
	err   error
}

// coalesceWindow and coalesceMax are how the loop sends a model's deltas
// that arrive close together in one write and one flush to the client,
// rather than one each (see [core.Emitter.Coalesce]): it holds the
// client's writer back while more deltas wait in the channel from the
// provider, or when a delta arrived within coalesceWindow of the one
// before, and lets it go when coalesceWindow has passed since the hold
// began, when coalesceMax deltas were emitted under it, when a delta that
// was not close finds none waiting, or when the turn ends. So no event
// waits more than coalesceWindow, and one after a pause of the model (a
// real model's tokens mostly come several milliseconds apart) waits for
// nothing. The token path of BENCHMARKS.md (issue 26) measured a write
// and a flush per token without it. coalesceMax is core's default queue
// bound, which wakes the writer of a held queue that fills anyway, and
// the capacity of the channel (see pump).
const (
	coalesceWindow = time.Millisecond
	coalesceMax    = 64
)

// pump runs the provider's stream on its own goroutine and hands its items
// over a channel, so that the loop goroutine can renew its lease while the
// model is slow. The channel holds coalesceMax items, so the provider
// reads ahead while the loop emits, and the loop sees how many wait.
// stop cancels the stream and joins the goroutine.
func (r *run) pump(ctx context.Context, req ModelRequest) (<-chan streamed, func()) {
	ctx, cancel := context.WithCancel(ctx)
	items := make(chan streamed, coalesceMax)
	quit := make(chan struct{})
	go func() {
		defer close(items)
		for d, err := range r.a.provider.Stream(ctx, req) {
			select {
			case items <- streamed{d, err}:
				continue // room: no full select (see modelTurn)
			default:
			}
			select {
			case items <- streamed{d, err}:
			case <-quit:
				return
			}
		}
	}()
	return items, func() {
		close(quit)
		cancel()
		for range items {
		}
	}
}

// callIDs returns the ids of every tool call in the transcript.
func (r *run) callIDs() map[string]bool {
	ids := map[string]bool{}
	for _, m := range r.cp.Messages {
		if am, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range am.ToolCalls {
				ids[c.ID] = true
			}
		}
	}
	return ids
}
