package redisstore_test

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
)

// A store on a single Redis node; the client connects on first use.
func ExampleNew() {
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer client.Close()
	store, err := redisstore.New(client, redisstore.WithKeyPrefix("myapp:loop:"), redisstore.WithIdleTTL(24*time.Hour))
	if err != nil {
		panic(err)
	}
	agent, err := loop.New(loop.Script(loop.Turn{Text: "hi"}), loop.WithCheckpoints(store))
	fmt.Println(store.Key("thread-1"), agent != nil, err)
	// Output: myapp:loop:{thread-1} true <nil>
}
