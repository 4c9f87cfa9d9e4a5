#include "compiler/tensor/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct grtc_top_info_t {
  const char* name;
  grtc_scalar_op_t scalar;
  grtc_top_role_t role;
} grtc_top_info_t;

static const grtc_top_info_t grtc_top_infos[GRTC_TOP_COUNT] = {
#define GRTC_TOP_INFO(name, spelling, scalar, role) \
  {spelling, GRTC_SCALAR_##scalar, GRTC_ROLE_##role},
    GRTC_TOP_LIST(GRTC_TOP_INFO)
#undef GRTC_TOP_INFO
};

const char* grtc_top_kind_name(grtc_top_kind_t kind) {
  return kind < GRTC_TOP_COUNT ? grtc_top_infos[kind].name : "?";
}
grtc_top_role_t grtc_top_kind_role(grtc_top_kind_t kind) {
  return kind < GRTC_TOP_COUNT ? grtc_top_infos[kind].role : GRTC_ROLE_H;
}
grtc_scalar_op_t grtc_top_kind_scalar_op(grtc_top_kind_t kind) {
  return kind < GRTC_TOP_COUNT ? grtc_top_infos[kind].scalar
                               : GRTC_SCALAR_NONE;
}
bool grtc_top_kind_from_name(grt_string_view_t name, grtc_top_kind_t* out) {
  for (int i = 0; i < GRTC_TOP_COUNT; ++i) {
    const char* candidate = grtc_top_infos[i].name;
    if (strlen(candidate) == name.size &&
        memcmp(candidate, name.data, name.size) == 0) {
      *out = (grtc_top_kind_t)i;
      return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool grtc_ttype_same_shape(const grtc_ttype_t* a, const grtc_ttype_t* b) {
  if (a->rank != b->rank) return false;
  for (uint32_t i = 0; i < a->rank; ++i) {
    if (a->dims[i] != b->dims[i]) return false;
  }
  return true;
}

bool grtc_ttype_equal(const grtc_ttype_t* a, const grtc_ttype_t* b) {
  return a->elem == b->elem && grtc_ttype_same_shape(a, b);
}

bool grtc_ttype_is_static(const grtc_ttype_t* type) {
  for (uint32_t i = 0; i < type->rank; ++i) {
    if (!grtc_dim_is_static(type->dims[i])) return false;
  }
  return true;
}

int64_t grtc_ttype_element_count(const grtc_ttype_t* type) {
  if (!grtc_ttype_is_static(type)) return -1;
  int64_t count = 1;
  for (uint32_t i = 0; i < type->rank; ++i) count *= type->dims[i];
  return count;
}

int64_t grtc_ttype_byte_size(const grtc_ttype_t* type) {
  if (!grtc_ttype_is_static(type)) return -1;
  return grtc_ttype_element_count(type) *
         (int64_t)grtc_elem_byte_size(type->elem);
}

const char* grtc_ttype_format(const grtc_ttype_t* type, char* buffer,
                              size_t capacity) {
  size_t used = 0;
  int n = snprintf(buffer, capacity, "tensor<");
  if (n > 0) used += (size_t)n;
  for (uint32_t i = 0; i < type->rank && used < capacity; ++i) {
    n = grtc_dim_is_static(type->dims[i])
            ? snprintf(buffer + used, capacity - used, "%lldx",
                       (long long)type->dims[i])
            : snprintf(buffer + used, capacity - used, "?x");
    if (n > 0) used += (size_t)n;
  }
  if (used < capacity) {
    snprintf(buffer + used, capacity - used, "%s>",
             grtc_elem_spelling(type->elem));
  }
  return buffer;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

void* grtc_tmodule_alloc(grtc_tmodule_t* module, size_t size) {
  return grt_arena_alloc_zeroed(&module->arena, size ? size : 1);
}

static grt_status_t grtc_tmodule_oom(void) {
  return grt_make_status(GRT_STATUS_RESOURCE_EXHAUSTED,
                         "out of memory building the tensor IR");
}

static const char* grtc_tmodule_strdup(grtc_tmodule_t* module,
                                       grt_string_view_t text) {
  char* copy = grtc_tmodule_alloc(module, text.size + 1);
  if (copy && text.size) memcpy(copy, text.data, text.size);
  return copy;
}

grt_status_t grtc_tmodule_create(const char* name, const char* file_name,
                                 grt_allocator_t allocator,
                                 grtc_tmodule_t** out_module) {
  *out_module = NULL;
  grtc_tmodule_t* module = NULL;
  GRT_RETURN_IF_ERROR(
      grt_allocator_calloc(allocator, sizeof(*module), (void**)&module));
  grt_arena_init(allocator, 0, &module->arena);
  const char* name_copy = grtc_tmodule_strdup(
      module, grt_make_string_view(name ? name : "module",
                                   strlen(name ? name : "module")));
  const char* file_copy = grtc_tmodule_strdup(
      module, grt_make_string_view(file_name ? file_name : "<input>",
                                   strlen(file_name ? file_name : "<input>")));
  if (!name_copy || !file_copy) {
    grtc_tmodule_destroy(module);
    return grtc_tmodule_oom();
  }
  module->shapes = grtc_tmodule_alloc(module, sizeof(*module->shapes));
  if (!module->shapes) {
    grtc_tmodule_destroy(module);
    return grtc_tmodule_oom();
  }
  module->name = grt_make_string_view(name_copy, strlen(name_copy));
  module->file_name = file_copy;
  *out_module = module;
  return grt_ok_status();
}

struct grtc_tmodule_cleanup_t {
  void (*fn)(void* user);
  void* user;
  grtc_tmodule_cleanup_t* next;
};

grt_status_t grtc_tmodule_add_cleanup(grtc_tmodule_t* module,
                                      void (*fn)(void* user), void* user) {
  grtc_tmodule_cleanup_t* cleanup = grtc_tmodule_alloc(module, sizeof(*cleanup));
  if (!cleanup) {
    fn(user);
    return grtc_tmodule_oom();
  }
  cleanup->fn = fn;
  cleanup->user = user;
  cleanup->next = module->cleanups;
  module->cleanups = cleanup;
  return grt_ok_status();
}

void grtc_tmodule_destroy(grtc_tmodule_t* module) {
  if (!module) return;
  for (grtc_tmodule_cleanup_t* c = module->cleanups; c; c = c->next) c->fn(c->user);
  grt_allocator_t allocator = module->arena.parent;
  grt_arena_deinit(&module->arena);
  grt_allocator_free(allocator, module);
}

grtc_i64s_t grtc_tmodule_i64s(grtc_tmodule_t* module, const int64_t* values,
                              uint32_t count) {
  grtc_i64s_t result = {0, NULL};
  if (count == 0) return result;
  result.values = grtc_tmodule_alloc(module, count * sizeof(int64_t));
  if (!result.values) return result;
  memcpy(result.values, values, count * sizeof(int64_t));
  result.count = count;
  return result;
}

static void grtc_tvalue_init(grtc_tmodule_t* module, grtc_tvalue_t* value,
                             const grtc_ttype_t* type, uint32_t index) {
  value->type = *type;
  value->index = index;
  value->id = module->next_value_id++;
}

grt_status_t grtc_tblock_create(grtc_tmodule_t* module,
                                const grtc_ttype_t* arg_types,
                                uint32_t arg_count,
                                grtc_tblock_t** out_block) {
  *out_block = NULL;
  grtc_tblock_t* block = grtc_tmodule_alloc(module, sizeof(*block));
  if (!block) return grtc_tmodule_oom();
  if (arg_count) {
    block->args = grtc_tmodule_alloc(module, arg_count * sizeof(grtc_tvalue_t));
    if (!block->args) return grtc_tmodule_oom();
  }
  block->arg_count = arg_count;
  for (uint32_t i = 0; i < arg_count; ++i) {
    grtc_tvalue_init(module, &block->args[i], &arg_types[i], i);
    block->args[i].block = block;
  }
  *out_block = block;
  return grt_ok_status();
}

grt_status_t grtc_tfunc_create(grtc_tmodule_t* module, grt_string_view_t name,
                               const grtc_ttype_t* arg_types,
                               uint32_t arg_count,
                               const grtc_ttype_t* result_types,
                               uint32_t result_count,
                               grtc_tfunc_t** out_func) {
  *out_func = NULL;
  grtc_tfunc_t* func = grtc_tmodule_alloc(module, sizeof(*func));
  const char* name_copy = grtc_tmodule_strdup(module, name);
  if (!func || !name_copy) return grtc_tmodule_oom();
  func->name = grt_make_string_view(name_copy, name.size);
  if (result_count) {
    func->result_types =
        grtc_tmodule_alloc(module, result_count * sizeof(grtc_ttype_t));
    if (!func->result_types) return grtc_tmodule_oom();
    memcpy(func->result_types, result_types,
           result_count * sizeof(grtc_ttype_t));
  }
  func->result_count = result_count;
  GRT_RETURN_IF_ERROR(
      grtc_tblock_create(module, arg_types, arg_count, &func->body));
  func->body->func = func;
  if (module->last_func) {
    module->last_func->next = func;
  } else {
    module->first_func = func;
  }
  module->last_func = func;
  *out_func = func;
  return grt_ok_status();
}

grtc_tfunc_t* grtc_tmodule_find_func(const grtc_tmodule_t* module,
                                     grt_string_view_t name) {
  for (grtc_tfunc_t* func = module->first_func; func; func = func->next) {
    if (grt_string_view_equal(func->name, name)) return func;
  }
  return NULL;
}

grtc_tglobal_t* grtc_tmodule_find_global(const grtc_tmodule_t* module,
                                         grt_string_view_t name) {
  for (grtc_tglobal_t* global = module->first_global; global; global = global->next) {
    if (grt_string_view_equal(global->name, name)) return global;
  }
  return NULL;
}

grt_status_t grtc_tmodule_add_global(grtc_tmodule_t* module,
                                     grt_string_view_t name,
                                     const grtc_ttype_t* type,
                                     const uint8_t* data, size_t size,
                                     bool splat,
                                     grtc_tglobal_t** out_global) {
  *out_global = NULL;
  char text[GRTC_TTYPE_FORMAT_CAPACITY];
  if (!grtc_ttype_is_static(type)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "global '@%.*s' has the symbolic type %s; a global's "
                           "shape must be static", GRT_SV_ARG(name),
                           grtc_ttype_format(type, text, sizeof(text)));
  }
  int64_t bytes = grtc_ttype_byte_size(type);
  size_t expected = splat ? grtc_elem_byte_size(type->elem) : (size_t)bytes;
  if (bytes < 0 || size != expected || (size && !data)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "global '@%.*s' of type %s is given %zu bytes, "
                           "expected %zu%s", GRT_SV_ARG(name),
                           grtc_ttype_format(type, text, sizeof(text)), size,
                           expected, splat ? " (a splat of one element)" : "");
  }
  if (grtc_tmodule_find_global(module, name)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "global '@%.*s' is defined twice", GRT_SV_ARG(name));
  }
  grtc_tglobal_t* global = grtc_tmodule_alloc(module, sizeof(*global));
  const char* copy = grtc_tmodule_strdup(module, name);
  uint8_t* bytes_copy = grtc_tmodule_alloc(module, size);
  if (!global || !copy || !bytes_copy) return grtc_tmodule_oom();
  if (size) memcpy(bytes_copy, data, size);
  global->name = grt_make_string_view(copy, name.size);
  global->type = *type;
  global->data = bytes_copy;
  global->size = size;
  global->splat = splat;
  global->index = module->global_count++;
  if (module->last_global) {
    module->last_global->next = global;
  } else {
    module->first_global = global;
  }
  module->last_global = global;
  *out_global = global;
  return grt_ok_status();
}

grt_status_t grtc_top_create(grtc_tmodule_t* module, grtc_top_kind_t kind,
                             grtc_tvalue_t* const* operands,
                             uint32_t operand_count,
                             const grtc_ttype_t* result_types,
                             uint32_t result_count, uint32_t region_count,
                             grtc_top_t** out_op) {
  *out_op = NULL;
  grtc_top_t* op = grtc_tmodule_alloc(module, sizeof(*op));
  if (!op) return grtc_tmodule_oom();
  op->kind = kind;
  if (operand_count) {
    op->operands =
        grtc_tmodule_alloc(module, operand_count * sizeof(grtc_tvalue_t*));
    if (!op->operands) return grtc_tmodule_oom();
    memcpy(op->operands, operands, operand_count * sizeof(grtc_tvalue_t*));
  }
  op->operand_count = operand_count;
  if (result_count) {
    op->results =
        grtc_tmodule_alloc(module, result_count * sizeof(grtc_tvalue_t));
    if (!op->results) return grtc_tmodule_oom();
  }
  op->result_count = result_count;
  for (uint32_t i = 0; i < result_count; ++i) {
    grtc_tvalue_init(module, &op->results[i], &result_types[i], i);
    op->results[i].def = op;
  }
  if (region_count) {
    op->regions =
        grtc_tmodule_alloc(module, region_count * sizeof(grtc_tblock_t*));
    if (!op->regions) return grtc_tmodule_oom();
  }
  op->region_count = region_count;
  *out_op = op;
  return grt_ok_status();
}

void grtc_top_set_region(grtc_top_t* op, uint32_t index, grtc_tblock_t* block) {
  op->regions[index] = block;
  block->parent_op = op;
  block->func = op->parent ? op->parent->func : NULL;
}

void grtc_top_copy_location(grtc_top_t* op, const grtc_top_t* from) {
  op->location = from->location;
  op->line = from->line;
  op->column = from->column;
}

grt_status_t grtc_top_set_scalar_body(grtc_tmodule_t* module, grtc_top_t* op,
                                      grtc_top_kind_t kind, grtc_elem_t elem) {
  grtc_ttype_t scalar;
  memset(&scalar, 0, sizeof(scalar));
  scalar.elem = elem;
  grtc_ttype_t args[2] = {scalar, scalar};
  grtc_tblock_t* body = NULL;
  GRT_RETURN_IF_ERROR(grtc_tblock_create(module, args, 2, &body));
  grtc_top_set_region(op, 0, body);
  grtc_tvalue_t* combined = &body->args[1];
  if (kind != GRTC_TOP_COUNT) {
    grtc_tvalue_t* pair[2] = {&body->args[0], &body->args[1]};
    grtc_top_t* combine = NULL;
    GRT_RETURN_IF_ERROR(grtc_top_create(module, kind, pair, 2, &scalar, 1, 0, &combine));
    grtc_top_copy_location(combine, op);
    grtc_tblock_append(body, combine);
    combined = &combine->results[0];
  }
  grtc_top_t* yield = NULL;
  GRT_RETURN_IF_ERROR(
      grtc_top_create(module, GRTC_TOP_YIELD, &combined, 1, NULL, 0, 0, &yield));
  grtc_top_copy_location(yield, op);
  grtc_tblock_append(body, yield);
  return grt_ok_status();
}

// Regions created before their op was inserted learn their function here.
static void grtc_tblock_set_func(grtc_tblock_t* block, grtc_tfunc_t* func) {
  block->func = func;
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->region_count; ++i) {
      if (op->regions[i]) grtc_tblock_set_func(op->regions[i], func);
    }
  }
}

static void grtc_top_adopt(grtc_tblock_t* block, grtc_top_t* op) {
  op->parent = block;
  for (uint32_t i = 0; i < op->region_count; ++i) {
    if (op->regions[i] && op->regions[i]->func != block->func) {
      grtc_tblock_set_func(op->regions[i], block->func);
    }
  }
}

void grtc_tblock_append(grtc_tblock_t* block, grtc_top_t* op) {
  grtc_top_adopt(block, op);
  op->next = NULL;
  op->prev = block->last;
  if (block->last) {
    block->last->next = op;
  } else {
    block->first = op;
  }
  block->last = op;
}

void grtc_tblock_insert_before(grtc_top_t* before, grtc_top_t* op) {
  grtc_tblock_t* block = before->parent;
  grtc_top_adopt(block, op);
  op->next = before;
  op->prev = before->prev;
  if (before->prev) {
    before->prev->next = op;
  } else {
    block->first = op;
  }
  before->prev = op;
}

void grtc_top_unlink(grtc_top_t* op) {
  grtc_tblock_t* block = op->parent;
  if (!block) return;
  if (op->prev) {
    op->prev->next = op->next;
  } else {
    block->first = op->next;
  }
  if (op->next) {
    op->next->prev = op->prev;
  } else {
    block->last = op->prev;
  }
  op->prev = op->next = NULL;
  op->parent = NULL;
}

//===----------------------------------------------------------------------===//
// Uses
//===----------------------------------------------------------------------===//

static void grtc_tblock_replace_uses(grtc_tblock_t* block,
                                     grtc_tvalue_t* from, grtc_tvalue_t* to) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      if (op->operands[i] == from) op->operands[i] = to;
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      grtc_tblock_replace_uses(op->regions[i], from, to);
    }
  }
}

void grtc_tfunc_replace_uses(grtc_tfunc_t* func, grtc_tvalue_t* from,
                             grtc_tvalue_t* to) {
  grtc_tblock_replace_uses(func->body, from, to);
}

static void grtc_tblock_clear_uses(grtc_tblock_t* block) {
  for (uint32_t i = 0; i < block->arg_count; ++i) block->args[i].use_count = 0;
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->result_count; ++i) {
      op->results[i].use_count = 0;
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      grtc_tblock_clear_uses(op->regions[i]);
    }
  }
}

static void grtc_tblock_count_uses(grtc_tblock_t* block) {
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      ++op->operands[i]->use_count;
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      grtc_tblock_count_uses(op->regions[i]);
    }
  }
}

void grtc_tfunc_recount_uses(grtc_tfunc_t* func) {
  grtc_tblock_clear_uses(func->body);
  grtc_tblock_count_uses(func->body);
}

static bool grtc_top_has_effects(const grtc_top_t* op) {
  grtc_top_role_t role = grtc_top_kind_role(op->kind);
  if (op->kind == GRTC_TOP_DISPATCH || op->kind == GRTC_TOP_GLOBAL_LOAD) return false;
  return role == GRTC_ROLE_C || role == GRTC_ROLE_H;
}

// Removes dead ops in |block| (last to first, so chains go in one sweep);
// returns whether anything was removed.
static bool grtc_tblock_remove_dead_ops(grtc_tblock_t* block) {
  bool removed = false;
  for (grtc_top_t* op = block->last; op;) {
    grtc_top_t* prev = op->prev;
    for (uint32_t i = 0; i < op->region_count; ++i) {
      removed |= grtc_tblock_remove_dead_ops(op->regions[i]);
    }
    bool used = false;
    for (uint32_t i = 0; i < op->result_count; ++i) {
      used |= op->results[i].use_count != 0;
    }
    if (!used && !grtc_top_has_effects(op)) {
      for (uint32_t i = 0; i < op->operand_count; ++i) {
        --op->operands[i]->use_count;
      }
      grtc_top_unlink(op);
      removed = true;
    }
    op = prev;
  }
  return removed;
}

void grtc_tfunc_remove_dead_ops(grtc_tfunc_t* func) {
  grtc_tfunc_recount_uses(func);
  while (grtc_tblock_remove_dead_ops(func->body)) {
    grtc_tfunc_recount_uses(func);
  }
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

grt_status_t grtc_top_error(const grtc_tmodule_t* module, const grtc_top_t* op,
                            const char* format, ...) {
  char message[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  grt_string_view_t file;
  uint32_t line = 0, column = 0;
  if (op->location &&
      grtc_location_file_position(op->location, &file, &line, &column)) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "%.*s:%u:%u: error: %s", (int)file.size, file.data,
                           line, column, message);
  }
  return grtc_error_at(module->file_name, op->line, op->column, "%s", message);
}

//===----------------------------------------------------------------------===//
// Symbolic shapes
//===----------------------------------------------------------------------===//

// Arrays in the arena double; the old block stays until the module goes.
static bool grtc_shapes_grow(grtc_tmodule_t* module, void** items,
                             uint32_t count, uint32_t* capacity,
                             size_t item_size) {
  if (count < *capacity) return true;
  uint32_t grown = *capacity ? *capacity * 2 : 16;
  void* copy = grtc_tmodule_alloc(module, grown * item_size);
  if (!copy) return false;
  if (count) memcpy(copy, *items, count * item_size);
  *items = copy;
  *capacity = grown;
  return true;
}

grt_status_t grtc_tmodule_new_symbol(const grtc_tmodule_t* module,
                                     const grtc_tfunc_t* func,
                                     grtc_tsym_origin_t origin,
                                     const grtc_top_t* op, uint32_t index,
                                     uint32_t axis, int64_t* out_dim) {
  // The tables are bookkeeping a const module still owns.
  grtc_tmodule_t* owner = (grtc_tmodule_t*)module;
  grtc_tshapes_t* shapes = module->shapes;
  if (!grtc_shapes_grow(owner, (void**)&shapes->syms, shapes->sym_count,
                        &shapes->sym_capacity, sizeof(grtc_tsym_t))) {
    return grtc_tmodule_oom();
  }
  uint32_t id = shapes->sym_count++;
  grtc_tsym_t* sym = &shapes->syms[id];
  memset(sym, 0, sizeof(*sym));
  sym->func = func;
  sym->origin = origin;
  sym->op = op;
  sym->branch = grtc_top_branch_region(op);
  sym->index = index;
  sym->axis = axis;
  sym->parent = id;
  sym->size = -1;
  *out_dim = GRTC_DIM_SYMBOL(id);
  return grt_ok_status();
}

static uint32_t grtc_shapes_root(grtc_tshapes_t* shapes, uint32_t id) {
  while (shapes->syms[id].parent != id) {
    uint32_t parent = shapes->syms[id].parent;
    shapes->syms[id].parent = shapes->syms[parent].parent;  // halving
    id = parent;
  }
  return id;
}

int64_t grtc_tmodule_resolve_dim(const grtc_tmodule_t* module, int64_t dim) {
  if (grtc_dim_is_static(dim)) return dim;
  grtc_tshapes_t* shapes = module->shapes;
  uint32_t id = grtc_dim_symbol(dim);
  if (id >= shapes->sym_count) return dim;
  uint32_t root = grtc_shapes_root(shapes, id);
  if (shapes->syms[root].size >= 0) return shapes->syms[root].size;
  return GRTC_DIM_SYMBOL(root);
}

grt_status_t grtc_tmodule_relate(const grtc_tmodule_t* module,
                                 const grtc_tfunc_t* func,
                                 grtc_trel_kind_t kind, int64_t a, int64_t b,
                                 const grtc_top_t* op, const char* what,
                                 bool* out_conflict) {
  *out_conflict = false;
  grtc_tshapes_t* shapes = module->shapes;
  int64_t ra = grtc_tmodule_resolve_dim(module, a);
  int64_t rb = grtc_tmodule_resolve_dim(module, b);
  if (grtc_dim_is_static(ra) && grtc_dim_is_static(rb)) {
    *out_conflict = kind == GRTC_REL_EQ ? ra != rb : ra < rb;
    return grt_ok_status();
  }
  if (ra == rb) return grt_ok_status();  // one class already
  if (kind == GRTC_REL_GE && !grtc_dim_is_static(rb)) {
    // Only "symbol >= size" is recorded; other orderings carry no check
    // grt makes.
    return grt_ok_status();
  }
  if (kind == GRTC_REL_GE) {
    for (uint32_t i = 0; i < shapes->rel_count; ++i) {
      const grtc_trel_t* r = &shapes->rels[i];
      if (r->kind == GRTC_REL_GE &&
          grtc_tmodule_resolve_dim(module, r->a) == ra && r->b >= rb) {
        return grt_ok_status();  // implied by a recorded bound
      }
    }
  } else if (grtc_dim_is_static(ra) || grtc_dim_is_static(rb)) {
    uint32_t root = grtc_dim_symbol(grtc_dim_is_static(ra) ? rb : ra);
    shapes->syms[root].size = grtc_dim_is_static(ra) ? ra : rb;
  } else {
    uint32_t x = grtc_dim_symbol(ra), y = grtc_dim_symbol(rb);
    if (x < y) {
      shapes->syms[y].parent = x;
    } else {
      shapes->syms[x].parent = y;
    }
  }
  grtc_tmodule_t* owner = (grtc_tmodule_t*)module;
  if (!grtc_shapes_grow(owner, (void**)&shapes->rels, shapes->rel_count,
                        &shapes->rel_capacity, sizeof(grtc_trel_t))) {
    return grtc_tmodule_oom();
  }
  grtc_trel_t* rel = &shapes->rels[shapes->rel_count++];
  rel->kind = kind;
  rel->a = a;
  rel->b = b;
  rel->func = func;
  rel->op = op;
  rel->what = what;
  return grt_ok_status();
}

const char* grtc_tmodule_describe_dim(const grtc_tmodule_t* module,
                                      int64_t dim, char* buffer,
                                      size_t capacity) {
  if (grtc_dim_is_static(dim)) {
    snprintf(buffer, capacity, "%lld", (long long)dim);
    return buffer;
  }
  uint32_t id = grtc_dim_symbol(dim);
  if (id >= module->shapes->sym_count) {
    snprintf(buffer, capacity, "s%u", id);
    return buffer;
  }
  const grtc_tsym_t* sym = &module->shapes->syms[id];
  char name[96] = "";
  if (sym->name) snprintf(name, sizeof(name), " '%s'", sym->name);
  const char* func = sym->func ? sym->func->name.data : "?";
  int func_size = sym->func ? (int)sym->func->name.size : 1;
  if (sym->origin == GRTC_SYM_ARGUMENT) {
    snprintf(buffer, capacity, "s%u%s: argument %u dimension %u of @%.*s", id,
             name, sym->index, sym->axis, func_size, func);
  } else if (!sym->op) {
    snprintf(buffer, capacity, "s%u%s: result %u dimension %u of @%.*s", id,
             name, sym->index, sym->axis, func_size, func);
  } else {
    uint32_t line = sym->op->line, column = sym->op->column;
    if (sym->op->location) {
      grt_string_view_t file;
      grtc_location_file_position(sym->op->location, &file, &line, &column);
    }
    if (sym->op->kind == GRTC_TOP_PAD &&
        (sym->index == GRTC_SYM_PAD_LOW || sym->index == GRTC_SYM_PAD_INTERIOR)) {
      snprintf(buffer, capacity, "s%u: %s element %u of 'stablehlo.dynamic_pad' at %u:%u", id,
               sym->index == GRTC_SYM_PAD_LOW ? "edge_padding_low" : "interior_padding",
               sym->axis, line, column);
      return buffer;
    }
    snprintf(buffer, capacity, "s%u%s: result %u dimension %u of '%s' at %u:%u",
             id, name, sym->index, sym->axis,
             grtc_top_kind_name(sym->expr ? sym->expr_op_kind : sym->op->kind), line, column);
  }
  return buffer;
}

const grtc_sexpr_t* grtc_tmodule_sexpr(grtc_tmodule_t* module,
                                       grtc_sexpr_kind_t kind, int64_t value,
                                       const grtc_sexpr_t* lhs,
                                       const grtc_sexpr_t* rhs) {
  void* memory = NULL;
  if ((kind != GRTC_SEXPR_CONST && kind != GRTC_SEXPR_DIM && (!lhs || !rhs)) ||
      !grt_status_consume_ok(
          grt_arena_allocate(&module->arena, sizeof(grtc_sexpr_t), &memory))) {
    return NULL;
  }
  grtc_sexpr_t* expr = memory;
  expr->kind = kind;
  expr->value = value;
  expr->lhs = lhs;
  expr->rhs = rhs;
  expr->data = NULL;
  return expr;
}

// Element |index| of a static slice of a rank-1 value (the ONNX importer's
// pick of one element of a shape): the operand's element it reads.
static bool grtc_slice_source_index(const grtc_top_t* op, int64_t index,
                                    int64_t* out) {
  const grtc_ttype_t* type = &op->operands[0]->type;
  const grtc_top_attrs_t* a = &op->attrs;
  if (type->rank != 1 || !grtc_dim_is_static(type->dims[0]) ||
      a->start.count != 1 || a->limit.count != 1 || a->strides.count != 1) {
    return false;
  }
  int64_t start = a->start.values[0], stride = a->strides.values[0];
  if (start < 0 || stride < 1 || index > (type->dims[0] - start) / stride) {
    return false;
  }
  int64_t at = start + index * stride;
  if (at >= type->dims[0] || at >= a->limit.values[0]) return false;
  *out = at;
  return true;
}

// |expr| wrapped into the range of the narrower integer type |elem|, as a
// convert to it wraps: with M = 2^bits, ((x rem M) + M [+ M/2]) rem M
// [- M/2] (the halves for signed types), whose steps stay within i64 for
// any i64 x although rem truncates toward zero.
static bool grtc_shape_expr_wrap(grtc_tmodule_t* module, const grtc_sexpr_t* expr,
                                 grtc_elem_t elem, const grtc_sexpr_t** out) {
  int bits = (int)grtc_elem_byte_size(elem) * 8;
  if (bits >= 64 || bits < 8) return false;
  bool is_signed = grtc_elem_is_signed_integer(elem);
  int64_t m = INT64_C(1) << bits;
  int64_t half = is_signed ? m / 2 : 0;
#define GRTC_WRAP_CONST(v) grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, (v), NULL, NULL)
  const grtc_sexpr_t* x = grtc_tmodule_sexpr(module, GRTC_SEXPR_REM, 0, expr, GRTC_WRAP_CONST(m));
  x = grtc_tmodule_sexpr(module, GRTC_SEXPR_ADD, 0, x, GRTC_WRAP_CONST(m + half));
  x = grtc_tmodule_sexpr(module, GRTC_SEXPR_REM, 0, x, GRTC_WRAP_CONST(m));
  if (half) x = grtc_tmodule_sexpr(module, GRTC_SEXPR_SUB, 0, x, GRTC_WRAP_CONST(half));
#undef GRTC_WRAP_CONST
  *out = x;
  return x != NULL;
}

static bool grtc_shape_expr_at(grtc_tmodule_t* module,
                               const grtc_tvalue_t* value, int64_t index,
                               int depth, bool data, const grtc_sexpr_t** out) {
  if (depth > 64) return false;
  if (!value->def) {
    // A function argument's element, read at the call.
    // Rank 1, or rank 0 (a scalar such as jax.export's dimension argument).
    bool scalar = value->type.rank == 0 && index == 0;
    if (!data || !value->block || value->block->parent_op ||
        (!scalar && (value->type.rank != 1 || !grtc_dim_is_static(value->type.dims[0]) ||
                     index < 0 || index >= value->type.dims[0])) ||
        (value->type.elem != GRTC_ELEM_I32 && value->type.elem != GRTC_ELEM_I64)) {
      return false;
    }
    const grtc_sexpr_t* leaf = grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, index, NULL, NULL);
    if (!leaf) return false;
    grtc_sexpr_t* node = (grtc_sexpr_t*)leaf;
    node->kind = GRTC_SEXPR_DATA;
    node->data = value;
    *out = node;
    return true;
  }
  int64_t dim = 0;
  if (grtc_tvalue_shape_element(value, index, &dim)) {
    *out = grtc_dim_is_static(dim)
               ? grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, dim, NULL, NULL)
               : grtc_tmodule_sexpr(module, GRTC_SEXPR_DIM, dim, NULL, NULL);
    return *out != NULL;
  }
  const grtc_top_t* op = value->def;
  if (value->type.rank > 1 || index < 0 ||
      !grtc_elem_is_integer(value->type.elem) ||
      value->type.elem == GRTC_ELEM_I1 ||
      (value->type.rank == 1 && (!grtc_dim_is_static(value->type.dims[0]) ||
                                 index >= value->type.dims[0]))) {
    return false;
  }
  grtc_sexpr_kind_t kind;
  switch (op->kind) {
    case GRTC_TOP_CONSTANT: {
      int64_t constant = 0;
      if (!grtc_tvalue_constant_element(value, index, &constant)) return false;
      *out = grtc_tmodule_sexpr(module, GRTC_SEXPR_CONST, constant, NULL, NULL);
      return *out != NULL;
    }
    case GRTC_TOP_ADD: kind = GRTC_SEXPR_ADD; break;
    case GRTC_TOP_SUBTRACT: kind = GRTC_SEXPR_SUB; break;
    case GRTC_TOP_MULTIPLY: kind = GRTC_SEXPR_MUL; break;
    case GRTC_TOP_DIVIDE: kind = GRTC_SEXPR_DIV; break;
    case GRTC_TOP_REMAINDER: kind = GRTC_SEXPR_REM; break;
    case GRTC_TOP_MAXIMUM: kind = GRTC_SEXPR_MAX; break;
    case GRTC_TOP_MINIMUM: kind = GRTC_SEXPR_MIN; break;
    case GRTC_TOP_CONVERT:
      if (!grtc_elem_is_integer(op->operands[0]->type.elem) ||
          op->operands[0]->type.elem == GRTC_ELEM_I1) {
        return false;
      }
      if (!grtc_shape_expr_at(module, op->operands[0], index, depth + 1, data, out)) return false;
      if (grtc_elem_byte_size(op->operands[0]->type.elem) <=
              grtc_elem_byte_size(value->type.elem) ||
          !grtc_sexpr_reads_data(*out)) {
        return true;
      }
      // Data narrowed to a smaller integer wraps as the convert does.
      return grtc_shape_expr_wrap(module, *out, value->type.elem, out);
    case GRTC_TOP_RESHAPE:
      if (op->operands[0]->type.rank > 1) return false;
      return grtc_shape_expr_at(module, op->operands[0], index, depth + 1, data, out);
    case GRTC_TOP_BROADCAST_IN_DIM:
      if (op->operands[0]->type.rank != 0) return false;
      return grtc_shape_expr_at(module, op->operands[0], 0, depth + 1, data, out);
    case GRTC_TOP_SLICE:
      if (!grtc_slice_source_index(op, index, &index)) return false;
      return grtc_shape_expr_at(module, op->operands[0], index, depth + 1, data, out);
    case GRTC_TOP_CONCATENATE:
      for (uint32_t k = 0; k < op->operand_count; ++k) {
        const grtc_ttype_t* type = &op->operands[k]->type;
        if (type->rank != 1 || !grtc_dim_is_static(type->dims[0])) return false;
        if (index < type->dims[0]) {
          return grtc_shape_expr_at(module, op->operands[k], index, depth + 1, data,
                                    out);
        }
        index -= type->dims[0];
      }
      return false;
    default:
      return false;
  }
  if (op->operand_count != 2 ||
      !grtc_ttype_equal(&op->operands[0]->type, &value->type) ||
      !grtc_ttype_equal(&op->operands[1]->type, &value->type)) {
    return false;
  }
  const grtc_sexpr_t* lhs = NULL;
  const grtc_sexpr_t* rhs = NULL;
  if (!grtc_shape_expr_at(module, op->operands[0], index, depth + 1, data, &lhs) ||
      !grtc_shape_expr_at(module, op->operands[1], index, depth + 1, data, &rhs)) {
    return false;
  }
  *out = grtc_tmodule_sexpr(module, kind, 0, lhs, rhs);
  return *out != NULL;
}

bool grtc_tvalue_shape_expr(grtc_tmodule_t* module, const grtc_tvalue_t* value,
                            int64_t index, const grtc_sexpr_t** out_expr) {
  *out_expr = NULL;
  return grtc_shape_expr_at(module, value, index, 0, false, out_expr);
}

bool grtc_tvalue_shape_expr_data(grtc_tmodule_t* module, const grtc_tvalue_t* value,
                                 int64_t index, const grtc_sexpr_t** out_expr) {
  *out_expr = NULL;
  return grtc_shape_expr_at(module, value, index, 0, true, out_expr);
}

bool grtc_sexpr_reads_data(const grtc_sexpr_t* expr) {
  if (!expr) return false;
  if (expr->kind == GRTC_SEXPR_DATA) return true;
  return grtc_sexpr_reads_data(expr->lhs) || grtc_sexpr_reads_data(expr->rhs);
}

const grtc_tvalue_t* grtc_sexpr_data_argument(const grtc_sexpr_t* expr) {
  if (!expr) return NULL;
  if (expr->kind == GRTC_SEXPR_DATA) return expr->data;
  const grtc_tvalue_t* found = grtc_sexpr_data_argument(expr->lhs);
  return found ? found : grtc_sexpr_data_argument(expr->rhs);
}

bool grtc_tfunc_reads_shape_data(const grtc_tmodule_t* module, const grtc_tfunc_t* func) {
  for (uint32_t id = 0; module->shapes && id < module->shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &module->shapes->syms[id];
    if (sym->func == func && grtc_sexpr_reads_data(sym->expr)) return true;
  }
  return false;
}

bool grtc_tmodule_symbol_is_source(const grtc_tmodule_t* module, uint32_t id) {
  if (id >= module->shapes->sym_count) return false;
  const grtc_tsym_t* sym = &module->shapes->syms[id];
  if (sym->origin == GRTC_SYM_ARGUMENT) return true;
  if (!sym->op) return false;  // a function's declared result
  switch (sym->op->kind) {
    case GRTC_TOP_DYNAMIC_BROADCAST_IN_DIM:
    case GRTC_TOP_DYNAMIC_RESHAPE:
    case GRTC_TOP_DYNAMIC_IOTA:
    case GRTC_TOP_REAL_DYNAMIC_SLICE:
    case GRTC_TOP_DYNAMIC_PAD:
    case GRTC_TOP_CALL:
      return true;
    default:
      return false;
  }
}

bool grtc_while_dim_varies(const grtc_tmodule_t* module, const grtc_top_t* op,
                           uint32_t index, uint32_t axis) {
  if (op->kind != GRTC_TOP_WHILE || op->region_count < 2 || !op->regions[1] ||
      index >= op->result_count || axis >= op->results[index].type.rank) {
    return false;
  }
  const grtc_top_t* yield = op->regions[1]->last;
  if (!yield || yield->kind != GRTC_TOP_YIELD || index >= yield->operand_count ||
      axis >= yield->operands[index]->type.rank) {
    return false;
  }
  int64_t carried = op->results[index].type.dims[axis];
  int64_t yielded = yield->operands[index]->type.dims[axis];
  if (grtc_dim_is_static(carried)) return false;
  if (grtc_dim_is_static(yielded)) return false;
  return grtc_tmodule_resolve_dim(module, carried) != grtc_tmodule_resolve_dim(module, yielded);
}

bool grtc_branch_dim_varies(const grtc_tmodule_t* module, const grtc_top_t* op,
                            uint32_t index, uint32_t axis) {
  if ((op->kind != GRTC_TOP_IF && op->kind != GRTC_TOP_CASE) || index >= op->result_count ||
      axis >= op->results[index].type.rank ||
      grtc_dim_is_static(op->results[index].type.dims[axis])) {
    return false;
  }
  int64_t first = 0;
  bool have_first = false;
  for (uint32_t r = 0; r < op->region_count; ++r) {
    const grtc_top_t* yield = op->regions[r] ? op->regions[r]->last : NULL;
    if (!yield || yield->kind != GRTC_TOP_YIELD || index >= yield->operand_count ||
        axis >= yield->operands[index]->type.rank) {
      return false;
    }
    int64_t dim = grtc_tmodule_resolve_dim(module, yield->operands[index]->type.dims[axis]);
    if (have_first && dim != first) return true;
    first = dim;
    have_first = true;
  }
  return false;
}

bool grtc_tmodule_dim_loop_carried(const grtc_tmodule_t* module, int64_t dim,
                                   const grtc_top_t** out_op, uint32_t* out_index,
                                   uint32_t* out_axis) {
  const grtc_tshapes_t* shapes = module->shapes;
  dim = grtc_tmodule_resolve_dim(module, dim);
  if (!shapes || grtc_dim_is_static(dim) || grtc_dim_symbol(dim) >= shapes->sym_count) {
    return false;
  }
  // A class an argument gives (the body joined the carried extent to it)
  // is read at the call; the loop then checks what it carries against it.
  if (shapes->syms[grtc_dim_symbol(dim)].origin == GRTC_SYM_ARGUMENT) return false;
  for (uint32_t id = 0; id < shapes->sym_count; ++id) {
    const grtc_tsym_t* sym = &shapes->syms[id];
    if (sym->origin != GRTC_SYM_RESULT || !sym->op ||
        grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) != dim ||
        !(grtc_while_dim_varies(module, sym->op, sym->index, sym->axis) ||
          grtc_branch_dim_varies(module, sym->op, sym->index, sym->axis))) {
      continue;
    }
    if (out_op) *out_op = sym->op;
    if (out_index) *out_index = sym->index;
    if (out_axis) *out_axis = sym->axis;
    return true;
  }
  return false;
}

static bool grtc_dim_varies_at(const grtc_tmodule_t* module, int64_t dim, int depth);

static bool grtc_sexpr_varies(const grtc_tmodule_t* module, const grtc_sexpr_t* expr,
                              int depth) {
  if (!expr || depth > 64) return false;
  if (expr->kind == GRTC_SEXPR_DIM) return grtc_dim_varies_at(module, expr->value, depth + 1);
  if (expr->kind == GRTC_SEXPR_CONST) return false;
  return grtc_sexpr_varies(module, expr->lhs, depth + 1) ||
         grtc_sexpr_varies(module, expr->rhs, depth + 1);
}

const grtc_tblock_t* grtc_top_branch_region(const grtc_top_t* op) {
  for (const grtc_tblock_t* block = op ? op->parent : NULL; block && block->parent_op;
       block = block->parent_op->parent) {
    grtc_top_kind_t kind = block->parent_op->kind;
    if (kind == GRTC_TOP_IF || kind == GRTC_TOP_CASE) return block;
  }
  return NULL;
}

static bool grtc_sym_inputs_vary_at(const grtc_tmodule_t* module, uint32_t id, int depth) {
  const grtc_tsym_t* sym = &module->shapes->syms[id];
  const grtc_top_t* op = sym->op;
  if (sym->origin != GRTC_SYM_RESULT || !op) return false;
  // One an op inside an if or case branch derives: computed in the branch
  // (only when it is taken), like a loop's changing extent.
  bool derived = sym->expr || (sym->index == 0 && ((op->kind == GRTC_TOP_CONCATENATE &&
                                                    op->attrs.dim == (int64_t)sym->axis) ||
                                                   op->kind == GRTC_TOP_PAD));
  if (derived && sym->branch) return true;
  if (sym->expr) {
    if (grtc_sexpr_varies(module, sym->expr, depth)) return true;
    // A real_dynamic_slice's limit is checked against its operand.
    return op->kind == GRTC_TOP_SLICE && op->operand_count == 1 &&
           sym->axis < op->operands[0]->type.rank &&
           grtc_dim_varies_at(module, op->operands[0]->type.dims[sym->axis], depth + 1);
  }
  if (sym->index != 0) return false;
  if (op->kind == GRTC_TOP_CONCATENATE && op->attrs.dim == (int64_t)sym->axis) {
    for (uint32_t i = 0; i < op->operand_count; ++i) {
      if (sym->axis < op->operands[i]->type.rank &&
          grtc_dim_varies_at(module, op->operands[i]->type.dims[sym->axis], depth + 1)) {
        return true;
      }
    }
    return false;
  }
  return op->kind == GRTC_TOP_PAD && op->operand_count > 0 &&
         sym->axis < op->operands[0]->type.rank &&
         grtc_dim_varies_at(module, op->operands[0]->type.dims[sym->axis], depth + 1);
}

static bool grtc_dim_varies_at(const grtc_tmodule_t* module, int64_t dim, int depth) {
  const grtc_tshapes_t* shapes = module->shapes;
  dim = grtc_tmodule_resolve_dim(module, dim);
  if (!shapes || depth > 64 || grtc_dim_is_static(dim) ||
      grtc_dim_symbol(dim) >= shapes->sym_count) {
    return false;
  }
  if (shapes->syms[grtc_dim_symbol(dim)].origin == GRTC_SYM_ARGUMENT) return false;
  if (grtc_tmodule_dim_loop_carried(module, dim, NULL, NULL, NULL)) return true;
  for (uint32_t id = 0; id < shapes->sym_count; ++id) {
    if (grtc_tmodule_resolve_dim(module, GRTC_DIM_SYMBOL(id)) != dim) continue;
    if (grtc_sym_inputs_vary_at(module, id, depth)) return true;
    // A call's result whose extent the callee's loop computes (its
    // $buffers function returns it).
    const grtc_tsym_t* sym = &shapes->syms[id];
    const grtc_tfunc_t* callee = sym->origin == GRTC_SYM_RESULT && sym->op &&
                                         sym->op->kind == GRTC_TOP_CALL
                                     ? sym->op->attrs.callee
                                     : NULL;
    if (callee && sym->index < callee->result_count &&
        sym->axis < callee->result_types[sym->index].rank &&
        grtc_dim_varies_at(module, callee->result_types[sym->index].dims[sym->axis],
                           depth + 1)) {
      return true;
    }
  }
  return false;
}

bool grtc_tmodule_dim_varies(const grtc_tmodule_t* module, int64_t dim) {
  return grtc_dim_varies_at(module, dim, 0);
}

bool grtc_tsym_inputs_vary(const grtc_tmodule_t* module, uint32_t id) {
  return module->shapes && id < module->shapes->sym_count &&
         grtc_sym_inputs_vary_at(module, id, 0);
}

static bool grtc_resolve_type(const grtc_tmodule_t* module,
                              grtc_ttype_t* type) {
  bool changed = false;
  for (uint32_t i = 0; i < type->rank; ++i) {
    int64_t resolved = grtc_tmodule_resolve_dim(module, type->dims[i]);
    changed |= resolved != type->dims[i];
    type->dims[i] = resolved;
  }
  return changed;
}

static bool grtc_resolve_block(const grtc_tmodule_t* module,
                               grtc_tblock_t* block) {
  bool changed = false;
  for (uint32_t i = 0; i < block->arg_count; ++i) {
    changed |= grtc_resolve_type(module, &block->args[i].type);
  }
  for (grtc_top_t* op = block->first; op; op = op->next) {
    for (uint32_t i = 0; i < op->result_count; ++i) {
      changed |= grtc_resolve_type(module, &op->results[i].type);
    }
    for (uint32_t i = 0; i < op->region_count; ++i) {
      changed |= grtc_resolve_block(module, op->regions[i]);
    }
  }
  return changed;
}

bool grtc_tfunc_resolve_shapes(const grtc_tmodule_t* module,
                               grtc_tfunc_t* func) {
  if (!module->shapes->sym_count) return false;
  bool changed = false;
  for (uint32_t i = 0; i < func->result_count; ++i) {
    changed |= grtc_resolve_type(module, &func->result_types[i]);
  }
  return grtc_resolve_block(module, func->body) || changed;
}

static bool grtc_constant_integer(const grtc_tvalue_t* value, int64_t index,
                                  bool unfoldable_too, int64_t* out) {
  const grtc_top_t* op = value->def;
  if ((op->attrs.unfoldable && !unfoldable_too) ||
      !grtc_elem_is_integer(value->type.elem) || value->type.elem == GRTC_ELEM_I1) {
    return false;
  }
  size_t size = grtc_elem_byte_size(value->type.elem);
  size_t offset = op->attrs.constant.splat ? 0 : (size_t)index * size;
  if (offset + size > op->attrs.constant.size || size > 8) return false;
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) {
    bits |= (uint64_t)op->attrs.constant.data[offset + i] << (8 * i);
  }
  if (grtc_elem_is_signed_integer(value->type.elem) && size < 8 &&
      (bits >> (8 * size - 1)) & 1) {
    bits |= ~UINT64_C(0) << (8 * size);
  }
  *out = (int64_t)bits;
  return true;
}

static bool grtc_tvalue_element(const grtc_tvalue_t* value, int64_t index,
                                bool unfoldable_too, int64_t* out) {
  int64_t count = grtc_ttype_element_count(&value->type);
  if (!value->def || value->def->kind != GRTC_TOP_CONSTANT || index < 0 ||
      index >= count) {
    return false;
  }
  return grtc_constant_integer(value, index, unfoldable_too, out);
}

bool grtc_tvalue_constant_element(const grtc_tvalue_t* value, int64_t index,
                                  int64_t* out) {
  return grtc_tvalue_element(value, index, false, out);
}

bool grtc_tvalue_stored_element(const grtc_tvalue_t* value, int64_t index,
                                int64_t* out) {
  return grtc_tvalue_element(value, index, true, out);
}

bool grtc_tvalue_shape_element(const grtc_tvalue_t* value, int64_t index,
                               int64_t* out_dim) {
  for (int depth = 0; depth < 64; ++depth) {
    const grtc_top_t* op = value->def;
    if (!op || value->type.rank > 1 || index < 0 ||
        (value->type.rank == 1 && (!grtc_dim_is_static(value->type.dims[0]) ||
                                   index >= value->type.dims[0]))) {
      return false;
    }
    switch (op->kind) {
      case GRTC_TOP_CONSTANT:
        // A negative constant is no dimension (its value would read as a
        // symbol); grtc_tvalue_shape_expr takes it as a constant.
        return grtc_constant_integer(value, index, false, out_dim) && *out_dim >= 0;
      case GRTC_TOP_GET_DIMENSION_SIZE: {
        const grtc_ttype_t* type = &op->operands[0]->type;
        if (op->attrs.dim < 0 || op->attrs.dim >= (int64_t)type->rank) {
          return false;
        }
        *out_dim = type->dims[op->attrs.dim];
        return true;
      }
      case GRTC_TOP_CONVERT:
        // Integer to integer: extents fit every integer type jax uses.
        if (!grtc_elem_is_integer(op->operands[0]->type.elem) ||
            op->operands[0]->type.elem == GRTC_ELEM_I1) {
          return false;
        }
        value = op->operands[0];
        break;
      case GRTC_TOP_RESHAPE:
        if (op->operands[0]->type.rank > 1) return false;
        value = op->operands[0];
        break;
      case GRTC_TOP_BROADCAST_IN_DIM:
        if (op->operands[0]->type.rank != 0) return false;
        value = op->operands[0];
        index = 0;
        break;
      case GRTC_TOP_SLICE:
        if (!grtc_slice_source_index(op, index, &index)) return false;
        value = op->operands[0];
        break;
      case GRTC_TOP_CONCATENATE: {
        uint32_t k = 0;
        for (; k < op->operand_count; ++k) {
          const grtc_ttype_t* type = &op->operands[k]->type;
          if (type->rank != 1 || !grtc_dim_is_static(type->dims[0])) {
            return false;
          }
          if (index < type->dims[0]) break;
          index -= type->dims[0];
        }
        if (k == op->operand_count) return false;
        value = op->operands[k];
        break;
      }
      default:
        return false;
    }
  }
  return false;
}
