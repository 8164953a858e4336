package main

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// recipeState is shared_state's state, edited both by the page (which
// sends it with every run) and by the agent.
type recipeState struct {
	Recipe recipe `json:"recipe"`
}

// recipe is the Dojo's recipe card.
type recipe struct {
	Title              string       `json:"title,omitempty" jsonschema:"the recipe's name"`
	SkillLevel         string       `json:"skill_level,omitempty" jsonschema:"Beginner, Intermediate or Advanced"`
	CookingTime        string       `json:"cooking_time,omitempty" jsonschema:"e.g. 45 min"`
	SpecialPreferences []string     `json:"special_preferences,omitempty" jsonschema:"dietary preferences, e.g. Vegetarian"`
	Ingredients        []ingredient `json:"ingredients,omitempty" jsonschema:"every ingredient"`
	Instructions       []string     `json:"instructions,omitempty" jsonschema:"the steps, in order"`
	Changes            string       `json:"changes,omitempty" jsonschema:"what changed from the recipe before"`
}

// ingredient is one line of the recipe's ingredients.
type ingredient struct {
	Icon   string `json:"icon,omitempty" jsonschema:"an emoji"`
	Name   string `json:"name"`
	Amount string `json:"amount,omitempty"`
}

// registerRecipe serves shared_state: generate_recipe({recipe}) replaces
// the shared recipe, which reaches the page as a state event; the page's
// own edits reach the model through the state in its system prompt.
func registerRecipe(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	tool, err := loop.NewTool("generate_recipe", "Writes the whole recipe the user sees, keeping what they chose unless asked to change it",
		func(ctx context.Context, in recipeState) (recipeState, error) {
			err := loop.UpdateState(ctx, func(st *recipeState) { st.Recipe = in.Recipe })
			return in, err
		})
	if err != nil {
		return err
	}
	a, err := loop.NewTyped[recipeState](provider, loop.WithTools(tool),
		loop.WithInstructions("You are a helpful recipe assistant. The current recipe is in the state below; call generate_recipe with the whole recipe when you change it."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}
