// The bytecode interpreter loop.
//
// One source, two dispatch strategies chosen at build time: a computed-goto
// table (GRT_VM_COMPUTED_GOTO with a GNU C compiler), or a switch. Both are
// indexed by prefix * 256 + opcode byte and both are generated from the op
// table; handlers are written once between OP(name) and NEXT().
//
// The verifier has checked every operand, so handlers decode without bounds
// checks. Only conditions that depend on values fail at run time: division
// by zero, buffer/list bounds, null refs, type mismatches, the stack limit,
// unresolved optional imports, and vm.fail itself.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/inline.h"
#include "base/trace.h"
#include "vm/buffer.h"
#include "vm/bytecode_module.h"
#include "vm/list.h"
#include "vm/op_table.h"
#include "vm/signature.h"
#include "vm/variant.h"

// GRT_VM_COMPACT_DISPATCH: the size build's interpreter (on by default under
// -Os, where __OPTIMIZE_SIZE__ is defined; -DGRT_VM_COMPACT_DISPATCH=0/1
// overrides). The register-only ops (grt_vm_pure below) then share one
// handler that decodes their operands by the op table's operand string and
// runs their bodies out of line, the cmp_br.* ops share one handler that
// runs the matching cmp op, div/rem share one, call.yieldable shares call's
// internal call, and every handler jumps back to one dispatch point (with
// computed goto, through a table of 4-byte distances): the loop keeps one
// copy of the operand decoding and of the dispatch instead of one per op.
// The speed build keeps one inline handler per op, each ending in its own
// dispatch.
#ifndef GRT_VM_COMPACT_DISPATCH
#if defined(__OPTIMIZE_SIZE__)
#define GRT_VM_COMPACT_DISPATCH 1
#else
#define GRT_VM_COMPACT_DISPATCH 0
#endif
#endif

//===----------------------------------------------------------------------===//
// Operand and register access
//===----------------------------------------------------------------------===//

// Operand decoding and register access are forced inline: at -Os the
// compiler would otherwise call them, which pins the loop's pc to memory
// and makes every handler both larger and slower.
#define GRT_VM_INLINE static GRT_ALWAYS_INLINE

GRT_VM_INLINE uint16_t grt_vm_read_u16(const uint8_t** pc) {
  const uint8_t* p = *pc;
  *pc = p + 2;
  return (uint16_t)(p[0] | (p[1] << 8));
}

GRT_VM_INLINE uint32_t grt_vm_read_u32(const uint8_t** pc) {
  const uint8_t* p = *pc;
  *pc = p + 4;
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

GRT_VM_INLINE uint64_t grt_vm_read_u64(const uint8_t** pc) {
  uint64_t lo = grt_vm_read_u32(pc);
  return lo | ((uint64_t)grt_vm_read_u32(pc) << 32);
}

// 64-bit and float registers go through memcpy: the bank is uint32_t slots
// and memcpy is the aliasing-safe way to view them (compilers emit one load).
GRT_VM_INLINE int64_t grt_vm_get_i64(const uint32_t* regs, uint16_t r) {
  int64_t v;
  memcpy(&v, regs + r, sizeof(v));
  return v;
}
GRT_VM_INLINE void grt_vm_set_i64(uint32_t* regs, uint16_t r, int64_t v) {
  memcpy(regs + r, &v, sizeof(v));
}
GRT_VM_INLINE float grt_vm_get_f32(const uint32_t* regs, uint16_t r) {
  float v;
  memcpy(&v, regs + r, sizeof(v));
  return v;
}
GRT_VM_INLINE void grt_vm_set_f32(uint32_t* regs, uint16_t r, float v) {
  memcpy(regs + r, &v, sizeof(v));
}
GRT_VM_INLINE double grt_vm_get_f64(const uint32_t* regs, uint16_t r) {
  double v;
  memcpy(&v, regs + r, sizeof(v));
  return v;
}
GRT_VM_INLINE void grt_vm_set_f64(uint32_t* regs, uint16_t r, double v) {
  memcpy(regs + r, &v, sizeof(v));
}

// Copies a ref operand into *dst, moving when the operand has the move bit.
GRT_VM_INLINE void grt_vm_take_ref(grt_vm_ref_t* refs, uint16_t operand,
                                   grt_vm_ref_t* dst) {
  grt_vm_ref_t* src = &refs[operand & GRT_VM_REF_ORDINAL_MASK];
  if (operand & GRT_VM_REF_MOVE_BIT) {
    grt_vm_ref_move(dst, src);
  } else {
    grt_vm_ref_assign(dst, src);
  }
}

// Ends an operand's use when the op did not take its value: with the move
// bit (its last use) the ref is released and the register left null, unless
// the op has just written that register with its result (GRT_VM_NO_REF_RESULT
// for ops whose result is not a ref).
#define GRT_VM_NO_REF_RESULT 0xFFFFu
GRT_VM_INLINE void grt_vm_drop_moved_ref(grt_vm_ref_t* refs, uint16_t operand,
                                         uint16_t written) {
  uint16_t ordinal = operand & GRT_VM_REF_ORDINAL_MASK;
  if ((operand & GRT_VM_REF_MOVE_BIT) && ordinal != written) {
    grt_vm_ref_release(&refs[ordinal]);
  }
}

//===----------------------------------------------------------------------===//
// Value helpers with defined results where C leaves them undefined
//===----------------------------------------------------------------------===//

static uint32_t grt_vm_clz64(uint64_t x) {
  if (!x) return 64;
  uint32_t n = 0;
  while (!(x & (UINT64_C(1) << 63))) {
    x <<= 1;
    ++n;
  }
  return n;
}

// Float-to-integer casts, as IREE's VM does them: round half away from zero
// (round(), which is what lroundf/llroundf round by), then convert. Where
// IREE's conversion of an out-of-range value is undefined in C, grt
// saturates at the target type's bounds, and NaN becomes 0. f32 operands
// arrive widened to double, which is exact, so one helper serves both
// widths.
static int32_t grt_vm_f2si32(double x) {
  if (isnan(x)) return 0;
  x = round(x);
  if (x <= -2147483648.0) return INT32_MIN;
  if (x >= 2147483647.0) return INT32_MAX;
  return (int32_t)x;
}
static uint32_t grt_vm_f2ui32(double x) {
  if (isnan(x)) return 0;
  x = round(x);
  if (x <= 0.0) return 0;
  if (x >= 4294967295.0) return UINT32_MAX;
  return (uint32_t)x;
}
static int64_t grt_vm_f2si64(double x) {
  if (isnan(x)) return 0;
  x = round(x);
  if (x <= -9223372036854775808.0) return INT64_MIN;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  return (int64_t)x;
}
static uint64_t grt_vm_f2ui64(double x) {
  if (isnan(x)) return 0;
  x = round(x);
  if (x <= 0.0) return 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return (uint64_t)x;
}
static double grt_vm_fmin(double a, double b) {
  return (isnan(a) || isnan(b)) ? NAN : fmin(a, b);
}
static double grt_vm_fmax(double a, double b) {
  return (isnan(a) || isnan(b)) ? NAN : fmax(a, b);
}

// Scales an element index to a byte offset, refusing overflow.
static grt_status_t grt_vm_element_offset(int64_t index, uint64_t width,
                                          uint64_t* out_offset) {
  if (index < 0 || (uint64_t)index > UINT64_MAX / width) {
    return grt_make_status(GRT_STATUS_OUT_OF_RANGE,
                           "buffer element index %" PRId64 " out of range",
                           index);
  }
  *out_offset = (uint64_t)index * width;
  return grt_ok_status();
}

static grt_status_t grt_vm_division_error(const char* op, int64_t a,
                                          int64_t b) {
  if (b == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: division by zero (%" PRId64 " / 0)", op, a);
  }
  return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                         "%s: signed overflow (%" PRId64 " / -1)", op, a);
}

//===----------------------------------------------------------------------===//
// List and buffer elements
//===----------------------------------------------------------------------===//

typedef enum grt_vm_element_access_e {
  GRT_VM_ELEMENT_GET,    // list.get.*
  GRT_VM_ELEMENT_SET,    // list.set.*
  GRT_VM_ELEMENT_LOAD,   // buffer.load.*
  GRT_VM_ELEMENT_STORE,  // buffer.store.*
  GRT_VM_ELEMENT_FILL,   // buffer.fill.*
} grt_vm_element_access_t;

// list.get.T / list.set.T for the register types i32, i64, f32, f64: the
// operands at |pc| are the list, the i32 index and the value or result
// register.
static grt_status_t grt_vm_list_element(const uint8_t* pc, uint32_t* regs,
                                        grt_vm_ref_t* refs,
                                        grt_vm_element_access_t access,
                                        grt_vm_type_t type) {
  grt_vm_list_t* list = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_list_check_deref(
      &refs[grt_vm_read_u16(&pc) & GRT_VM_REF_ORDINAL_MASK], &list));
  size_t index = (size_t)regs[grt_vm_read_u16(&pc)];
  uint16_t reg = grt_vm_read_u16(&pc);
  bool set = access == GRT_VM_ELEMENT_SET;
  switch (type) {
    case GRT_VM_TYPE_I32: {
      if (set) return grt_vm_list_set_i32(list, index, (int32_t)regs[reg]);
      int32_t value = 0;
      GRT_RETURN_IF_ERROR(grt_vm_list_get_i32(list, index, &value));
      regs[reg] = (uint32_t)value;
      break;
    }
    case GRT_VM_TYPE_I64: {
      if (set) return grt_vm_list_set_i64(list, index, grt_vm_get_i64(regs, reg));
      int64_t value = 0;
      GRT_RETURN_IF_ERROR(grt_vm_list_get_i64(list, index, &value));
      grt_vm_set_i64(regs, reg, value);
      break;
    }
    case GRT_VM_TYPE_F32: {
      if (set) return grt_vm_list_set_f32(list, index, grt_vm_get_f32(regs, reg));
      float value = 0;
      GRT_RETURN_IF_ERROR(grt_vm_list_get_f32(list, index, &value));
      grt_vm_set_f32(regs, reg, value);
      break;
    }
    default: {
      if (set) return grt_vm_list_set_f64(list, index, grt_vm_get_f64(regs, reg));
      double value = 0;
      GRT_RETURN_IF_ERROR(grt_vm_list_get_f64(list, index, &value));
      grt_vm_set_f64(regs, reg, value);
      break;
    }
  }
  return grt_ok_status();
}

// buffer.load.*, buffer.store.* and buffer.fill.* of every element type:
// the int and float forms differ only in |width| (floats move as their
// bits). The operands at |pc| are the buffer, the i64 element index, for
// fill the i64 element count, then the value or result register: a 64-bit
// register for 8-byte elements, a 32-bit one otherwise (narrow loads sign-
// or zero-extend per |sign_extend|; narrow stores and fills take the low
// bytes).
static grt_status_t grt_vm_buffer_element(const uint8_t* pc, uint32_t* regs,
                                          grt_vm_ref_t* refs,
                                          grt_vm_element_access_t access,
                                          size_t width, bool sign_extend) {
  grt_vm_buffer_t* buffer = NULL;
  GRT_RETURN_IF_ERROR(grt_vm_buffer_check_deref(
      &refs[grt_vm_read_u16(&pc) & GRT_VM_REF_ORDINAL_MASK], &buffer));
  uint64_t offset = 0, length = 0;
  GRT_RETURN_IF_ERROR(grt_vm_element_offset(
      grt_vm_get_i64(regs, grt_vm_read_u16(&pc)), width, &offset));
  if (access == GRT_VM_ELEMENT_FILL) {
    GRT_RETURN_IF_ERROR(grt_vm_element_offset(
        grt_vm_get_i64(regs, grt_vm_read_u16(&pc)), width, &length));
  }
  uint16_t reg = grt_vm_read_u16(&pc);
  if (access == GRT_VM_ELEMENT_LOAD) {
    int64_t value = 0;
    GRT_RETURN_IF_ERROR(
        grt_vm_buffer_load_int(buffer, offset, width, sign_extend, &value));
    if (width == 8) {
      grt_vm_set_i64(regs, reg, value);
    } else {
      regs[reg] = (uint32_t)value;
    }
    return grt_ok_status();
  }
  uint64_t value =
      width == 8 ? (uint64_t)grt_vm_get_i64(regs, reg) : (uint64_t)regs[reg];
  if (access == GRT_VM_ELEMENT_STORE) {
    return grt_vm_buffer_store_int(buffer, offset, width, (int64_t)value);
  }
  return grt_vm_buffer_fill(buffer, offset, length, value, width);
}

//===----------------------------------------------------------------------===//
// Block arguments
//===----------------------------------------------------------------------===//

// Copies |count| registers as one parallel copy: a destination that is also
// a later source (e.g. a swap) reads the old value. Entry i's type and source
// are {u8 type, u16 register} at sources + i * stride, its destination the
// u16 at destinations + i * stride. Values are staged on the C stack when
// they fit (every loop back-edge with block arguments comes through here, so
// this must not touch the VM stack); only very long lists use a scratch frame.
#define GRT_VM_PARALLEL_COPY_LOCAL 16

static grt_status_t grt_vm_parallel_copy(grt_vm_stack_t* stack, uint32_t* regs,
                                         grt_vm_ref_t* refs, uint16_t count,
                                         const uint8_t* sources,
                                         const uint8_t* destinations,
                                         size_t stride) {
  if (count == 0) return grt_ok_status();
  if (count == 1) {
    const uint8_t* p = sources;
    grt_vm_type_t type = (grt_vm_type_t)*p++;
    uint16_t src = grt_vm_read_u16(&p);
    p = destinations;
    uint16_t dst = grt_vm_read_u16(&p);
    if (type == GRT_VM_TYPE_REF) {
      grt_vm_take_ref(refs, src, &refs[dst]);
    } else if (grt_vm_type_slot_count(type) == 2) {
      grt_vm_set_i64(regs, dst, grt_vm_get_i64(regs, src));
    } else {
      regs[dst] = regs[src];
    }
    return grt_ok_status();
  }
  uint32_t local_values[2 * GRT_VM_PARALLEL_COPY_LOCAL];
  grt_vm_ref_t local_refs[GRT_VM_PARALLEL_COPY_LOCAL];
  uint32_t* values = local_values;
  grt_vm_ref_t* staged_refs = local_refs;
  bool use_frame = count > GRT_VM_PARALLEL_COPY_LOCAL;
  if (use_frame) {
    grt_vm_stack_frame_t* scratch = NULL;
    GRT_RETURN_IF_ERROR(
        grt_vm_stack_push_frame(stack, NULL, 0, 2u * count, count, &scratch));
    values = grt_vm_stack_frame_i32(scratch);
    staged_refs = grt_vm_stack_frame_refs(scratch);
  }
  for (uint16_t i = 0; i < count; ++i) {
    const uint8_t* p = sources + i * stride;
    grt_vm_type_t type = (grt_vm_type_t)*p++;
    uint16_t src = grt_vm_read_u16(&p);
    if (type == GRT_VM_TYPE_REF) {
      staged_refs[i].ptr = NULL;
      staged_refs[i].type = NULL;
      grt_vm_take_ref(refs, src, &staged_refs[i]);
    } else {
      grt_vm_set_i64(values, (uint16_t)(2 * i),
                     grt_vm_type_slot_count(type) == 2
                         ? grt_vm_get_i64(regs, src)
                         : (int64_t)regs[src]);
    }
  }
  for (uint16_t i = 0; i < count; ++i) {
    grt_vm_type_t type = (grt_vm_type_t)sources[i * stride];
    const uint8_t* p = destinations + i * stride;
    uint16_t dst = grt_vm_read_u16(&p);
    if (type == GRT_VM_TYPE_REF) {
      grt_vm_ref_move(&refs[dst], &staged_refs[i]);
    } else if (grt_vm_type_slot_count(type) == 2) {
      grt_vm_set_i64(regs, dst, grt_vm_get_i64(values, (uint16_t)(2 * i)));
    } else {
      regs[dst] = values[2 * i];
    }
  }
  if (use_frame) grt_vm_stack_pop_frame(stack);
  return grt_ok_status();
}

// Applies a branch's remap list at *pc ({u8 type, u16 source, u16
// destination} entries) as a parallel copy. Most branches carry none.
static inline grt_status_t grt_vm_remap(grt_vm_stack_t* stack, uint32_t* regs,
                                        grt_vm_ref_t* refs, const uint8_t* pc) {
  uint16_t count = grt_vm_read_u16(&pc);
  if (count == 0) return grt_ok_status();
  return grt_vm_parallel_copy(stack, regs, refs, count, pc, pc + 3, 5);
}

// Where execution continues for a branch to the block marker at |offset|:
// the op after it. The verifier guarantees every branch target and every
// function entry is a marker, and blocks never fall through into the next
// (each ends in a terminator), so markers are never executed at all.
static inline const uint8_t* grt_vm_block_entry(const uint8_t* code,
                                                uint32_t offset) {
  return code + offset + 1;
}

// Skips a branch operand (target + remap list).
static const uint8_t* grt_vm_skip_branch(const uint8_t* pc) {
  pc += 4;
  uint16_t count = grt_vm_read_u16(&pc);
  return pc + 5u * count;
}

//===----------------------------------------------------------------------===//
// Packed values (call arguments and results)
//===----------------------------------------------------------------------===//

// Walks an argument list (u16 count + registers) typed by |types| with
// variadic spans repeated per |spans|. With |packed| it copies each value
// into the packed buffer (spans as their i32 count then the groups; refs
// borrowed, not retained); without it, it releases the refs whose operand
// carries the move bit (their last use was the call). Returns the end of the
// list.
static const uint8_t* grt_vm_walk_arguments(grt_string_view_t types,
                                            const int32_t* spans,
                                            const uint32_t* regs,
                                            grt_vm_ref_t* refs,
                                            const uint8_t* list,
                                            uint8_t* packed) {
  const uint8_t* p = list + 2;
  size_t size = 0;
  uint16_t span = 0;
  for (size_t i = 0; i < types.size; ++i) {
    size_t first = i, end = i + 1;
    int32_t repeat = 1;
    if (types.data[i] == 'C') {
      first = i + 1;
      end = first;
      while (types.data[end] != 'D') ++end;
      repeat = spans[span++];
      if (packed) {
        size_t offset = grt_vm_packed_place(&size, GRT_VM_VALUE_TYPE_I32);
        memcpy(packed + offset, &repeat, sizeof(repeat));
      }
      i = end;
    }
    for (int32_t r = 0; r < repeat; ++r) {
      for (size_t j = first; j < end; ++j) {
        char c = types.data[j];
        uint16_t reg = grt_vm_read_u16(&p);
        if (!packed) {
          if (c == 'r' && (reg & GRT_VM_REF_MOVE_BIT)) {
            grt_vm_ref_release(&refs[reg & GRT_VM_REF_ORDINAL_MASK]);
          }
          continue;
        }
        grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
        grt_vm_value_type_from_cconv_char(c, &type);
        size_t offset = grt_vm_packed_place(&size, type);
        if (c == 'r') {
          memcpy(packed + offset, &refs[reg & GRT_VM_REF_ORDINAL_MASK],
                 sizeof(grt_vm_ref_t));
        } else {
          memcpy(packed + offset, regs + reg, grt_vm_value_type_size(type));
        }
      }
    }
  }
  return p;
}

// Calls import |ordinal| with the A (and for call.variadic, V) operands at
// |operands|, writes its results to the Y registers and sets *out_pc past
// them. The packed arguments and results live in a scratch frame on the VM
// stack: for a non-variadic import its layout was computed at load, so the
// common call is an inline push, one packing walk, the call, and the
// results.
static grt_status_t grt_vm_call_import(grt_vm_bytecode_module_t* module,
                                       grt_vm_module_state_t* state,
                                       grt_vm_stack_t* stack, uint32_t* regs,
                                       grt_vm_ref_t* refs, uint32_t ordinal,
                                       bool variadic, bool yieldable,
                                       const uint8_t* operands,
                                       const uint8_t** out_pc) {
  const uint8_t* pc = operands;
  const grt_vm_signature_t* signature = &module->import_signatures[ordinal];
  const grt_vm_bytecode_import_binding_t* binding = &state->imports[ordinal];
  const grt_vm_bytecode_import_call_t* record = &module->import_calls[ordinal];
  if (!binding->resolved) {
    return grt_make_status(GRT_STATUS_NOT_FOUND,
                           "call to unresolved optional import '%.*s' (no "
                           "module in the context exports it)",
                           GRT_SV_ARG(module->imports[ordinal].full_name));
  }
  // The verifier bounds the span count by 64.
  int32_t spans[64];
  grt_vm_stack_frame_t* scratch = NULL;
  size_t argument_bytes = record->argument_bytes;
  size_t result_bytes = grt_vm_packed_finish(signature->result_bytes);
  if (!variadic) {
    scratch = grt_vm_stack_push_frame_fast(stack, grt_vm_stack_top(stack),
                                           &record->scratch);
    if (!scratch) {
      GRT_RETURN_IF_ERROR(
          grt_vm_stack_push_frame_info(stack, &record->scratch, &scratch));
    }
  } else {
    uint16_t span_count = grt_vm_read_u16(&pc);
    for (uint16_t i = 0; i < span_count; ++i) spans[i] = grt_vm_read_u16(&pc);
    GRT_RETURN_IF_ERROR(grt_vm_signature_packed_size(
        signature->arguments, spans, span_count, &argument_bytes));
    argument_bytes = grt_vm_packed_finish(argument_bytes);
    GRT_RETURN_IF_ERROR(grt_vm_stack_push_frame(
        stack, NULL, 0, (uint32_t)((argument_bytes + result_bytes) / 4), 0,
        &scratch));
  }
  uint8_t* arguments = (uint8_t*)grt_vm_stack_frame_i32(scratch);
  uint8_t* results = arguments + argument_bytes;
  const uint8_t* result_list = grt_vm_walk_arguments(
      signature->arguments, spans, regs, refs, pc, arguments);

  grt_vm_call_t call = {binding->target, arguments, argument_bytes, results,
                        result_bytes};
  grt_vm_module_t* target = binding->target.module;
  grt_status_t status =
      target->vtable->call(target, binding->target_state, stack, &call);
  if (!status) {
    if (record->argument_refs) {
      grt_vm_walk_arguments(signature->arguments, spans, regs, refs, pc, NULL);
    }
    const uint8_t* p = result_list + 2;
    size_t size = 0;
    for (size_t i = 0; i < signature->results.size; ++i) {
      char c = signature->results.data[i];
      grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
      grt_vm_value_type_from_cconv_char(c, &type);
      size_t offset = grt_vm_packed_place(&size, type);
      uint16_t reg = grt_vm_read_u16(&p);
      if (c == 'r') {
        grt_vm_ref_move(&refs[reg], (grt_vm_ref_t*)(void*)(results + offset));
      } else {
        memcpy(regs + reg, results + offset, grt_vm_value_type_size(type));
      }
    }
  }
  grt_vm_stack_pop_top_frame(stack, scratch, scratch->info, scratch->parent);
  *out_pc = result_list + 2 + 2u * signature->results.size;
  if (!yieldable && grt_status_code(status) == GRT_STATUS_DEFERRED) {
    // Only a yieldable call is re-entered: a plain one has no way back.
    grt_status_free(status);
    status = grt_make_status(
        GRT_STATUS_FAILED_PRECONDITION,
        "import '%.*s' deferred (returned DEFERRED) from a call that is not "
        "yieldable; call it with vm.call%s.yieldable",
        GRT_SV_ARG(module->imports[ordinal].full_name),
        variadic ? ".variadic" : "");
  }
  return status;
}

// A suspension (vm.yield, or a yieldable import that deferred) where the
// dispatch cannot keep its frames: a call through the module interface
// (from another module's bytecode, or a host call that is not an
// invocation), whose C caller waits for the results.
static grt_status_t grt_vm_suspend_refused(const char* what) {
  return grt_make_status(
      GRT_STATUS_FAILED_PRECONDITION,
      "%s in a call that cannot be suspended: only an invocation "
      "(grt_vm_invoke_begin, grt_vm_invoke) can yield, not a call through "
      "another module's import",
      what);
}

// While tracing: makes the source location of the import call whose
// operands start at |pc| (in the function at |code| that |frame| runs) the
// thread's current location, which a dispatch recorded by the import
// carries into the trace (base/trace.h). Empty when the module has none.
static void grt_vm_trace_call_site(grt_vm_bytecode_module_t* module,
                                   const grt_vm_stack_frame_t* frame,
                                   const uint8_t* code, const uint8_t* pc) {
  grt_string_view_t location = grt_string_view_empty();
  // Any offset inside the op finds the op's own entry: entries sit at op
  // starts and the lookup takes the last one at or before the offset.
  grt_module_file_lookup_location(module->file, frame->info->function_ordinal,
                                  (uint32_t)(pc - code), &location);
  grt_trace_set_location(location);
}

// switch.*: result = values[index], or the default when out of range.
// Returns the pc after the op. (Helpers the loop calls out of line never get
// &pc: that would pin the loop's pc to memory in every handler.)
static const uint8_t* grt_vm_switch(const uint8_t* pc, uint32_t* regs,
                                    size_t width) {
  int32_t index = (int32_t)regs[grt_vm_read_u16(&pc)];
  uint16_t src = grt_vm_read_u16(&pc);
  uint16_t count = grt_vm_read_u16(&pc);
  const uint8_t* values = pc;
  pc += 2u * count;
  uint16_t dst = grt_vm_read_u16(&pc);
  if (index >= 0 && index < count) {
    values += 2 * index;
    src = grt_vm_read_u16(&values);
  }
  memmove(regs + dst, regs + src, width);
  return pc;
}

//===----------------------------------------------------------------------===//
// Backtraces
//===----------------------------------------------------------------------===//

// The offset of the op |pc| is inside of (past its opcode), found by walking
// the function from its first op: the loop does not track where each op
// starts, only errors need it.
static uint32_t grt_vm_op_offset_containing(const uint8_t* code,
                                            const uint8_t* pc) {
  const uint8_t* op = code;
  for (;;) {
    const uint8_t* next = op + grt_vm_op_size_verified(op);
    if (next >= pc) return (uint32_t)(op - code);
    op = next;
  }
}

static grt_status_t grt_vm_annotate_frame(grt_vm_bytecode_module_t* module,
                                          uint32_t function_ordinal,
                                          uint32_t pc, grt_status_t status) {
  const grt_module_function_t* f = &module->functions[function_ordinal];
  grt_string_view_t location;
  if (grt_module_file_lookup_location(module->file, function_ordinal, pc,
                                      &location)) {
    return grt_status_annotate(status, "at %.*s.%.*s@0x%x (%.*s)",
                               GRT_SV_ARG(module->base.name),
                               GRT_SV_ARG(f->name), pc, GRT_SV_ARG(location));
  }
  return grt_status_annotate(status, "at %.*s.%.*s@0x%x",
                             GRT_SV_ARG(module->base.name), GRT_SV_ARG(f->name),
                             pc);
}

// A stack overflow unwinds thousands of frames; one line each would make a
// message of megabytes. Consecutive identical frames (recursion) collapse
// into a count, and past GRT_VM_BACKTRACE_MAX_FRAMES distinct frames only
// the number left out is reported.
#define GRT_VM_BACKTRACE_MAX_FRAMES 32

typedef struct grt_vm_backtrace_t {
  uint32_t function_ordinal;  // last frame annotated
  uint32_t pc;
  uint32_t repeats;  // identical frames since the last one annotated
  uint32_t shown;    // distinct frames annotated
  uint32_t omitted;  // frames past the cap
} grt_vm_backtrace_t;

static grt_status_t grt_vm_backtrace_flush_repeats(grt_vm_backtrace_t* trace,
                                                   grt_status_t status) {
  if (trace->repeats == 0) return status;
  status = grt_status_annotate(status, "(previous frame repeated %u more times)",
                               trace->repeats);
  trace->repeats = 0;
  return status;
}

static grt_status_t grt_vm_backtrace_add(grt_vm_backtrace_t* trace,
                                         grt_vm_bytecode_module_t* module,
                                         const grt_vm_stack_frame_t* frame,
                                         grt_status_t status) {
  // Past the cap every frame is only counted: comparing them with the last
  // frame shown would report the alternate frames of mutual recursion as
  // repeats.
  if (trace->omitted == 0 && trace->shown > 0 &&
      frame->info->function_ordinal == trace->function_ordinal &&
      frame->pc == trace->pc) {
    ++trace->repeats;
    return status;
  }
  status = grt_vm_backtrace_flush_repeats(trace, status);
  if (trace->shown == GRT_VM_BACKTRACE_MAX_FRAMES) {
    ++trace->omitted;
    return status;
  }
  ++trace->shown;
  trace->function_ordinal = frame->info->function_ordinal;
  trace->pc = frame->pc;
  return grt_vm_annotate_frame(module, frame->info->function_ordinal, frame->pc,
                               status);
}

static grt_status_t grt_vm_backtrace_finish(grt_vm_backtrace_t* trace,
                                            grt_status_t status) {
  status = grt_vm_backtrace_flush_repeats(trace, status);
  if (trace->omitted == 0) return status;
  return grt_status_annotate(status, "(%u more frames not shown)",
                             trace->omitted);
}

//===----------------------------------------------------------------------===//
// The loop
//===----------------------------------------------------------------------===//

// prefix * 256 + byte for every op: the dispatch index.
enum {
#define GRT_VM_CODE_ENUM(name, mnemonic, prefix, byte, operands, meaning) \
  GRT_VM_CODE_##name = GRT_VM_PREFIX_##prefix * 256 + byte,
  GRT_VM_OP_TABLE(GRT_VM_CODE_ENUM)
#undef GRT_VM_CODE_ENUM
};

// The float ops that call libm, one out-of-line body per width (|b| is
// ignored by the unary ones): next to the call itself the switch costs
// little, and one shared handler replaces one per op.
#define GRT_VM_FLOAT_MATH(W, T, SUFFIX)                                      \
  static T grt_vm_math_f##W(unsigned code, T a, T b) {                      \
    switch (code) {                                                         \
      case GRT_VM_CODE_CEIL_F##W: return ceil##SUFFIX(a);                   \
      case GRT_VM_CODE_FLOOR_F##W: return floor##SUFFIX(a);                 \
      case GRT_VM_CODE_ROUND_F##W: return round##SUFFIX(a);                 \
      case GRT_VM_CODE_ROUND_F##W##_EVEN: return nearbyint##SUFFIX(a);      \
      case GRT_VM_CODE_EXP_F##W: return exp##SUFFIX(a);                     \
      case GRT_VM_CODE_EXP2_F##W: return exp2##SUFFIX(a);                   \
      case GRT_VM_CODE_EXPM1_F##W: return expm1##SUFFIX(a);                 \
      case GRT_VM_CODE_LOG_F##W: return log##SUFFIX(a);                     \
      case GRT_VM_CODE_LOG2_F##W: return log2##SUFFIX(a);                   \
      case GRT_VM_CODE_LOG10_F##W: return log10##SUFFIX(a);                 \
      case GRT_VM_CODE_LOG1P_F##W: return log1p##SUFFIX(a);                 \
      case GRT_VM_CODE_TANH_F##W: return tanh##SUFFIX(a);                   \
      case GRT_VM_CODE_SIN_F##W: return sin##SUFFIX(a);                     \
      case GRT_VM_CODE_COS_F##W: return cos##SUFFIX(a);                     \
      case GRT_VM_CODE_ATAN_F##W: return atan##SUFFIX(a);                   \
      case GRT_VM_CODE_ERF_F##W: return erf##SUFFIX(a);                     \
      case GRT_VM_CODE_REM_F##W: return remainder##SUFFIX(a, b);            \
      case GRT_VM_CODE_POW_F##W: return pow##SUFFIX(a, b);                  \
      default: return atan2##SUFFIX(a, b); /* ATAN2 */                      \
    }                                                                       \
  }
GRT_VM_FLOAT_MATH(32, float, f)
GRT_VM_FLOAT_MATH(64, double, )
#undef GRT_VM_FLOAT_MATH

// cmp.{eq,ne,lt,lte,gt,gte}.fW.{o,u}: |predicate| is the op's distance from
// cmp.eq.fW.o (the twelve are consecutive, in that order, in both widths).
// The operands' relation is one bit (less 1, equal 2, greater 4, unordered
// 8) tested against the predicate's mask: an ordered (even) predicate never
// holds for NaN, an unordered (odd) one always does. f32 operands arrive
// widened, which is exact.
static inline int32_t grt_vm_float_compare(unsigned predicate, double a,
                                           double b) {
  unsigned relation = isunordered(a, b) ? 8u
                      : isless(a, b)    ? 1u
                      : a == b          ? 2u
                                        : 4u;
  // Masks by predicate / 2: eq 2, ne 5, lt 1, lte 3, gt 4, gte 6.
  unsigned mask = ((0x643152u >> (4u * (predicate >> 1))) & 0xFu) |
                  ((predicate & 1u) << 3);
  return (relation & mask) != 0;
}
_Static_assert(GRT_VM_CODE_CMP_GTE_F32_U - GRT_VM_CODE_CMP_EQ_F32_O == 11 &&
                   GRT_VM_CODE_CMP_GTE_F64_U - GRT_VM_CODE_CMP_EQ_F64_O == 11,
               "the float compare predicates are consecutive");
_Static_assert(GRT_VM_CODE_CMP_BR_LTE_I32_U - GRT_VM_CODE_CMP_BR_EQ_I32 == 5 &&
                   GRT_VM_CODE_CMP_LTE_I32_U - GRT_VM_CODE_CMP_EQ_I32 == 5 &&
                   GRT_VM_CODE_CMP_BR_LTE_I64_U - GRT_VM_CODE_CMP_BR_EQ_I64 == 5 &&
                   GRT_VM_CODE_CMP_LTE_I64_U - GRT_VM_CODE_CMP_EQ_I64 == 5 &&
                   GRT_VM_CODE_CMP_BR_EQ_I64 == GRT_VM_CODE_CMP_BR_EQ_I32 + 6,
               "cmp_br.* lists its predicates in cmp.*'s order (eq, ne, lt.s, "
               "lt.u, lte.s, lte.u), i32 then i64");
_Static_assert(GRT_VM_CODE_DIV_I32_U == GRT_VM_CODE_DIV_I32_S + 1 &&
                   GRT_VM_CODE_REM_I32_S == GRT_VM_CODE_DIV_I32_S + 2 &&
                   GRT_VM_CODE_REM_I32_U == GRT_VM_CODE_DIV_I32_S + 3 &&
                   GRT_VM_CODE_DIV_I64_U == GRT_VM_CODE_DIV_I64_S + 1 &&
                   GRT_VM_CODE_REM_I64_S == GRT_VM_CODE_DIV_I64_S + 2 &&
                   GRT_VM_CODE_REM_I64_U == GRT_VM_CODE_DIV_I64_S + 3,
               "div.s, div.u, rem.s, rem.u are consecutive in both widths");

#if defined(GRT_VM_COMPUTED_GOTO) && defined(__GNUC__)
#define GRT_VM_DISPATCH_GOTO 1
#if GRT_VM_COMPACT_DISPATCH
// The compact table holds each handler's distance from next_op: 4 bytes an
// entry and no relocations, where a pointer table is 8 bytes and a
// relocation each in a position-independent program.
#define GRT_VM_JUMP(index) \
  goto* (const void*)((const char*)&&next_op + dispatch[(index)])
#else
#define GRT_VM_JUMP(index) goto* dispatch[(index)]
#endif
#define DISPATCH() GRT_VM_JUMP(*pc++)
#define OP(name) op_##name:
#if GRT_VM_COMPACT_DISPATCH
// One indirect jump for the whole loop: each handler ends with a short jump
// to it instead of a copy of the decode-and-jump.
#define NEXT() goto next_op
#else
#define NEXT() DISPATCH()
#endif
#define PREFIX_CASE(name, str, byte, feature) \
  prefix_##name : GRT_VM_JUMP(GRT_VM_PREFIX_##name * 256 + *pc++);
#else
#define DISPATCH() continue
#define OP(name) case GRT_VM_CODE_##name:
#define NEXT() continue
#define PREFIX_CASE(name, str, byte, feature) \
  case byte:                                  \
    code_index = GRT_VM_PREFIX_##name * 256u + *pc++; \
    goto redispatch;
#endif

#define FAIL(expr)                  \
  do {                              \
    status = (expr);                \
    if (status) goto unwind;        \
  } while (0)

#define R() grt_vm_read_u16(&pc)
#define I32(r) (*(int32_t*)&regs[(r)])
#define U32(r) (regs[(r)])
#define REF(r) (refs[(r) & GRT_VM_REF_ORDINAL_MASK])

// A register-only op: its operands and results are primitive registers, it
// cannot fail and touches nothing else. PURE(NAME, body) is its handler:
// inline in the speed build; in the compact one (GRT_VM_COMPACT_DISPATCH) a
// jump to the shared handler, the body living in grt_vm_pure.
#define PURE(NAME, ...) \
  OP(NAME) { __VA_ARGS__ } \
  NEXT();

// Handler shapes, one line per op below.
#define BIN_I32(NAME, EXPR)                                     \
  PURE(NAME,                                                    \
    int32_t a = I32(R());                                       \
    int32_t b = I32(R());                                       \
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;                \
    (void)ua; (void)ub;                                         \
    I32(R()) = (int32_t)(EXPR);)
#define UN_I32(NAME, EXPR)                                      \
  PURE(NAME,                                                    \
    int32_t a = I32(R());                                       \
    uint32_t ua = (uint32_t)a;                                  \
    (void)ua;                                                   \
    I32(R()) = (int32_t)(EXPR);)
#define BIN_I64(NAME, EXPR)                                     \
  PURE(NAME,                                                    \
    int64_t a = grt_vm_get_i64(regs, R());                      \
    int64_t b = grt_vm_get_i64(regs, R());                      \
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;                \
    (void)ua; (void)ub;                                         \
    grt_vm_set_i64(regs, R(), (int64_t)(EXPR));)
#define SHIFT_I64(NAME, EXPR)                                   \
  PURE(NAME,                                                    \
    int64_t a = grt_vm_get_i64(regs, R());                      \
    uint32_t b = U32(R()) & 63u;                                \
    uint64_t ua = (uint64_t)a;                                  \
    (void)ua;                                                   \
    grt_vm_set_i64(regs, R(), (int64_t)(EXPR));)
#define UN_I64(NAME, EXPR)                                      \
  PURE(NAME,                                                    \
    int64_t a = grt_vm_get_i64(regs, R());                      \
    uint64_t ua = (uint64_t)a;                                  \
    (void)ua;                                                   \
    grt_vm_set_i64(regs, R(), (int64_t)(EXPR));)
#define CMP_I64(NAME, EXPR)                                     \
  PURE(NAME,                                                    \
    int64_t a = grt_vm_get_i64(regs, R());                      \
    int64_t b = grt_vm_get_i64(regs, R());                      \
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;                \
    (void)ua; (void)ub;                                         \
    I32(R()) = (EXPR) ? 1 : 0;)
// Float handlers are written once for both widths: T is the C type, G/S the
// register get/set.
#define BIN_FP(NAME, T, G, S, EXPR)                             \
  PURE(NAME,                                                    \
    T a = G(regs, R());                                         \
    T b = G(regs, R());                                         \
    S(regs, R(), (T)(EXPR));)
#define UN_FP(NAME, T, G, S, EXPR)                              \
  PURE(NAME,                                                    \
    T a = G(regs, R());                                         \
    S(regs, R(), (T)(EXPR));)
#define CMP_FP(NAME, T, G, EXPR)                                \
  PURE(NAME,                                                    \
    T a = G(regs, R());                                         \
    T b = G(regs, R());                                         \
    I32(R()) = (EXPR) ? 1 : 0;)
#define CONVERT(NAME, SET)                                      \
  PURE(NAME,                                                    \
    uint16_t src_ = R();                                        \
    uint16_t dst_ = R();                                        \
    SET;)

// The register-only float ops of one width.
#define FLOAT_PURE_OPS(W, T, G, S, SUFFIX)                                  \
  BIN_FP(ADD_F##W, T, G, S, a + b)                                          \
  BIN_FP(SUB_F##W, T, G, S, a - b)                                          \
  BIN_FP(MUL_F##W, T, G, S, a * b)                                          \
  BIN_FP(DIV_F##W, T, G, S, a / b)                                          \
  PURE(FMA_F##W,                                                            \
    T a = G(regs, R());                                                     \
    T b = G(regs, R());                                                     \
    T c = G(regs, R());                                                     \
    S(regs, R(), fma##SUFFIX(a, b, c));)                                    \
  UN_FP(ABS_F##W, T, G, S, fabs##SUFFIX(a))                                 \
  UN_FP(NEG_F##W, T, G, S, -a)                                              \
  BIN_FP(MIN_F##W, T, G, S, grt_vm_fmin(a, b))                              \
  BIN_FP(MAX_F##W, T, G, S, grt_vm_fmax(a, b))                              \
  UN_FP(SQRT_F##W, T, G, S, sqrt##SUFFIX(a))                                \
  UN_FP(RSQRT_F##W, T, G, S, (T)1 / sqrt##SUFFIX(a))                        \
  PURE(CMP_NZ_F##W##_U, T a = G(regs, R()); I32(R()) = a != 0;)            \
  PURE(CMP_NZ_F##W##_O, T a = G(regs, R()); I32(R()) = !isnan(a) && a != 0;) \
  CMP_FP(CMP_EQ_F##W##_NEAR, T, G,                                          \
         islessequal(fabs##SUFFIX(a - b),                                   \
                     (T)GRT_VM_NEAR_ATOL + (T)GRT_VM_NEAR_RTOL * fabs##SUFFIX(b))) \
  PURE(CMP_NAN_F##W, T a = G(regs, R()); I32(R()) = isnan(a) ? 1 : 0;)     \
  CONVERT(CAST_SI32_F##W, S(regs, dst_, (T)I32(src_)))                   \
  CONVERT(CAST_UI32_F##W, S(regs, dst_, (T)U32(src_)))                   \
  CONVERT(CAST_F##W##_SI32, I32(dst_) = grt_vm_f2si32(G(regs, src_)))    \
  CONVERT(CAST_F##W##_UI32,                                              \
          U32(dst_) = grt_vm_f2ui32(G(regs, src_)))                         \
  CONVERT(CAST_SI64_F##W,                                                \
          S(regs, dst_, (T)grt_vm_get_i64(regs, src_)))                     \
  CONVERT(CAST_UI64_F##W,                                                \
          S(regs, dst_, (T)(uint64_t)grt_vm_get_i64(regs, src_)))           \
  CONVERT(CAST_F##W##_SI64,                                              \
          grt_vm_set_i64(regs, dst_, grt_vm_f2si64(G(regs, src_))))         \
  CONVERT(CAST_F##W##_UI64,                                              \
          grt_vm_set_i64(regs, dst_,                                        \
                         (int64_t)grt_vm_f2ui64(G(regs, src_))))            \
  PURE(SELECT_F##W,                                                         \
    int32_t cond = I32(R());                                                \
    uint16_t a = R(), b = R();                                              \
    memcpy(regs + R(), regs + (cond ? a : b), W / 8);)

// The other float ops of one width.
#define FLOAT_OPS(W, T, G, S, SUFFIX)                                       \
  OP(CEIL_F##W) OP(FLOOR_F##W) OP(ROUND_F##W) OP(ROUND_F##W##_EVEN)         \
  OP(EXP_F##W) OP(EXP2_F##W) OP(EXPM1_F##W) OP(LOG_F##W) OP(LOG2_F##W)      \
  OP(LOG10_F##W) OP(LOG1P_F##W) OP(TANH_F##W) OP(SIN_F##W) OP(COS_F##W)     \
  OP(ATAN_F##W) OP(ERF_F##W) {                                              \
    unsigned op = GRT_VM_PREFIX_F##W * 256u + pc[-1];                       \
    T a = G(regs, R());                                                     \
    S(regs, R(), grt_vm_math_f##W(op, a, a));                               \
  }                                                                         \
  NEXT();                                                                   \
  OP(REM_F##W) OP(POW_F##W) OP(ATAN2_F##W) {                                \
    unsigned op = GRT_VM_PREFIX_F##W * 256u + pc[-1];                       \
    T a = G(regs, R());                                                     \
    T b = G(regs, R());                                                     \
    S(regs, R(), grt_vm_math_f##W(op, a, b));                               \
  }                                                                         \
  NEXT();                                                                   \
  OP(CMP_EQ_F##W##_O) OP(CMP_EQ_F##W##_U) OP(CMP_NE_F##W##_O)               \
  OP(CMP_NE_F##W##_U) OP(CMP_LT_F##W##_O) OP(CMP_LT_F##W##_U)               \
  OP(CMP_LTE_F##W##_O) OP(CMP_LTE_F##W##_U) OP(CMP_GT_F##W##_O)             \
  OP(CMP_GT_F##W##_U) OP(CMP_GTE_F##W##_O) OP(CMP_GTE_F##W##_U) {           \
    unsigned predicate = pc[-1] - (GRT_VM_CODE_CMP_EQ_F##W##_O & 0xFFu);    \
    T a = G(regs, R());                                                     \
    T b = G(regs, R());                                                     \
    I32(R()) = grt_vm_float_compare(predicate, a, b);                       \
  }                                                                         \
  NEXT();                                                                   \
  OP(CONST_F##W) {                                                          \
    uint64_t bits = W == 32 ? grt_vm_read_u32(&pc) : grt_vm_read_u64(&pc);  \
    memcpy(regs + R(), &bits, W / 8);                                       \
  }                                                                         \
  NEXT();                                                                   \
  OP(GLOBAL_LOAD_F##W) {                                                    \
    uint32_t offset = grt_vm_read_u32(&pc);                                 \
    memcpy(regs + R(), state->global_bytes + offset, W / 8);                \
  }                                                                         \
  NEXT();                                                                   \
  OP(GLOBAL_STORE_F##W) {                                                   \
    uint16_t value = R();                                                   \
    memcpy(state->global_bytes + grt_vm_read_u32(&pc), regs + value, W / 8);\
  }                                                                         \
  NEXT();                                                                   \
  OP(SWITCH_F##W) { pc = grt_vm_switch(pc, regs, W / 8); }                      \
  NEXT();                                                                   \
  LIST_ELEMENT(LIST_GET_F##W, GET, F##W)                                    \
  LIST_ELEMENT(LIST_SET_F##W, SET, F##W)                                    \
  BUFFER_ELEMENT(BUFFER_FILL_F##W, FILL, W / 8, false)                      \
  BUFFER_ELEMENT(BUFFER_LOAD_F##W, LOAD, W / 8, false)                      \
  BUFFER_ELEMENT(BUFFER_STORE_F##W, STORE, W / 8, false)

// Every register-only op (the compact build's shared handler runs these).
#define GRT_VM_PURE_OPS                                                     \
  PURE(SELECT_I32,                                                          \
    int32_t cond = I32(R());                                                \
    uint16_t a = R(), b = R();                                              \
    U32(R()) = U32(cond ? a : b);)                                          \
  PURE(SELECT_I64,                                                          \
    int32_t cond = I32(R());                                                \
    uint16_t a = R(), b = R();                                              \
    grt_vm_set_i64(regs, R(), grt_vm_get_i64(regs, cond ? a : b));)         \
  BIN_I32(ADD_I32, ua + ub)                                                 \
  BIN_I32(SUB_I32, ua - ub)                                                 \
  BIN_I32(MUL_I32, ua * ub)                                                 \
  PURE(FMA_I32,                                                             \
    uint32_t a = U32(R()), b = U32(R()), c = U32(R());                      \
    U32(R()) = a * b + c;)                                                  \
  UN_I32(ABS_I32, a < 0 ? 0u - ua : ua)                                     \
  BIN_I32(MIN_I32_S, a < b ? a : b)                                         \
  BIN_I32(MIN_I32_U, ua < ub ? ua : ub)                                     \
  BIN_I32(MAX_I32_S, a > b ? a : b)                                         \
  BIN_I32(MAX_I32_U, ua > ub ? ua : ub)                                     \
  UN_I32(NOT_I32, ~ua)                                                      \
  BIN_I32(AND_I32, ua & ub)                                                 \
  BIN_I32(OR_I32, ua | ub)                                                  \
  BIN_I32(XOR_I32, ua ^ ub)                                                 \
  BIN_I32(SHL_I32, ua << (ub & 31u))                                        \
  BIN_I32(SHR_I32_S, a < 0 ? ~(~ua >> (ub & 31u)) : ua >> (ub & 31u))       \
  BIN_I32(SHR_I32_U, ua >> (ub & 31u))                                      \
  UN_I32(CTLZ_I32, ua ? grt_vm_clz64(ua) - 32u : 32u)                       \
  BIN_I64(ADD_I64, ua + ub)                                                 \
  BIN_I64(SUB_I64, ua - ub)                                                 \
  BIN_I64(MUL_I64, ua * ub)                                                 \
  PURE(FMA_I64,                                                             \
    uint64_t a = (uint64_t)grt_vm_get_i64(regs, R());                       \
    uint64_t b = (uint64_t)grt_vm_get_i64(regs, R());                       \
    uint64_t c = (uint64_t)grt_vm_get_i64(regs, R());                       \
    grt_vm_set_i64(regs, R(), (int64_t)(a * b + c));)                       \
  UN_I64(ABS_I64, a < 0 ? 0u - ua : ua)                                     \
  BIN_I64(MIN_I64_S, a < b ? a : b)                                         \
  BIN_I64(MIN_I64_U, ua < ub ? ua : ub)                                     \
  BIN_I64(MAX_I64_S, a > b ? a : b)                                         \
  BIN_I64(MAX_I64_U, ua > ub ? ua : ub)                                     \
  UN_I64(NOT_I64, ~ua)                                                      \
  BIN_I64(AND_I64, ua & ub)                                                 \
  BIN_I64(OR_I64, ua | ub)                                                  \
  BIN_I64(XOR_I64, ua ^ ub)                                                 \
  SHIFT_I64(SHL_I64, ua << b)                                               \
  SHIFT_I64(SHR_I64_S, a < 0 ? ~(~ua >> b) : ua >> b)                       \
  SHIFT_I64(SHR_I64_U, ua >> b)                                             \
  UN_I64(CTLZ_I64, grt_vm_clz64(ua))                                        \
  CONVERT(TRUNC_I32_I8, U32(dst_) = U32(src_) & 0xFFu)                      \
  CONVERT(TRUNC_I32_I16, U32(dst_) = U32(src_) & 0xFFFFu)                   \
  CONVERT(TRUNC_I64_I32, U32(dst_) = (uint32_t)grt_vm_get_i64(regs, src_))  \
  CONVERT(EXT_I8_I32_S, I32(dst_) = (int8_t)(U32(src_) & 0xFFu))            \
  CONVERT(EXT_I8_I32_U, U32(dst_) = U32(src_) & 0xFFu)                      \
  CONVERT(EXT_I16_I32_S, I32(dst_) = (int16_t)(U32(src_) & 0xFFFFu))        \
  CONVERT(EXT_I16_I32_U, U32(dst_) = U32(src_) & 0xFFFFu)                   \
  CONVERT(EXT_I32_I64_S, grt_vm_set_i64(regs, dst_, I32(src_)))             \
  CONVERT(EXT_I32_I64_U, grt_vm_set_i64(regs, dst_, (int64_t)U32(src_)))    \
  CONVERT(TRUNC_I64_I8, U32(dst_) = (uint32_t)grt_vm_get_i64(regs, src_) & 0xFFu) \
  CONVERT(TRUNC_I64_I16, U32(dst_) = (uint32_t)grt_vm_get_i64(regs, src_) & 0xFFFFu) \
  CONVERT(EXT_I8_I64_S, grt_vm_set_i64(regs, dst_, (int8_t)(U32(src_) & 0xFFu))) \
  CONVERT(EXT_I8_I64_U, grt_vm_set_i64(regs, dst_, (int64_t)(U32(src_) & 0xFFu))) \
  CONVERT(EXT_I16_I64_S, grt_vm_set_i64(regs, dst_, (int16_t)(U32(src_) & 0xFFFFu))) \
  CONVERT(EXT_I16_I64_U, grt_vm_set_i64(regs, dst_, (int64_t)(U32(src_) & 0xFFFFu))) \
  BIN_I32(CMP_EQ_I32, a == b)                                               \
  BIN_I32(CMP_NE_I32, a != b)                                               \
  BIN_I32(CMP_LT_I32_S, a < b)                                              \
  BIN_I32(CMP_LT_I32_U, ua < ub)                                            \
  BIN_I32(CMP_LTE_I32_S, a <= b)                                            \
  BIN_I32(CMP_LTE_I32_U, ua <= ub)                                          \
  BIN_I32(CMP_GT_I32_S, a > b)                                              \
  BIN_I32(CMP_GT_I32_U, ua > ub)                                            \
  BIN_I32(CMP_GTE_I32_S, a >= b)                                            \
  BIN_I32(CMP_GTE_I32_U, ua >= ub)                                          \
  UN_I32(CMP_NZ_I32, a != 0)                                                \
  CMP_I64(CMP_EQ_I64, a == b)                                               \
  CMP_I64(CMP_NE_I64, a != b)                                               \
  CMP_I64(CMP_LT_I64_S, a < b)                                              \
  CMP_I64(CMP_LT_I64_U, ua < ub)                                            \
  CMP_I64(CMP_LTE_I64_S, a <= b)                                            \
  CMP_I64(CMP_LTE_I64_U, ua <= ub)                                          \
  CMP_I64(CMP_GT_I64_S, a > b)                                              \
  CMP_I64(CMP_GT_I64_U, ua > ub)                                            \
  CMP_I64(CMP_GTE_I64_S, a >= b)                                            \
  CMP_I64(CMP_GTE_I64_U, ua >= ub)                                          \
  PURE(CMP_NZ_I64, int64_t a = grt_vm_get_i64(regs, R()); I32(R()) = a != 0;) \
  FLOAT_PURE_OPS(32, float, grt_vm_get_f32, grt_vm_set_f32, f)              \
  CONVERT(BITCAST_I32_F32, U32(dst_) = U32(src_))                           \
  CONVERT(BITCAST_F32_I32, U32(dst_) = U32(src_))                           \
  FLOAT_PURE_OPS(64, double, grt_vm_get_f64, grt_vm_set_f64, )              \
  CONVERT(BITCAST_I64_F64, memcpy(regs + dst_, regs + src_, 8))             \
  CONVERT(BITCAST_F64_I64, memcpy(regs + dst_, regs + src_, 8))             \
  CONVERT(EXT_F32_F64, grt_vm_set_f64(regs, dst_, grt_vm_get_f32(regs, src_))) \
  CONVERT(TRUNC_F64_F32,                                                    \
          grt_vm_set_f32(regs, dst_, (float)grt_vm_get_f64(regs, src_)))

#if GRT_VM_COMPACT_DISPATCH
// The register-only ops' bodies, run on a window of registers: the shared
// handler copies the operands to slots 0, 2 and 4 (64-bit values take two
// slots) and takes the result from the slot after the last operand. The
// bodies read their register ordinals from |window_ordinals|.
#undef PURE
#define PURE(NAME, ...) \
  case GRT_VM_CODE_##NAME: { __VA_ARGS__ } return;
static void grt_vm_pure(unsigned code, uint32_t* regs) {
  static const uint8_t window_ordinals[8] = {0, 0, 2, 0, 4, 0, 6, 0};
  const uint8_t* pc = window_ordinals;
  switch (code) {
    GRT_VM_PURE_OPS
    default:
      break;  // unreachable: only register-only ops come here
  }
}
#undef PURE
// In the loop each register-only op jumps to the shared handler, which needs
// to know whether a prefix byte came before the opcode byte.
#define PURE(NAME, ...)                                   \
  OP(NAME) {                                              \
    if (GRT_VM_CODE_##NAME < 256) goto pure_core;         \
    goto pure_prefixed;                                   \
  }

static inline unsigned grt_vm_operand_bytes(char operand) {
  return operand == 'I' || operand == 'F' ? 8u : 4u;
}
#endif

// The typed list and buffer element ops share two out-of-line bodies
// (grt_vm_list_element, grt_vm_buffer_element); each handler only names its
// variant and steps over its operands.
#define LIST_ELEMENT(NAME, ACCESS, TYPE)                                     \
  OP(NAME) {                                                                 \
    FAIL(grt_vm_list_element(pc, regs, refs, GRT_VM_ELEMENT_##ACCESS,        \
                             GRT_VM_TYPE_##TYPE));                           \
    pc += 6;                                                                 \
  }                                                                          \
  NEXT();
#define BUFFER_ELEMENT(NAME, ACCESS, WIDTH, SIGNED)                          \
  OP(NAME) {                                                                 \
    FAIL(grt_vm_buffer_element(pc, regs, refs, GRT_VM_ELEMENT_##ACCESS,      \
                               WIDTH, SIGNED));                              \
    pc += GRT_VM_ELEMENT_##ACCESS == GRT_VM_ELEMENT_FILL ? 8 : 6;            \
  }                                                                          \
  NEXT();

grt_status_t grt_vm_bytecode_dispatch(grt_vm_bytecode_module_t* module,
                                      grt_vm_module_state_t* state,
                                      grt_vm_stack_t* stack,
                                      uint32_t function_ordinal,
                                      const void* arguments, void* results,
                                      grt_vm_dispatch_mode_t mode) {
#if defined(GRT_VM_DISPATCH_GOTO)
#if GRT_VM_COMPACT_DISPATCH
#define GRT_VM_TARGET(label) (int32_t)(&&label - &&next_op)
  typedef int32_t grt_vm_dispatch_entry_t;
#else
#define GRT_VM_TARGET(label) &&label
  typedef const void* grt_vm_dispatch_entry_t;
#endif
  static const grt_vm_dispatch_entry_t dispatch_table[GRT_VM_PREFIX_COUNT * 256] = {
#define GRT_VM_LABEL(name, mnemonic, prefix, byte, operands, meaning) \
  [GRT_VM_CODE_##name] = GRT_VM_TARGET(op_##name),
      GRT_VM_OP_TABLE(GRT_VM_LABEL)
#undef GRT_VM_LABEL
#define GRT_VM_PREFIX_LABEL(name, str, byte, feature) \
  [byte] = GRT_VM_TARGET(prefix_##name),
      GRT_VM_PREFIX_LIST(GRT_VM_PREFIX_LABEL)
#undef GRT_VM_PREFIX_LABEL
#undef GRT_VM_TARGET
  };
  const grt_vm_dispatch_entry_t* dispatch = dispatch_table;
#if defined(__OPTIMIZE_SIZE__)
  // Optimizing for size (-Os), keep the table's address in a register:
  // otherwise every handler's dispatch recomputes it (7 more bytes each).
  // The speed build (-O2) addresses the table directly.
  __asm__("" : "+r"(dispatch));
#endif
#endif
  const grt_module_function_t* functions = module->functions;
  const uint8_t* bytecode = module->layout.bytecode.data;
  // Frames above this one are this call's; unwinding stops at it. A
  // resumable call has the stack to itself.
  grt_vm_stack_frame_t* const base_top =
      mode == GRT_VM_DISPATCH_RESUME ? NULL : grt_vm_stack_top(stack);
  grt_status_t status = grt_ok_status();
  const bool suspendable = mode != GRT_VM_DISPATCH_CALL;
  // The yieldable import call in progress (shared by both call ops).
  const uint8_t* yieldable_op = NULL;
  uint32_t yieldable_ordinal = 0;
  bool yieldable_variadic = false;
#if GRT_VM_COMPACT_DISPATCH
  // The internal call that call and call.yieldable share.
  uint32_t call_callee = 0;
  uint32_t call_flags = 0;
#endif

  grt_vm_stack_frame_t* frame = NULL;
  const uint8_t* code = NULL;
  const uint8_t* pc = NULL;
  if (mode == GRT_VM_DISPATCH_RESUME) {
    // Continue where the suspension left the top frame: its pc is the op
    // to run (a yield's target block, or the yieldable call to re-enter).
    frame = grt_vm_stack_top(stack);
    if (!frame || frame->info->module != &module->base) {
      return grt_make_status(GRT_STATUS_FAILED_PRECONDITION,
                             "resume: the stack holds no suspended call of "
                             "module '%.*s'",
                             GRT_SV_ARG(module->base.name));
    }
    code = ((const grt_vm_bytecode_callee_t*)frame->info)->code;
    pc = code + frame->pc;
  } else {
    GRT_RETURN_IF_ERROR(grt_vm_stack_push_frame_info(
        stack, &module->callees[function_ordinal].frame, &frame));
    uint32_t* frame_regs = grt_vm_stack_frame_i32(frame);
    grt_vm_ref_t* frame_refs = grt_vm_stack_frame_refs(frame);
    // Arguments land in registers in signature order (borrowed refs are
    // retained: the frame owns what its registers hold).
    grt_string_view_t types = module->function_signatures[function_ordinal].arguments;
    uint32_t slots = 0, ref_slots = 0;
    size_t size = 0;
    for (size_t i = 0; i < types.size; ++i) {
      grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
      grt_vm_value_type_from_cconv_char(types.data[i], &type);
      size_t offset = grt_vm_packed_place(&size, type);
      uint32_t reg = grt_vm_bytecode_place_argument(types.data[i], &slots,
                                                    &ref_slots);
      const uint8_t* src = (const uint8_t*)arguments + offset;
      if (type == GRT_VM_VALUE_TYPE_REF) {
        grt_vm_ref_assign(&frame_refs[reg], (const grt_vm_ref_t*)(const void*)src);
      } else {
        memcpy(frame_regs + reg, src, grt_vm_value_type_size(type));
      }
    }
    code = bytecode + functions[function_ordinal].bytecode_offset;
    pc = grt_vm_block_entry(code, 0);
  }
  uint32_t* regs = grt_vm_stack_frame_i32(frame);
  grt_vm_ref_t* refs = grt_vm_stack_frame_refs(frame);

#if defined(GRT_VM_DISPATCH_GOTO)
#if GRT_VM_COMPACT_DISPATCH
next_op:
#endif
  DISPATCH();
#else
  for (;;) {
    unsigned code_index = *pc++;
  redispatch:
    switch (code_index) {
#endif

  GRT_VM_PREFIX_LIST(PREFIX_CASE)

  OP(BLOCK) {} NEXT();
  OP(BR) {
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    pc = target;
  }
  NEXT();
  OP(COND_BR) {
    int32_t cond = I32(R());
    if (!cond) pc = grt_vm_skip_branch(pc);
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    pc = target;
  }
  NEXT();
  // cmp_br.*: COND_BR on a compare of two registers. The compact build
  // runs them all through one handler and the matching cmp op's body.
#if GRT_VM_COMPACT_DISPATCH
#define CMP_BR(NAME, T, GET, EXPR) OP(NAME) goto cmp_br;
  cmp_br: {
    unsigned byte = pc[-1];
    bool wide = byte >= GRT_VM_CODE_CMP_BR_EQ_I64;
    unsigned bytes = wide ? 8u : 4u;
    uint32_t window[6] = {0};
    memcpy(window, regs + R(), bytes);
    memcpy(window + 2, regs + R(), bytes);
    grt_vm_pure(wide ? byte - GRT_VM_CODE_CMP_BR_EQ_I64 + GRT_VM_CODE_CMP_EQ_I64
                     : byte - GRT_VM_CODE_CMP_BR_EQ_I32 + GRT_VM_CODE_CMP_EQ_I32,
                window);
    if (!window[4]) pc = grt_vm_skip_branch(pc);
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    pc = target;
  }
  NEXT();
#else
#define CMP_BR(NAME, T, GET, EXPR)                                      \
  OP(NAME) {                                                            \
    T a = GET(R());                                                     \
    T b = GET(R());                                                     \
    if (!(EXPR)) pc = grt_vm_skip_branch(pc);                           \
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc)); \
    FAIL(grt_vm_remap(stack, regs, refs, pc));                          \
    pc = target;                                                        \
  }                                                                     \
  NEXT();
#endif
#define CMP_BR_GET_I64(r) grt_vm_get_i64(regs, (r))
  CMP_BR(CMP_BR_EQ_I32, int32_t, I32, a == b)
  CMP_BR(CMP_BR_NE_I32, int32_t, I32, a != b)
  CMP_BR(CMP_BR_LT_I32_S, int32_t, I32, a < b)
  CMP_BR(CMP_BR_LT_I32_U, uint32_t, U32, a < b)
  CMP_BR(CMP_BR_LTE_I32_S, int32_t, I32, a <= b)
  CMP_BR(CMP_BR_LTE_I32_U, uint32_t, U32, a <= b)
  CMP_BR(CMP_BR_EQ_I64, int64_t, CMP_BR_GET_I64, a == b)
  CMP_BR(CMP_BR_NE_I64, int64_t, CMP_BR_GET_I64, a != b)
  CMP_BR(CMP_BR_LT_I64_S, int64_t, CMP_BR_GET_I64, a < b)
  CMP_BR(CMP_BR_LT_I64_U, uint64_t, (uint64_t)CMP_BR_GET_I64, a < b)
  CMP_BR(CMP_BR_LTE_I64_S, int64_t, CMP_BR_GET_I64, a <= b)
  CMP_BR(CMP_BR_LTE_I64_U, uint64_t, (uint64_t)CMP_BR_GET_I64, a <= b)
#undef CMP_BR_GET_I64
#undef CMP_BR
  OP(BR_TABLE) {
    int32_t index = I32(R());
    const uint8_t* chosen = pc;  // the default target
    pc = grt_vm_skip_branch(pc);
    uint16_t count = R();
    if (index >= 0 && index < count) {
      chosen = pc;
      for (int32_t i = 0; i < index; ++i) chosen = grt_vm_skip_branch(chosen);
    }
    pc = chosen;
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    pc = target;
  }
  NEXT();
// An internal call to callee (an ordinal): pushes its frame with FLAGS
// added, copies the A operands at pc into it and enters it; ENTER names
// the label of the shortest path (one per use).
#define CALL_INTERNAL(FLAGS, ENTER) CALL_INTERNAL_OF(callee, FLAGS, ENTER)
#define CALL_INTERNAL_OF(CALLEE, FLAGS, ENTER)                                    \
  {                                                                               \
    const grt_vm_bytecode_callee_t* f = &module->callees[CALLEE];                 \
    grt_vm_stack_frame_t* callee_frame = NULL;                                    \
    uint32_t* callee_regs = NULL;                                                 \
    if (!GRT_VM_COMPACT_DISPATCH && f->simple_call) {                             \
      /* No refs to null, one 32-bit argument into slot 0. */                  \
      unsigned char* base = grt_vm_stack_try_reserve(stack, f->frame.size);       \
      if (base) {                                                                 \
        callee_frame =                                                            \
            grt_vm_stack_link_frame_without_refs(stack, base, frame, &f->frame);  \
        callee_regs = grt_vm_stack_frame_i32(callee_frame);                       \
        pc += 2;                                                                  \
        callee_regs[0] = regs[R()];                                               \
        goto ENTER;                                                               \
      }                                                                           \
    }                                                                             \
    callee_frame = grt_vm_stack_push_frame_fast(stack, frame, &f->frame);         \
    if (!callee_frame) {                                                          \
      FAIL(grt_vm_stack_push_frame_info(stack, &f->frame, &callee_frame));        \
    }                                                                             \
    /* Arguments go register to register, caller bank to callee bank. */       \
    callee_regs = grt_vm_stack_frame_i32(callee_frame);                           \
    uint32_t count = f->argument_count;                                           \
    pc += 2;                                                                      \
    /* Argument i lands in slot i unless the types say otherwise. */           \
    /* (The compact build copies every list by the types.) */                  \
    if (!GRT_VM_COMPACT_DISPATCH &&                                               \
        f->argument_copy == GRT_VM_VALUE_COPY_ONE_32BIT) {                        \
      callee_regs[0] = regs[R()];                                                 \
    } else if (!GRT_VM_COMPACT_DISPATCH &&                                        \
               f->argument_copy == GRT_VM_VALUE_COPY_ALL_32BIT) {                 \
      for (uint32_t i = 0; i < count; ++i) callee_regs[i] = regs[R()];            \
    } else {                                                                      \
      const char* types = f->argument_types;                                      \
      uint32_t slots = 0, ref_slots = 0;                                          \
      for (uint32_t i = 0; i < count; ++i) {                                      \
        uint16_t src = R();                                                       \
        uint32_t dst = grt_vm_bytecode_place_argument(types[i], &slots,           \
                                                      &ref_slots);                \
        switch (types[i]) {                                                       \
          case 'r':                                                               \
            grt_vm_take_ref(refs, src,                                            \
                            &grt_vm_stack_frame_refs(callee_frame)[dst]);         \
            break;                                                                \
          case 'I': case 'F':                                                     \
            memcpy(callee_regs + dst, regs + src, 8);                             \
            break;                                                                \
          default: callee_regs[dst] = regs[src]; break;                           \
        }                                                                         \
      }                                                                           \
    }                                                                             \
  ENTER:                                                                          \
    callee_frame->return_results = pc;                                            \
    if (FLAGS) callee_frame->flags |= (FLAGS);                                    \
    frame = callee_frame;                                                         \
    regs = callee_regs;                                                           \
    refs = (grt_vm_ref_t*)(void*)((uint8_t*)callee_regs + f->frame.i32_bytes);    \
    code = f->code;                                                               \
    pc = grt_vm_block_entry(code, 0);                                             \
  }

  OP(CALL) {
    uint32_t callee = grt_vm_read_u32(&pc);
    if (callee & GRT_VM_CALLEE_IMPORT_BIT) {
      const uint8_t* next_pc = pc;
      if (grt_trace_enabled()) grt_vm_trace_call_site(module, frame, code, pc);
      FAIL(grt_vm_call_import(module, state, stack, regs, refs,
                              callee & ~GRT_VM_CALLEE_IMPORT_BIT, false, false,
                              pc, &next_pc));
      pc = next_pc;
      NEXT();
    }
#if GRT_VM_COMPACT_DISPATCH
    // call.yieldable's internal calls come here too (one copy of the call).
    call_callee = callee;
    call_flags = 0;
  call_internal : {
    uint32_t internal = call_callee;
    CALL_INTERNAL_OF(internal, call_flags, enter_callee)
  }
#else
    CALL_INTERNAL(0, enter_callee)
#endif
  }
  NEXT();
  OP(CALL_VARIADIC) {
    uint32_t callee = grt_vm_read_u32(&pc);
    const uint8_t* next_pc = pc;
    if (grt_trace_enabled()) grt_vm_trace_call_site(module, frame, code, pc);
    FAIL(grt_vm_call_import(module, state, stack, regs, refs, callee, true,
                            false, pc, &next_pc));
    pc = next_pc;
  }
  NEXT();
  // call.yieldable / call.variadic.yieldable: an internal callee runs as
  // for call, its frame marked so that its return takes the B operand after
  // the results; an import that defers suspends the invocation at this op,
  // which runs again (calling the import again) on resume.
  OP(CALL_YIELDABLE) {
    const uint8_t* op_start = pc - 1;
    uint32_t callee = grt_vm_read_u32(&pc);
    if (!(callee & GRT_VM_CALLEE_IMPORT_BIT)) {
#if GRT_VM_COMPACT_DISPATCH
      call_callee = callee;
      call_flags = GRT_VM_FRAME_YIELDABLE_CALL;
      goto call_internal;
#else
      CALL_INTERNAL(GRT_VM_FRAME_YIELDABLE_CALL, enter_yieldable_callee)
      NEXT();
#endif
    }
    yieldable_variadic = false;
    yieldable_ordinal = callee & ~GRT_VM_CALLEE_IMPORT_BIT;
    yieldable_op = op_start;
    goto call_yieldable_import;
  }
  OP(CALL_VARIADIC_YIELDABLE) {
    yieldable_op = pc - 1;
    yieldable_ordinal = grt_vm_read_u32(&pc);
    yieldable_variadic = true;
  call_yieldable_import : {
    const uint8_t* next_pc = pc;
    if (grt_trace_enabled()) grt_vm_trace_call_site(module, frame, code, pc);
    status = grt_vm_call_import(module, state, stack, regs, refs,
                                yieldable_ordinal, yieldable_variadic, true, pc,
                                &next_pc);
    if (status) {
      if (grt_status_code(status) != GRT_STATUS_DEFERRED) goto unwind;
      grt_status_free(status);
      if (!suspendable) {
        status = grt_vm_suspend_refused("a yieldable import deferred");
        goto unwind;
      }
      frame->pc = (uint32_t)(yieldable_op - code);
      return grt_make_status(GRT_STATUS_DEFERRED, "import '%.*s' deferred",
                             GRT_SV_ARG(module->imports[yieldable_ordinal].full_name));
    }
    pc = next_pc;
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    pc = target;
  }
  }
  NEXT();
  OP(YIELD) {
    if (!suspendable) FAIL(grt_vm_suspend_refused("vm.yield"));
    const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
    FAIL(grt_vm_remap(stack, regs, refs, pc));
    // Suspended: the frames stay on the stack and resuming enters the
    // target block.
    frame->pc = (uint32_t)(target - code);
    return grt_make_status(GRT_STATUS_DEFERRED, "vm.yield");
  }
  NEXT();
  OP(RETURN) {
    const grt_vm_bytecode_callee_t* f =
        (const grt_vm_bytecode_callee_t*)frame->info;
    pc += 2;
    // Only the entry frame has no return point (every call sets one).
    const uint8_t* return_results = frame->return_results;
    if (!return_results) {
      size_t size = 0;
      for (size_t i = 0; i < f->result_count; ++i) {
        grt_vm_value_type_t type = GRT_VM_VALUE_TYPE_NONE;
        grt_vm_value_type_from_cconv_char(f->result_types[i], &type);
        uint8_t* dst = (uint8_t*)results + grt_vm_packed_place(&size, type);
        uint16_t src = R();
        if (type == GRT_VM_VALUE_TYPE_REF) {
          grt_vm_ref_t* out = (grt_vm_ref_t*)(void*)dst;
          *out = grt_vm_ref_null();
          grt_vm_take_ref(refs, src, out);
        } else {
          memcpy(dst, regs + src, grt_vm_value_type_size(type));
        }
      }
      grt_vm_stack_pop_frame(stack);
      return grt_ok_status();
    }
    // Back to the caller: the call recorded where its result registers
    // are listed (after the Y count); execution resumes past that list.
    grt_vm_stack_frame_t* caller = frame->parent;
    const uint8_t* result_list = return_results + 2;
    uint32_t* caller_regs = grt_vm_stack_frame_i32(caller);
    uint32_t count = f->result_count;
    // (The compact build copies every list by the types.)
    if (!GRT_VM_COMPACT_DISPATCH &&
        f->result_copy == GRT_VM_VALUE_COPY_ONE_32BIT) {
      uint16_t src = R();
      caller_regs[grt_vm_read_u16(&result_list)] = regs[src];
    } else if (!GRT_VM_COMPACT_DISPATCH &&
               f->result_copy == GRT_VM_VALUE_COPY_ALL_32BIT) {
      for (uint32_t i = 0; i < count; ++i) {
        uint16_t src = R();
        caller_regs[grt_vm_read_u16(&result_list)] = regs[src];
      }
    } else {
      for (uint32_t i = 0; i < count; ++i) {
        uint16_t src = R();
        uint16_t dst = grt_vm_read_u16(&result_list);
        switch (f->result_types[i]) {
          case 'r':
            grt_vm_take_ref(refs, src, &grt_vm_stack_frame_refs(caller)[dst]);
            break;
          case 'I': case 'F': memcpy(caller_regs + dst, regs + src, 8); break;
          default: caller_regs[dst] = regs[src]; break;
        }
      }
    }
    uint32_t returning_flags = frame->flags;
    grt_vm_stack_pop_top_frame(stack, frame, &f->frame, caller);
    frame = caller;
    const grt_vm_bytecode_callee_t* caller_f =
        (const grt_vm_bytecode_callee_t*)caller->info;
    regs = caller_regs;
    refs = (grt_vm_ref_t*)(void*)((uint8_t*)caller_regs +
                                  caller_f->frame.i32_bytes);
    code = caller_f->code;
    pc = result_list;
    if (GRT_UNLIKELY(returning_flags & GRT_VM_FRAME_YIELDABLE_CALL)) {
      // call.yieldable: continue at its successor, past the results.
      const uint8_t* target = grt_vm_block_entry(code, grt_vm_read_u32(&pc));
      FAIL(grt_vm_remap(stack, regs, refs, pc));
      pc = target;
    }
  }
  NEXT();
  OP(FAIL) {
    int32_t value = I32(R());
    uint16_t length = R();
    grt_status_code_t status_code =
        (value > 0 && value < GRT_STATUS_FAILURE_CODE_END) ? (grt_status_code_t)value
                                                     : GRT_STATUS_UNKNOWN;
    FAIL(grt_make_status(status_code, "%.*s", (int)length, (const char*)pc));
  }
  NEXT();
  OP(COND_FAIL) {
    int32_t cond = I32(R());
    int32_t value = I32(R());
    uint16_t length = R();
    if (cond) {
      grt_status_code_t status_code =
          (value > 0 && value < GRT_STATUS_FAILURE_CODE_END)
              ? (grt_status_code_t)value
              : GRT_STATUS_UNKNOWN;
      FAIL(grt_make_status(status_code, "%.*s", (int)length, (const char*)pc));
    }
    pc += length;
  }
  NEXT();
  OP(PRINT) OP(TRACE) {
    bool trace = pc[-1] == GRT_VM_CODE_TRACE;
    uint16_t length = R();
    fprintf(stderr, "%s%.*s", trace ? "[trace] " : "", (int)length,
            (const char*)pc);
    pc += length;
    uint16_t count = R();
    for (uint16_t i = 0; i < count; ++i) {
      grt_vm_type_t type = (grt_vm_type_t)*pc++;
      uint16_t r = R();
      switch (type) {
        case GRT_VM_TYPE_I32: fprintf(stderr, " %" PRId32, I32(r)); break;
        case GRT_VM_TYPE_I64:
          fprintf(stderr, " %" PRId64, grt_vm_get_i64(regs, r));
          break;
        case GRT_VM_TYPE_F32:
          fprintf(stderr, " %g", (double)grt_vm_get_f32(regs, r));
          break;
        case GRT_VM_TYPE_F64:
          fprintf(stderr, " %g", grt_vm_get_f64(regs, r));
          break;
        default:
          fprintf(stderr, " ref<%s>%s", grt_vm_ref_type_name(REF(r).type),
                  REF(r).ptr ? "" : "(null)");
          break;
      }
    }
    fputc('\n', stderr);
  }
  NEXT();
  OP(OPTIMIZATION_BARRIER) {
    // Operands and results are two {u8 type, u16 register} lists of the same
    // length; the copy is parallel so a result may name a later operand.
    const uint8_t* operands = pc;
    uint16_t count = R();
    const uint8_t* result_list = pc + 3u * count;
    pc = result_list + 2 + 3u * count;
    FAIL(grt_vm_parallel_copy(stack, regs, refs, count, operands + 2,
                              result_list + 3, 3));
  }
  NEXT();
  OP(DISCARD_REFS) {
    uint16_t count = R();
    for (uint16_t i = 0; i < count; ++i) grt_vm_ref_release(&REF(R()));
  }
  NEXT();

  OP(CONST_I32) { uint32_t v = grt_vm_read_u32(&pc); U32(R()) = v; } NEXT();
  OP(CONST_I64) {
    uint64_t v = grt_vm_read_u64(&pc);
    grt_vm_set_i64(regs, R(), (int64_t)v);
  }
  NEXT();
  OP(CONST_REF_ZERO) { grt_vm_ref_release(&REF(R())); } NEXT();
  OP(CONST_REF_RODATA) {
    uint32_t ordinal = grt_vm_read_u32(&pc);
    grt_vm_ref_assign(&REF(R()), &state->rodata[ordinal]);
  }
  NEXT();

  OP(GLOBAL_LOAD_I32) {
    uint32_t offset = grt_vm_read_u32(&pc);
    memcpy(regs + R(), state->global_bytes + offset, 4);
  }
  NEXT();
  OP(GLOBAL_STORE_I32) {
    uint16_t value = R();
    memcpy(state->global_bytes + grt_vm_read_u32(&pc), regs + value, 4);
  }
  NEXT();
  OP(GLOBAL_LOAD_I64) {
    uint32_t offset = grt_vm_read_u32(&pc);
    memcpy(regs + R(), state->global_bytes + offset, 8);
  }
  NEXT();
  OP(GLOBAL_STORE_I64) {
    uint16_t value = R();
    memcpy(state->global_bytes + grt_vm_read_u32(&pc), regs + value, 8);
  }
  NEXT();
  OP(GLOBAL_LOAD_REF) {
    uint32_t ordinal = grt_vm_read_u32(&pc);
    grt_vm_ref_assign(&REF(R()), &state->global_refs[ordinal]);
  }
  NEXT();
  OP(GLOBAL_STORE_REF) {
    uint16_t value = R();
    grt_vm_take_ref(refs, value, &state->global_refs[grt_vm_read_u32(&pc)]);
  }
  NEXT();
  OP(IMPORT_RESOLVED) {
    uint32_t ordinal = grt_vm_read_u32(&pc);
    U32(R()) = state->imports[ordinal].resolved ? 1u : 0u;
  }
  NEXT();

  OP(SELECT_REF) {
    int32_t cond = I32(R());
    uint16_t a = R(), b = R();
    uint16_t dst = R();
    grt_vm_take_ref(refs, cond ? a : b, &REF(dst));
    grt_vm_drop_moved_ref(refs, cond ? b : a, dst);
  }
  NEXT();
  OP(SWITCH_I32) { pc = grt_vm_switch(pc, regs, 4); } NEXT();
  OP(SWITCH_I64) { pc = grt_vm_switch(pc, regs, 8); } NEXT();
  OP(SWITCH_REF) {
    int32_t index = I32(R());
    uint16_t fallback = R();
    uint16_t count = R();
    const uint8_t* values = pc;
    pc += 2u * count;
    uint16_t dst = R();
    bool in_range = index >= 0 && index < count;
    uint16_t chosen = fallback;
    if (in_range) {
      const uint8_t* p = values + 2 * index;
      chosen = grt_vm_read_u16(&p);
    }
    grt_vm_take_ref(refs, chosen, &REF(dst));
    if (in_range) grt_vm_drop_moved_ref(refs, fallback, dst);
    for (int32_t i = 0; i < count; ++i) {
      const uint8_t* p = values + 2 * i;
      uint16_t value = grt_vm_read_u16(&p);
      if (i != index) grt_vm_drop_moved_ref(refs, value, dst);
    }
  }
  NEXT();

  GRT_VM_PURE_OPS
#if GRT_VM_COMPACT_DISPATCH
  {
    const uint8_t* op_start;
  pure_core:
    op_start = pc - 1;
    goto pure;
  pure_prefixed:
    op_start = pc - 2;
  pure:;
    // The verifier admitted the op, so it decodes; its operand string
    // ("ii>i", "IF>F"...) says how many bytes each register holds.
    grt_vm_op_t op = GRT_VM_OP_BLOCK;
    size_t opcode_size = 0;
    grt_vm_op_decode(op_start, 2, &op, &opcode_size);
    uint32_t window[8] = {0};
    uint32_t* slot = window;
    const char* operand = grt_vm_op_operands(op);
    for (; *operand != '>'; ++operand, slot += 2) {
      memcpy(slot, regs + R(), grt_vm_operand_bytes(*operand));
    }
    grt_vm_pure(grt_vm_op_code(op), window);
    memcpy(regs + R(), slot, grt_vm_operand_bytes(operand[1]));
  }
  NEXT();
#endif

#if GRT_VM_COMPACT_DISPATCH
  // div/rem, both widths, signed and unsigned, in one handler: the i32 ops
  // compute on their values widened to 64 bits, which gives the same
  // quotient and remainder.
  OP(DIV_I32_S) OP(DIV_I32_U) OP(REM_I32_S) OP(REM_I32_U)
  OP(DIV_I64_S) OP(DIV_I64_U) OP(REM_I64_S) OP(REM_I64_U) {
    static const char names[8][10] = {"div.i32.s", "div.i32.u", "rem.i32.s",
                                      "rem.i32.u", "div.i64.s", "div.i64.u",
                                      "rem.i64.s", "rem.i64.u"};
    unsigned byte = pc[-1];
    bool wide = byte >= GRT_VM_CODE_DIV_I64_S;
    unsigned kind = byte - (wide ? GRT_VM_CODE_DIV_I64_S : GRT_VM_CODE_DIV_I32_S);
    bool is_signed = !(kind & 1u), rem = kind >= 2u;
    uint16_t ra = R(), rb = R();
    int64_t a = wide ? grt_vm_get_i64(regs, ra)
                     : is_signed ? (int64_t)I32(ra) : (int64_t)U32(ra);
    int64_t b = wide ? grt_vm_get_i64(regs, rb)
                     : is_signed ? (int64_t)I32(rb) : (int64_t)U32(rb);
    if (b == 0 || (is_signed && b == -1 &&
                   a == (wide ? INT64_MIN : (int64_t)INT32_MIN))) {
      FAIL(grt_vm_division_error(names[wide * 4u + kind], a, b));
    }
    int64_t result;
    if (is_signed) {
      result = rem ? a % b : a / b;
    } else {
      result = (int64_t)(rem ? (uint64_t)a % (uint64_t)b
                             : (uint64_t)a / (uint64_t)b);
    }
    if (wide) {
      grt_vm_set_i64(regs, R(), result);
    } else {
      U32(R()) = (uint32_t)result;
    }
  }
  NEXT();
#else
  OP(DIV_I32_S) OP(REM_I32_S) {
    bool rem = pc[-1] == GRT_VM_CODE_REM_I32_S;
    int32_t a = I32(R()), b = I32(R());
    if (b == 0 || (a == INT32_MIN && b == -1)) {
      FAIL(grt_vm_division_error(rem ? "rem.i32.s" : "div.i32.s", a, b));
    }
    I32(R()) = rem ? a % b : a / b;
  }
  NEXT();
  OP(DIV_I32_U) OP(REM_I32_U) {
    bool rem = pc[-1] == GRT_VM_CODE_REM_I32_U;
    uint32_t a = U32(R()), b = U32(R());
    if (b == 0) FAIL(grt_vm_division_error(rem ? "rem.i32.u" : "div.i32.u", a, b));
    U32(R()) = rem ? a % b : a / b;
  }
  NEXT();
  OP(DIV_I64_S) OP(REM_I64_S) {
    bool rem = pc[-1] == GRT_VM_CODE_REM_I64_S;
    int64_t a = grt_vm_get_i64(regs, R()), b = grt_vm_get_i64(regs, R());
    if (b == 0 || (a == INT64_MIN && b == -1)) {
      FAIL(grt_vm_division_error(rem ? "rem.i64.s" : "div.i64.s", a, b));
    }
    grt_vm_set_i64(regs, R(), rem ? a % b : a / b);
  }
  NEXT();
  OP(DIV_I64_U) OP(REM_I64_U) {
    bool rem = pc[-1] == GRT_VM_CODE_REM_I64_U;
    uint64_t a = (uint64_t)grt_vm_get_i64(regs, R());
    uint64_t b = (uint64_t)grt_vm_get_i64(regs, R());
    if (b == 0) {
      FAIL(grt_vm_division_error(rem ? "rem.i64.u" : "div.i64.u", (int64_t)a, 0));
    }
    grt_vm_set_i64(regs, R(), (int64_t)(rem ? a % b : a / b));
  }
  NEXT();
#endif

  OP(CMP_EQ_REF) OP(CMP_NE_REF) {
    bool eq = pc[-1] == GRT_VM_CODE_CMP_EQ_REF;
    uint16_t a = R(), b = R();
    bool same = REF(a).ptr == REF(b).ptr;
    grt_vm_drop_moved_ref(refs, a, GRT_VM_NO_REF_RESULT);
    grt_vm_drop_moved_ref(refs, b, GRT_VM_NO_REF_RESULT);
    I32(R()) = same == eq;
  }
  NEXT();
  OP(CMP_NZ_REF) {
    uint16_t a = R();
    int32_t nonzero = REF(a).ptr != NULL;
    grt_vm_drop_moved_ref(refs, a, GRT_VM_NO_REF_RESULT);
    I32(R()) = nonzero;
  }
  NEXT();

  OP(CAST_ANY_REF) {
    uint16_t src = R();
    uint16_t length = R();
    grt_string_view_t name = grt_make_string_view((const char*)pc, length);
    pc += length;
    const grt_vm_ref_t* ref = &REF(src);
    if (ref->ptr && !grt_string_view_equal_cstring(name, ref->type->name)) {
      FAIL(grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "cast.any.ref: expected ref<%.*s>, got ref<%s>",
                           GRT_SV_ARG(name), ref->type->name));
    }
    grt_vm_take_ref(refs, src, &REF(R()));
  }
  NEXT();
  OP(CAST_REF_ANY) {
    uint16_t src = R();
    grt_vm_take_ref(refs, src, &REF(R()));
  }
  NEXT();

  OP(LIST_ALLOC) {
    uint32_t element = grt_vm_read_u32(&pc);
    int32_t capacity = I32(R());
    uint16_t dst = R();
    if (element >= GRT_VM_TYPE_LIST_ELEMENT_COUNT) {
      FAIL(grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "list.alloc: unknown element type %u (expected "
                           "0-%d)",
                           element, GRT_VM_TYPE_LIST_ELEMENT_COUNT - 1));
    }
    grt_vm_type_def_t def = {grt_vm_value_type_from_isa((grt_vm_type_t)element), NULL};
    grt_vm_list_t* list = NULL;
    FAIL(grt_vm_list_create(def, capacity > 0 ? (size_t)capacity : 0,
                            state->allocator, &list));
    grt_vm_ref_t created = grt_vm_ref_wrap_move(list, grt_vm_list_type());
    grt_vm_ref_move(&REF(dst), &created);
  }
  NEXT();
  OP(LIST_RESERVE) OP(LIST_RESIZE) {
    bool resize = pc[-1] == GRT_VM_CODE_LIST_RESIZE;
    grt_vm_list_t* list = NULL;
    FAIL(grt_vm_list_check_deref(&REF(R()), &list));
    int32_t n = I32(R());
    if (n < 0) {
      FAIL(grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%s: negative size %" PRId32,
                           resize ? "list.resize" : "list.reserve", n));
    }
    FAIL(resize ? grt_vm_list_resize(list, (size_t)n)
                : grt_vm_list_reserve(list, (size_t)n));
  }
  NEXT();
  OP(LIST_SIZE) {
    grt_vm_list_t* list = NULL;
    FAIL(grt_vm_list_check_deref(&REF(R()), &list));
    I32(R()) = (int32_t)grt_vm_list_size(list);
  }
  NEXT();
  LIST_ELEMENT(LIST_GET_I32, GET, I32)
  LIST_ELEMENT(LIST_SET_I32, SET, I32)
  LIST_ELEMENT(LIST_GET_I64, GET, I64)
  LIST_ELEMENT(LIST_SET_I64, SET, I64)
  OP(LIST_GET_REF) {
    grt_vm_list_t* list = NULL;
    FAIL(grt_vm_list_check_deref(&REF(R()), &list));
    int32_t index = I32(R());
    uint16_t length = R();
    grt_string_view_t type_name = grt_make_string_view((const char*)pc, length);
    pc += length;
    grt_vm_ref_t* result = &REF(R());
    FAIL(grt_vm_list_get_ref_assign(list, (size_t)(uint32_t)index, result));
    // As IREE: a ref of another type than the result's is read as null.
    if (result->ptr && type_name.size &&
        !grt_string_view_equal_cstring(type_name, result->type->name)) {
      grt_vm_ref_release(result);
    }
  }
  NEXT();
  OP(LIST_SET_REF) {
    grt_vm_list_t* list = NULL;
    FAIL(grt_vm_list_check_deref(&REF(R()), &list));
    int32_t index = I32(R());
    uint16_t value = R();
    if (value & GRT_VM_REF_MOVE_BIT) {
      FAIL(grt_vm_list_set_ref_move(list, (size_t)(uint32_t)index, &REF(value)));
    } else {
      FAIL(grt_vm_list_set_ref_retain(list, (size_t)(uint32_t)index,
                                      &REF(value)));
    }
  }
  NEXT();

  OP(BUFFER_ALLOC) {
    int64_t length = grt_vm_get_i64(regs, R());
    int32_t alignment = I32(R());
    uint16_t dst = R();
    if (length < 0 || alignment < 0 || (alignment & (alignment - 1))) {
      FAIL(grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "buffer.alloc: expected a non-negative length and "
                           "a power-of-two alignment, got %" PRId64 " and %" PRId32,
                           length, alignment));
    }
    grt_vm_buffer_t* buffer = NULL;
    FAIL(grt_vm_buffer_create(GRT_VM_BUFFER_ACCESS_MUTABLE, (uint64_t)length,
                              (size_t)alignment, state->allocator, &buffer));
    grt_vm_ref_t created = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
    grt_vm_ref_move(&REF(dst), &created);
  }
  NEXT();
  OP(BUFFER_CLONE) {
    grt_vm_buffer_t* source = NULL;
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &source));
    int64_t offset = grt_vm_get_i64(regs, R());
    int64_t length = grt_vm_get_i64(regs, R());
    int32_t alignment = I32(R());
    uint16_t dst = R();
    if (alignment < 0 || (alignment & (alignment - 1))) {
      FAIL(grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "buffer.clone: expected a power-of-two alignment, "
                           "got %" PRId32, alignment));
    }
    grt_vm_buffer_t* buffer = NULL;
    FAIL(grt_vm_buffer_clone(source, (uint64_t)offset, (uint64_t)length,
                             GRT_VM_BUFFER_ACCESS_MUTABLE, (size_t)alignment,
                             state->allocator, &buffer));
    grt_vm_ref_t created = grt_vm_ref_wrap_move(buffer, grt_vm_buffer_type());
    grt_vm_ref_move(&REF(dst), &created);
  }
  NEXT();
  OP(BUFFER_LENGTH) {
    grt_vm_buffer_t* buffer = NULL;
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &buffer));
    grt_vm_set_i64(regs, R(), (int64_t)grt_vm_buffer_length(buffer));
  }
  NEXT();
  OP(BUFFER_COPY) {
    grt_vm_buffer_t* source = NULL;
    grt_vm_buffer_t* target = NULL;
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &source));
    int64_t source_offset = grt_vm_get_i64(regs, R());
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &target));
    int64_t target_offset = grt_vm_get_i64(regs, R());
    int64_t length = grt_vm_get_i64(regs, R());
    FAIL(grt_vm_buffer_copy(source, (uint64_t)source_offset, target,
                            (uint64_t)target_offset, (uint64_t)length));
  }
  NEXT();
  OP(BUFFER_COMPARE) {
    grt_vm_buffer_t* lhs = NULL;
    grt_vm_buffer_t* rhs = NULL;
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &lhs));
    int64_t lhs_offset = grt_vm_get_i64(regs, R());
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &rhs));
    int64_t rhs_offset = grt_vm_get_i64(regs, R());
    int64_t length = grt_vm_get_i64(regs, R());
    bool equal = false;
    FAIL(grt_vm_buffer_compare(lhs, (uint64_t)lhs_offset, rhs,
                               (uint64_t)rhs_offset, (uint64_t)length, &equal));
    I32(R()) = equal;
  }
  NEXT();
  OP(BUFFER_HASH) {
    grt_vm_buffer_t* buffer = NULL;
    FAIL(grt_vm_buffer_check_deref(&REF(R()), &buffer));
    int64_t offset = grt_vm_get_i64(regs, R());
    int64_t length = grt_vm_get_i64(regs, R());
    uint64_t hash = 0;
    FAIL(grt_vm_buffer_hash(buffer, (uint64_t)offset, (uint64_t)length, &hash));
    grt_vm_set_i64(regs, R(), (int64_t)hash);
  }
  NEXT();
  BUFFER_ELEMENT(BUFFER_FILL_I8, FILL, 1, false)
  BUFFER_ELEMENT(BUFFER_FILL_I16, FILL, 2, false)
  BUFFER_ELEMENT(BUFFER_FILL_I32, FILL, 4, false)
  BUFFER_ELEMENT(BUFFER_FILL_I64, FILL, 8, false)
  BUFFER_ELEMENT(BUFFER_LOAD_I8_S, LOAD, 1, true)
  BUFFER_ELEMENT(BUFFER_LOAD_I8_U, LOAD, 1, false)
  BUFFER_ELEMENT(BUFFER_LOAD_I16_S, LOAD, 2, true)
  BUFFER_ELEMENT(BUFFER_LOAD_I16_U, LOAD, 2, false)
  BUFFER_ELEMENT(BUFFER_LOAD_I32, LOAD, 4, false)
  BUFFER_ELEMENT(BUFFER_LOAD_I64, LOAD, 8, false)
  BUFFER_ELEMENT(BUFFER_STORE_I8, STORE, 1, false)
  BUFFER_ELEMENT(BUFFER_STORE_I16, STORE, 2, false)
  BUFFER_ELEMENT(BUFFER_STORE_I32, STORE, 4, false)
  BUFFER_ELEMENT(BUFFER_STORE_I64, STORE, 8, false)

  FLOAT_OPS(32, float, grt_vm_get_f32, grt_vm_set_f32, f)

  FLOAT_OPS(64, double, grt_vm_get_f64, grt_vm_set_f64, )

#if !defined(GRT_VM_DISPATCH_GOTO)
      default:
        break;  // unreachable: the verifier admits only table ops
    }
  }
#endif

unwind:;
  // Calls do not record where they are: the top frame's op is the one pc is
  // inside of (past its opcode), and every frame below is at the call
  // whose result list its callee's return_results points into.
  grt_vm_backtrace_t trace = {0};
  const uint8_t* where = pc;
  while (grt_vm_stack_top(stack) != base_top) {
    grt_vm_stack_frame_t* top = grt_vm_stack_top(stack);
    if (top->info->module == &module->base) {
      const grt_vm_bytecode_callee_t* f =
          (const grt_vm_bytecode_callee_t*)top->info;
      top->pc = grt_vm_op_offset_containing(f->code, where);
      status = grt_vm_backtrace_add(&trace, module, top, status);
    }
    where = top->return_results;
    grt_vm_stack_pop_frame(stack);
  }
  return grt_vm_backtrace_finish(&trace, status);
}
