#!/usr/bin/env bash
# Runs a tool that reads a FIFO, for the tests that inputs which are not
# regular files are read no further than expected.
#
#   fifo_input.sh FIFO SOURCE CMD...
#
# Makes FIFO and copies the file SOURCE into it while CMD runs. Exits with
# CMD's status.
set -u
fifo=$1 source=$2
shift 2
rm -f "$fifo"
mkfifo "$fifo" || exit 2
cat "$source" >"$fifo" &
writer=$!
"$@"
rc=$?
# If CMD never opened the FIFO (or stopped reading) the writer still waits:
# opening it read-write never blocks and, once closed, ends the writer.
exec 3<>"$fifo"
exec 3<&-
wait "$writer" 2>/dev/null
exit "$rc"
