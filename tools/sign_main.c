// grt-sign: Ed25519 keys and module signatures (schemas/module_signature.h;
// docs/tools.md, "grt-sign").
//
//   grt-sign keygen --secret=k.sec --public=k.pub
//   grt-sign sign --key=k.sec [--replace] [-o out.vmfb] m.vmfb
//   grt-sign verify --trusted-key=k.pub [--trusted-key=...] m.vmfb
//   grt-sign signer m.vmfb        prints the signer's public key (hex)
//   grt-sign show-key k.pub       prints a public key file's key (hex)
//
// Exit status: 0 on success, 1 when the command fails (a module that is not
// signed, a signature that does not verify, a bad file), 2 for a usage
// error.
#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "schemas/module_file.h"
#include "schemas/module_signature.h"
#include "tools/flags.h"

typedef struct grt_sign_flags_t {
  const char* secret;
  const char* public_key;
  const char* key;
  const char* output;
  bool replace;
  grt_flag_list_t trusted_keys;
  grt_flag_list_t positionals;
} grt_sign_flags_t;

static grt_sign_flags_t flags;

static const grt_flag_t grt_sign_flag_table[] = {
    {"secret", 0, GRT_FLAG_STRING, &flags.secret, "FILE",
     "keygen: where the secret key goes (created with mode 0600; never "
     "overwritten)"},
    {"public", 0, GRT_FLAG_STRING, &flags.public_key, "FILE",
     "keygen: where the public key goes (never overwritten)"},
    {"key", 0, GRT_FLAG_STRING, &flags.key, "FILE",
     "sign: the secret key file to sign with"},
    {"output", 'o', GRT_FLAG_STRING, &flags.output, "FILE",
     "sign: write the signed module to FILE (default: replace MODULE)"},
    {"replace", 0, GRT_FLAG_BOOL, &flags.replace, NULL,
     "sign: replace the signature of a module that is already signed"},
    {"trusted-key", 0, GRT_FLAG_LIST, &flags.trusted_keys, "FILE",
     "verify: a public key file the signer must be one of"},
};

static const grt_flags_spec_t grt_sign_flags_spec = {
    "grt-sign",
    "makes Ed25519 key pairs, signs modules and checks their signatures",
    "keygen --secret=FILE --public=FILE | sign --key=FILE [--replace] "
    "[-o OUT] MODULE | verify --trusted-key=FILE... MODULE | signer MODULE | "
    "show-key FILE",
    grt_sign_flag_table,
    sizeof(grt_sign_flag_table) / sizeof(grt_sign_flag_table[0]),
    &flags.positionals};

// Which flags each command takes, by the flag's name.
typedef struct grt_sign_command_t {
  const char* name;
  const char* flags;     // space-separated names the command accepts
  size_t operand_count;  // positional arguments after the command
  const char* operand;   // what they are, for messages
} grt_sign_command_t;

static const grt_sign_command_t grt_sign_commands[] = {
    {"keygen", "secret public", 0, NULL},
    {"sign", "key output replace", 1, "MODULE.vmfb"},
    {"verify", "trusted-key", 1, "MODULE.vmfb"},
    {"signer", "", 1, "MODULE.vmfb"},
    {"show-key", "", 1, "PUBLIC-KEY-FILE"},
};

static bool grt_sign_flag_given(const grt_flag_t* flag) {
  switch (flag->kind) {
    case GRT_FLAG_STRING:
      return *(const char**)flag->value != NULL;
    case GRT_FLAG_BOOL:
      return *(bool*)flag->value;
    case GRT_FLAG_LIST:
      return ((grt_flag_list_t*)flag->value)->count > 0;
    default:
      return false;
  }
}

static bool grt_sign_word_in(const char* word, const char* list) {
  size_t length = strlen(word);
  for (const char* p = list; *p;) {
    const char* end = strchr(p, ' ');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == length && strncmp(p, word, n) == 0) return true;
    p += n + (end ? 1 : 0);
  }
  return false;
}

// The command named by the first positional, its flags and operands
// checked; NULL after printing a usage error.
static const grt_sign_command_t* grt_sign_find_command(void) {
  const size_t command_count =
      sizeof(grt_sign_commands) / sizeof(grt_sign_commands[0]);
  if (flags.positionals.count == 0) {
    fprintf(stderr,
            "grt-sign: expected a command: keygen, sign, verify, signer or "
            "show-key\n(run 'grt-sign --help' for usage)\n");
    return NULL;
  }
  const char* name = flags.positionals.values[0];
  const grt_sign_command_t* command = NULL;
  for (size_t i = 0; i < command_count && !command; ++i) {
    if (strcmp(grt_sign_commands[i].name, name) == 0) {
      command = &grt_sign_commands[i];
    }
  }
  if (!command) {
    fprintf(stderr,
            "grt-sign: unknown command '%s'; expected keygen, sign, verify, "
            "signer or show-key\n",
            name);
    return NULL;
  }
  for (size_t i = 0; i < grt_sign_flags_spec.flag_count; ++i) {
    const grt_flag_t* flag = &grt_sign_flag_table[i];
    if (grt_sign_flag_given(flag) &&
        !grt_sign_word_in(flag->name, command->flags)) {
      fprintf(stderr, "grt-sign: --%s is not a flag of 'grt-sign %s'\n",
              flag->name, command->name);
      return NULL;
    }
  }
  size_t operands = flags.positionals.count - 1;
  if (operands != command->operand_count) {
    if (command->operand_count == 0) {
      fprintf(stderr, "grt-sign %s: expected no file argument, got %zu\n",
              command->name, operands);
    } else {
      fprintf(stderr, "grt-sign %s: expected one %s, got %zu arguments\n",
              command->name, command->operand, operands);
    }
    return NULL;
  }
  return command;
}

static grt_status_t grt_sign_keygen(void) {
  if (!flags.secret || !flags.public_key) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "keygen: expected --secret=FILE and --public=FILE "
                           "(missing %s)",
                           !flags.secret ? "--secret" : "--public");
  }
  grt_module_secret_key_t key;
  GRT_RETURN_IF_ERROR(grt_module_secret_key_generate(&key));
  grt_status_t status =
      grt_module_key_pair_write_files(&key, flags.secret, flags.public_key);
  if (grt_status_is_ok(status)) {
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&key.public_key, hex);
    printf("public key: %s\n", hex);
  }
  memset(&key, 0, sizeof(key));
  return status;
}

static grt_status_t grt_sign_sign(const char* module_path,
                                  grt_allocator_t allocator) {
  if (!flags.key) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "sign: expected --key=FILE, the secret key file");
  }
  grt_module_secret_key_t key;
  GRT_RETURN_IF_ERROR(
      grt_module_secret_key_read_file(flags.key, allocator, &key));
  grt_file_contents_t contents;
  grt_status_t status = grt_file_read_contents_bounded(
      module_path, GRT_MODULE_FILE_MAX_STREAM_SIZE, allocator, &contents);
  void* data = NULL;
  size_t size = 0;
  if (grt_status_is_ok(status)) {
    status = grt_module_sign(
        grt_make_const_byte_span(contents.data, contents.size), &key,
        flags.replace, allocator, &data, &size);
    grt_file_contents_free(&contents);
    status = grt_status_annotate(status, "'%s'", module_path);
  }
  char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
  grt_module_public_key_format(&key.public_key, hex);
  memset(&key, 0, sizeof(key));
  const char* output = flags.output ? flags.output : module_path;
  if (grt_status_is_ok(status)) {
    status = grt_file_write_contents(output, data, size);
  }
  if (grt_status_is_ok(status)) {
    printf("signed '%s' with key %s\n", output, hex);
  }
  grt_allocator_free(allocator, data);
  return status;
}

static grt_status_t grt_sign_verify(const char* module_path,
                                    grt_allocator_t allocator) {
  if (flags.trusted_keys.count == 0) {
    return grt_make_status(GRT_STATUS_INVALID_ARGUMENT,
                           "verify: expected at least one --trusted-key=FILE "
                           "(the public keys the signer must be one of)");
  }
  grt_module_public_key_t* keys = NULL;
  GRT_RETURN_IF_ERROR(grt_allocator_malloc(
      allocator, flags.trusted_keys.count * sizeof(*keys), (void**)&keys));
  grt_status_t status = grt_ok_status();
  for (size_t i = 0; grt_status_is_ok(status) && i < flags.trusted_keys.count;
       ++i) {
    status = grt_module_public_key_read_file(flags.trusted_keys.values[i],
                                             allocator, &keys[i]);
    status = grt_status_annotate(status, "--trusted-key=%s",
                                 flags.trusted_keys.values[i]);
  }
  grt_module_file_t* file = NULL;
  if (grt_status_is_ok(status)) {
    status = grt_module_file_open_path(module_path, allocator, &file);
  }
  if (grt_status_is_ok(status)) {
    status = grt_module_file_verify_signature(file, keys,
                                              flags.trusted_keys.count);
    status = grt_status_annotate(status, "'%s'", module_path);
  }
  if (grt_status_is_ok(status)) {
    grt_module_public_key_t signer;
    memcpy(signer.bytes, grt_module_file_signature(file)->public_key,
           sizeof(signer.bytes));
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&signer, hex);
    printf("'%s': good signature by trusted key %s\n", module_path, hex);
  }
  if (file) grt_module_file_release(file);
  grt_allocator_free(allocator, keys);
  return status;
}

static grt_status_t grt_sign_signer(const char* module_path,
                                    grt_allocator_t allocator) {
  grt_module_file_t* file = NULL;
  GRT_RETURN_IF_ERROR(grt_module_file_open_path(module_path, allocator, &file));
  const grt_module_signature_t* signature = grt_module_file_signature(file);
  grt_status_t status = grt_ok_status();
  if (signature) {
    grt_module_public_key_t signer;
    memcpy(signer.bytes, signature->public_key, sizeof(signer.bytes));
    char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
    grt_module_public_key_format(&signer, hex);
    printf("%s\n", hex);
  } else {
    status = grt_make_status(GRT_STATUS_NOT_FOUND, "'%s' is not signed",
                             module_path);
  }
  grt_module_file_release(file);
  return status;
}

static grt_status_t grt_sign_show_key(const char* path,
                                      grt_allocator_t allocator) {
  grt_module_public_key_t key;
  GRT_RETURN_IF_ERROR(grt_module_public_key_read_file(path, allocator, &key));
  char hex[GRT_MODULE_PUBLIC_KEY_HEX_SIZE];
  grt_module_public_key_format(&key, hex);
  printf("%s\n", hex);
  return grt_ok_status();
}

static grt_status_t grt_sign_run(const grt_sign_command_t* command,
                                 grt_allocator_t allocator) {
  const char* operand =
      flags.positionals.count > 1 ? flags.positionals.values[1] : NULL;
  if (strcmp(command->name, "keygen") == 0) return grt_sign_keygen();
  if (strcmp(command->name, "sign") == 0) {
    return grt_sign_sign(operand, allocator);
  }
  if (strcmp(command->name, "verify") == 0) {
    return grt_sign_verify(operand, allocator);
  }
  if (strcmp(command->name, "signer") == 0) {
    return grt_sign_signer(operand, allocator);
  }
  return grt_sign_show_key(operand, allocator);
}

int main(int argc, char** argv) {
  grt_allocator_t allocator = grt_allocator_system();
  int exit_code =
      grt_flags_parse_for_main(&grt_sign_flags_spec, argc, argv, allocator);
  if (exit_code < 0) {
    const grt_sign_command_t* command = grt_sign_find_command();
    if (!command) {
      exit_code = 2;
    } else {
      grt_status_t status = grt_sign_run(command, allocator);
      exit_code = 0;
      if (!grt_status_is_ok(status)) {
        fflush(stdout);
        fprintf(stderr, "grt-sign %s: ", command->name);
        grt_status_fprint(stderr, status);
        grt_status_free(status);
        exit_code = 1;
      }
    }
  }
  grt_flags_release(&grt_sign_flags_spec, allocator);
  return exit_code;
}
