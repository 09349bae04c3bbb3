"""Lua fragments shared by the Redis scripts."""

from __future__ import annotations

__all__ = ["NOW_US"]

#: ``now_us(arg)``: ``now`` in microseconds: the caller's clock when given, else the
#: server's (Redis ≥ 5 replicates script effects, so calling TIME before writing is allowed).
NOW_US = """
local function now_us(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
"""
