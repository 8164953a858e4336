package agui

import "slices"

// Downgrade rewrites one 1.0 event for a client older than 1.0, one whose
// request carried no protocolVersion (AG-UI 1.0, docs.ag-ui.com).
// It returns the event to send and false when the event must not be sent
// at all.
//
// The rules, each for a shape a 0.0.x client rejects:
//   - SUBAGENT_STARTED, SUBAGENT_FINISHED and SUBAGENT_ERROR are dropped;
//     subagentRunId tags on other events stay (old clients ignore them).
//   - RUN_FINISHED with a success outcome loses pendingToolCallIds.
//   - RUN_FINISHED with a cancelled outcome becomes RUN_ERROR with message
//     "run cancelled" and code CANCELLED, keeping the base fields and usage.
//     Old clients know no cancelled outcome, and success would be a lie.
//   - TOOL_CALL_RESULT content in parts form is flattened to text
//     ([Content.String]: text parts joined by newlines, media dropped).
//   - In RUN_STARTED.input and MESSAGES_SNAPSHOT, user message parts with a
//     file source are removed, and tool message parts are flattened to
//     text.
//   - RUN_STARTED.input always carries tools and context, as empty arrays
//     when there are none.
//   - The encryptedValueType of AG-UI 1.1 is removed, as [Downgrade10]
//     removes it for a 1.0 client.
//
// Every other event is returned as it is. Downgrade never modifies ev: an
// event it changes is a copy, sharing with ev only what it leaves
// unchanged. Two rules lose information the client would have shown (media
// parts dropped, cancelled reported as an error); [DowngradeLossy] tells
// them apart so that a transport can log the warning the protocol asks
// for.
func Downgrade(ev Event) (Event, bool) {
	out, keep, _ := downgrade(ev)
	return out, keep
}

// DowngradeLossy reports whether Downgrade(ev) loses information a pre-1.0
// client would otherwise have received: a cancelled outcome turned into an
// error, or media content parts dropped. Dropping SUBAGENT_* events and
// pendingToolCallIds does not count: old clients had no use for them.
func DowngradeLossy(ev Event) bool {
	_, _, lossy := downgrade(ev)
	return lossy
}

// downgrade applies Downgrade's rules and reports whether they were lossy.
func downgrade(ev Event) (out Event, keep, lossy bool) {
	ev = Downgrade10(ev)
	switch e := ev.(type) {
	case *SubagentStarted, *SubagentFinished, *SubagentError:
		return nil, false, false
	case *RunFinished:
		return downgradeRunFinished(e)
	case *ToolCallResult:
		if !e.Content.IsParts() {
			return e, true, false
		}
		cp := *e
		cp.Content = TextContent(e.Content.String())
		return &cp, true, hasMedia(e.Content.Parts)
	case *MessagesSnapshot:
		msgs, changed, lossy := downgradeMessages(e.Messages)
		if !changed {
			return e, true, false
		}
		cp := *e
		cp.Messages = msgs
		return &cp, true, lossy
	case *RunStarted:
		if e.Input == nil {
			return e, true, false
		}
		msgs, changed, lossy := downgradeMessages(e.Input.Messages)
		if !changed && e.Input.Tools != nil && e.Input.Context != nil {
			return e, true, false
		}
		in := *e.Input
		in.Messages = msgs
		if in.Tools == nil {
			in.Tools = []Tool{}
		}
		if in.Context == nil {
			in.Context = []ContextItem{}
		}
		cp := *e
		cp.Input = &in
		return &cp, true, lossy
	}
	return ev, true, false
}

func downgradeRunFinished(e *RunFinished) (Event, bool, bool) {
	if e.Outcome == nil {
		return e, true, false
	}
	switch e.Outcome.Type {
	case OutcomeCancelled:
		return &RunError{Base: e.Base, Message: "run cancelled", Code: string(CodeCancelled), Usage: e.Usage}, true, true
	case OutcomeSuccess:
		if e.Outcome.PendingToolCallIDs == nil {
			return e, true, false
		}
		cp := *e
		cp.Outcome = &Outcome{Type: OutcomeSuccess}
		return &cp, true, false
	}
	return e, true, false
}

// downgradeMessages rewrites the messages a pre-1.0 client rejects. It
// returns ms itself when nothing changes, and otherwise a new slice in
// which only the rewritten messages are copies.
func downgradeMessages(ms []Message) (out []Message, changed, lossy bool) {
	for i, m := range ms {
		nm, lost := downgradeMessage(m)
		if nm != m && out == nil {
			out = slices.Clone(ms)
		}
		if out != nil {
			out[i] = nm
		}
		lossy = lossy || lost
	}
	if out == nil {
		return ms, false, false
	}
	return out, true, lossy
}

// downgradeMessage returns m, or a rewritten copy of it and whether
// content was lost.
func downgradeMessage(m Message) (Message, bool) {
	switch m := m.(type) {
	case *UserMessage:
		if !hasFileSource(m.Content.Parts) {
			return m, false
		}
		kept := make([]ContentPart, 0, len(m.Content.Parts))
		for _, p := range m.Content.Parts {
			if p.Source == nil || p.Source.Type != SourceFile {
				kept = append(kept, p)
			}
		}
		cp := *m
		cp.Content = Content{Parts: kept}
		return &cp, true
	case *ToolMessage:
		if !m.Content.IsParts() {
			return m, false
		}
		cp := *m
		cp.Content = TextContent(m.Content.String())
		return &cp, hasMedia(m.Content.Parts)
	}
	return m, false
}

// hasMedia reports whether parts holds anything but text.
func hasMedia(parts []ContentPart) bool {
	for _, p := range parts {
		if p.Type != PartText {
			return true
		}
	}
	return false
}

// hasFileSource reports whether a part of parts has a file source.
func hasFileSource(parts []ContentPart) bool {
	for _, p := range parts {
		if p.Source != nil && p.Source.Type == SourceFile {
			return true
		}
	}
	return false
}
