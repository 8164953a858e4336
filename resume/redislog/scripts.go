package redislog

import "github.com/redis/go-redis/v9"

// The Lua scripts keep every decision about a run atomic in Redis and on
// Redis's clock (TIME), so replicas' clocks never matter. A script touches
// the keys of one run, which share the hash tag {runID}, or a thread's
// key alone, so its keys are always in one cluster slot. Every key it
// creates gets a TTL in the same script.
//
// A run's meta hash holds: thread, principal, owner, gen, last, sealed
// (0/1), stopped (0/1), lease (ms, Redis clock), read (ms of the latest
// read, 0 for none).

// luaNow is the store clock in milliseconds.
const luaNow = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function status(key, t)
  local m = redis.call('HMGET', key, 'thread', 'principal', 'owner', 'gen', 'last', 'sealed', 'stopped', 'lease', 'read')
  if not m[4] then return nil end
  m[10] = tostring(t)
  return m
end
`

// begin: KEYS meta; ARGV thread, principal, owner, ttl, idle.
var begin = redis.NewScript(luaNow + `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'exists', status(KEYS[1], now())}
end
local t = now()
redis.call('HSET', KEYS[1], 'thread', ARGV[1], 'principal', ARGV[2], 'owner', ARGV[3],
  'gen', 1, 'last', 0, 'sealed', 0, 'stopped', 0, 'lease', t + tonumber(ARGV[4]), 'read', 0)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'ok', status(KEYS[1], t)}
`)

// appendEntries: KEYS meta, log; ARGV gen, first seq, idle, max events,
// then data and terminal flag for each entry.
var appendEntries = redis.NewScript(`
local m = redis.call('HMGET', KEYS[1], 'gen', 'last', 'sealed')
if not m[1] then return redis.error_reply('NOTFOUND no such run') end
if m[1] ~= ARGV[1] or m[3] == '1' then return redis.error_reply('FENCED the lease is no longer valid') end
local last = tonumber(m[2])
local first = tonumber(ARGV[2])
local n = (#ARGV - 4) / 2
local skip = 0
if first <= last then skip = last - first + 1 end
if skip >= n then return 'OK' end
if first + skip ~= last + 1 then return redis.error_reply('SEQCONFLICT entries must follow the last entry') end
local terminal = ARGV[4 + 2 * n] == '1'
if last + n - skip > tonumber(ARGV[4]) and not (terminal and n - skip == 1) then
  return redis.error_reply('LOGFULL the run has too many events')
end
for i = skip, n - 1 do
  local seq = first + i
  if ARGV[6 + 2 * i] == '1' then
    redis.call('XADD', KEYS[2], '0-' .. seq, 'd', ARGV[5 + 2 * i], 't', '1')
  else
    redis.call('XADD', KEYS[2], '0-' .. seq, 'd', ARGV[5 + 2 * i])
  end
end
redis.call('HSET', KEYS[1], 'last', first + n - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 'OK'
`)

// renew: KEYS meta, log; ARGV gen, ttl, idle.
var renew = redis.NewScript(luaNow + `
local m = redis.call('HMGET', KEYS[1], 'gen', 'sealed')
if not m[1] then return redis.error_reply('NOTFOUND no such run') end
if m[1] ~= ARGV[1] or m[2] == '1' then return redis.error_reply('FENCED the lease is no longer valid') end
local t = now()
redis.call('HSET', KEYS[1], 'lease', t + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return status(KEYS[1], t)
`)

// seal: KEYS meta, log; ARGV gen, retain. It returns the run's thread and
// principal.
var seal = redis.NewScript(`
local m = redis.call('HMGET', KEYS[1], 'gen', 'sealed', 'thread', 'principal')
if not m[1] then return redis.error_reply('NOTFOUND no such run') end
if m[1] ~= ARGV[1] or m[2] == '1' then return redis.error_reply('FENCED the lease is no longer valid') end
redis.call('HSET', KEYS[1], 'sealed', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {m[3] or '', m[4] or ''}
`)

// beginThread: KEYS thread, runs; ARGV run, idle, runs TTL. It points the
// thread at the run and adds the run to the thread's set of runs.
var beginThread = redis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 'OK'
`)

// touchThread: KEYS thread, runs; ARGV run, idle, runs TTL. It extends
// the thread's pointer while it points at the run, and the thread's set
// of runs.
var touchThread = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
return 'OK'
`)

// deleteRun: KEYS meta, log; ARGV thread, principal. It deletes the run
// if it is one of that thread and principal.
var deleteRun = redis.NewScript(`
local m = redis.call('HMGET', KEYS[1], 'thread', 'principal')
if m[1] == ARGV[1] and m[2] == ARGV[2] then redis.call('DEL', KEYS[1], KEYS[2]) end
return 'OK'
`)

// clearThread: KEYS thread; ARGV run. It deletes the thread's pointer
// while it points at the run.
var clearThread = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 'OK'
`)

// stat: KEYS meta; ARGV touch (1: record a read).
var stat = redis.NewScript(luaNow + `
local t = now()
if ARGV[1] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'read', t) end
return status(KEYS[1], t)
`)

// stop: KEYS meta.
var stop = redis.NewScript(`
local m = redis.call('HMGET', KEYS[1], 'gen', 'sealed')
if not m[1] then return redis.error_reply('NOTFOUND no such run') end
if m[2] ~= '1' then redis.call('HSET', KEYS[1], 'stopped', 1) end
return 'OK'
`)

// takeover: KEYS meta; ARGV owner, ttl.
var takeover = redis.NewScript(luaNow + `
local m = redis.call('HMGET', KEYS[1], 'gen', 'sealed', 'lease')
if not m[1] then return redis.error_reply('NOTFOUND no such run') end
if m[2] == '1' then return redis.error_reply('FENCED the run is sealed') end
local t = now()
if tonumber(m[3]) > t then return redis.error_reply('LEASEHELD the owner is alive') end
redis.call('HSET', KEYS[1], 'gen', tonumber(m[1]) + 1, 'owner', ARGV[1], 'lease', t + tonumber(ARGV[2]))
return status(KEYS[1], t)
`)
