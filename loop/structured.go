package loop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/google/jsonschema-go/jsonschema"
)

// FinishOutputInvalid: the agent asks for a typed output (Output) and the
// model's final answer did not fit its schema, even after one repair
// turn. The run ends successfully, without [Result.Output]; the answer is
// the transcript's last message.
const FinishOutputInvalid FinishReason = "output-invalid"

// OutputSpec is the typed final answer a run asks for, as a provider sees
// it on [ModelRequest.Output]; a plain value.
type OutputSpec struct {
	// Name names the answer's schema, as some providers require.
	Name string
	// Schema is the JSON Schema of the answer.
	Schema json.RawMessage
}

// output is an agent's typed output: its schema and a decoder into T.
type output struct {
	spec     OutputSpec
	resolved *jsonschema.Resolved
	decode   func(json.RawMessage) (any, error)
}

// WithOutput asks every run of the agent for a final answer of type T (default
// none: the answer is free text). T's JSON Schema is inferred as a tool's
// arguments are (see [NewTool]). Providers are asked for JSON of that
// schema (their JSON mode: OpenAI's response_format json_schema,
// Anthropic's output format); the model may still call tools first.
//
// The final answer (a turn without tool calls) is parsed, validated
// against the schema and decoded into T, which becomes [Result.Output] and
// the "output" of RUN_FINISHED's result. An answer that does not fit gets
// one repair turn: the loop adds a user message quoting the error and asks
// again. A second misfit ends the run with [FinishOutputInvalid].
func WithOutput[T any]() Option {
	return func(c *config) error {
		s, err := jsonschema.For[T](nil)
		if err != nil {
			return fmt.Errorf("loop: Output: %w", err)
		}
		raw, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("loop: Output: %w", err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			return fmt.Errorf("loop: Output: %w", err)
		}
		c.output = &output{
			spec:     OutputSpec{Name: "output", Schema: raw},
			resolved: r,
			decode: func(b json.RawMessage) (any, error) {
				var v T
				if err := json.Unmarshal(b, &v); err != nil {
					return nil, err
				}
				return v, nil
			},
		}
		return nil
	}
}

// structured is a run's progress towards its typed output.
type structured struct {
	// repaired says whether the repair turn was asked for.
	repaired bool
	// value is the decoded answer.
	value any
}

// result is the typed output of a run that ended with reason.
func (s structured) result(reason FinishReason) any {
	if reason != FinishStop {
		return nil
	}
	return s.value
}

// outputSpec returns the output a model request asks for, or nil.
func (r *run) outputSpec() *OutputSpec {
	if r.a.cfg.output == nil {
		return nil
	}
	s := r.a.cfg.output.spec
	return &s
}

// finalAnswer checks a final answer against the agent's output type:
// FinishStop with the decoded value when it fits (or when no type is
// asked for), a repair turn the first time it does not, and
// FinishOutputInvalid the second.
func (r *run) finalAnswer(msg *agui.AssistantMessage) (FinishReason, bool) {
	o := r.a.cfg.output
	if o == nil {
		return FinishStop, true
	}
	v, err := o.parse(msg.Content)
	if err == nil {
		r.structured.value = v
		return FinishStop, true
	}
	if r.structured.repaired {
		return FinishOutputInvalid, true
	}
	r.structured.repaired = true
	r.cp.Messages = append(slices.Clip(r.cp.Messages), &agui.UserMessage{
		ID: newID("repair"),
		Content: agui.TextContent("Your answer is not valid: " + err.Error() +
			". Answer again with only a JSON value that matches the required schema."),
	})
	return "", false
}

// parse validates and decodes an answer. A Markdown code fence around the
// JSON is tolerated.
func (o *output) parse(text string) (any, error) {
	b := []byte(strings.TrimSpace(text))
	if rest, ok := bytes.CutPrefix(b, []byte("```")); ok {
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[i+1:]
		}
		b = bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("```")))
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("it is not JSON (%v)", err)
	}
	if err := o.resolved.Validate(v); err != nil {
		return nil, fmt.Errorf("it does not match the schema (%v)", err)
	}
	out, err := o.decode(b)
	if err != nil {
		return nil, fmt.Errorf("it does not decode (%v)", err)
	}
	return out, nil
}
