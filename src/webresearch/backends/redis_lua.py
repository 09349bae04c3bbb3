"""Lua shared by the Redis scripts: the time every script decides by."""

from __future__ import annotations

__all__ = ["NOW_LUA"]

#: ``now_us(arg)``: the caller's clock in microseconds when given (tests), else the Redis
#: server's ``TIME`` (Redis >= 5 replicates script effects, so reading TIME before writing
#: is allowed), which every worker of a fleet shares.
NOW_LUA = """
local function now_us(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
"""
