/**
 * The Lua scripts behind the Redis queue: each step that must not interleave with another
 * process's is one script, so it is atomic in Redis. Time comes from Redis (`TIME`), one clock for
 * every process. Every step of a holder checks its fence against the key's lock first: a holder
 * whose lease expired gets 0 and changes nothing.
 */
import type { Redis } from "ioredis";

const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";
const HOLDS = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end";

const scripts = {
  /** KEYS: dedupe, job, list, keys. ARGV: dedupeTtlMs, key, payload, id → 1 recorded, 0 duplicate. */
  submit: {
    keys: 4,
    lua: `
      if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
      if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
      redis.call('HSET', KEYS[2], 'key', ARGV[2], 'payload', ARGV[3], 'attempt', 0, 'runAfter', 0, 'state', 'queued')
      redis.call('RPUSH', KEYS[3], ARGV[4])
      redis.call('SADD', KEYS[4], ARGV[2])
      return 1`,
  },
  /**
   * KEYS: lock, list, keys, fence counter. ARGV: job key prefix, leaseMs, key.
   * → {'busy'} | {'empty'} | {'later', ms} | {'taken', id, fence, attempt, payload, state, lastError}
   */
  acquire: {
    keys: 4,
    lua: `
      if redis.call('EXISTS', KEYS[1]) == 1 then return {'busy'} end
      local id = redis.call('LINDEX', KEYS[2], 0)
      if not id then redis.call('SREM', KEYS[3], ARGV[3]); return {'empty'} end
      local job = ARGV[1] .. id
      if redis.call('EXISTS', job) == 0 then redis.call('LPOP', KEYS[2]); return {'later', '0'} end
      ${NOW}
      local runAfter = tonumber(redis.call('HGET', job, 'runAfter'))
      if runAfter > now then return {'later', tostring(runAfter - now)} end
      local fence = redis.call('INCR', KEYS[4])
      redis.call('SET', KEYS[1], fence, 'PX', ARGV[2])
      local state = redis.call('HGET', job, 'state')
      local attempt
      if state == 'dead' then attempt = tonumber(redis.call('HGET', job, 'attempt'))
      else attempt = redis.call('HINCRBY', job, 'attempt', 1) end
      local f = redis.call('HMGET', job, 'payload', 'lastError')
      return {'taken', id, tostring(fence), tostring(attempt), f[1], state, f[2] or ''}`,
  },
  /** KEYS: lock. ARGV: fence, leaseMs. */
  renew: { keys: 1, lua: `${HOLDS} redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1` },
  /** KEYS: lock, list, job. ARGV: fence. The head is done: next job of the key. */
  finish: {
    keys: 3,
    lua: `${HOLDS}
      redis.call('LPOP', KEYS[2]); redis.call('DEL', KEYS[3]); redis.call('DEL', KEYS[1]); return 1`,
  },
  /** KEYS: lock, job. ARGV: fence, delayMs, lastError. The head waits for its next attempt. */
  retry: {
    keys: 2,
    lua: `${HOLDS} ${NOW}
      redis.call('HSET', KEYS[2], 'runAfter', now + tonumber(ARGV[2]), 'lastError', ARGV[3])
      redis.call('DEL', KEYS[1]); return 1`,
  },
  /** KEYS: lock, job. ARGV: fence, lastError. Dead, until its dead-letter callback has run. */
  bury: {
    keys: 2,
    lua: `${HOLDS} redis.call('HSET', KEYS[2], 'state', 'dead', 'lastError', ARGV[2]) return 1`,
  },
  /** KEYS: lock, list, job, dead index. ARGV: fence, keepMs, id. The callback ran: off the key. */
  buried: {
    keys: 4,
    lua: `${HOLDS} ${NOW}
      redis.call('LPOP', KEYS[2]); redis.call('HSET', KEYS[3], 'deadAt', now)
      redis.call('PEXPIRE', KEYS[3], ARGV[2]); redis.call('ZADD', KEYS[4], now, ARGV[3])
      redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - tonumber(ARGV[2]))
      redis.call('DEL', KEYS[1]); return 1`,
  },
  /** KEYS: lock, job. ARGV: fence. Closing: the run is given back and does not count. */
  handBack: {
    keys: 2,
    lua: `${HOLDS}
      if redis.call('HGET', KEYS[2], 'state') ~= 'dead' then
        redis.call('HINCRBY', KEYS[2], 'attempt', -1)
        -- Not counted, but the next run is a re-run: a lastError says a run started.
        if not redis.call('HGET', KEYS[2], 'lastError') then redis.call('HSET', KEYS[2], 'lastError', 'handed back') end
      end
      redis.call('DEL', KEYS[1]); return 1`,
  },
  /** KEYS: keys. ARGV: lock prefix, list prefix, job prefix. → keys whose head is due and unlocked. */
  sweep: {
    keys: 1,
    lua: `${NOW}
      local due = {}
      for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
        if redis.call('EXISTS', ARGV[1] .. key) == 0 then
          local id = redis.call('LINDEX', ARGV[2] .. key, 0)
          if not id then redis.call('SREM', KEYS[1], key)
          elseif tonumber(redis.call('HGET', ARGV[3] .. id, 'runAfter') or '0') <= now then table.insert(due, key) end
        end
      end
      return due`,
  },
  /** KEYS: keys. ARGV: list prefix. → jobs not finished, on every key. */
  pending: {
    keys: 1,
    lua: `
      local n = 0
      for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do n = n + redis.call('LLEN', ARGV[1] .. key) end
      return n`,
  },
} as const;

export type ScriptName = keyof typeof scripts;
type Arg = string | number;

/** Registers the scripts on a connection (ioredis sends EVALSHA and reloads a script Redis lost). */
export function defineScripts(redis: Redis): (name: ScriptName, keys: string[], args: Arg[]) => Promise<unknown> {
  for (const [name, script] of Object.entries(scripts)) {
    redis.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
  }
  const commands = redis as unknown as Record<ScriptName, (...args: Arg[]) => Promise<unknown>>;
  return (name, keys, args) => {
    if (keys.length !== scripts[name].keys) throw new Error(`Script ${name} takes ${scripts[name].keys} keys.`);
    return commands[name](...keys, ...args);
  };
}
