-- Benchmark anchor: the counted loop of loop.mlir. A while loop rather than
-- Lua's numeric for, so both interpreters do the same compare, add, add and
-- jump per iteration. Prints the sum and the nanoseconds the loop took.
local n = assert(tonumber(arg[1]), "usage: lua5.4 loop.lua N")
local start = os.clock()
local i, acc = 0, 0
while i < n do
  acc = acc + i
  i = i + 1
end
local elapsed = os.clock() - start
print(string.format("result=%d ns=%.0f", acc, elapsed * 1e9))
