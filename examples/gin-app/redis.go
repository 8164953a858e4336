package main

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/core/redislog"
)

// redisRunLogs puts the resumable routes' logs on the Redis at addr, one
// key prefix per route, so that replicas sharing it serve each other's
// runs. The returned function closes the client.
func redisRunLogs(cfg *config, addr string) (func(), error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("-redis %s: %w", addr, err)
	}
	// Followers wait in XREAD BLOCK on connections of their own, so that
	// many open streams cannot take the connections appends need.
	readers := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 512})
	cfg.runLog = func(route string) (core.RunLog, error) {
		return redislog.New(rdb, redislog.WithPrefix("agui:"+route+":"), redislog.WithReadClient(readers))
	}
	return func() {
		readers.Close()
		rdb.Close()
	}, nil
}
