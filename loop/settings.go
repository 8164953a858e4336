package loop

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ModelSettings are the sampling and tool settings a model turn is asked
// with, in provider-neutral terms; a plain value. The zero value leaves
// everything to the provider's defaults. Each provider maps the settings
// it supports and documents the ones it ignores.
type ModelSettings struct {
	// Temperature is the sampling temperature, from 0 to 2; nil leaves it
	// to the provider. (Some providers accept less: Anthropic takes 0 to 1.)
	Temperature *float64
	// MaxOutputTokens caps the tokens of one model turn; 0 leaves it to
	// the provider. A turn that reaches it ends the run with [FinishLength].
	MaxOutputTokens int64
	// StopSequences end a turn where the model would write one of them.
	StopSequences []string
	// ToolChoice says whether the model may, must or must not call tools
	// (default: the provider's, which is auto).
	ToolChoice ToolChoice
	// ParallelToolCalls, when set, allows (true) or forbids (false) more
	// than one tool call per turn; nil leaves it to the provider.
	ParallelToolCalls *bool
}

// ToolChoiceMode is how the model may use tools.
type ToolChoiceMode string

// The tool choice modes.
const (
	// ToolChoiceDefault leaves the choice to the provider (auto).
	ToolChoiceDefault ToolChoiceMode = ""
	// ToolChoiceAuto: the model decides whether to call tools.
	ToolChoiceAuto ToolChoiceMode = "auto"
	// ToolChoiceNone: the model must not call tools.
	ToolChoiceNone ToolChoiceMode = "none"
	// ToolChoiceRequired: the model must call at least one tool.
	ToolChoiceRequired ToolChoiceMode = "required"
	// ToolChoiceTool: the model must call the tool named by [ToolChoice.Name].
	ToolChoiceTool ToolChoiceMode = "tool"
)

// ToolChoice is how the model may use tools; a plain value. Build a named
// one with [UseTool].
type ToolChoice struct {
	Mode ToolChoiceMode
	// Name is the tool the model must call when Mode is [ToolChoiceTool].
	Name string
}

// UseTool returns the choice that makes the model call the tool name.
func UseTool(name string) ToolChoice { return ToolChoice{Mode: ToolChoiceTool, Name: name} }

// forces reports whether c makes the model call a tool.
func (c ToolChoice) forces() bool {
	return c.Mode == ToolChoiceRequired || c.Mode == ToolChoiceTool
}

// WithModelSettings sets the model settings of every turn of the agent's
// runs (default: the zero [ModelSettings], the provider's defaults).
//
// A choice that forces a tool call ([ToolChoiceRequired] or [UseTool]) applies
// to the first model turn after new input only; later turns of the run
// use [ToolChoiceAuto], so that the model can answer with the tools'
// results instead of calling tools until [WithMaxSteps]. [New] fails when a named
// tool is not one of the agent's tools.
func WithModelSettings(s ModelSettings) Option {
	return func(c *config) error {
		if err := s.check(); err != nil {
			return err
		}
		if s.Temperature != nil {
			t := *s.Temperature
			s.Temperature = &t
		}
		if s.ParallelToolCalls != nil {
			p := *s.ParallelToolCalls
			s.ParallelToolCalls = &p
		}
		s.StopSequences = slices.Clone(s.StopSequences)
		c.settings = s
		return nil
	}
}

// check validates s on its own; the named tool is checked by New.
func (s ModelSettings) check() error {
	if t := s.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		return fmt.Errorf("loop: WithModelSettings: temperature %v: must be from 0 to 2", *t)
	}
	if s.MaxOutputTokens < 0 {
		return fmt.Errorf("loop: WithModelSettings: MaxOutputTokens %d: must not be negative", s.MaxOutputTokens)
	}
	for _, seq := range s.StopSequences {
		if seq == "" {
			return errors.New("loop: WithModelSettings: empty stop sequence")
		}
	}
	switch s.ToolChoice.Mode {
	case ToolChoiceDefault, ToolChoiceAuto, ToolChoiceNone, ToolChoiceRequired:
		if s.ToolChoice.Name != "" {
			return fmt.Errorf("loop: WithModelSettings: tool choice %q names a tool; use UseTool", s.ToolChoice.Mode)
		}
	case ToolChoiceTool:
		if s.ToolChoice.Name == "" {
			return errors.New("loop: WithModelSettings: UseTool needs a tool name")
		}
	default:
		return fmt.Errorf("loop: WithModelSettings: unknown tool choice %q", s.ToolChoice.Mode)
	}
	return nil
}

// checkTools fails when the settings name a tool the agent lacks.
func (s ModelSettings) checkTools(tools map[string]Tool) error {
	if s.ToolChoice.Mode == ToolChoiceTool {
		if _, ok := tools[s.ToolChoice.Name]; !ok {
			return fmt.Errorf("loop: New: tool choice names %s, which is not one of the agent's tools", s.ToolChoice.Name)
		}
	}
	return nil
}

// settings returns the settings of the next model turn: a forcing tool
// choice holds for the first turn after new input only.
func (r *run) settings() ModelSettings {
	s := r.a.cfg.settings
	if s.ToolChoice.forces() && r.cp.Steps > 0 {
		s.ToolChoice = ToolChoice{Mode: ToolChoiceAuto}
	}
	return s
}
