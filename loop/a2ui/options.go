package a2ui

import (
	"errors"
	"fmt"
)

// Option configures [Render] and [Generate].
type Option func(*config) error

type config struct {
	catalog      *Catalog
	limits       Limits
	maxAttempts  int
	activity     bool
	instructions string
}

// DefaultMaxAttempts is how many surfaces a tool tries before it gives up
// with a [Failure], unless [WithMaxAttempts] says otherwise.
const DefaultMaxAttempts = 3

func newConfig(opts []Option) (config, error) {
	c := config{maxAttempts: DefaultMaxAttempts, instructions: defaultInstructions}
	for _, o := range opts {
		if o == nil {
			return config{}, errors.New("a2ui: nil option")
		}
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}

// WithCatalog checks surfaces against catalog (default: none, structural
// checks only), gives its ID to surfaces that name no catalog and refuses
// surfaces that name another ([CodeUnknownCatalog]).
func WithCatalog(catalog Catalog) Option {
	return func(c *config) error {
		if catalog.ID == "" {
			return errors.New("a2ui: WithCatalog: catalog without an id")
		}
		c.catalog = &catalog
		return nil
	}
}

// WithLimits bounds the surfaces the tool accepts (default: the zero
// [Limits], whose fields take their defaults).
func WithLimits(l Limits) Option {
	return func(c *config) error {
		if l.Components < 0 || l.Problems < 0 {
			return errors.New("a2ui: WithLimits: negative limit")
		}
		c.limits = l
		return nil
	}
}

// WithMaxAttempts sets how many invalid surfaces a tool accepts before it
// returns a [Failure] (default [DefaultMaxAttempts]): for [Generate], the
// sub-model calls of one tool call; for [Render], the invalid calls of
// one run.
func WithMaxAttempts(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 10 {
			return fmt.Errorf("a2ui: WithMaxAttempts(%d): want 1 to 10", n)
		}
		c.maxAttempts = n
		return nil
	}
}

// WithActivity makes the tool also report the surface as an activity
// message: an ACTIVITY_SNAPSHOT of type [ActivityType] whose content is
// {"a2ui_operations":[…]} (default off: the tool result alone carries the
// surface). Turn it on for clients that paint activities and see no A2UI
// middleware; leave it off behind the AG-UI runtime's A2UI middleware,
// which paints the tool result itself. [Generate] also reports its
// progress on the same activity: {"status":"building"}, then
// {"status":"retrying","attempt":n,"maxAttempts":m,"errors":[…]} before
// each retry, and {"status":"failed","error":…} when it gives up.
func WithActivity() Option {
	return func(c *config) error { c.activity = true; return nil }
}

// WithInstructions sets the system prompt of [Generate]'s sub-model call
// (default: a short guide to A2UI v0.9's flat component form). The
// catalog's component types are added to it. [Render] ignores it.
func WithInstructions(prompt string) Option {
	return func(c *config) error {
		if prompt == "" {
			return errors.New("a2ui: WithInstructions: empty prompt")
		}
		c.instructions = prompt
		return nil
	}
}

// ActivityType is the activityType of the activity messages that carry
// surfaces, as A2UI clients of AG-UI expect it.
const ActivityType = "a2ui-surface"

// defaultInstructions is the sub-model's prompt unless WithInstructions
// replaces it.
const defaultInstructions = `You design user interface surfaces in A2UI v0.9. Call render_a2ui once with:
- surfaceId: a short id for the surface;
- components: a flat list of components, each {"id": …, "component": <type>, …properties}; one has the id "root";
  a component names its children by id ("children": ["a", "b"], or "child": "a"), or repeats one component over a
  list of the data model ("children": {"componentId": "card", "path": "/items"});
  a property bound to the data model is {"path": "name"} (relative to the repeated item) or {"path": "/abs"};
- data: the data model the bindings read.`
