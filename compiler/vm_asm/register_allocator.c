#include "compiler/vm_asm/register_allocator.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/mlir/printer.h"
#include "vm/op_table.h"

//===----------------------------------------------------------------------===//
// Pointer index: IR nodes (values, ops, blocks) to dense numbers
//===----------------------------------------------------------------------===//

typedef struct grtc_vm_pointer_entry_t {
  uintptr_t key;
  uint32_t value;
} grtc_vm_pointer_entry_t;

struct grtc_vm_pointer_index_t {
  grtc_vm_pointer_entry_t* entries;
  uint32_t count;
};

static int grtc_vm_pointer_entry_compare(const void* a, const void* b) {
  uintptr_t x = ((const grtc_vm_pointer_entry_t*)a)->key;
  uintptr_t y = ((const grtc_vm_pointer_entry_t*)b)->key;
  return x < y ? -1 : x > y ? 1 : 0;
}

static uint32_t grtc_vm_pointer_lookup(const grtc_vm_pointer_index_t* index,
                                       const void* pointer) {
  grtc_vm_pointer_entry_t key = {(uintptr_t)pointer, 0};
  const grtc_vm_pointer_entry_t* found =
      bsearch(&key, index->entries, index->count, sizeof(key),
              grtc_vm_pointer_entry_compare);
  return found ? found->value : UINT32_MAX;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool grtc_vm_register_type(const grtc_type_t* type, grt_vm_type_t* out_type) {
  if (grtc_type_is_ref(type)) {
    *out_type = GRT_VM_TYPE_REF;
  } else if (grtc_type_is_integer(type, 32)) {
    *out_type = GRT_VM_TYPE_I32;
  } else if (grtc_type_is_integer(type, 64)) {
    *out_type = GRT_VM_TYPE_I64;
  } else if (grtc_type_is_float(type, GRTC_FLOAT_F32)) {
    *out_type = GRT_VM_TYPE_F32;
  } else if (grtc_type_is_float(type, GRTC_FLOAT_F64)) {
    *out_type = GRT_VM_TYPE_F64;
  } else {
    return false;
  }
  return true;
}

static char grtc_vm_cconv_char(grt_vm_type_t type) {
  static const char chars[GRT_VM_TYPE_COUNT] = {'i', 'I', 'f', 'F', 'r'};
  return chars[type];
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

typedef struct grtc_vm_liveness_t {
  uint32_t value_count;
  uint32_t op_count;
  uint32_t block_count;
  uint32_t words;  // bitset words per block
  grtc_value_t** values;
  grtc_operation_t** ops;
  grtc_block_t** blocks;
  uint32_t* block_first_op;  // ops of block b: [first[b], first[b + 1])
  uint32_t* op_block;
  uint64_t* live_in;   // block_count * words
  uint64_t* live_out;
  uint32_t* start;     // per value
  uint32_t* end;
} grtc_vm_liveness_t;

// Positions: block b starts at block_position(b), its ops follow.
static uint32_t grtc_vm_block_position(const grtc_vm_liveness_t* l, uint32_t b) {
  return l->block_first_op[b] + b;
}
static uint32_t grtc_vm_op_position(const grtc_vm_liveness_t* l, uint32_t op) {
  return op + l->op_block[op] + 1;
}

static uint32_t grtc_vm_flat_operand_count(const grtc_operation_t* op) {
  uint32_t count = op->operand_count;
  for (uint32_t s = 0; s < op->successor_count; ++s) {
    count += op->successors[s].operand_count;
  }
  return count;
}

static const grtc_value_t* grtc_vm_flat_operand(const grtc_operation_t* op,
                                                uint32_t index) {
  if (index < op->operand_count) return op->operands[index];
  index -= op->operand_count;
  for (uint32_t s = 0; s < op->successor_count; ++s) {
    if (index < op->successors[s].operand_count) {
      return op->successors[s].operands[index];
    }
    index -= op->successors[s].operand_count;
  }
  return NULL;
}

static bool grtc_vm_bit(const uint64_t* set, uint32_t i) {
  return (set[i / 64] >> (i % 64)) & 1u;
}
static void grtc_vm_set_bit(uint64_t* set, uint32_t i) {
  set[i / 64] |= UINT64_C(1) << (i % 64);
}
static void grtc_vm_clear_bit(uint64_t* set, uint32_t i) {
  set[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

static void grtc_vm_extend(grtc_vm_liveness_t* l, uint32_t v, uint32_t position) {
  if (position < l->start[v]) l->start[v] = position;
  if (position > l->end[v]) l->end[v] = position;
}

#define GRTC_VM_ALLOC(arena, type, count) \
  ((type*)grt_arena_alloc_zeroed((arena), sizeof(type) * ((size_t)(count) + 1)))

static grt_status_t grtc_vm_out_of_memory(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                         "out of memory allocating registers");
}

// Numbers the function's blocks, ops and values and builds the index.
static grt_status_t grtc_vm_number(grt_arena_t* arena, grtc_region_t* body,
                                   grtc_vm_liveness_t* l,
                                   grtc_vm_pointer_index_t* index) {
  for (grtc_block_t* b = body->first; b; b = b->next) {
    ++l->block_count;
    l->value_count += b->arg_count;
    for (grtc_operation_t* op = b->first; op; op = op->next) {
      ++l->op_count;
      l->value_count += op->result_count;
    }
  }
  l->values = GRTC_VM_ALLOC(arena, grtc_value_t*, l->value_count);
  l->ops = GRTC_VM_ALLOC(arena, grtc_operation_t*, l->op_count);
  l->blocks = GRTC_VM_ALLOC(arena, grtc_block_t*, l->block_count);
  l->block_first_op = GRTC_VM_ALLOC(arena, uint32_t, l->block_count + 1);
  l->op_block = GRTC_VM_ALLOC(arena, uint32_t, l->op_count);
  uint32_t entry_count = l->value_count + l->op_count + l->block_count;
  index->entries = GRTC_VM_ALLOC(arena, grtc_vm_pointer_entry_t, entry_count);
  if (!l->values || !l->ops || !l->blocks || !l->block_first_op ||
      !l->op_block || !index->entries) {
    return grtc_vm_out_of_memory();
  }
  uint32_t v = 0, o = 0, b = 0;
  for (grtc_block_t* block = body->first; block; block = block->next, ++b) {
    l->blocks[b] = block;
    l->block_first_op[b] = o;
    index->entries[index->count++] = (grtc_vm_pointer_entry_t){(uintptr_t)block, b};
    for (uint32_t i = 0; i < block->arg_count; ++i) {
      l->values[v] = &block->args[i];
      index->entries[index->count++] =
          (grtc_vm_pointer_entry_t){(uintptr_t)&block->args[i], v++};
    }
    for (grtc_operation_t* op = block->first; op; op = op->next) {
      l->ops[o] = op;
      l->op_block[o] = b;
      index->entries[index->count++] = (grtc_vm_pointer_entry_t){(uintptr_t)op, o++};
      for (uint32_t i = 0; i < op->result_count; ++i) {
        l->values[v] = &op->results[i];
        index->entries[index->count++] =
            (grtc_vm_pointer_entry_t){(uintptr_t)&op->results[i], v++};
      }
    }
  }
  l->block_first_op[b] = o;
  qsort(index->entries, index->count, sizeof(grtc_vm_pointer_entry_t),
        grtc_vm_pointer_entry_compare);
  return grt_ok_status();
}

static grt_status_t grtc_vm_compute_liveness(grt_arena_t* arena,
                                             const grtc_vm_pointer_index_t* index,
                                             grtc_vm_liveness_t* l) {
  l->words = (l->value_count + 63) / 64;
  size_t set_words = (size_t)l->block_count * l->words;
  uint64_t* use = GRTC_VM_ALLOC(arena, uint64_t, set_words);
  uint64_t* def = GRTC_VM_ALLOC(arena, uint64_t, set_words);
  l->live_in = GRTC_VM_ALLOC(arena, uint64_t, set_words);
  l->live_out = GRTC_VM_ALLOC(arena, uint64_t, set_words);
  if (!use || !def || !l->live_in || !l->live_out) return grtc_vm_out_of_memory();
  for (uint32_t b = 0; b < l->block_count; ++b) {
    uint64_t* u = use + (size_t)b * l->words;
    uint64_t* d = def + (size_t)b * l->words;
    grtc_block_t* block = l->blocks[b];
    for (uint32_t i = 0; i < block->arg_count; ++i) {
      grtc_vm_set_bit(d, grtc_vm_pointer_lookup(index, &block->args[i]));
    }
    for (uint32_t o = l->block_first_op[b]; o < l->block_first_op[b + 1]; ++o) {
      const grtc_operation_t* op = l->ops[o];
      uint32_t count = grtc_vm_flat_operand_count(op);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t v = grtc_vm_pointer_lookup(index, grtc_vm_flat_operand(op, i));
        // Values from enclosing regions are not this function's (the
        // verifier of the parse rejects them); skip what is not indexed.
        if (v != UINT32_MAX && !grtc_vm_bit(d, v)) grtc_vm_set_bit(u, v);
      }
      for (uint32_t i = 0; i < op->result_count; ++i) {
        grtc_vm_set_bit(d, grtc_vm_pointer_lookup(index, &op->results[i]));
      }
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (uint32_t b = l->block_count; b-- > 0;) {
      uint64_t* in = l->live_in + (size_t)b * l->words;
      uint64_t* out = l->live_out + (size_t)b * l->words;
      uint32_t last = l->block_first_op[b + 1];
      if (last > l->block_first_op[b]) {
        const grtc_operation_t* term = l->ops[last - 1];
        for (uint32_t s = 0; s < term->successor_count; ++s) {
          uint32_t t = grtc_vm_pointer_lookup(index, term->successors[s].block);
          if (t == UINT32_MAX) continue;
          const uint64_t* succ_in = l->live_in + (size_t)t * l->words;
          for (uint32_t w = 0; w < l->words; ++w) out[w] |= succ_in[w];
        }
      }
      for (uint32_t w = 0; w < l->words; ++w) {
        size_t k = (size_t)b * l->words + w;
        uint64_t next = use[k] | (out[w] & ~def[k]);
        if (next != in[w]) {
          in[w] = next;
          changed = true;
        }
      }
    }
  }
  return grt_ok_status();
}

static void grtc_vm_compute_intervals(const grtc_vm_pointer_index_t* index,
                                      grtc_vm_liveness_t* l) {
  for (uint32_t b = 0; b < l->block_count; ++b) {
    grtc_block_t* block = l->blocks[b];
    for (uint32_t i = 0; i < block->arg_count; ++i) {
      uint32_t v = grtc_vm_pointer_lookup(index, &block->args[i]);
      l->start[v] = l->end[v] = grtc_vm_block_position(l, b);
    }
    for (uint32_t o = l->block_first_op[b]; o < l->block_first_op[b + 1]; ++o) {
      for (uint32_t i = 0; i < l->ops[o]->result_count; ++i) {
        uint32_t v = grtc_vm_pointer_lookup(index, &l->ops[o]->results[i]);
        l->start[v] = l->end[v] = grtc_vm_op_position(l, o);
      }
    }
  }
  for (uint32_t b = 0; b < l->block_count; ++b) {
    uint32_t block_start = grtc_vm_block_position(l, b);
    uint32_t block_end = grtc_vm_block_position(l, b + 1) - 1;
    for (uint32_t v = 0; v < l->value_count; ++v) {
      if (grtc_vm_bit(l->live_in + (size_t)b * l->words, v)) {
        grtc_vm_extend(l, v, block_start);
      }
      if (grtc_vm_bit(l->live_out + (size_t)b * l->words, v)) {
        grtc_vm_extend(l, v, block_end);
      }
    }
    for (uint32_t o = l->block_first_op[b]; o < l->block_first_op[b + 1]; ++o) {
      const grtc_operation_t* op = l->ops[o];
      uint32_t position = grtc_vm_op_position(l, o);
      uint32_t count = grtc_vm_flat_operand_count(op);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t v = grtc_vm_pointer_lookup(index, grtc_vm_flat_operand(op, i));
        if (v != UINT32_MAX) grtc_vm_extend(l, v, position);
      }
      // A branch writes its targets' block arguments.
      for (uint32_t s = 0; s < op->successor_count; ++s) {
        grtc_block_t* target = op->successors[s].block;
        for (uint32_t i = 0; i < target->arg_count; ++i) {
          uint32_t v = grtc_vm_pointer_lookup(index, &target->args[i]);
          if (v != UINT32_MAX) grtc_vm_extend(l, v, position);
        }
      }
    }
  }
}

// Per op, per flat operand: dead after the op on every path.
static grt_status_t grtc_vm_compute_last_uses(grt_arena_t* arena,
                                              const grtc_vm_pointer_index_t* index,
                                              const grtc_vm_liveness_t* l,
                                              const bool*** out_last_uses) {
  const bool** last_uses = GRTC_VM_ALLOC(arena, const bool*, l->op_count);
  uint64_t* live = GRTC_VM_ALLOC(arena, uint64_t, l->words);
  if (!last_uses || !live) return grtc_vm_out_of_memory();
  for (uint32_t b = 0; b < l->block_count; ++b) {
    memcpy(live, l->live_out + (size_t)b * l->words, l->words * sizeof(uint64_t));
    for (uint32_t o = l->block_first_op[b + 1]; o-- > l->block_first_op[b];) {
      const grtc_operation_t* op = l->ops[o];
      uint32_t count = grtc_vm_flat_operand_count(op);
      bool* flags = GRTC_VM_ALLOC(arena, bool, count);
      if (!flags) return grtc_vm_out_of_memory();
      for (uint32_t i = 0; i < count; ++i) {
        const grtc_value_t* value = grtc_vm_flat_operand(op, i);
        uint32_t v = grtc_vm_pointer_lookup(index, value);
        if (v == UINT32_MAX || grtc_vm_bit(live, v)) continue;
        uint32_t uses = 0;
        for (uint32_t j = 0; j < count; ++j) uses += grtc_vm_flat_operand(op, j) == value;
        flags[i] = uses == 1;
      }
      last_uses[o] = flags;
      for (uint32_t i = 0; i < op->result_count; ++i) {
        grtc_vm_clear_bit(live, grtc_vm_pointer_lookup(index, &op->results[i]));
      }
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t v = grtc_vm_pointer_lookup(index, grtc_vm_flat_operand(op, i));
        if (v != UINT32_MAX) grtc_vm_set_bit(live, v);
      }
    }
  }
  *out_last_uses = last_uses;
  return grt_ok_status();
}

typedef struct grtc_vm_interval_order_t {
  uint32_t start;
  uint32_t value;
} grtc_vm_interval_order_t;

static int grtc_vm_interval_compare(const void* a, const void* b) {
  const grtc_vm_interval_order_t* x = a;
  const grtc_vm_interval_order_t* y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->value < y->value ? -1 : x->value > y->value ? 1 : 0;
}

// First free slot (or even-aligned free pair) in |used|.
static uint32_t grtc_vm_take_slots(bool* used, uint32_t width) {
  uint32_t slot = 0;
  while (used[slot] || (width == 2 && used[slot + 1])) slot += width;
  used[slot] = true;
  if (width == 2) used[slot + 1] = true;
  return slot;
}

// Coalescing of loop-carried values: the block argument |v| is passed to by
// an unconditional branch can share |v|'s register, so the branch copies
// nothing (the VM's loop back-edges then carry no remap). That is sound when
// v is a primitive op result defined in the branch's block that dies at the
// branch, is passed exactly once, and the argument is already allocated, its
// interval covers v's, and nothing from v's definition (which reads its
// operands before writing) through the branch reads the argument's old value.
// Returns the argument's value number, or UINT32_MAX.
static uint32_t grtc_vm_coalesce_target(const grtc_vm_pointer_index_t* index,
                                        const grtc_vm_liveness_t* l,
                                        const grt_vm_register_t* registers,
                                        const bool* allocated, uint32_t v) {
  const grtc_value_t* value = l->values[v];
  const grtc_operation_t* def = value->defining_op;
  if (!def || registers[v].type == GRT_VM_TYPE_REF) return UINT32_MAX;
  uint32_t o = grtc_vm_pointer_lookup(index, def);
  if (o == UINT32_MAX) return UINT32_MAX;
  uint32_t b = l->op_block[o];
  uint32_t last = l->block_first_op[b + 1] - 1;
  const grtc_operation_t* branch = l->ops[last];
  if (branch->successor_count != 1 || branch->operand_count != 0 ||
      l->end[v] != grtc_vm_op_position(l, last)) {
    return UINT32_MAX;
  }
  const grtc_successor_t* successor = &branch->successors[0];
  uint32_t at = UINT32_MAX;
  for (uint32_t i = 0; i < successor->operand_count; ++i) {
    if (successor->operands[i] != value) continue;
    if (at != UINT32_MAX) return UINT32_MAX;
    at = i;
  }
  if (at == UINT32_MAX || at >= successor->block->arg_count) return UINT32_MAX;
  uint32_t arg = grtc_vm_pointer_lookup(index, &successor->block->args[at]);
  if (arg == UINT32_MAX || !allocated[arg] ||
      registers[arg].type != registers[v].type || l->start[arg] > l->start[v] ||
      l->end[arg] < l->end[v]) {
    return UINT32_MAX;
  }
  for (uint32_t u = o + 1; u <= last; ++u) {
    uint32_t count = grtc_vm_flat_operand_count(l->ops[u]);
    for (uint32_t i = 0; i < count; ++i) {
      if (grtc_vm_flat_operand(l->ops[u], i) == l->values[arg]) return UINT32_MAX;
    }
  }
  return arg;
}

grt_status_t grtc_vm_allocate_registers(grt_arena_t* arena,
                                        const char* file_name,
                                        grtc_operation_t* function,
                                        grtc_vm_registers_t* out_registers) {
  memset(out_registers, 0, sizeof(*out_registers));
  grtc_vm_liveness_t l;
  memset(&l, 0, sizeof(l));
  grtc_vm_pointer_index_t* index = GRTC_VM_ALLOC(arena, grtc_vm_pointer_index_t, 1);
  if (!index) return grtc_vm_out_of_memory();
  GRT_RETURN_IF_ERROR(grtc_vm_number(arena, function->regions[0], &l, index));

  grt_vm_register_t* registers = GRTC_VM_ALLOC(arena, grt_vm_register_t, l.value_count);
  l.start = GRTC_VM_ALLOC(arena, uint32_t, l.value_count);
  l.end = GRTC_VM_ALLOC(arena, uint32_t, l.value_count);
  if (!registers || !l.start || !l.end) return grtc_vm_out_of_memory();
  for (uint32_t v = 0; v < l.value_count; ++v) {
    const grtc_value_t* value = l.values[v];
    if (!grtc_vm_register_type(value->type, &registers[v].type)) {
      char type[64];
      grtc_format_type(value->type, type, sizeof(type));
      uint32_t line = value->defining_op ? value->defining_op->line : function->line;
      uint32_t column = value->defining_op ? value->defining_op->column : function->column;
      return grtc_error_at(file_name, line, column,
                           "value %.*s has type %s, which no VM register holds "
                           "(expected i32, i64, f32, f64 or a ref)",
                           GRT_SV_ARG(value->name), type);
    }
  }
  GRT_RETURN_IF_ERROR(grtc_vm_compute_liveness(arena, index, &l));
  grtc_vm_compute_intervals(index, &l);
  const bool** last_uses = NULL;
  GRT_RETURN_IF_ERROR(grtc_vm_compute_last_uses(arena, index, &l, &last_uses));

  // Linear scan. Slot capacity: every value at its widest plus alignment.
  uint32_t capacity = 3 * l.value_count + 4;
  bool* i32_used = GRTC_VM_ALLOC(arena, bool, capacity);
  bool* ref_used = GRTC_VM_ALLOC(arena, bool, capacity);
  uint32_t* active = GRTC_VM_ALLOC(arena, uint32_t, l.value_count);
  grtc_vm_interval_order_t* order =
      GRTC_VM_ALLOC(arena, grtc_vm_interval_order_t, l.value_count);
  bool* allocated = GRTC_VM_ALLOC(arena, bool, l.value_count);
  if (!i32_used || !ref_used || !active || !order || !allocated) {
    return grtc_vm_out_of_memory();
  }
  memset(allocated, 0, sizeof(bool) * l.value_count);
  uint32_t active_count = 0;

  // The entry block's arguments are pinned by the calling convention.
  grtc_block_t* entry = l.block_count ? l.blocks[0] : NULL;
  uint32_t arg_slots = 0, arg_refs = 0;
  uint32_t pinned = entry ? entry->arg_count : 0;
  for (uint32_t v = 0; v < pinned; ++v) {
    grt_vm_type_t type = registers[v].type;
    uint32_t reg = grt_vm_bytecode_place_argument(grtc_vm_cconv_char(type),
                                                  &arg_slots, &arg_refs);
    registers[v].ordinal = (uint16_t)reg;
    if (type == GRT_VM_TYPE_REF) {
      ref_used[reg] = true;
    } else {
      for (uint32_t s = 0; s < grt_vm_type_slot_count(type); ++s) i32_used[reg + s] = true;
    }
    active[active_count++] = v;
    allocated[v] = true;
  }
  uint32_t i32_count = arg_slots, ref_count = arg_refs;
  for (uint32_t v = 0; v < l.value_count; ++v) {
    order[v] = (grtc_vm_interval_order_t){l.start[v], v};
  }
  qsort(order, l.value_count, sizeof(*order), grtc_vm_interval_compare);
  for (uint32_t n = 0; n < l.value_count; ++n) {
    uint32_t v = order[n].value;
    if (v < pinned) continue;
    // Expire every interval that ended before this one starts.
    for (uint32_t a = 0; a < active_count;) {
      uint32_t w = active[a];
      if (l.end[w] >= l.start[v]) {
        ++a;
        continue;
      }
      if (registers[w].type == GRT_VM_TYPE_REF) {
        ref_used[registers[w].ordinal] = false;
      } else {
        for (uint32_t s = 0; s < grt_vm_type_slot_count(registers[w].type); ++s) {
          i32_used[registers[w].ordinal + s] = false;
        }
      }
      active[a] = active[--active_count];
    }
    // A coalesced value borrows its argument's register, which stays the
    // argument's (it is not made active, so expiring it frees nothing).
    uint32_t into = grtc_vm_coalesce_target(index, &l, registers, allocated, v);
    if (into != UINT32_MAX) {
      registers[v].ordinal = registers[into].ordinal;
      allocated[v] = true;
      continue;
    }
    grt_vm_type_t type = registers[v].type;
    uint32_t reg = 0;
    if (type == GRT_VM_TYPE_REF) {
      reg = grtc_vm_take_slots(ref_used, 1);
      if (reg + 1 > ref_count) ref_count = reg + 1;
    } else {
      uint32_t width = grt_vm_type_slot_count(type);
      reg = grtc_vm_take_slots(i32_used, width);
      if (reg + width > i32_count) i32_count = reg + width;
    }
    if (reg > UINT16_MAX || (type == GRT_VM_TYPE_REF && reg > GRT_VM_REF_ORDINAL_MASK)) {
      return grtc_op_error(file_name, function,
                           "function needs more than %u %s registers",
                           type == GRT_VM_TYPE_REF ? GRT_VM_REF_ORDINAL_MASK + 1u
                                                   : UINT16_MAX + 1u,
                           type == GRT_VM_TYPE_REF ? "ref" : "primitive");
    }
    registers[v].ordinal = (uint16_t)reg;
    active[active_count++] = v;
    allocated[v] = true;
  }

  out_registers->i32_count = i32_count;
  out_registers->ref_count = ref_count;
  out_registers->index = index;
  out_registers->value_registers = registers;
  out_registers->op_last_uses = last_uses;
  return grt_ok_status();
}

grt_vm_register_t grtc_vm_value_register(const grtc_vm_registers_t* registers,
                                         const grtc_value_t* value) {
  uint32_t v = grtc_vm_pointer_lookup(registers->index, value);
  return registers->value_registers[v];
}

bool grtc_vm_is_last_use(const grtc_vm_registers_t* registers,
                         const grtc_operation_t* op, uint32_t index) {
  uint32_t o = grtc_vm_pointer_lookup(registers->index, op);
  return registers->op_last_uses[o][index];
}
