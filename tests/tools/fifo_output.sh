#!/usr/bin/env bash
# Runs a tool whose output file is a FIFO, for the tests that outputs are
# written in place rather than replaced (a FIFO stands in for a device such
# as /dev/null, which tests must not write).
#
#   fifo_output.sh FIFO RECEIVED CMD...
#
# Makes FIFO, reads it into RECEIVED while CMD runs, then prints
# "fifo kept: yes|no" and "received: <bytes in hex>" when there are at most
# 16 of them, else "received: N bytes". Exits with CMD's status.
set -u
fifo=$1 received=$2
shift 2
rm -f "$fifo" "$received"
mkfifo "$fifo" || exit 2
cat "$fifo" >"$received" &
reader=$!
"$@"
rc=$?
# If CMD never opened the FIFO the reader still waits for a writer: opening
# it read-write never blocks and, once closed, gives the reader its end.
exec 3<>"$fifo"
exec 3>&-
wait "$reader"
if [ -p "$fifo" ]; then echo "fifo kept: yes"; else echo "fifo kept: no"; fi
size=$(wc -c <"$received")
if [ "$size" -le 16 ]; then
  echo "received:$(od -An -tx1 "$received" | tr -s ' \n' '  ' | sed 's/ $//')"
else
  echo "received: $size bytes"
fi
exit "$rc"
