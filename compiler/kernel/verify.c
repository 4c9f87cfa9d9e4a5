// The kernel IR verifier: every backend trusts a verified kernel, so each
// invariant ir.h documents is checked here once, with errors naming the
// kernel and the instruction.
#include <stdarg.h>
#include <stdio.h>

#include "compiler/kernel/ir.h"

// Error naming the kernel (and instruction |inst| unless GRTC_KINST_NONE).
static grt_status_t grtc_kverify_error(const grtc_kernel_t* kernel,
                                       uint32_t inst, const char* format,
                                       ...) GRT_PRINTF_LIKE(3, 4);
static grt_status_t grtc_kverify_error(const grtc_kernel_t* kernel,
                                       uint32_t inst, const char* format,
                                       ...) {
  char message[256];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  if (inst == GRTC_KINST_NONE) {
    return grt_make_status(GRT_STATUS_INTERNAL, "kernel %.*s: %s",
                           (int)kernel->name.size, kernel->name.data, message);
  }
  return grt_make_status(GRT_STATUS_INTERNAL, "kernel %.*s: instruction %%%u: %s",
                         (int)kernel->name.size, kernel->name.data, inst,
                         message);
}

static const char* grtc_ksection_name(grtc_ksection_t section) {
  switch (section) {
    case GRTC_KSECTION_PRE:
      return "pre";
    case GRTC_KSECTION_LOOP:
      return "loop";
    case GRTC_KSECTION_POST:
      return "post";
  }
  return "?";
}

// Whether an instruction of section |reader| may read one of |value|.
static bool grtc_ksection_can_read(grtc_ksection_t reader,
                                   grtc_ksection_t value) {
  return value == GRTC_KSECTION_PRE || value == reader;
}

// |operand| of instruction |i| must be an earlier instruction of |type|
// (GRTC_ELEM_COUNT: any type) in a section |i| may read.
static grt_status_t grtc_kverify_operand(const grtc_kernel_t* kernel,
                                         uint32_t i, uint32_t operand,
                                         grtc_elem_t type, const char* what) {
  const grtc_kinst_t* inst = &kernel->insts[i];
  if (operand >= i) {
    return grtc_kverify_error(kernel, i,
                              "%s %%%u is not an earlier instruction", what,
                              operand);
  }
  const grtc_kinst_t* def = &kernel->insts[operand];
  if (!grtc_ksection_can_read(inst->section, def->section)) {
    return grtc_kverify_error(kernel, i, "%s section cannot read %%%u of the %s section",
                              grtc_ksection_name(inst->section), operand,
                              grtc_ksection_name(def->section));
  }
  if (type != GRTC_ELEM_COUNT && def->type != type) {
    return grtc_kverify_error(kernel, i, "%s %%%u is %s, expected %s", what,
                              operand, grtc_elem_spelling(def->type),
                              grtc_elem_spelling(type));
  }
  return grt_ok_status();
}

static grt_status_t grtc_kverify_op(const grtc_kernel_t* kernel, uint32_t i) {
  const grtc_kinst_t* inst = &kernel->insts[i];
  if (inst->op >= GRTC_SCALAR_OP_COUNT) {
    return grtc_kverify_error(kernel, i, "unknown scalar op %u", inst->op);
  }
  grtc_scalar_op_t op = (grtc_scalar_op_t)inst->op;
  uint32_t arity = grtc_scalar_op_arity(op);
  if (inst->operand_count != arity) {
    return grtc_kverify_error(kernel, i, "%s takes %u operands, got %u",
                              grtc_scalar_op_spelling(op), arity,
                              inst->operand_count);
  }
  // The operand type the op works on: the result's, except IS_FINITE.
  grtc_elem_t type = inst->type;
  if (op == GRTC_SCALAR_IS_FINITE) {
    if (inst->type != GRTC_ELEM_I1) {
      return grtc_kverify_error(kernel, i, "is_finite yields i1, not %s",
                                grtc_elem_spelling(inst->type));
    }
    type = kernel->insts[inst->operands[0] < i ? inst->operands[0] : 0].type;
  }
  if (!grtc_scalar_op_accepts(op, type)) {
    return grtc_kverify_error(kernel, i, "%s does not accept %s",
                              grtc_scalar_op_spelling(op),
                              grtc_elem_spelling(type));
  }
  if (grtc_scalar_op_for_elem(op, type) != op) {
    return grtc_kverify_error(
        kernel, i, "%s on %s must be emitted as %s (StableHLO's boolean "
        "meaning), so that no backend sees integer arithmetic on i1",
        grtc_scalar_op_spelling(op), grtc_elem_spelling(type),
        grtc_scalar_op_spelling(grtc_scalar_op_for_elem(op, type)));
  }
  for (uint32_t k = 0; k < arity; ++k) {
    grtc_elem_t want = type;
    if (op == GRTC_SCALAR_SELECT && k == 0) want = GRTC_ELEM_I1;
    GRT_RETURN_IF_ERROR(
        grtc_kverify_operand(kernel, i, inst->operands[k], want, "operand"));
  }
  return grt_ok_status();
}

static grt_status_t grtc_kverify_compare(const grtc_kernel_t* kernel,
                                         uint32_t i) {
  const grtc_kinst_t* inst = &kernel->insts[i];
  if (inst->op > GRTC_CMP_GE) {
    return grtc_kverify_error(kernel, i, "unknown compare direction %u",
                              inst->op);
  }
  if (inst->type != GRTC_ELEM_I1) {
    return grtc_kverify_error(kernel, i, "compare yields i1, not %s",
                              grtc_elem_spelling(inst->type));
  }
  if (inst->operand_count != 2) {
    return grtc_kverify_error(kernel, i, "compare takes 2 operands, got %u",
                              inst->operand_count);
  }
  GRT_RETURN_IF_ERROR(grtc_kverify_operand(kernel, i, inst->operands[0],
                                           GRTC_ELEM_COUNT, "operand"));
  grtc_elem_t type = kernel->insts[inst->operands[0]].type;
  GRT_RETURN_IF_ERROR(
      grtc_kverify_operand(kernel, i, inst->operands[1], type, "operand"));
  bool is_float = grtc_elem_is_float(type);
  switch (inst->compare_type) {
    case GRTC_CMP_TYPE_FLOAT:
    case GRTC_CMP_TYPE_TOTALORDER:
      if (is_float) return grt_ok_status();
      break;
    case GRTC_CMP_TYPE_SIGNED:
    case GRTC_CMP_TYPE_UNSIGNED:
      if (!is_float) return grt_ok_status();
      break;
    default:
      return grtc_kverify_error(kernel, i,
                                "compare type must be resolved (not default)");
  }
  return grtc_kverify_error(kernel, i, "compare type %s does not apply to %s",
                            grtc_compare_type_spelling(inst->compare_type),
                            grtc_elem_spelling(type));
}

static grt_status_t grtc_kverify_inst(const grtc_kernel_t* kernel,
                                      uint32_t i) {
  const grtc_kinst_t* inst = &kernel->insts[i];
  if (inst->type >= GRTC_ELEM_COUNT) {
    return grtc_kverify_error(kernel, i, "unknown element type %u",
                              (unsigned)inst->type);
  }
  if (inst->section > GRTC_KSECTION_POST) {
    return grtc_kverify_error(kernel, i, "unknown section %u",
                              (unsigned)inst->section);
  }
  if (kernel->kind == GRTC_KERNEL_SORT && inst->section != GRTC_KSECTION_PRE) {
    return grtc_kverify_error(kernel, i,
                              "sort comparators have only a pre section");
  }
  if (inst->operand_count > 3) {
    return grtc_kverify_error(kernel, i, "%u operands, at most 3",
                              inst->operand_count);
  }
  uint32_t operands = 0;  // expected operand count for non-OP kinds
  switch (inst->kind) {
    case GRTC_KINST_CONST:
      break;
    case GRTC_KINST_PINDEX:
    case GRTC_KINST_RINDEX: {
      bool is_p = inst->kind == GRTC_KINST_PINDEX;
      uint32_t rank = is_p ? kernel->parallel_rank : kernel->reduction_rank;
      if (inst->dim >= rank) {
        return grtc_kverify_error(kernel, i, "%s dimension %u of rank %u",
                                  is_p ? "parallel" : "reduction", inst->dim,
                                  rank);
      }
      if (inst->type != GRTC_ELEM_I64) {
        return grtc_kverify_error(kernel, i, "indices are i64, not %s",
                                  grtc_elem_spelling(inst->type));
      }
      if (!is_p && inst->section != GRTC_KSECTION_LOOP) {
        return grtc_kverify_error(kernel, i,
                                  "reduction indices belong to the loop section");
      }
      break;
    }
    case GRTC_KINST_EXTENT:
      if (inst->dim >= kernel->extent_count) {
        return grtc_kverify_error(kernel, i, "extent %u of %u", inst->dim,
                                  kernel->extent_count);
      }
      if (inst->type != GRTC_ELEM_I64) {
        return grtc_kverify_error(kernel, i, "extents are i64, not %s",
                                  grtc_elem_spelling(inst->type));
      }
      break;
    case GRTC_KINST_ACC:
      if (inst->dim >= kernel->acc_count) {
        return grtc_kverify_error(kernel, i, "accumulator %u of %u", inst->dim,
                                  kernel->acc_count);
      }
      if (inst->type != kernel->accs[inst->dim].type) {
        return grtc_kverify_error(kernel, i, "accumulator %u is %s, not %s",
                                  inst->dim,
                                  grtc_elem_spelling(kernel->accs[inst->dim].type),
                                  grtc_elem_spelling(inst->type));
      }
      if (inst->section == GRTC_KSECTION_PRE) {
        return grtc_kverify_error(kernel, i,
                                  "accumulators are read in loop or post");
      }
      break;
    case GRTC_KINST_ARG:
      if (kernel->kind != GRTC_KERNEL_SORT ||
          inst->dim >= 2 * kernel->sort.operand_count) {
        return grtc_kverify_error(kernel, i,
                                  "comparator argument %u outside a sort of %u "
                                  "operands",
                                  inst->dim, kernel->sort.operand_count);
      }
      if (inst->type != kernel->bindings[inst->dim / 2].elem) {
        return grtc_kverify_error(
            kernel, i, "comparator argument %u is %s, not %s", inst->dim,
            grtc_elem_spelling(kernel->bindings[inst->dim / 2].elem),
            grtc_elem_spelling(inst->type));
      }
      break;
    case GRTC_KINST_LOAD: {
      operands = 1;
      if (inst->binding >= kernel->binding_count) {
        return grtc_kverify_error(kernel, i, "load of binding %u of %u",
                                  inst->binding, kernel->binding_count);
      }
      const grtc_kbinding_t* binding = &kernel->bindings[inst->binding];
      if (!(binding->access & GRTC_KACCESS_READ)) {
        return grtc_kverify_error(kernel, i, "load of write-only binding %u",
                                  inst->binding);
      }
      if (binding->elem != inst->type) {
        return grtc_kverify_error(kernel, i, "load of %s from %s binding %u",
                                  grtc_elem_spelling(inst->type),
                                  grtc_elem_spelling(binding->elem),
                                  inst->binding);
      }
      if (inst->operand_count == 1) {
        GRT_RETURN_IF_ERROR(grtc_kverify_operand(
            kernel, i, inst->operands[0], GRTC_ELEM_I64, "index"));
      }
      break;
    }
    case GRTC_KINST_OP:
      return grtc_kverify_op(kernel, i);
    case GRTC_KINST_COMPARE:
      return grtc_kverify_compare(kernel, i);
    case GRTC_KINST_CONVERT:
    case GRTC_KINST_BITCAST:
      operands = 1;
      if (inst->operand_count == 1) {
        GRT_RETURN_IF_ERROR(grtc_kverify_operand(
            kernel, i, inst->operands[0], GRTC_ELEM_COUNT, "operand"));
        grtc_elem_t from = kernel->insts[inst->operands[0]].type;
        if (inst->kind == GRTC_KINST_BITCAST &&
            grtc_elem_bit_width(from) != grtc_elem_bit_width(inst->type)) {
          return grtc_kverify_error(kernel, i,
                                    "bitcast from %s to %s changes the width",
                                    grtc_elem_spelling(from),
                                    grtc_elem_spelling(inst->type));
        }
      }
      break;
    default:
      return grtc_kverify_error(kernel, i, "unknown instruction kind %u",
                                (unsigned)inst->kind);
  }
  if (inst->operand_count != operands) {
    return grtc_kverify_error(kernel, i, "%u operands, expected %u",
                              inst->operand_count, operands);
  }
  return grt_ok_status();
}

// Instruction |value| exists, has |type| (GRTC_ELEM_COUNT: any) and lies in
// |section_a| or |section_b|.
static grt_status_t grtc_kverify_ref(const grtc_kernel_t* kernel,
                                     uint32_t value, grtc_elem_t type,
                                     grtc_ksection_t section_a,
                                     grtc_ksection_t section_b,
                                     const char* what) {
  if (value == GRTC_KINST_NONE) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE, "%s is missing", what);
  }
  if (value >= kernel->inst_count) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "%s %%%u is not an instruction", what, value);
  }
  const grtc_kinst_t* def = &kernel->insts[value];
  if (type != GRTC_ELEM_COUNT && def->type != type) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE, "%s %%%u is %s, expected %s",
                              what, value, grtc_elem_spelling(def->type),
                              grtc_elem_spelling(type));
  }
  if (def->section != section_a && def->section != section_b) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "%s %%%u is in the %s section, expected %s or %s",
                              what, value, grtc_ksection_name(def->section),
                              grtc_ksection_name(section_a),
                              grtc_ksection_name(section_b));
  }
  return grt_ok_status();
}

// A size: static (>= 0) or one of the kernel's extents.
static bool grtc_kverify_size(const grtc_kernel_t* kernel, int64_t size) {
  return grtc_kdim_is_static(size) ||
         grtc_kdim_extent(size) < kernel->extent_count;
}

static grt_status_t grtc_kverify_shape(const grtc_kernel_t* kernel) {
  if (kernel->parallel_rank > GRTC_KERNEL_MAX_RANK ||
      kernel->reduction_rank > GRTC_KERNEL_MAX_RANK) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "rank %u/%u exceeds %u", kernel->parallel_rank,
                              kernel->reduction_rank, GRTC_KERNEL_MAX_RANK);
  }
  for (uint32_t d = 0; d < kernel->parallel_rank; ++d) {
    if (!grtc_kverify_size(kernel, kernel->parallel_dims[d]) ||
        kernel->tile[d] < 1) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "parallel dimension %u is %lld with tile %lld",
                                d, (long long)kernel->parallel_dims[d],
                                (long long)kernel->tile[d]);
    }
  }
  for (uint32_t d = 0; d < kernel->reduction_rank; ++d) {
    if (!grtc_kverify_size(kernel, kernel->reduction_dims[d])) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "reduction dimension %u is %lld", d,
                                (long long)kernel->reduction_dims[d]);
    }
  }
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    const grtc_kbinding_t* binding = &kernel->bindings[b];
    if (binding->elem >= GRTC_ELEM_COUNT ||
        binding->element_count < -1 ||  // -1: sized at the call
        binding->access < GRTC_KACCESS_READ ||
        binding->access > GRTC_KACCESS_READ_WRITE) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "binding %u: bad element type, count or access",
                                b);
    }
  }
  return grt_ok_status();
}

static grt_status_t grtc_kverify_pattern(const grtc_kernel_t* kernel) {
  if (kernel->pattern == GRTC_KPATTERN_NONE) return grt_ok_status();
  if (kernel->kind != GRTC_KERNEL_LOOP || kernel->acc_count < 1) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "a pattern needs a loop kernel with an "
                              "accumulator");
  }
  if (kernel->pattern == GRTC_KPATTERN_MATMUL) {
    const grtc_kmatmul_t* mm = &kernel->matmul;
    if (kernel->parallel_rank < 2 ||
        mm->batch_rank != kernel->parallel_rank - 2 ||
        mm->lhs_binding >= kernel->binding_count ||
        mm->rhs_binding >= kernel->binding_count ||
        mm->m != kernel->parallel_dims[kernel->parallel_rank - 2] ||
        mm->n != kernel->parallel_dims[kernel->parallel_rank - 1] ||
        !grtc_kverify_size(kernel, mm->k) || mm->lhs_elem != kernel->bindings[mm->lhs_binding].elem ||
        mm->rhs_elem != kernel->bindings[mm->rhs_binding].elem ||
        mm->acc_elem != kernel->accs[0].type) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "matmul pattern disagrees with the kernel "
                                "(ranks, bindings, m/n or element types)");
    }
  } else if (kernel->pattern == GRTC_KPATTERN_CONV2D) {
    const grtc_kconv_t* cv = &kernel->conv;
    if (kernel->parallel_rank != 4 || cv->input_binding >= kernel->binding_count ||
        cv->filter_binding >= kernel->binding_count || cv->groups < 1 ||
        cv->c % cv->groups != 0 || cv->oc % cv->groups != 0 ||
        cv->stride_h < 1 || cv->stride_w < 1 || cv->dilation_h < 1 ||
        cv->dilation_w < 1 || kernel->parallel_dims[0] != cv->n ||
        kernel->parallel_dims[1] != cv->oh ||
        kernel->parallel_dims[2] != cv->ow ||
        kernel->parallel_dims[3] != cv->oc ||
        cv->input_elem != kernel->bindings[cv->input_binding].elem ||
        cv->filter_elem != kernel->bindings[cv->filter_binding].elem ||
        cv->acc_elem != kernel->accs[0].type) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "conv2d pattern disagrees with the kernel "
                                "(space, bindings, groups, strides or types)");
    }
    if (cv->filter_packed) {
      int64_t k = cv->kh * cv->kw * (cv->c / cv->groups);
      int64_t ocp = (cv->oc / cv->groups + 5) / 6 * 6;
      int64_t want = cv->groups * k * ocp;
      if (kernel->bindings[cv->filter_binding].element_count != want) {
        return grtc_kverify_error(
            kernel, GRTC_KINST_NONE,
            "conv2d packed filter binding %u has %lld elements, expected %lld",
            cv->filter_binding,
            (long long)kernel->bindings[cv->filter_binding].element_count,
            (long long)want);
      }
    }
  } else if (kernel->pattern == GRTC_KPATTERN_POOL2D) {
    const grtc_kpool_t* pl = &kernel->pool;
    if (kernel->parallel_rank != 4 ||
        pl->input_binding >= kernel->binding_count || pl->kh < 1 ||
        pl->kw < 1 || pl->stride_h < 1 || pl->stride_w < 1 ||
        pl->dilation_h < 1 || pl->dilation_w < 1 ||
        kernel->parallel_dims[0] != pl->n ||
        kernel->parallel_dims[1] != pl->c ||
        kernel->parallel_dims[2] != pl->oh ||
        kernel->parallel_dims[3] != pl->ow ||
        pl->elem != kernel->bindings[pl->input_binding].elem ||
        pl->elem != kernel->accs[0].type ||
        grtc_scalar_op_arity((grtc_scalar_op_t)pl->op) != 2 ||
        !grtc_scalar_op_accepts((grtc_scalar_op_t)pl->op, pl->elem) ||
        kernel->insts[kernel->accs[0].init].kind != GRTC_KINST_CONST) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "pool2d pattern disagrees with the kernel "
                                "(space, binding, window, op, types or a "
                                "non-constant initial value)");
    }
  } else if (kernel->pattern == GRTC_KPATTERN_ROWS) {
    const grtc_krows_t* rw = &kernel->rows;
    uint32_t rank = kernel->parallel_rank;
    bool ok = rank >= 1 && kernel->acc_count == 2 && rw->n >= 1 &&
              kernel->reduction_rank == 2 &&
              kernel->reduction_dims[0] == 2 &&
              kernel->reduction_dims[1] == rw->n &&
              kernel->parallel_dims[rank - 1] == rw->n &&
              kernel->tile[rank - 1] == rw->n;
    int64_t elements = 1;
    for (uint32_t d = 0; ok && d < rank; ++d) {
      ok = grtc_kdim_is_static(kernel->parallel_dims[d]);
      elements *= kernel->parallel_dims[d];
    }
    if (ok && rw->kind == GRTC_KROWS_SOFTMAX) {
      ok = kernel->store_count == 1 && kernel->binding_count >= 2 &&
           rw->input_binding + 1 < kernel->binding_count &&
           kernel->stores[0].binding + 1 == kernel->binding_count &&
           kernel->stores[0].predicate == GRTC_KINST_NONE;
      for (uint32_t b = 0; ok && b < kernel->binding_count; ++b) {
        if (b != rw->input_binding && b + 1 != kernel->binding_count) continue;
        ok = kernel->bindings[b].elem == GRTC_ELEM_F32 &&
             kernel->bindings[b].element_count == elements;
      }
    } else if (rw->kind != GRTC_KROWS_TWO_PASS) {
      ok = false;
    }
    if (!ok) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "rows pattern disagrees with the kernel "
                                "(kind, space, reduction, tile, bindings, "
                                "accumulators or stores)");
    }
  } else {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE, "unknown pattern %u",
                              (unsigned)kernel->pattern);
  }
  return grt_ok_status();
}

static grt_status_t grtc_kverify_sort(const grtc_kernel_t* kernel) {
  uint32_t n = kernel->sort.operand_count;
  if (grtc_kernel_is_symbolic(kernel)) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "sort kernels take static shapes only");
  }
  if (n == 0 || kernel->binding_count != 2 * n || kernel->sort.rank == 0 ||
      kernel->sort.rank > GRTC_KERNEL_MAX_RANK ||
      kernel->sort.dimension >= kernel->sort.rank) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "sort of %u operands over dimension %u of rank "
                              "%u with %u bindings",
                              n, kernel->sort.dimension, kernel->sort.rank,
                              kernel->binding_count);
  }
  int64_t elements = 1;
  for (uint32_t d = 0; d < kernel->sort.rank; ++d) {
    if (kernel->sort.dims[d] < 0) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "sort dimension %u is negative", d);
    }
    elements *= kernel->sort.dims[d];
  }
  for (uint32_t b = 0; b < kernel->binding_count; ++b) {
    if (kernel->bindings[b].element_count != elements ||
        kernel->bindings[b].elem != kernel->bindings[b % n].elem) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "sort binding %u has %lld %s elements, "
                                "expected %lld like operand %u",
                                b, (long long)kernel->bindings[b].element_count,
                                grtc_elem_spelling(kernel->bindings[b].elem),
                                (long long)elements, b % n);
    }
  }
  return grtc_kverify_ref(kernel, kernel->sort.comparator, GRTC_ELEM_I1,
                          GRTC_KSECTION_PRE, GRTC_KSECTION_PRE, "comparator");
}

grt_status_t grtc_kernel_verify(const grtc_kernel_t* kernel) {
  if (kernel->kind != GRTC_KERNEL_LOOP && kernel->kind != GRTC_KERNEL_SORT) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE, "unknown kind %u",
                              (unsigned)kernel->kind);
  }
  GRT_RETURN_IF_ERROR(grtc_kverify_shape(kernel));
  if (kernel->split_max > 0 &&
      (kernel->kind != GRTC_KERNEL_LOOP || kernel->serial ||
       kernel->parallel_rank == 0 || grtc_kernel_is_symbolic(kernel))) {
    return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                              "a run-time split (split_max %u) needs a "
                              "static, parallel loop kernel",
                              kernel->split_max);
  }
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    if (kernel->accs[a].type >= GRTC_ELEM_COUNT) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "accumulator %u has no type", a);
    }
  }
  for (uint32_t i = 0; i < kernel->inst_count; ++i) {
    GRT_RETURN_IF_ERROR(grtc_kverify_inst(kernel, i));
  }
  if (kernel->kind == GRTC_KERNEL_SORT) return grtc_kverify_sort(kernel);
  for (uint32_t a = 0; a < kernel->acc_count; ++a) {
    const grtc_kacc_t* acc = &kernel->accs[a];
    char what[32];
    snprintf(what, sizeof(what), "accumulator %u init", a);
    GRT_RETURN_IF_ERROR(grtc_kverify_ref(kernel, acc->init, acc->type,
                                         GRTC_KSECTION_PRE, GRTC_KSECTION_PRE,
                                         what));
    snprintf(what, sizeof(what), "accumulator %u update", a);
    GRT_RETURN_IF_ERROR(grtc_kverify_ref(kernel, acc->update, acc->type,
                                         GRTC_KSECTION_LOOP,
                                         GRTC_KSECTION_LOOP, what));
  }
  for (uint32_t s = 0; s < kernel->store_count; ++s) {
    const grtc_kstore_t* store = &kernel->stores[s];
    if (store->binding >= kernel->binding_count ||
        !(kernel->bindings[store->binding].access & GRTC_KACCESS_WRITE)) {
      return grtc_kverify_error(kernel, GRTC_KINST_NONE,
                                "store %u to binding %u, which is not a "
                                "writable binding",
                                s, store->binding);
    }
    char what[32];
    snprintf(what, sizeof(what), "store %u index", s);
    GRT_RETURN_IF_ERROR(grtc_kverify_ref(kernel, store->index, GRTC_ELEM_I64,
                                         GRTC_KSECTION_PRE, GRTC_KSECTION_POST,
                                         what));
    snprintf(what, sizeof(what), "store %u value", s);
    GRT_RETURN_IF_ERROR(grtc_kverify_ref(
        kernel, store->value, kernel->bindings[store->binding].elem,
        GRTC_KSECTION_PRE, GRTC_KSECTION_POST, what));
    if (store->predicate != GRTC_KINST_NONE) {
      snprintf(what, sizeof(what), "store %u predicate", s);
      GRT_RETURN_IF_ERROR(grtc_kverify_ref(kernel, store->predicate,
                                           GRTC_ELEM_I1, GRTC_KSECTION_PRE,
                                           GRTC_KSECTION_POST, what));
    }
  }
  return grtc_kverify_pattern(kernel);
}
