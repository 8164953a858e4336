package main

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
)

func TestRecipeSharedBothWays(t *testing.T) {
	var instructions string
	script := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "generate_recipe", Args: `{"recipe":{"title":"Pasta","ingredients":[{"icon":"🍝","name":"Pasta","amount":"400g"}]}}`}}},
		loop.Turn{Text: "Done."},
	)
	spy := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		if instructions == "" {
			instructions = req.Instructions // the first turn's: the page's state
		}
		return script.Stream(ctx, req)
	})
	base := serve(t, spy)
	in := input("A pasta recipe, please")
	in.State = map[string]any{"recipe": map[string]any{"title": "Mine", "ingredients": []any{map[string]any{"name": "Carrots", "amount": "3"}}}}
	view := runFeature(t, base, "shared_state", in)
	st, err := client.State[recipeState](view)
	if err != nil {
		t.Fatal(err)
	}
	if st.Recipe.Title != "Pasta" || len(st.Recipe.Ingredients) != 1 || st.Recipe.Ingredients[0].Name != "Pasta" {
		t.Fatalf("recipe %+v", st.Recipe)
	}
	if !strings.Contains(instructions, "Carrots") {
		t.Fatalf("the model's instructions carry no state: %q", instructions)
	}
}
