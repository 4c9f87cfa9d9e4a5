// VM feature bits: which optional parts of the instruction set a module
// uses (recorded in the module file) and which this runtime supports.
//
// A module declares every extension prefix it uses; the verifier rejects
// a module that needs a bit the runtime lacks and any op whose extension
// the module did not declare, so an unsupported module fails at load with
// a message instead of misbehaving at run time.
#ifndef GRT_VM_FEATURES_H_
#define GRT_VM_FEATURES_H_

#include <stdint.h>

#define GRT_VM_FEATURE_EXT_F32 (UINT64_C(1) << 0)
#define GRT_VM_FEATURE_EXT_F64 (UINT64_C(1) << 1)

// Everything this build of the runtime executes.
#define GRT_VM_FEATURES_SUPPORTED \
  (GRT_VM_FEATURE_EXT_F32 | GRT_VM_FEATURE_EXT_F64)

#endif  // GRT_VM_FEATURES_H_
