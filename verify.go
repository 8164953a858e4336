//go:build !agui_noverify

package agui

import (
	"cmp"
	"slices"
	"strconv"
)

// Verifier is the ordering state machine of one event stream. Observe
// checks each event against the rules (see [Rule]) before it goes out and
// records it, so a producer bug is reported where it happens rather than by
// the client. A stream may hold several runs one after another: RUN_STARTED
// after a terminal event starts afresh.
//
// The cost is a handful of maps and one lookup per event; content for an
// open entity does not allocate. Building with the tag agui_noverify
// replaces the Verifier with a zero-size type that accepts everything.
// Building with agui_debug appends a dump of everything still open to each
// rejection's message.
//
// The zero Verifier is ready to use. A Verifier is not safe for concurrent
// use: one goroutine at a time calls Observe.
type Verifier struct {
	phase phase
	runID string
	// Every id introduced in the run, by its opener, by RUN_STARTED's input
	// messages or by a MESSAGES_SNAPSHOT, with its owner; open is true
	// between start and end. Ids stay after their end because ownership
	// outlives the entity being open.
	messages  map[string]entity
	toolCalls map[string]entity
	spans     map[string]entity // reasoning spans
	thoughts  map[string]entity // reasoning messages
	// activities maps an activity message id to its owner.
	activities map[string]string
	// steps holds the open steps, keyed by owner and name.
	steps map[stepKey]struct{}
	// subagents holds every subagent started in the run; true while active.
	subagents map[string]bool
}

// phase is where the stream stands between runs.
type phase uint8

const (
	phaseIdle     phase = iota // nothing observed yet
	phaseRunning               // after RUN_STARTED
	phaseFinished              // after RUN_FINISHED
	phaseErrored               // after RUN_ERROR
)

// entity is a message, tool call or reasoning id: who owns it ("" for the
// run's own agent) and whether it is open (for a tool call: whether its
// arguments are still streaming).
type entity struct {
	owner string
	open  bool
}

type stepKey struct{ owner, name string }

// The kinds of entity, as error messages name them.
const (
	kindMessage  = "message"
	kindToolCall = "tool call"
	kindSpan     = "reasoning span"
	kindThought  = "reasoning message"
	kindStep     = "step"
	kindSubagent = "subagent"
	kindActivity = "activity"
)

// NewVerifier returns a verifier for one stream.
func NewVerifier() *Verifier { return &Verifier{} }

// Observe checks ev against the stream so far and, if it is accepted,
// records it. A rejected event is not recorded, so the stream may go on as
// if it had not been sent; in particular a rejected RUN_FINISHED leaves the
// run open for a RUN_ERROR, which is accepted at any point. The error is an
// [*Error] with code PROTOCOL_VIOLATION whose Err is a [*VerificationError] (a
// nil ev is a PROTOCOL error).
func (v *Verifier) Observe(ev Event) error {
	if v.phase != phaseRunning {
		return v.observeOutsideRun(ev)
	}
	switch e := ev.(type) {
	case *TextMessageStart:
		return v.open(ev, &v.messages, kindMessage, e.MessageID, e.SubagentRunID)
	case *TextMessageContent:
		return v.require(ev, v.messages, kindMessage, e.MessageID, e.SubagentRunID)
	case *TextMessageEnd:
		return v.close(ev, v.messages, kindMessage, e.MessageID, e.SubagentRunID)
	case *ToolCallStart:
		return v.startToolCall(e)
	case *ToolCallArgs:
		return v.require(ev, v.toolCalls, kindToolCall, e.ToolCallID, e.SubagentRunID)
	case *ToolCallEnd:
		return v.close(ev, v.toolCalls, kindToolCall, e.ToolCallID, e.SubagentRunID)
	case *ToolCallResult:
		return v.toolCallResult(e)
	case *ReasoningStart:
		return v.open(ev, &v.spans, kindSpan, e.MessageID, e.SubagentRunID)
	case *ReasoningEnd:
		return v.close(ev, v.spans, kindSpan, e.MessageID, e.SubagentRunID)
	case *ReasoningMessageStart:
		return v.open(ev, &v.thoughts, kindThought, e.MessageID, e.SubagentRunID)
	case *ReasoningMessageContent:
		return v.require(ev, v.thoughts, kindThought, e.MessageID, e.SubagentRunID)
	case *ReasoningMessageEnd:
		return v.close(ev, v.thoughts, kindThought, e.MessageID, e.SubagentRunID)
	case *ReasoningEncryptedValue:
		if err := v.typed(ev); err != nil {
			return err
		}
		return v.encryptedValue(e)
	case *StepStarted:
		return v.startStep(e)
	case *StepFinished:
		return v.finishStep(e)
	case *ActivitySnapshot:
		if _, known := v.activities[e.MessageID]; !known || e.Replace == nil || *e.Replace {
			put(&v.activities, e.MessageID, e.SubagentRunID)
		}
	case *ActivityDelta:
		if owner, known := v.activities[e.MessageID]; known && e.SubagentRunID != "" && e.SubagentRunID != owner {
			return v.fail(ev, RuleOwnerMismatch, e.MessageID, mismatch(kindActivity, e.MessageID, owner, e.SubagentRunID))
		}
	case *ToolCallChunk:
		// The client expands a chunk stream into START/ARGS/END and ends it
		// at the next explicit event of its lane, so the call it names is
		// known (and ended by the time its result can arrive).
		if e.ToolCallID != "" {
			claim(&v.toolCalls, e.ToolCallID, e.SubagentRunID)
		}
	case *MessagesSnapshot:
		if err := v.typed(ev); err != nil {
			return err
		}
		v.seed(e.Messages)
	case *SubagentStarted:
		return v.startSubagent(e)
	case *SubagentFinished:
		return v.endSubagent(ev, e.SubagentRunID)
	case *SubagentError:
		return v.endSubagent(ev, e.SubagentRunID)
	case *RunStarted:
		return v.fail(ev, RuleDuplicateRunStarted, v.runID, named("run", v.runID)+" is still active")
	case *RunFinished:
		return v.finishRun(e)
	case *RunError:
		v.phase = phaseErrored
	case nil:
		return NewError(CodeProtocol, "nil event")
	}
	// Chunks are expanded by the client and carry no state here; state,
	// raw and custom events are unordered.
	return nil
}

// observeOutsideRun handles an event while no run is active: before the
// first RUN_STARTED or after a terminal event.
func (v *Verifier) observeOutsideRun(ev Event) error {
	switch e := ev.(type) {
	case nil:
		return NewError(CodeProtocol, "nil event")
	case *RunStarted:
		if err := v.typed(ev); err != nil {
			return err
		}
		v.reset(e)
		return nil
	case *RunError:
		if v.phase != phaseErrored {
			v.phase = phaseErrored
			return nil
		}
	}
	switch v.phase {
	case phaseIdle:
		return v.fail(ev, RuleFirstEvent, "", "the stream begins with "+string(ev.Type()))
	case phaseFinished:
		return v.fail(ev, RuleRunEnded, v.runID, named("run", v.runID)+" has already finished")
	default:
		return v.fail(ev, RuleRunEnded, v.runID, named("run", v.runID)+" has already errored")
	}
}

// reset starts a new run, forgetting the previous one.
func (v *Verifier) reset(e *RunStarted) {
	clear(v.messages)
	clear(v.toolCalls)
	clear(v.spans)
	clear(v.thoughts)
	clear(v.activities)
	clear(v.steps)
	clear(v.subagents)
	v.phase = phaseRunning
	v.runID = e.RunID
	if e.Input != nil {
		v.seed(e.Input.Messages)
	}
}

// seed records who owns the messages, tool calls, reasoning messages and
// activities of a message list. It is authoritative: a MESSAGES_SNAPSHOT
// may rewrite history, so the newest owner wins. What is open stays open.
func (v *Verifier) seed(msgs []Message) {
	for _, m := range msgs {
		switch m := m.(type) {
		case nil:
			// A hole in the list names nothing.
		case *ReasoningMessage:
			claim(&v.thoughts, m.ID, m.SubagentRunID)
		case *ActivityMessage:
			put(&v.activities, m.ID, m.SubagentRunID)
		case *AssistantMessage:
			claim(&v.messages, m.ID, m.SubagentRunID)
			// A tool call carries no tag of its own: it belongs to its message.
			for _, tc := range m.ToolCalls {
				claim(&v.toolCalls, tc.ID, m.SubagentRunID)
			}
		default:
			claim(&v.messages, m.MessageID(), m.Subagent())
		}
	}
}

// open opens id for owner, which must not have it open already nor belong
// to someone else.
func (v *Verifier) open(ev Event, m *map[string]entity, kind, id, owner string) error {
	if e, known := (*m)[id]; known {
		if e.open {
			return v.fail(ev, RuleDuplicateStart, id, named(kind, id)+" is already open")
		}
		if e.owner != owner {
			return v.fail(ev, RuleOwnerMismatch, id, named(kind, id)+" belongs to "+ownerName(e.owner)+", not "+ownerName(owner))
		}
	}
	put(m, id, entity{owner: owner, open: true})
	return nil
}

// require checks that id is open and that tag, if any, names its owner.
func (v *Verifier) require(ev Event, m map[string]entity, kind, id, tag string) error {
	e, known := m[id]
	if !known || !e.open {
		return v.fail(ev, RuleNotOpen, id, named(kind, id)+" is not open")
	}
	if tag != "" && tag != e.owner {
		return v.fail(ev, RuleOwnerMismatch, id, mismatch(kind, id, e.owner, tag))
	}
	return nil
}

// close is require, then marks id closed; its owner is kept.
func (v *Verifier) close(ev Event, m map[string]entity, kind, id, tag string) error {
	if err := v.require(ev, m, kind, id, tag); err != nil {
		return err
	}
	m[id] = entity{owner: m[id].owner}
	return nil
}

// startToolCall opens a tool call. A call belongs to the message that
// carries it: an untagged call inherits its parent message's owner, and a
// tagged one must match it.
func (v *Verifier) startToolCall(e *ToolCallStart) error {
	owner := e.SubagentRunID
	if parent, known := v.messages[e.ParentMessageID]; known && e.ParentMessageID != "" {
		switch {
		case owner == "":
			owner = parent.owner
		case owner != parent.owner:
			return v.fail(e, RuleOwnerMismatch, e.ToolCallID, named(kindToolCall, e.ToolCallID)+" is tagged "+
				ownerName(owner)+" but its parent "+named(kindMessage, e.ParentMessageID)+" belongs to "+ownerName(parent.owner))
		}
	}
	return v.open(e, &v.toolCalls, kindToolCall, e.ToolCallID, owner)
}

// toolCallResult requires an ended call and records the tool message the
// result creates under the result's own attribution.
func (v *Verifier) toolCallResult(e *ToolCallResult) error {
	call, known := v.toolCalls[e.ToolCallID]
	switch {
	case !known:
		return v.fail(e, RuleUnknownID, e.ToolCallID, named(kindToolCall, e.ToolCallID)+" was never started in this run")
	case call.open:
		return v.fail(e, RuleOutOfOrder, e.ToolCallID, named(kindToolCall, e.ToolCallID)+" has not ended")
	}
	claim(&v.messages, e.MessageID, e.SubagentRunID)
	return nil
}

// encryptedValue checks a tagged value against the owner of the entity it
// names, when that entity is known.
func (v *Verifier) encryptedValue(e *ReasoningEncryptedValue) error {
	tag := e.SubagentRunID
	if tag == "" {
		return nil
	}
	check := func(m map[string]entity, kind string) error {
		if ent, known := m[e.EntityID]; known && ent.owner != tag {
			return v.fail(e, RuleOwnerMismatch, e.EntityID, mismatch(kind, e.EntityID, ent.owner, tag))
		}
		return nil
	}
	if e.Subtype == EncryptedToolCall {
		return check(v.toolCalls, kindToolCall)
	}
	if err := check(v.messages, kindMessage); err != nil {
		return err
	}
	return check(v.thoughts, kindThought)
}

func (v *Verifier) startStep(e *StepStarted) error {
	key := stepKey{e.SubagentRunID, e.StepName}
	if _, open := v.steps[key]; open {
		return v.fail(e, RuleDuplicateStart, e.StepName, stepName(key)+" is already open")
	}
	put(&v.steps, key, struct{}{})
	return nil
}

// finishStep closes the step of the event's owner. A step of that name open
// under another owner is a mismatch rather than "not open", which names
// the likelier bug.
func (v *Verifier) finishStep(e *StepFinished) error {
	key := stepKey{e.SubagentRunID, e.StepName}
	if _, open := v.steps[key]; open {
		delete(v.steps, key)
		return nil
	}
	for k := range v.steps {
		if k.name == e.StepName {
			return v.fail(e, RuleOwnerMismatch, e.StepName, named(kindStep, e.StepName)+" is open under "+
				ownerName(k.owner)+", not "+ownerName(e.SubagentRunID))
		}
	}
	return v.fail(e, RuleNotOpen, e.StepName, stepName(key)+" is not open")
}

func (v *Verifier) startSubagent(e *SubagentStarted) error {
	id := e.SubagentRunID
	if active, known := v.subagents[id]; known {
		if active {
			return v.fail(e, RuleDuplicateStart, id, named(kindSubagent, id)+" is already active")
		}
		return v.fail(e, RuleReusedID, id, named(kindSubagent, id)+" already ran in this run")
	}
	// The parent may have finished already (no LIFO rule), but it must have
	// started.
	if p := e.ParentSubagentRunID; p != "" {
		if _, known := v.subagents[p]; !known {
			return v.fail(e, RuleUnknownParent, p, "parent "+named(kindSubagent, p)+" was not started in this run")
		}
	}
	put(&v.subagents, id, true)
	return nil
}

func (v *Verifier) endSubagent(ev Event, id string) error {
	if !v.subagents[id] {
		return v.fail(ev, RuleNotOpen, id, named(kindSubagent, id)+" is not active")
	}
	v.subagents[id] = false
	return nil
}

// finishRun requires everything to be closed, in the client's order:
// steps, messages, reasoning messages, reasoning spans, tool calls,
// subagents.
func (v *Verifier) finishRun(e *RunFinished) error {
	open := v.openSets()
	n := len(open.steps) + len(open.messages) + len(open.thoughts) + len(open.spans) + len(open.toolCalls) + len(open.subagents)
	if n == 0 {
		v.phase = phaseFinished
		return nil
	}
	var id, what string
	switch {
	case len(open.steps) > 0:
		id, what = open.steps[0].name, stepName(open.steps[0])
	case len(open.messages) > 0:
		id, what = open.messages[0], named(kindMessage, open.messages[0])
	case len(open.thoughts) > 0:
		id, what = open.thoughts[0], named(kindThought, open.thoughts[0])
	case len(open.spans) > 0:
		id, what = open.spans[0], named(kindSpan, open.spans[0])
	case len(open.toolCalls) > 0:
		id, what = open.toolCalls[0], named(kindToolCall, open.toolCalls[0])
	default:
		id, what = open.subagents[0], named(kindSubagent, open.subagents[0])
	}
	what += " is still open"
	if n > 1 {
		what += " (and " + strconv.Itoa(n-1) + " more)"
	}
	return v.fail(e, RuleOpenAtFinish, id, what)
}

// openSet is everything open, each list sorted.
type openSet struct {
	steps                                           []stepKey
	messages, toolCalls, spans, thoughts, subagents []string
}

func (v *Verifier) openSets() openSet {
	s := openSet{
		messages:  openIDs(v.messages),
		toolCalls: openIDs(v.toolCalls),
		spans:     openIDs(v.spans),
		thoughts:  openIDs(v.thoughts),
	}
	for k := range v.steps {
		s.steps = append(s.steps, k)
	}
	slices.SortFunc(s.steps, func(a, b stepKey) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.owner, b.owner))
	})
	for id, active := range v.subagents {
		if active {
			s.subagents = append(s.subagents, id)
		}
	}
	slices.Sort(s.subagents)
	return s
}

func openIDs(m map[string]entity) []string {
	var ids []string
	for id, e := range m {
		if e.open {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// typed checks that ev carries no encryptedValueType without its value.
func (v *Verifier) typed(ev Event) error {
	if id, what, bad := typeWithoutValue(ev); bad {
		return v.fail(ev, RuleTypeWithoutValue, id, what+" has an encryptedValueType but no encryptedValue")
	}
	return nil
}

// fail builds the error for ev: PROTOCOL_VIOLATION, or
// ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE for that rule.
func (v *Verifier) fail(ev Event, rule Rule, id, detail string) error {
	ve := &VerificationError{Event: ev.Type(), Rule: rule, ID: id, Detail: detail, open: v.openDump()}
	code := CodeProtocolViolation
	if rule == RuleTypeWithoutValue {
		code = CodeTypeWithoutValue
	}
	return &Error{Code: code, Message: ve.Error(), Err: ve}
}

// ownerName names an owner in a message.
func ownerName(owner string) string {
	if owner == "" {
		return "the parent agent"
	}
	return named(kindSubagent, owner)
}

func mismatch(kind, id, owner, tag string) string {
	return named(kind, id) + " belongs to " + ownerName(owner) + ", not " + ownerName(tag)
}

func stepName(k stepKey) string {
	s := named(kindStep, k.name)
	if k.owner != "" {
		s += " of " + ownerName(k.owner)
	}
	return s
}

// named names an entity in a message: `message "msg-1"`.
func named(kind, id string) string { return kind + " " + strconv.Quote(id) }

// put sets m[k], allocating the map on first use so that an unused kind
// costs nothing.
func put[K comparable, V any](m *map[K]V, k K, val V) {
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = val
}

// claim records owner as the owner of id, keeping whether it is open.
func claim(m *map[string]entity, id, owner string) {
	e := (*m)[id]
	e.owner = owner
	put(m, id, e)
}
