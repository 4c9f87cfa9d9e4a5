-- Benchmark anchor: the recursive Fibonacci of fib.mlir. Prints fib(n) and
-- the nanoseconds the call took.
local n = assert(tonumber(arg[1]), "usage: lua5.4 fib.lua N")
local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end
local start = os.clock()
local result = fib(n)
local elapsed = os.clock() - start
print(string.format("result=%d ns=%.0f", result, elapsed * 1e9))
