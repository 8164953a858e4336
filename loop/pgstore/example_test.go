package pgstore_test

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/pgstore"
)

// A store on a pool; pgstore.Migrate prepares the database once at start
// (the pool connects on first use, so this example needs no server).
func ExampleNew() {
	pool, err := pgxpool.New(context.Background(), "postgres://app@127.0.0.1:5432/app")
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	// At start: if err := pgstore.Migrate(ctx, pool); err != nil { … }
	store, err := pgstore.New(pool)
	if err != nil {
		panic(err)
	}
	agent, err := loop.New(loop.Script(loop.Turn{Text: "hi"}), loop.WithCheckpoints(store))
	fmt.Println(agent != nil, err)
	// Output: true <nil>
}
