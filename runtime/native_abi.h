// The value types of the native modules' VM ABI, and the macros that turn
// an export's signature row into its calling convention. Pure preprocessor
// data: no includes, no declarations, so the compiler (which never links
// the runtime) reads the same rows as the runtime (docs/architecture.md
// §9).
//
// A module's table (runtime/hal_abi.h, runtime/check_abi.h) has one row per
// export, X(id, "name", optional, "doc"), sorted by name ("optional": a
// program's import of it may be left unresolved), and beside it one
// signature macro per export, <MODULE>_ABI_<id>(A, S, R) (e.g.
// GRT_HAL_ABI_buffer_load), whose rows are the export's values in order:
//   A(name, type)         an argument;
//   S(name, group)        a variadic span: an i32 count, then that many
//                         groups of the values group(G) lists as
//                         G(name, type); |group| is a lower-case macro
//                         name (grt_hal_abi_bindings) since the runtime
//                         names C types after it;
//   R(name, type)         a result.
// |type| is a row of GRT_ABI_TYPE_LIST below. Everything else is generated
// from these rows: the runtime's argument readers, result writers, shims
// and export table (runtime/abi_shim.h), the compiler's import
// declarations (compiler/host/native_imports.h) and the check of
// docs/runtime.md (runtime/abi_test.c).
#ifndef GRT_RUNTIME_NATIVE_ABI_H_
#define GRT_RUNTIME_NATIVE_ABI_H_

// The value types, one macro each so a row's type token selects its
// properties by pasting: GRT_ABI_TYPE_<type>(F) is
// F(calling-convention character, vm dialect spelling, value kind), the
// kind being the suffix of vm/variant.h's GRT_VM_VALUE_TYPE_* that holds
// the value in a packed buffer.
#define GRT_ABI_TYPE_i32(F) F("i", "i32", I32)
#define GRT_ABI_TYPE_i64(F) F("I", "i64", I64)
#define GRT_ABI_TYPE_f32(F) F("f", "f32", F32)
#define GRT_ABI_TYPE_f64(F) F("F", "f64", F64)
#define GRT_ABI_TYPE_hal_allocator(F) F("r", "!hal.allocator", REF)
#define GRT_ABI_TYPE_hal_buffer(F) F("r", "!hal.buffer", REF)
#define GRT_ABI_TYPE_hal_buffer_view(F) F("r", "!hal.buffer_view", REF)
#define GRT_ABI_TYPE_hal_command_buffer(F) F("r", "!hal.command_buffer", REF)
#define GRT_ABI_TYPE_hal_device(F) F("r", "!hal.device", REF)
#define GRT_ABI_TYPE_hal_executable(F) F("r", "!hal.executable", REF)
#define GRT_ABI_TYPE_hal_fence(F) F("r", "!hal.fence", REF)
#define GRT_ABI_TYPE_vm_buffer(F) F("r", "!vm.buffer", REF)

// Every type above, for code that iterates them: X(type).
#define GRT_ABI_TYPE_LIST(X)                                            \
  X(i32) X(i64) X(f32) X(f64) X(hal_allocator) X(hal_buffer)            \
  X(hal_buffer_view) X(hal_command_buffer) X(hal_device)                \
  X(hal_executable) X(hal_fence) X(vm_buffer)

#define GRT_ABI_PICK_CCONV_(cconv, spelling, kind) cconv
#define GRT_ABI_PICK_SPELLING_(cconv, spelling, kind) spelling
#define GRT_ABI_PICK_KIND_(cconv, spelling, kind) kind

// "i", "!hal.buffer", I32 for a type token.
#define GRT_ABI_CCONV_OF(type) GRT_ABI_TYPE_##type(GRT_ABI_PICK_CCONV_)
#define GRT_ABI_SPELLING_OF(type) GRT_ABI_TYPE_##type(GRT_ABI_PICK_SPELLING_)
#define GRT_ABI_KIND_OF(type) GRT_ABI_TYPE_##type(GRT_ABI_PICK_KIND_)

#define GRT_ABI_CAT(a, b) GRT_ABI_CAT_(a, b)
#define GRT_ABI_CAT_(a, b) a##b

// Signature-row consumers shared by the generators.
#define GRT_ABI_IGNORE(...)
#define GRT_ABI_CCONV_VALUE_(name, type) GRT_ABI_CCONV_OF(type)
#define GRT_ABI_CCONV_SPAN_(name, group) \
  "C" group(GRT_ABI_CCONV_VALUE_) "D"
#define GRT_ABI_PAREN_(...) (x)

// "v" when |seq| (a run of "(x)", one per value) is empty, else nothing:
// the chain GRT_ABI_NONE_ (x)(x)... ends in GRT_ABI_SOME_A_ or _B_ after
// at least one value, and stays GRT_ABI_NONE_ after none.
#define GRT_ABI_V_IF_NONE(seq) GRT_ABI_CAT(GRT_ABI_CHAIN_(seq), _V)
#define GRT_ABI_CHAIN_(seq) GRT_ABI_NONE_ seq
#define GRT_ABI_NONE_(x) GRT_ABI_SOME_A_
#define GRT_ABI_SOME_A_(x) GRT_ABI_SOME_B_
#define GRT_ABI_SOME_B_(x) GRT_ABI_SOME_A_
#define GRT_ABI_NONE__V "v"
#define GRT_ABI_SOME_A__V
#define GRT_ABI_SOME_B__V

// The calling convention of a signature macro (vm/signature.h), as a
// string literal: GRT_ABI_CCONV(GRT_HAL_ABI_buffer_load) is "0rIi_i".
#define GRT_ABI_CCONV(sig)                                              \
  "0" sig(GRT_ABI_CCONV_VALUE_, GRT_ABI_CCONV_SPAN_, GRT_ABI_IGNORE)    \
      GRT_ABI_V_IF_NONE(sig(GRT_ABI_PAREN_, GRT_ABI_PAREN_,             \
                            GRT_ABI_IGNORE)) "_"                        \
      sig(GRT_ABI_IGNORE, GRT_ABI_IGNORE, GRT_ABI_CCONV_VALUE_)         \
          GRT_ABI_V_IF_NONE(                                            \
              sig(GRT_ABI_IGNORE, GRT_ABI_IGNORE, GRT_ABI_PAREN_))

#endif  // GRT_RUNTIME_NATIVE_ABI_H_
