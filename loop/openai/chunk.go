package openai

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/openai/openai-go/v3/packages/ssestream"
)

// chunk is what the provider reads of a streamed chat completion chunk:
// plain fields that encoding/json fills without reflection-driven
// metadata. openai-go's ChatCompletionChunk records every field's raw
// JSON and presence as well, which cost about ten times the rest of a
// token's path (the token path of BENCHMARKS.md; issue 26). Members it
// does not read are skipped whatever their type, as openai-go skips them;
// one it reads holding the wrong type fails the stream, as a malformed
// chunk does.
type chunk struct {
	Choices []choice `json:"choices"`
	Usage   struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		TotalTokens         int64 `json:"total_tokens"`
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// choice is one choice of a [chunk].
type choice struct {
	Index int64 `json:"index"`
	Delta struct {
		Content string `json:"content"`
		Refusal string `json:"refusal"`
		// The reasoning text compatible servers add under one of two
		// names (OpenAI's own API sends none); kept raw, as a server may
		// send something other than a string there.
		ReasoningContent json.RawMessage `json:"reasoning_content"`
		Reasoning        json.RawMessage `json:"reasoning"`
		ToolCalls        []struct {
			Index    int64  `json:"index"`
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

// reasoning returns the delta's reasoning text, "" when there is none or
// it is not a string.
func reasoning(raws ...json.RawMessage) string {
	for _, raw := range raws {
		var s string
		if len(raw) > 0 && json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// The parts of a chunk carrying one content delta as OpenAI and most
// compatible servers lay it out; [decodeChunk] reads such a chunk, nearly
// every chunk of a streamed answer, without reflection.
const (
	contentMarker = `"choices":[{"index":0,"delta":{"content":`
	choicesKey    = `"choices":`
	usageObject   = `"usage":{`
	contentEnd    = `},"finish_reason":null}]`
	contentEndLog = `},"logprobs":null,"finish_reason":null}]`
	errorKey      = `"error"`
)

// decodeChunk decodes one event of the stream. A content delta in the
// common layout is read directly: the profile of the token path showed
// encoding/json's checking and decoding of these chunks, and gjson's
// search for an error member before them, at a third of the server's CPU.
// Any other chunk (a role, tool calls, reasoning, a finish reason, usage,
// an error), or a content delta laid out otherwise, is decoded by
// encoding/json. Members around the choices (id, model, created,
// system_fingerprint, a null usage) are not read, as encoding/json does
// not read them into a chunk either. A chunk with an error member fails
// the stream with an *ssestream.StreamError, as openai-go's stream does.
// l is the stream's layout of content deltas (see [layout]).
//
// A content delta is read into c's own first choice when c has one, so a
// stream of them allocates none (the profile of the token path showed
// the choice's allocation at 7 % of the provider goroutine's CPU); any
// other chunk replaces *c.
func decodeChunk(ev ssestream.Event, c *chunk, l *layout) error {
	if text, ok := l.content(ev.Data); ok {
		choices := c.Choices[:0]
		if cap(choices) == 0 {
			choices = make([]choice, 0, 1)
		}
		*c = chunk{Choices: append(choices, choice{})}
		c.Choices[0].Delta.Content = text
		return nil
	}
	var env struct {
		chunk
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(ev.Data, &env); err != nil {
		*c = chunk{}
		return err
	}
	if env.Error != nil {
		msg := string(env.Error)
		var s string
		if json.Unmarshal(env.Error, &s) == nil {
			msg = s
		}
		// The event outlives the reader's buffer it was read into.
		ev.Data = bytes.Clone(ev.Data)
		*c = chunk{}
		return &ssestream.StreamError{Message: "received error while streaming: " + msg, Event: ev}
	}
	*c = env.chunk
	return nil
}

// layout is a stream's layout of content deltas: the bytes before the
// content literal and after it in the last one read by searching it. A
// model's chunks of one answer mostly differ in their content alone, so
// one with the same head and tail is read without the searches: the
// profile of the token path (64 tokens a write) showed them at 11 % of
// the token route's CPU. The searches found no error member, usage
// object or second choices member in either part, and none can begin in
// one part and end in the literal between them: the head ends with the
// marker's ":" and the tail begins with "}", and a literal jsonString
// accepts holds no quote but its own two.
type layout struct{ head, tail []byte }

// content returns the content of data when it is a chunk of one content
// delta in the common layout; ok is false otherwise.
func (l *layout) content(data []byte) (string, bool) {
	if n := len(l.head); n > 0 && len(data) >= n+len(l.tail) && bytes.HasPrefix(data, l.head) && bytes.HasSuffix(data, l.tail) {
		if text, ok := jsonString(data[n : len(data)-len(l.tail)]); ok {
			return text, true
		}
	}
	text, head, tail, ok := contentDelta(data)
	if ok {
		l.head = append(l.head[:0], data[:head]...)
		l.tail = append(l.tail[:0], data[tail:]...)
	}
	return text, ok
}

// contentDelta returns the content of data when it is a chunk of one
// content delta in the common layout, and the offsets where its literal
// begins and ends; ok is false otherwise.
//
// The choices member is found by its key alone and the marker compared
// there: the profile of the token path showed bytes.Index of the whole
// marker, and bytes.Count of the key, at over a quarter of the token
// route's CPU (a long pattern is compared at every offset). The
// content literal holds no unescaped quote, so a second choices member
// can only follow it.
func contentDelta(data []byte) (text string, head, tail int, ok bool) {
	if bytes.Contains(data, []byte(errorKey)) {
		return "", 0, 0, false
	}
	i := bytes.Index(data, []byte(choicesKey))
	if i < 0 || !bytes.HasPrefix(data[i:], []byte(contentMarker)) || bytes.Contains(data, []byte(usageObject)) {
		return "", 0, 0, false
	}
	head = i + len(contentMarker)
	end := stringEnd(data[head:])
	if end < 0 {
		return "", 0, 0, false
	}
	tail = head + end
	rest := data[tail:]
	if !bytes.HasPrefix(rest, []byte(contentEnd)) && !bytes.HasPrefix(rest, []byte(contentEndLog)) || bytes.Contains(rest, []byte(choicesKey)) {
		return "", 0, 0, false
	}
	text, ok = jsonString(data[head:tail])
	return text, head, tail, ok
}

// stringEnd returns the length of the JSON string literal b starts with,
// or -1.
func stringEnd(b []byte) int {
	if len(b) == 0 || b[0] != '"' {
		return -1
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// jsonString returns the string lit spells when lit is exactly one JSON
// string literal; ok is false otherwise. A literal without escapes is
// read directly, one with escapes by encoding/json.
func jsonString(lit []byte) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	plain, ascii := true, true
	for _, c := range body {
		switch {
		case c == '"' || c < 0x20:
			return "", false // a second string, or not JSON
		case c == '\\':
			plain = false
		case c >= 0x80:
			ascii = false
		}
	}
	// encoding/json replaces invalid UTF-8 with U+FFFD: leave that to it.
	if plain && (ascii || utf8.Valid(body)) {
		return string(body), true
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return "", false
	}
	return s, true
}
