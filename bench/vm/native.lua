-- Benchmark anchor: native.mlir's loop of calls into C. Each iteration calls
-- rawlen (a C function of Lua's base library that returns an integer; the
-- table has one element, so it returns 1) and adds the result. Prints the
-- sum and the nanoseconds the loop took.
local n = assert(tonumber(arg[1]), "usage: lua5.4 native.lua N")
local t = {1}
local rawlen = rawlen
local start = os.clock()
local i, acc = 0, 0
while i < n do
  acc = acc + rawlen(t)
  i = i + 1
end
local elapsed = os.clock() - start
print(string.format("result=%d ns=%.0f", acc, elapsed * 1e9))
