package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/pgstore"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/pglog"
)

// usePostgres points the loop route's checkpoints and the resumable
// routes' run logs at the PostgreSQL database of url
// (postgres://user:password@host:5432/db), as useRedis does for Redis; an
// empty url leaves them where they are. It prepares the database's
// tables (pgstore.Migrate, pglog.Migrate: idempotent, safe from every
// replica at once) and returns what closes the pool.
func usePostgres(ctx context.Context, cfg *config, url string) (func() error, error) {
	if url == "" {
		return func() error { return nil }, nil
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	// pgxpool's default (four, or one per CPU) is too few for runs that
	// each save their thread; followers of a run log hold none (one
	// listening connection per route serves them all).
	if !strings.Contains(url, "pool_max_conns") {
		pc.MaxConns = 32
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("-postgres: %w", err)
	}
	fail := func(err error) (func() error, error) {
		pool.Close()
		return nil, err
	}
	if err := pgstore.Migrate(ctx, pool); err != nil {
		return fail(err)
	}
	if err := pglog.Migrate(ctx, pool); err != nil {
		return fail(err)
	}
	store, err := pgstore.New(pool)
	if err != nil {
		return fail(err)
	}
	cfg.loopOptions = append(cfg.loopOptions, loop.WithCheckpoints(store))
	// The routes' logs, each holding a listening connection once a
	// follower waited, are closed with the pool.
	var logs []*pglog.Log
	cfg.runLog = func(route string) (resume.Log, error) {
		lg, err := pglog.New(pool, pglog.WithRoute(route))
		if err == nil {
			logs = append(logs, lg)
		}
		return lg, err
	}
	cfg.logger.Info("loop checkpoints and run logs in PostgreSQL", "host", pc.ConnConfig.Host, "database", pc.ConnConfig.Database)
	return func() error {
		for _, lg := range logs {
			_ = lg.Close()
		}
		pool.Close()
		return nil
	}, nil
}
