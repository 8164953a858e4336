package loop

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/agui-go/agui"
)

// Where a tool's words end and its failures begin. What a tool returns
// with a nil error is its result: the model reads it and the client is
// sent it, as the tool wrote it. An error is a failure, and its text is
// not assumed safe to show: a Go error chain carries addresses, paths,
// keys and session ids from the libraries below the tool. So a call's
// error result says what went wrong as a stable code and a message the
// tool's author chose for the model and the client:
//
//   - an error that is (or wraps) an [*agui.Error] gives its Code and its
//     Message, which its author wrote for clients (the cause in Err is not
//     shown); so does an error with a Code() agui.Code method, with its
//     own text, not the text of the errors wrapping it (the HTTP tool's
//     BlockedError is one);
//   - invalid arguments (a [NewTool] input that does not decode) give
//     their text, which the model needs to correct the call;
//   - any other error gives [CodeToolFailed] and a fixed message.
//
// In every case the full error text goes to the log ([WithLogger]) with
// the tool's name and the call's id.

// toolFailedMessage is the message of a CodeToolFailed result.
const toolFailedMessage = "the tool failed"

// WithLogger sets the logger that receives the full text of the tool
// errors a call's result reports only as a code and a safe message
// (default [slog.Default]).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("loop: Logger: nil logger")
		}
		c.logger = l
		return nil
	}
}

// coder is an error that names its own stable code.
type coder interface{ Code() agui.Code }

// safeToolError is the code and message a call's error result shows for
// err (see the rules above). It never panics.
func safeToolError(err error) (code agui.Code, msg string) {
	defer func() {
		if recover() != nil {
			code, msg = CodeToolFailed, toolFailedMessage
		}
	}()
	var ae *agui.Error
	if errors.As(err, &ae) && ae != nil && ae.Code != "" {
		if ae.Message == "" {
			return ae.Code, toolFailedMessage
		}
		return ae.Code, ae.Message
	}
	var c coder
	if errors.As(err, &c) && c != nil && c.Code() != "" {
		// Its own text, not the chain's: the errors around it (a URL
		// error, a dial error) carry what the model need not see.
		if ce, ok := c.(error); ok {
			return c.Code(), agui.ErrorText(ce)
		}
		return c.Code(), toolFailedMessage
	}
	var ve validationError
	if errors.As(err, &ve) {
		return "", agui.ErrorText(ve)
	}
	return CodeToolFailed, toolFailedMessage
}

// logToolError logs a tool's full error.
func (r *run) logToolError(ctx context.Context, call Call, err error, what string) {
	l := r.a.cfg.logger
	if l == nil {
		l = slog.Default()
	}
	l.LogAttrs(ctx, slog.LevelWarn, "loop: "+what,
		slog.String("tool", call.Name), slog.String("toolCallId", call.ID), slog.String("threadId", r.thread),
		slog.String("code", string(agui.CodeOf(err))), slog.String("error", fullText(err)))
}

// fullText is err's text with its causes: an [*agui.Error]'s text is its
// client message only, and the log wants what lies behind it.
func fullText(err error) (text string) {
	text = agui.ErrorText(err)
	defer func() { _ = recover() }() // an Unwrap or As method that panics ends the walk
	for depth := 0; depth < 16; depth++ {
		var ae *agui.Error
		if !errors.As(err, &ae) || ae == nil || ae.Err == nil {
			break
		}
		err = ae.Err
		if cause := agui.ErrorText(err); !strings.Contains(text, cause) {
			text += ": " + cause
		}
	}
	return text
}

// failedResult is the error result of a call whose tool returned err: a
// safe code and message, the full error logged.
func (r *run) failedResult(ctx context.Context, call Call, err error) *agui.ToolMessage {
	r.logToolError(ctx, call, err, "tool call failed")
	code, msg := safeToolError(err)
	return r.codedErrorResult(call.ID, KindExecution, code, msg)
}

// codedErrorResult is errorResult with a code in its content.
func (r *run) codedErrorResult(callID string, kind ToolErrorKind, code agui.Code, text string) *agui.ToolMessage {
	if code == "" {
		return r.errorResult(callID, kind, text)
	}
	b, _ := json.Marshal(struct {
		Error   ToolErrorKind `json:"error"`
		Code    agui.Code     `json:"code"`
		Message string        `json:"message"`
	}{kind, code, text}) // marshalling strings cannot fail
	return &agui.ToolMessage{ID: newID("result"), ToolCallID: callID, Content: agui.TextContent(string(b)), Error: text}
}
