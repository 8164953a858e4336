package pglog_test

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/resume/pglog"
)

func ExampleNew() {
	// Every replica of the service shares the database and the route
	// name; the pool connects on first use. Call pglog.Migrate(ctx, pool)
	// at start; resume.New(h, lg, …) then serves the route's runs from it
	// (see package resume).
	pool, err := pgxpool.New(context.Background(), "postgres://app@127.0.0.1:5432/app")
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	lg, err := pglog.New(pool, pglog.WithRoute("chat"), pglog.WithRetention(10*time.Minute))
	if err != nil {
		panic(err)
	}
	defer lg.Close() // its listening connection, once a reader waited
	fmt.Println(lg != nil, err)
	// Output: true <nil>
}
