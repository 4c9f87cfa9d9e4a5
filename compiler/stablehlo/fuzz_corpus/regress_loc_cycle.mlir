func.func @f() {
  return loc(#a)
}
#a = loc("jit(f)/add"(#b))
#b = loc(callsite(#c at #a))
#c = loc("f.py":1:2)
