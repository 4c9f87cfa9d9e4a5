#include "hal/drivers/vulkan/spirv_reflect.h"

#include <string.h>

// The opcodes, decorations and enumerants this file reads (SPIR-V spec,
// section 3).
enum {
  kOpEntryPoint = 15,
  kOpCapability = 17,
  kOpExecutionMode = 16,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeArray = 28,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpVariable = 59,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
  kDecorationBinding = 33,
  kDecorationDescriptorSet = 34,
  kDecorationOffset = 35,
  kExecutionModeLocalSize = 17,
  kExecutionModelGLCompute = 5,
  kStorageClassPushConstant = 9,
  kHeaderWords = 5,
};

// OpCapability operands and the GRT_SPIRV_CAP_* bit each sets, with the
// Vulkan feature it needs.
static const struct {
  uint32_t capability;
  uint32_t bit;
  const char* feature;
} kCapabilities[] = {
    {39, GRT_SPIRV_CAP_INT8, "shaderInt8"},
    {22, GRT_SPIRV_CAP_INT16, "shaderInt16"},
    {11, GRT_SPIRV_CAP_INT64, "shaderInt64"},
    {9, GRT_SPIRV_CAP_FLOAT16, "shaderFloat16"},
    {10, GRT_SPIRV_CAP_FLOAT64, "shaderFloat64"},
    {4448, GRT_SPIRV_CAP_STORAGE8, "storageBuffer8BitAccess"},
    {4433, GRT_SPIRV_CAP_STORAGE16, "storageBuffer16BitAccess"},
};

const char* grt_spirv_capability_feature(uint32_t bit) {
  for (size_t i = 0; i < sizeof(kCapabilities) / sizeof(kCapabilities[0]); ++i) {
    if (kCapabilities[i].bit == bit) return kCapabilities[i].feature;
  }
  return "unknown";
}

// Per-id facts gathered in one pass.
typedef struct grt_spirv_id_t {
  uint16_t opcode;    // of the instruction defining the id
  uint32_t operand0;  // first operand after the result id
  uint32_t operand1;
  uint32_t value;     // OpConstant's first word
} grt_spirv_id_t;

// Bytes of a push-constant member of type |id| (scalars, vectors, arrays
// of them; 4 for anything else, which the compiler never emits).
static uint32_t grt_spirv_type_bytes(const grt_spirv_id_t* ids, uint32_t bound,
                                     uint32_t id, int depth) {
  if (id >= bound || depth > 8) return 4;
  const grt_spirv_id_t* type = &ids[id];
  switch (type->opcode) {
    case kOpTypeInt:
    case kOpTypeFloat:
      return type->operand0 / 8;
    case kOpTypeVector:
      return type->operand1 *
             grt_spirv_type_bytes(ids, bound, type->operand0, depth + 1);
    case kOpTypeArray: {
      uint32_t length =
          type->operand1 < bound ? ids[type->operand1].value : 1;
      return length *
             grt_spirv_type_bytes(ids, bound, type->operand0, depth + 1);
    }
    default:
      return 4;
  }
}

grt_status_t grt_spirv_reflect(const uint32_t* words, size_t word_count,
                               grt_allocator_t allocator,
                               grt_spirv_reflection_t* out) {
  memset(out, 0, sizeof(*out));
  if (word_count < kHeaderWords) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "SPIR-V module of %zu words is shorter than its "
                           "header",
                           word_count);
  }
  uint32_t bound = words[3];
  if (bound == 0 || bound > word_count * 2 + 16) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "SPIR-V id bound %u does not fit a module of %zu "
                           "words",
                           bound, word_count);
  }
  grt_spirv_id_t* ids = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, bound * sizeof(*ids), (void**)&ids));
  uint32_t main_id = UINT32_MAX;
  uint32_t push_pointer_type = UINT32_MAX;
  grt_status_t status = grt_ok_status();
  size_t at = kHeaderWords;
  // Offsets of members: (struct id, member, offset), resolved afterwards.
  enum { kMaxMembers = 256 };
  uint32_t member_struct[kMaxMembers], member_index[kMaxMembers],
      member_offset[kMaxMembers];
  size_t member_count = 0;
  while (at < word_count && grt_status_is_ok(status)) {
    uint32_t length = words[at] >> 16;
    uint32_t opcode = words[at] & 0xFFFFu;
    if (length == 0 || length > word_count - at) {
      status = grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                               "SPIR-V instruction at word %zu has length %u "
                               "past the module's %zu words",
                               at, length, word_count);
      break;
    }
    const uint32_t* op = &words[at + 1];
    uint32_t operands = length - 1;
    switch (opcode) {
      case kOpCapability:
        for (size_t c = 0;
             operands >= 1 && c < sizeof(kCapabilities) / sizeof(kCapabilities[0]); ++c) {
          if (kCapabilities[c].capability == op[0]) out->capabilities |= kCapabilities[c].bit;
        }
        break;
      case kOpEntryPoint:
        // model, id, name (NUL-terminated, padded)
        if (operands >= 3 && op[0] == kExecutionModelGLCompute &&
            memcmp(&op[2], "main", 5) == 0) {
          main_id = op[1];
        }
        break;
      case kOpExecutionMode:
        if (operands >= 5 && op[0] == main_id &&
            op[1] == kExecutionModeLocalSize) {
          out->workgroup_size[0] = op[2];
          out->workgroup_size[1] = op[3];
          out->workgroup_size[2] = op[4];
        }
        break;
      case kOpDecorate:
        if (operands >= 3 && op[1] == kDecorationBinding &&
            op[2] + 1 > out->binding_count && op[2] < 65536) {
          out->binding_count = op[2] + 1;
        }
        if (operands >= 3 && op[1] == kDecorationDescriptorSet && op[2] != 0) {
          if (op[2] != 1) {
            status = grt_make_status(GRT_STATUS_INCOMPATIBLE,
                                     "SPIR-V word %zu: a variable in descriptor set %u; "
                                     "expected set 0 (the bindings) or 1 (the "
                                     "out-of-range status word)",
                                     at, op[2]);
          }
          out->status_word = true;
        }
        break;
      case kOpMemberDecorate:
        if (operands >= 4 && op[2] == kDecorationOffset &&
            member_count < kMaxMembers) {
          member_struct[member_count] = op[0];
          member_index[member_count] = op[1];
          member_offset[member_count] = op[3];
          ++member_count;
        }
        break;
      case kOpTypeInt:
      case kOpTypeFloat:
      case kOpTypeVector:
      case kOpTypeArray:
      case kOpTypeStruct:
      case kOpTypePointer:
        if (operands >= 1 && op[0] < bound) {
          grt_spirv_id_t* id = &ids[op[0]];
          id->opcode = (uint16_t)opcode;
          id->operand0 = operands >= 2 ? op[1] : 0;
          id->operand1 = operands >= 3 ? op[2] : 0;
        }
        break;
      case kOpConstant:
        if (operands >= 3 && op[1] < bound) ids[op[1]].value = op[2];
        break;
      case kOpVariable:
        // result type, result id, storage class
        if (operands >= 3 && op[2] == kStorageClassPushConstant) {
          push_pointer_type = op[0];
        }
        break;
      default:
        break;
    }
    at += length;
  }
  if (grt_status_is_ok(status) && main_id == UINT32_MAX) {
    status = grt_make_status(GRT_STATUS_INCOMPATIBLE,
                             "SPIR-V module has no GLCompute entry point "
                             "'main'");
  }
  if (grt_status_is_ok(status) && push_pointer_type < bound &&
      ids[push_pointer_type].opcode == kOpTypePointer) {
    // OpTypePointer: storage class, pointee type.
    uint32_t block = ids[push_pointer_type].operand1;
    for (size_t m = 0; m < member_count; ++m) {
      if (member_struct[m] != block || block >= bound ||
          ids[block].opcode != kOpTypeStruct) {
        continue;
      }
      // The member's type is operand (member index) of the OpTypeStruct,
      // which this pass did not keep beyond two operands: find it again.
      uint32_t member_type = UINT32_MAX;
      for (size_t scan = kHeaderWords; scan < word_count;) {
        uint32_t length = words[scan] >> 16;
        if (length == 0 || length > word_count - scan) break;
        if ((words[scan] & 0xFFFFu) == kOpTypeStruct &&
            words[scan + 1] == block && member_index[m] + 2 < length) {
          member_type = words[scan + 2 + member_index[m]];
          break;
        }
        scan += length;
      }
      uint32_t end = member_offset[m] +
                     grt_spirv_type_bytes(ids, bound, member_type, 0);
      if (end > out->push_constant_bytes) out->push_constant_bytes = end;
    }
  }
  grt_allocator_free(allocator, ids);
  return status;
}
