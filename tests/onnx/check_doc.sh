#!/usr/bin/env bash
# Checks docs/onnx.md against the code: the supported-op list between its
# "onnx-ops" markers must be exactly what `grt-compile --list-onnx-ops`
# prints, and each "N of M" count between "onnx-count:<file>" markers must
# equal the test cases of that suite minus the failures listed in
# tests/onnx/<file>.
#
#   check_doc.sh GRT_COMPILE DOC EXCEPTIONS_DIR TESTDATA
set -euo pipefail
compile=$1 doc=$2 exceptions=$3 testdata=$4

want=$("$compile" --list-onnx-ops | sort)
have=$(sed -n '/<!-- onnx-ops: begin -->/,/<!-- onnx-ops: end -->/p' "$doc" |
       grep -v '<!--' | tr ',' '\n' | sed 's/`//g; s/^ *//; s/ *$//' | grep -v '^$' | sort)
if [ "$want" != "$have" ]; then
  echo "docs/onnx.md's op list differs from grt-compile --list-onnx-ops:" >&2
  diff <(echo "$have") <(echo "$want") >&2 || true
  exit 1
fi

# "These N op types": N must be the list's length.
stated_ops=$(sed -n 's/.*These \([0-9][0-9]*\) op types.*/\1/p' "$doc")
if [ "$stated_ops" != "$(wc -l <<<"$want")" ]; then
  echo "docs/onnx.md says '$stated_ops' op types, grt-compile lists $(wc -l <<<"$want")" >&2
  exit 1
fi

# <!-- onnx-count:exceptions_node_local_sync.txt:node --> ... N of M
status=0
while IFS= read -r line; do
  spec=$(sed -n 's/.*<!-- onnx-count:\([^ ]*\) -->.*/\1/p' <<<"$line")
  file=${spec%%:*}
  suites=${spec#*:}
  total=0
  for suite in ${suites//+/ }; do
    total=$((total + $(find "$testdata/$suite" -mindepth 2 -maxdepth 2 -name model.onnx | wc -l)))
  done
  failing=$(grep -cv '^#\|^$' "$exceptions/$file" || true)
  passing=$((total - failing))
  stated=$(sed -n 's/.*-->[^0-9]*\([0-9][0-9]*\) of \([0-9][0-9]*\).*/\1 \2/p' <<<"$line")
  if [ "$stated" != "$passing $total" ]; then
    echo "docs/onnx.md states '$stated' for $file, the exceptions file gives $passing of $total" >&2
    status=1
  fi
done < <(grep '<!-- onnx-count:' "$doc")
exit $status
