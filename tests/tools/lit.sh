#!/usr/bin/env bash
# Runs one .test file: its RUN lines through bash, then checks the last
# one's exit status and output (tests/tools/README.md describes the format).
#
#   lit.sh --outputs DIR [-D NAME=VALUE]... FILE.test
#
#   --outputs DIR   the test's scratch folder, emptied before the first RUN
#                   line and substituted for %outputs
#   -D NAME=VALUE   substitutes VALUE for %NAME in RUN lines and check texts
#
# Exit status: 0 when every check holds, 1 when one does not (printing what
# was wanted and everything the command wrote), 2 when FILE or the
# arguments are malformed.
set -u

die() {
  echo "lit.sh: $*" >&2
  exit 2
}

outputs=
names=()
values=()
while [ $# -gt 1 ]; do
  case "$1" in
    --outputs) outputs=$2 ;;
    -D)
      case "$2" in
        [a-z]*=*) ;;
        *) die "-D '$2': expected NAME=VALUE, NAME starting with a lowercase letter" ;;
      esac
      names+=("${2%%=*}")
      values+=("${2#*=}")
      ;;
    *) die "unknown argument '$1' (usage: lit.sh --outputs DIR [-D NAME=VALUE]... FILE.test)" ;;
  esac
  shift 2
done
[ $# -eq 1 ] || die "usage: lit.sh --outputs DIR [-D NAME=VALUE]... FILE.test"
file=$1
[ -n "$outputs" ] || die "missing --outputs DIR"
[ -f "$file" ] || die "cannot read '$file'"
names+=(outputs)
values+=("$outputs")

# Longest names first, so that %NAME never eats the start of a longer one.
order=()
while IFS= read -r i; do
  order+=("$i")
done < <(for i in "${!names[@]}"; do
           echo "${#names[i]} $i"
         done | sort -k1,1nr -k2,2n | cut -d' ' -f2)

subst() {
  local text=$1 i
  for i in "${order[@]}"; do
    text=${text//"%${names[i]}"/"${values[i]}"}
  done
  printf '%s' "$text"
}

has_name() {
  local n
  for n in "${names[@]}"; do
    [ "$n" = "$1" ] && return 0
  done
  return 1
}

# Directives: "# NAME: TEXT", TEXT being everything after ": " (trailing
# spaces included). Other lines are comments.
runs=()
run_lines=()
want_rc=0
rc_seen=
checks=()
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  [[ "$line" =~ ^#[[:space:]]*([A-Z][A-Z-]*):(.*)$ ]] || continue
  directive=${BASH_REMATCH[1]}
  text=${BASH_REMATCH[2]}
  where="$file:$lineno"
  # A near miss ("#CHECK: x", "# CHECK:x") would otherwise be a comment
  # and its check silently dropped.
  [[ "$line" =~ ^#\ [A-Z] && ( -z "$text" || "$text" == " "* ) ]] ||
    die "$where: write a directive as '# $directive: TEXT'"
  text=${text# }
  [ -n "$text" ] || die "$where: $directive has no text"
  case "$directive" in
    RUN)
      runs+=("$(subst "$text")")
      run_lines+=("$lineno")
      ;;
    EXIT)
      [ -z "$rc_seen" ] || die "$where: a second EXIT line"
      [[ "$text" =~ ^[0-9]+$ ]] || die "$where: EXIT '$text': expected a number"
      want_rc=$text
      rc_seen=1
      ;;
    CHECK | CHECK-LINE | CHECK-ERR | CHECK-NOT)
      checks+=("$directive" "$(subst "$text")")
      ;;
    REQUIRES)
      # Read by CMake (the test is only added where NAME is known); here
      # it only has to be given.
      has_name "$text" || die "$where: REQUIRES '$text' but no -D $text=VALUE was given"
      ;;
    *)
      die "$where: unknown directive '$directive' (expected RUN, EXIT, CHECK, CHECK-LINE, CHECK-ERR, CHECK-NOT or REQUIRES)"
      ;;
  esac
done <"$file"
[ ${#runs[@]} -gt 0 ] || die "$file: no RUN line"

rm -rf -- "$outputs"
mkdir -p -- "$outputs" || die "cannot create '$outputs'"
out=$(mktemp) && err=$(mktemp) || die "cannot make temporary files"
trap 'rm -f "$out" "$err"' EXIT

report() {
  echo "command: $1"
  shift
  printf 'FAILED: %s\n' "$@"
  echo "--- stdout ---"
  cat "$out"
  echo "--- stderr ---"
  cat "$err"
  exit 1
}

# Every RUN line but the last prepares: it must exit 0.
last=$((${#runs[@]} - 1))
for ((r = 0; r < last; r++)); do
  (cd "$outputs" && bash -c "${runs[r]}") >"$out" 2>"$err"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    report "${runs[r]}" "RUN line $file:${run_lines[r]} exited $rc, wanted 0 (only the last RUN line may fail)"
  fi
done

(cd "$outputs" && bash -c "${runs[last]}") >"$out" 2>"$err"
rc=$?

failures=()
if [ "$rc" -ne "$want_rc" ]; then
  failures+=("exit status $rc, wanted $want_rc")
fi
for ((i = 0; i < ${#checks[@]}; i += 2)); do
  kind=${checks[i]}
  text=${checks[i + 1]}
  case "$kind" in
    CHECK) grep -qF -- "$text" "$out" || failures+=("stdout lacks: $text") ;;
    CHECK-LINE) grep -qxF -- "$text" "$out" || failures+=("stdout lacks the line: $text") ;;
    CHECK-ERR) grep -qF -- "$text" "$err" || failures+=("stderr lacks: $text") ;;
    CHECK-NOT) ! grep -qF -- "$text" "$out" "$err" || failures+=("output has: $text") ;;
  esac
done

[ ${#failures[@]} -eq 0 ] || report "${runs[last]}" "${failures[@]}"
exit 0
