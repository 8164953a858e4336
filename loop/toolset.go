package loop

import "errors"

// ToolSet is a set of tools that may change while an agent lives, such as
// the tools of an MCP server whose list changes. Tools must be safe for
// concurrent use and return a slice the caller may keep (the loop does not
// modify it).
type ToolSet interface {
	Tools() []Tool
}

// WithToolSets adds sets of tools read afresh at every model turn (default
// none): the model is offered the tools of that moment, and the turn's
// calls run the tools it was offered. A name already taken, by a tool of
// [WithTools] or of an earlier set, is skipped.
func WithToolSets(sets ...ToolSet) Option {
	return func(c *config) error {
		for _, s := range sets {
			if s == nil {
				return errors.New("loop: WithToolSets: nil set")
			}
		}
		c.toolSets = append(c.toolSets, sets...)
		return nil
	}
}

// toolView is the tools one model turn offered.
type toolView struct {
	byName map[string]Tool
	specs  []ToolSpec
}

// refreshTools takes the tools of this moment: the agent's own and those
// of its sets.
func (r *run) refreshTools() *toolView {
	a := r.a
	v := &toolView{byName: a.tools, specs: a.specs}
	if len(a.cfg.toolSets) > 0 {
		v = &toolView{byName: make(map[string]Tool, len(a.tools)), specs: append([]ToolSpec(nil), a.specs...)}
		for n, t := range a.tools {
			v.byName[n] = t
		}
		for _, s := range a.cfg.toolSets {
			for _, t := range s.Tools() {
				if _, dup := v.byName[t.Name()]; dup || t.fn == nil {
					continue
				}
				v.byName[t.Name()] = t
				v.specs = append(v.specs, t.Spec())
			}
		}
	}
	r.tools = v
	return v
}

// lookupTool finds a tool the current turn offered (or, for calls of a
// turn an earlier run made, the tools of this moment).
func (r *run) lookupTool(name string) (Tool, bool) {
	v := r.tools
	if v == nil {
		v = r.refreshTools()
	}
	t, ok := v.byName[name]
	return t, ok
}
