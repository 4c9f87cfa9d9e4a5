// Register allocation for one vm function: every SSA value (arguments, block
// arguments, op results) gets a register in the VM's two banks.
//
// i32/f32 values take one 32-bit slot, i64/f64 an even-aligned pair, refs a
// ref register. The function's arguments are pinned where the VM's calling
// convention places them (vm/op_table.h, grt_vm_bytecode_place_argument: in order, 64-bit values on
// the next even pair). Everything else is a linear scan over live intervals:
// block liveness by the usual backward dataflow, each value's interval the
// hull of its definition, uses, the blocks it is live through and -- for
// block arguments -- the branches that write it, so a register is reused
// only once no path can still read the value it held.
//
// The allocation also says which operand uses are last uses (the value is
// dead after the op on every path), which is where a ref operand carries
// the VM's move bit.
#ifndef GRT_COMPILER_VM_ASM_REGISTER_ALLOCATOR_H_
#define GRT_COMPILER_VM_ASM_REGISTER_ALLOCATOR_H_

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"
#include "compiler/mlir/ir.h"
#include "vm/bytecode_emitter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct grtc_vm_pointer_index_t grtc_vm_pointer_index_t;

typedef struct grtc_vm_registers_t {
  uint32_t i32_count;  // primitive slots used
  uint32_t ref_count;  // ref registers used
  // Private: value registers and per-op last-use flags, looked up by
  // pointer.
  grtc_vm_pointer_index_t* index;
  grt_vm_register_t* value_registers;
  const bool* const* op_last_uses;
} grtc_vm_registers_t;

// The VM register type of an IR type; false when it has none (i1, index,
// tensors...).
bool grtc_vm_register_type(const grtc_type_t* type, grt_vm_type_t* out_type);

// Allocates registers for |function| (a vm.func or vm.initializer: its first
// region is the body). Everything lives in |arena|. Errors name the value
// whose type has no register, as file:line:col of |file_name|.
grt_status_t grtc_vm_allocate_registers(grt_arena_t* arena,
                                        const char* file_name,
                                        grtc_operation_t* function,
                                        grtc_vm_registers_t* out_registers)
    GRT_MUST_USE;

// The register of |value| (move false).
grt_vm_register_t grtc_vm_value_register(const grtc_vm_registers_t* registers,
                                         const grtc_value_t* value);

// Whether operand |index| of |op| is the last use of its value. Operands are
// numbered op->operands first, then each successor's operands in order. A
// value used twice by the same op is never a last use at either place.
bool grtc_vm_is_last_use(const grtc_vm_registers_t* registers,
                         const grtc_operation_t* op, uint32_t index);

#ifdef __cplusplus
}
#endif

#endif  // GRT_COMPILER_VM_ASM_REGISTER_ALLOCATOR_H_
